"""Playing through live private views in the simulated Discord, as people would: each person
plays in the view the bot sent them at the start (or, without one, opens their view once with
Show my hand) and from then on makes every move with one interaction in it, as the bot keeps it
up to date. Shared by the tests and the REST-call benchmark."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import simcord

from tests.bot.discord.conftest import World, components_of, note_of, selects, show_hand


@dataclass
class Sent:
    """A view the bot sent as an ephemeral message of its own (at the start), read afresh."""

    world: World
    message_id: int

    @property
    def response(self) -> simcord.ResponseMessage:
        backend = self.world.env.backend
        return simcord.ResponseMessage(self.world.env, backend.get_message(self.world.channel.id, self.message_id))


def sent_view(world: World, actor: simcord.MemberActor, since: int) -> Sent | None:
    """The newest message only ``actor`` sees in the channel after message ``since`` (the table
    message the match started with): the view the bot sent them at the start."""
    mine = [m for m in world.channel.history(viewer=actor) if m.id > since and m.flags.ephemeral]
    return Sent(world, mine[-1].id) if mine else None


@dataclass
class LivePlay:
    world: World
    views: dict[str, simcord.InteractionResult | Sent] = field(default_factory=dict)
    opened: int = 0
    """How many times a person pressed Show my hand."""
    interactions: int = 0
    """Interactions in the private views (one per move, plus group steps in long menus)."""
    moves: int = 0
    notes: list[str] = field(default_factory=list)
    since: int = 0
    """The table message the match started with (the views sent at the start come after it)."""

    def __post_init__(self) -> None:
        table = self.world.table
        if not self.since and table is not None and table.message_id is not None:
            self.since = int(table.message_id)

    async def move(self, pick: int = 0) -> None:
        """The first awaited person makes one move in their view (opening it if they have none
        yet, or if it shows no choice: a view the bot could no longer edit)."""
        table = self.world.require_table()
        assert table.state is not None
        seat = min(s for s in table.state.awaiting() if table.seats[s].bot is None)
        user_id = table.seats[seat].user_id
        assert user_id is not None
        actor = self.world.actor(user_id)
        shown = self.views.get(user_id)
        if shown is None:
            shown = sent_view(self.world, actor, self.since)
            if shown is not None:
                self.views[user_id] = shown
        if shown is None or not choices(shown.response):
            shown = self.views[user_id] = await show_hand(self.world, actor)
            self.opened += 1
        before = table.state.turn
        for _ in range(8):
            message = shown.response
            assert message is not None
            buttons = [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]
            menus = [c for c in selects(message) if str(c.get("custom_id", "")).startswith("parlour:pick:")]
            self.interactions += 1
            if menus:
                value = menus[0]["options"][min(pick, len(menus[0]["options"]) - 1)]["value"]
                await actor.select(message, [value], custom_id=menus[0]["custom_id"])
                if value.startswith("a"):
                    break
                continue
            assert buttons, f"nothing to choose in the view of {actor.user.name}"
            cards = sum(a.card is not None for a in table.state.legal_actions(seat))  # one tap each, first
            await actor.click(message, custom_id=buttons[min(pick, cards - 1) if cards else 0]["custom_id"])
            break
        await self.world.settle()
        self.notes.append(note_of(shown.response))
        self.moves += 1
        assert table.state.turn > before or self.world.table is None, self.notes[-1]


def choices(message: Any) -> list[str]:
    """The custom ids of the choices a private view offers."""
    if message is None:
        return []
    return [
        c["custom_id"]
        for c in components_of(message)
        if str(c.get("custom_id", "")).startswith(("parlour:act:", "parlour:pick:"))
    ]
