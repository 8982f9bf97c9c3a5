"""Ready hands (issue 28, REST calls per action): in the adding-up games a waiting player's view
offers the cards they could play if their turn came with the table as it stands, and says nothing
of whose turn it is. When their turn comes with those very choices the view is not redrawn (one
call a move saved) and a tap on it plays; when their choices changed it is redrawn as before. A
tap before their turn is refused with whose turn it is and changes nothing."""

from __future__ import annotations

import simcord

from bot.discord.embeds import READY_HAND
from bot.discord.notifier import TIMED_OUT
from bot.discord.play import NOT_YET
from bot.service.model import Table
from tests.bot.discord.conftest import World, components_of, embed_text, note_of, selects, start_game
from tests.bot.discord.live_play import LivePlay, Sent, choices, sent_view


def awaited(table: Table) -> int:
    assert table.state is not None
    (seat,) = table.state.awaiting()
    return seat


def view_of(world: World, seat: int, since: int) -> Sent:
    """The view the bot sent the player of ``seat`` at the start."""
    table = world.require_table()
    sent = sent_view(world, world.actor(table.seats[seat].user_id), since)
    assert sent is not None
    return sent


def card_labels(message: simcord.ResponseMessage) -> list[str]:
    """The choices a view offers, in order: its buttons' labels, then its menus' options'."""
    options = [str(o["label"]) for menu in selects(message) for o in menu["options"]]
    return [str(c.get("label")) for c in _act_buttons(message)] + options


def _act_buttons(message: simcord.ResponseMessage) -> list[dict[str, object]]:
    return [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]


async def test_a_waiting_player_sees_the_cards_they_could_play(world: World) -> None:
    """At the start of Hundred, the player who waits is offered, one tap each, exactly the cards
    the rules would let them play now; their view says to play when the table shows their turn,
    and names nobody."""
    table = await start_game(world, "hundred", 2)
    assert table.state is not None and table.message_id is not None
    waiting = 1 - awaited(table)
    shown = view_of(world, waiting, int(table.message_id)).response
    ready = table.state.ready_actions(waiting)
    assert ready and table.state.legal_actions(waiting) == []
    assert card_labels(shown) == [a.label() for a in ready]
    text = embed_text(shown)
    assert READY_HAND in text and "Your turn" not in text
    assert table.seats[1 - waiting].name not in text  # whose turn it is goes unsaid: it changes


async def test_a_tap_before_your_turn_is_refused_and_changes_nothing(world: World) -> None:
    """The waiting player taps a card: told whose turn it is, nothing played, the table message
    untouched. When their turn then comes, the view that says so is redrawn (the refusal was
    true only of that turn) and offers their choices."""
    table = await start_game(world, "hundred", 2)
    assert table.state is not None and table.message_id is not None
    mover = awaited(table)
    waiting = 1 - mover
    sent = view_of(world, waiting, int(table.message_id))
    before = (table.turn, list(table.state.view(waiting).hand or []), world.table_message().embeds[0].to_dict())
    actor = world.actor(table.seats[waiting].user_id)
    await actor.click(sent.response, custom_id=str(_act_buttons(sent.response)[0]["custom_id"]))
    await world.settle()
    note = note_of(sent.response)
    assert note == NOT_YET  # in the past: still true once the table has moved on
    assert (table.turn, list(table.state.view(waiting).hand or []), world.table_message().embeds[0].to_dict()) == before
    assert choices(sent.response)  # still their ready hand
    await LivePlay(world).move()  # the mover plays: the waiting player's turn
    assert awaited(table) == waiting
    message = sent.response
    assert note_of(message) == "" and "Your turn: choose below." in embed_text(message)
    assert card_labels(message) == [a.label() for a in table.state.legal_actions(waiting)]


async def test_a_ready_hand_is_kept_when_the_turn_comes_and_a_tap_on_it_plays(world: World) -> None:
    """Hundred at two: after each move the next player's ready hand is left as it is when it
    already offers their choices (no edit of it: its buttons keep the turn they were drawn at),
    and a tap on it plays the card, answered with the player's hand after the move."""
    table = await start_game(world, "hundred", 2)
    assert table.state is not None and table.message_id is not None
    live = LivePlay(world)
    kept = 0
    for _ in range(12):
        mover = awaited(table)
        waiting = 1 - mover
        sent = view_of(world, waiting, int(table.message_id)) if str(table.seats[waiting].user_id) not in live.views else None
        shown = live.views.get(str(table.seats[waiting].user_id)) or sent
        assert shown is not None and shown.response is not None
        drawn = choices(shown.response)
        await live.move()
        if table.state.is_over or table.state.deal_no != table.state.view(None).deal or awaited(table) != waiting:
            break
        legal = [a.label() for a in table.state.legal_actions(waiting)]
        now = shown.response
        if card_labels(now) == legal and choices(now) == drawn:
            kept += 1  # not redrawn: the very buttons drawn while they waited
            turn = table.turn
            await live.move()  # a tap on the kept view
            assert table.turn > turn and note_of(now).startswith("You chose ")
            break
    assert kept == 1


async def test_a_ready_hand_is_redrawn_when_the_choices_changed(world: World) -> None:
    """Twenty-Nine at two: the total may leave a waiting player's high cards unplayable by their
    turn. Their view then shows their turn's choices, not the ready ones it was drawn with."""
    table = await start_game(world, "twenty_nine", 2)
    assert table.state is not None
    live = LivePlay(world)
    changed = 0
    for _ in range(60):
        if world.table is None or table.state.is_over:
            break
        mover = awaited(table)
        user = str(table.seats[1 - mover].user_id)
        drawn = table.state.ready_actions(1 - mover)
        deal = table.state.deal_no
        await live.move()
        if world.table is None or table.state.is_over or table.state.deal_no != deal or awaited(table) == mover:
            continue
        legal = table.state.legal_actions(1 - mover)
        if user in live.views and drawn and legal != drawn:
            message = live.views[user].response
            assert card_labels(message) == [a.label() for a in legal]
            assert "Your turn: choose below." in embed_text(message)
            changed += 1
    assert changed > 0


async def test_a_kept_hand_whose_time_ran_out_says_a_bot_played(world: World) -> None:
    """The waiting player's ready hand is kept when their turn comes; they let their time run
    out. The bot's move for them redraws it with what happened; the other player's ready hand,
    which offered no turn of theirs, is not told a bot played for them."""
    table = await start_game(world, "hundred", 2)
    assert table.state is not None and table.message_id is not None
    mover = awaited(table)
    waiting = 1 - mover
    idle = view_of(world, waiting, int(table.message_id))
    drawn = choices(idle.response)
    live = LivePlay(world)
    await live.move()  # the mover plays; the waiting player's turn, their hand kept
    assert awaited(table) == waiting and choices(idle.response) == drawn
    turn = table.turn
    await world.env.advance_time(605)
    await world.settle()
    assert table.turn > turn and table.seats[waiting].left_at == turn
    assert TIMED_OUT in embed_text(idle.response)
    movers = live.views[str(table.seats[mover].user_id)].response
    assert TIMED_OUT not in embed_text(movers)

