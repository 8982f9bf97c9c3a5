"""A double click at the end of a deal must not play a card in the next deal.

The player who ends a deal often leads the next one holding the same card (Hundred, Obstacle
Race, Wit and Reason I). A second click on the view the first click was made in arrives while
the first is still being answered (its picture drawn, its message edited): it means the choice
of an earlier turn, and is refused politely, with nothing stored. The window is held open by
holding back the first answer's picture until the second click has been answered.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.discord import messages, play
from bot.service.entries import SeatEntry
from bot.service.model import TableError, User
from games.engine import Action, GameState
from tests.attack.conftest import AttackWorld
from tests.attack.support import open_table, snapshot, until
from tests.bot.discord.conftest import components_of, custom_ids, note_of, raw_component, response, selects

MAX_MOVES = 400


Choice = tuple[simcord.ResponseMessage, str, list[str] | None, int]


async def last_step(actor: simcord.MemberActor, shown: simcord.InteractionResult) -> list[Choice]:
    """Open groups of a hand view until choices themselves are offered: for each, the message,
    the custom id and value to click, and the index of the choice in the player's legal list."""
    for _ in range(8):
        message = response(shown)
        menus = [m for m in selects(message) if str(m["custom_id"]).startswith("parlour:pick:")]
        found: list[Choice] = [
            (message, menu["custom_id"], [o["value"]], int(o["value"][1:]))
            for menu in menus
            for o in menu["options"]
            if str(o["value"]).startswith("a")
        ]
        ids = [str(c.get("custom_id", "")) for c in components_of(message)]
        found += [(message, b, None, int(b.rsplit(":", 1)[1])) for b in ids if b.startswith("parlour:act:")]
        if found:
            return found
        assert menus, "nothing to choose"
        await actor.select(message, [menus[0]["options"][0]["value"]], custom_id=menus[0]["custom_id"])
    raise AssertionError("no choice reached")


def ends_deal_and_stays_open(state: GameState[Any], seat: int, entry: Action) -> bool:
    """Whether ``entry`` ends a deal after which ``seat`` may make that very choice again."""
    twin = state.clone()
    twin.apply(seat, entry)
    return twin.view(None).deal != state.view(None).deal and not twin.is_over and entry in twin.legal_actions(seat)


def seat_and_entry(seat: int, action: Action) -> tuple[int, Action]:
    return (action.seat, action.entry) if isinstance(action, SeatEntry) else (seat, action)




async def double_click_at_a_deal_end(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch, mover: Callable[[], simcord.MemberActor]
) -> None:
    """Play the table's first choices until a click ends a deal after which the same seat may
    make the same choice; click that choice twice there, the second while the first is answered."""
    table = world.require_table()
    rng = random.Random(25)
    for _ in range(MAX_MOVES):
        state = table.state
        assert state is not None and table.status == "playing", "the match ended before the hazard came"
        actor = mover()
        info = messages.hand_info(table, User(str(actor.id), actor.name))
        label = "Make an entry" if table.mode == "referee" else "Show my hand"
        choices = await last_step(actor, await actor.click(world.table_message(), label=label))
        hazards = [c for c in choices if ends_deal_and_stays_open(state, *seat_and_entry(info.seat, info.legal[c[3]]))]
        if hazards:
            message, custom_id, values, index = hazards[0]
            seat, entry = seat_and_entry(info.seat, info.legal[index])
            break
        message, custom_id, values, _index = rng.choice(choices)
        if values is None:
            await actor.click(message, custom_id=custom_id)
        else:
            await actor.select(message, values, custom_id=custom_id)
    else:
        raise AssertionError(f"no deal ended with the same choice open to its last mover in {MAX_MOVES} moves")

    drawn = play.hand_message
    held, reached = asyncio.Event(), asyncio.Event()

    async def held_back(*args: Any, **kwargs: Any) -> Any:
        if not reached.is_set():  # the first click's answer: its picture waits for the second click
            reached.set()
            await held.wait()
        return await drawn(*args, **kwargs)

    monkeypatch.setattr(play, "hand_message", held_back)
    before = world.stored_actions(table.id)
    turn, deal = table.turn, state.view(None).deal
    first = raw(world, actor, message, custom_id, values)
    await asyncio.wait_for(reached.wait(), 120)  # a bound for a hang only
    assert table.state is not None and table.state.view(None).deal == deal + 1  # the deal ended
    assert len(world.stored_actions(table.id)) == len(before) + 1 and table.turn == turn + 1
    second = raw(world, actor, message, custom_id, values)  # the same choice, a moment later
    await until(lambda: second.acknowledged, "the second click's answer")
    assert "earlier turn" in note_of(response(second))
    held.set()
    await world.settle()
    assert first.acknowledged
    assert note_of(response(first)).startswith("You chose")
    stored = world.stored_actions(table.id)
    assert len(stored) == len(before) + 1, f"the second click was stored: {stored[len(before):]}"
    assert table.turn == turn + 1 and table.state.view(None).deal == deal + 1
    assert entry in table.state.legal_actions(seat)  # still in hand: the player never saw it played


def raw(
    world: AttackWorld, actor: simcord.MemberActor, message: simcord.ResponseMessage, custom_id: str, values: list[str] | None
) -> simcord.InteractionResult:
    from tests.bot.discord.conftest import raw_component

    return raw_component(world, actor, message, custom_id, values)


@pytest.mark.parametrize("game", ["hundred", "wit_and_reason_1"])
async def test_a_double_click_at_a_deal_end_is_not_played_in_the_next_deal(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    await open_table(world, game)
    table = world.require_table()

    def awaited_person() -> simcord.MemberActor:
        assert table.state is not None
        seat = min(s for s in table.state.awaiting() if table.seats[s].bot is None)
        return world.actor(table.seats[seat].user_id)

    await double_click_at_a_deal_end(world, monkeypatch, awaited_person)


async def test_a_double_click_at_a_referee_table_enters_once(world: AttackWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    players = f"<@{world.ann.id}> <@{world.bob.id}>"
    opened = await world.ann.slash(world.channel, "referee", game="wit_and_reason_1", players=players)
    assert opened.response is not None
    await double_click_at_a_deal_end(world, monkeypatch, lambda: world.ann)  # Ann enters everything


async def test_a_view_drawn_before_ones_own_last_move_is_refused_under_the_lock(world: AttackWorld) -> None:
    """The service's own check, whatever the transport's registry of views says: a choice from a
    view drawn before the chooser's own last move is refused (two at once: one is played), and a
    view drawn at the same turn is still good for someone who has not moved since."""
    players = f"<@{world.ann.id}> <@{world.bob.id}>"
    await world.ann.slash(world.channel, "referee", game="wit_and_reason_1", players=players)
    table = world.require_table()
    service, place = world.bot.service, (str(world.guild.id), str(world.channel.id))
    ann, bob = User(str(world.ann.id), "ann"), User(str(world.bob.id), "bob")
    shown = table.turn
    choice = messages.hand_info(table, ann).legal[0]
    both = await asyncio.gather(
        service.act(*place, ann, choice, None, shown_at=shown),
        service.act(*place, ann, choice, None, shown_at=shown),
        return_exceptions=True,
    )
    refused = [r for r in both if isinstance(r, TableError)]
    assert len(refused) == 1 and "earlier turn" in str(refused[0])
    assert len(world.stored_actions(table.id)) == shown + 1

    later = messages.hand_info(table, ann).legal[0]
    before = snapshot(world)
    with pytest.raises(TableError, match="earlier turn"):
        await service.act(*place, ann, later, table.turn, shown_at=shown)
    with pytest.raises(TableError, match="earlier turn"):  # a view of a turn that is not there (yet)
        await service.act(*place, ann, later, table.turn, shown_at=table.turn + 1)
    assert snapshot(world) == before
    await service.act(*place, bob, later, table.turn, shown_at=shown)  # Bob has not moved since
    assert len(world.stored_actions(table.id)) == shown + 2
    await world.settle()


async def test_a_view_outdated_while_its_answer_is_drawn_is_brought_up_to_date(
    world: AttackWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Registered before its picture is drawn, a view cannot be refreshed until it is sent: a move
    made meanwhile marks it stale, and it is brought up to date once it is out."""
    await open_table(world, "toy")
    table = world.require_table()
    assert table.state is not None
    mover_seat = min(table.state.awaiting())
    mover = world.actor(table.seats[mover_seat].user_id)
    watcher = world.bob if mover is world.ann else world.ann
    watching = User(str(watcher.id), watcher.name)
    assert not messages.hand_info(table, watching).legal  # not the watcher's turn yet

    drawn = play.hand_message
    held, reached = asyncio.Event(), asyncio.Event()

    async def held_back(*args: Any, **kwargs: Any) -> Any:
        if not reached.is_set():
            reached.set()
            await held.wait()
        return await drawn(*args, **kwargs)

    monkeypatch.setattr(play, "hand_message", held_back)
    show = next(c for c in custom_ids(world.table_message()) if c.startswith("parlour:hand:"))
    shown = raw_component(world, watcher, world.table_message(), show)
    await asyncio.wait_for(reached.wait(), 120)  # a bound for a hang only
    user = User(str(mover.id), mover.name)
    place = (str(world.guild.id), str(world.channel.id))
    await world.bot.service.act(*place, user, messages.hand_info(table, user).legal[0], table.turn)
    assert messages.hand_info(table, watching).legal  # now it is the watcher's turn
    held.set()
    await world.settle()
    assert selects(response(shown)) or any(c.startswith("parlour:act:") for c in custom_ids(response(shown)))
