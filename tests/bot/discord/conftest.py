"""A simulated Discord (SimCord, running the real discord.py) around a real ParlourBot.

Each test gets a guild with a text channel, three players (Ann, Bob, Cat) and a moderator
(Mod, with Manage Messages), a bot whose commands are synced to that guild, and a fresh SQLite
database; ``world.restart()`` replaces the bot by a new one on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import discord
import pytest
import simcord
from simcord.components import walk_components

from bot.discord.client import ParlourBot
from bot.discord.limits import TEXT_STYLE
from bot.settings import Settings
from bot.tables import Table

GUILD_ID = 912345678901234567

SETTLE_PATIENCE = 120.0
"""Real seconds a settle may take before the test fails as hung (see :class:`PatientEnv`)."""


class PatientEnv(simcord.Env):
    """SimCord's environment, with a settle that waits on the bot's work, not on the wall clock.

    SimCord's settle has one bound for two things: it is the horizon (a bot task asleep until
    after it counts as parked, so a turn reminder minutes away is not woken) and the patience
    (runnable work still going at it is an error). On a busy machine the bot's own work can
    outlast 5 s and the settle fail, though nothing is wrong. Here the horizon stays SimCord's
    (``settle_timeout`` from the settle's start), and a settle that has not finished by then is
    resumed, to the same horizon, until every task of the bot has ended or is parked. An advance
    of simulated time (a timer's, or ``advance_time``) parks every sleeper on simulated time
    whatever its bound, so it gets the patience as its bound, and so does a shutdown's wait for
    the bot's threads. Only :data:`SETTLE_PATIENCE` seconds of work still going fail the test,
    as hung. (``settle_timeout`` and ``_settle_internal`` are SimCord 3.2's, pinned in
    constraints.txt.)"""

    async def _settle_internal(
        self,
        *,
        timeout: float | None = None,
        idle: float = 0.05,
        dispatch: str | None = None,
        _deadline: float | None = None,
    ) -> None:
        if _deadline is not None:  # a step of an advance (see _advance_to)
            await super()._settle_internal(timeout=timeout, idle=idle, dispatch=dispatch, _deadline=_deadline)
            return
        assert self._loop is not None
        horizon = self._loop.time() + (self.settle_timeout if timeout is None else timeout)
        give_up = self._loop.time() + SETTLE_PATIENCE
        while True:
            try:
                await super()._settle_internal(idle=idle, dispatch=dispatch, _deadline=horizon)
                return
            except TimeoutError:
                # the work goes on (SimCord keeps it tracked): settle again, to the same horizon
                if self._loop.time() >= give_up:
                    raise
                await asyncio.sleep(idle)

    async def _advance_to(self, target: float, deadline: float) -> None:
        assert self._loop is not None
        await super()._advance_to(target, max(deadline, self._loop.time() + SETTLE_PATIENCE))

    async def _detach_bot(self) -> None:
        # a shutdown or restart waits for the bot's threads (the database's, a picture's) by the
        # same bound: the patience here, as it parks nothing
        horizon, self.settle_timeout = self.settle_timeout, SETTLE_PATIENCE
        try:
            await super()._detach_bot()
        finally:
            self.settle_timeout = horizon


def make_settings(db_path: Path) -> Settings:
    # pictures drawn in a thread: a test spawns no drawing processes (tests/bot/test_pictures.py tries them)
    return Settings(DISCORD_TOKEN=None, PARLOUR_DB=str(db_path), PARLOUR_DEV_GUILD=GUILD_ID, PARLOUR_PICTURE_WORKERS=0)


@dataclass
class World:
    env: simcord.Env
    bot: ParlourBot
    db_path: Path
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    ann: simcord.MemberActor
    bob: simcord.MemberActor
    cat: simcord.MemberActor
    mod: simcord.MemberActor

    @property
    def table(self) -> Table | None:
        return self.bot.service.table(str(GUILD_ID), str(self.channel.id))

    def require_table(self) -> Table:
        table = self.table
        assert table is not None, "no table in the channel"
        return table

    async def settle(self) -> None:
        """Let the bot finish everything it started, the table messages' outbox included (work
        begun by a test calling the service directly is not the simulated bot's own)."""
        await self.env.settle()
        await self.bot.notifier.drain()
        await self.env.settle()

    def actor(self, user_id: str | None) -> simcord.MemberActor:
        for a in (self.ann, self.bob, self.cat, self.mod):
            if str(a.id) == user_id:
                return a
        raise KeyError(user_id)

    def message(self, message_id: int | str | None) -> discord.Message:
        assert message_id is not None
        from simcord.results import to_discord_message

        return to_discord_message(self.env, self.env.backend.get_message(self.channel.id, int(message_id)))

    def table_message(self, table: Table | None = None) -> discord.Message:
        table = table or self.require_table()
        return self.message(table.message_id)

    def bot_messages(self) -> list[discord.Message]:
        me = self.bot.user
        assert me is not None
        return [m for m in self.channel.history() if m.author.id == me.id]

    def dms(self, actor: simcord.MemberActor) -> list[discord.Message]:
        return actor.user.dm_channel.history()

    async def restart(self) -> ParlourBot:
        """A new bot process on the same database (the old one's connection is closed)."""
        old = self.bot
        new = ParlourBot(make_settings(self.db_path))
        await self.env.restart_bot(new)
        await old.dispose()
        self.bot = new
        return new


W = TypeVar("W", bound=World)


@contextlib.asynccontextmanager
async def simulated_world(kind: type[W], db_path: Path, seed: int = 2024) -> AsyncIterator[W]:
    """A bot on a database at ``db_path`` in a simulated Discord: one guild with a text channel,
    three players (Ann, Bob, Cat) and a moderator; shut down afterwards (SimCord's captured
    errors raised). Shared by the tests, the REST benchmark and the screenshots."""
    bot = ParlourBot(make_settings(db_path))
    env = PatientEnv(bot)
    guild = env.create_guild("Parlour test", id=GUILD_ID)
    await env.start()
    bot.service.rng = random.Random(seed)  # the same deals on every run
    channel = guild.create_text_channel("cards")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    cat = guild.add_member(env.create_user("cat"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    w = kind(env, bot, db_path, guild, channel, ann, bob, cat, mod)
    try:
        yield w
    finally:
        await env.shutdown()
        await w.bot.dispose()
    env.raise_errors()


@contextlib.asynccontextmanager
async def running_world(kind: type[W], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[W]:
    """A test's simulated world; the caller judges the logs."""
    caplog.set_level(logging.INFO)
    async with simulated_world(kind, tmp_path / "parlour.sqlite3") as w:
        yield w


async def lobby_lapses(world: World) -> None:
    """A quarter of an hour passes in the lobby: the clicks in it can no longer carry a private
    view at the start (Discord's 15 minutes are up), so those players' hands go by DM, as to
    anyone not watching, and they are pinged when their turn comes."""
    await world.env.advance_time(15 * 60)


async def start_game(
    world: World,
    game_id: str,
    players: int,
    bots: int = 0,
    before_start: Callable[[], None] | None = None,
    lapsed: bool = False,
) -> Table:
    """Ann opens a table of ``game_id``; Bob and Cat join up to ``players`` people, then ``bots``
    easy bots take seats, and Ann starts it (``before_start`` is called just before; with
    ``lapsed``, :func:`lobby_lapses` first: only Ann's view is sent at the start)."""
    lobby = (await world.ann.slash(world.channel, "play", game=game_id)).response
    assert lobby is not None
    for person in [world.bob, world.cat][: players - 1]:
        await person.click(lobby, label="Join")
    for _ in range(bots):
        chooser = await world.ann.click(lobby, label="Add bot")
        assert chooser.response is not None
        await world.ann.click(chooser.response, label="Easy")
    if lapsed:
        await lobby_lapses(world)
    if before_start is not None:
        before_start()
    await world.ann.click(lobby, label="Start")
    await world.settle()
    return world.require_table()


@pytest.fixture
async def world(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[World]:
    async with running_world(World, tmp_path, caplog) as w:
        yield w
    troubles = [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.WARNING]
    assert not troubles, "the bot logged troubles: " + "; ".join(r.getMessage() for r in troubles)


# -- reading components (raw dicts on interaction responses, objects on channel messages) -------------


def as_read(value: Any) -> Any:
    """Text as a person reads it: without the text-presentation selectors the bot puts after ♠
    and ♣ so that Discord draws them in the text's colour (labels and values of nested JSON too)."""
    if isinstance(value, str):
        return value.replace(TEXT_STYLE, "")
    if isinstance(value, dict):
        return {k: v if k in ("custom_id", "value") else as_read(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_read(v) for v in value]
    return value


MARKDOWN_ESCAPE = re.compile(r"\\([*_`~|>#\-\[\]()\\])")


def rendered(text: str) -> str:
    """Markdown text as Discord shows it: an escaped character (``\\_``) as the character itself.
    (User text is escaped so that it shows literally: see ``bot.discord.plain``.)"""
    return MARKDOWN_ESCAPE.sub(r"\1", text)


def components_of(message: Any) -> list[dict[str, Any]]:
    """Every component of a message as Discord's JSON (buttons and selects, in order)."""
    if isinstance(message, simcord.ResponseMessage):
        rows = message.components
    else:
        rows = [row.to_dict() for row in message.components]
    return [as_read(c) for c in walk_components(rows) if c.get("type") != 1]


def custom_ids(message: Any) -> list[str]:
    return [c["custom_id"] for c in components_of(message) if "custom_id" in c]


def labels(message: Any) -> list[str]:
    return [c["label"] for c in components_of(message) if c.get("type") == 2]


def find(message: Any, prefix: str) -> dict[str, Any]:
    found = [c for c in components_of(message) if str(c.get("custom_id", "")).startswith(prefix)]
    assert found, f"no component starting {prefix!r} in {custom_ids(message)}"
    return found[0]


def selects(message: Any) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if c.get("type") == 3]


def acts(message: Any) -> list[dict[str, Any]]:
    """A private view's one-tap choices (``parlour:act:`` buttons: cards, then other acts), in order."""
    return [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]


def embed_text(message: Any) -> str:
    parts: list[str] = []
    for e in message.embeds:
        parts += [e.title or "", e.description or ""]
        parts += [f"{f.name}: {f.value}" for f in e.fields]
        parts.append(e.footer.text or "")
    return as_read(rendered("\n".join(parts)))


def iter_fields(message: Any) -> Iterator[tuple[str, str]]:
    for e in message.embeds:
        for f in e.fields:
            yield as_read(str(f.name)), as_read(str(f.value))


# -- driving a game through Discord ------------------------------------------------------------------


async def show_hand(world: World, actor: simcord.MemberActor) -> simcord.InteractionResult:
    result = await actor.click(world.table_message(), label="Show my hand")
    assert result.response is not None and result.response.ephemeral
    return result


async def choose_in_hand(
    actor: simcord.MemberActor, shown: simcord.InteractionResult, pick: int = 0, max_steps: int = 8
) -> tuple[str, list[str]]:
    """Make one choice in an ephemeral hand: the ``pick``-th of the first kind of choice it shows
    (card buttons come first, then menus, then other buttons), opening groups as needed. Returns
    the note shown afterwards and the values followed."""
    followed: list[str] = []
    for _ in range(max_steps):
        message = shown.response
        assert message is not None
        buttons = [
            c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")
        ]
        menus = [c for c in selects(message) if str(c.get("custom_id", "")).startswith("parlour:pick:")]
        first = next(c for c in components_of(message) if c in buttons or c in menus) if buttons or menus else None
        if menus and first is not None and first in buttons:  # cards as buttons, before a menu of other acts
            menus = []
        if menus:
            menu = menus[0]
            value = menu["options"][min(pick, len(menu["options"]) - 1)]["value"]
            followed.append(value)
            await actor.select(message, [value], custom_id=menu["custom_id"])
            if value.startswith("a"):
                return note_of(shown.response), followed
            continue
        assert buttons, f"nothing to choose in {custom_ids(message)}"
        button = buttons[min(pick, len(buttons) - 1)]
        followed.append(button["custom_id"])
        await actor.click(message, custom_id=button["custom_id"])
        return note_of(shown.response), followed
    raise AssertionError(f"no choice made after {max_steps} steps: {followed}")


def note_of(message: Any) -> str:
    return dict(iter_fields(message)).get("Note", "")


async def play_turn(world: World, pick: int = 0) -> tuple[str, list[str]]:
    """The first awaited person takes a turn through Show my hand."""
    table = world.require_table()
    assert table.state is not None
    seat = min(s for s in table.state.awaiting() if table.seats[s].bot is None)
    actor = world.actor(table.seats[seat].user_id)
    return await choose_in_hand(actor, await show_hand(world, actor), pick)


def replies(result: simcord.InteractionResult) -> list[simcord.ResponseMessage]:
    """The messages an interaction produced: its response and followups."""
    source = result._interaction.source_message_id  # a deferred update "responds" with the clicked message
    out = [result.response] if result.response is not None and result.response.id != source else []
    return out + list(result.followups)


def reply_text(result: simcord.InteractionResult) -> str:
    return "\n".join(rendered(m.content) + "\n" + embed_text(m) for m in replies(result))


def only_ephemeral(result: simcord.InteractionResult) -> bool:
    msgs = replies(result)
    return bool(msgs) and all(m.ephemeral for m in msgs)


def raw_component(
    world: World,
    actor: simcord.MemberActor,
    message: simcord.ResponseMessage | discord.Message,
    custom_id: str,
    values: list[str] | None = None,
) -> simcord.InteractionResult:
    """Deliver a component interaction WITHOUT waiting for the bot to settle, so that many can be
    in flight at once (SimCord's actor verbs settle one by one and may not overlap).

    Built the way SimCord's own ``MemberActor.select``/``click`` build theirs; the custom id may
    be one the message does not show (a forged or outdated one)."""
    from simcord import interactions as sim_interactions
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType

    backend = world.env.backend
    channel_id = message.channel_id if isinstance(message, simcord.ResponseMessage) else message.channel.id
    stored = backend.get_message(channel_id, message.id)
    data: dict[str, Any] = {"custom_id": custom_id}
    if values is None:
        data["component_type"] = ComponentType.BUTTON
    else:
        data["component_type"] = ComponentType.STRING_SELECT
        data["values"] = values
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return simcord.InteractionResult(world.env, record)


def response(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The message an interaction answered with (read afresh: it may have been edited since)."""
    message = result.response
    assert message is not None, "the interaction has no response message"
    return message
