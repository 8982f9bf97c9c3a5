"""Ready hands at their edges (issue 28): found by a review of the change. Each test plays the
real bot in SimCord to the moment in question."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import simcord

from bot.discord import notifier as notifier_module
from bot.discord.embeds import READY_HAND
from bot.discord.notifier import LEFT_VIEW, TIMED_OUT, DiscordNotifier
from bot.discord.play import BOT_PLAYED, NOT_YET
from bot.service.model import Table, User
from games.engine import Action
from games.notation import typed_form
from tests.bot.discord.conftest import World, as_read, components_of, embed_text, note_of, selects, start_game
from tests.bot.discord.live_play import LivePlay, Sent, choices, sent_view


async def kept_long_ready_hand(world: World) -> tuple[Table, int, Sent | simcord.InteractionResult, list[Action]]:
    """Ninety-Nine at three, played through live views until a waiting player's ready hand of
    26 choices or more (a black Ace: groups, and Type it) is kept when their turn comes: the
    table, their seat, that view and its choices."""
    table = await start_game(world, "ninety_nine", 3)
    assert table.state is not None and table.message_id is not None
    live = LivePlay(world)
    for _ in range(200):
        if world.table is None or table.state.is_over:
            break
        (mover,) = table.state.awaiting()
        before = {}
        for s in range(3):
            if s == mover:
                continue
            user = str(table.seats[s].user_id)
            shown = live.views.get(user) or sent_view(world, world.actor(user), live.since)
            if shown is not None:
                before[s] = (shown, choices(shown.response), table.state.ready_actions(s))
        deal = table.state.deal_no
        await live.move()
        if world.table is None or table.state.is_over or table.state.deal_no != deal:
            continue
        (w,) = table.state.awaiting()
        if w not in before:
            continue
        shown, drawn, ready = before[w]
        if len(ready) >= 26 and table.state.legal_actions(w) == ready and choices(shown.response) == drawn:
            return table, w, shown, ready
    raise AssertionError("no kept ready hand with groups found")


async def test_opening_a_group_on_a_kept_ready_hand(world: World) -> None:
    """Ninety-Nine at three: a waiting player's ready hand with a black Ace (about 100 plays, in
    groups) is kept when their turn comes with the same choices. Opening a group on it must open the
    group, not refuse it as from an earlier turn."""
    table, w, shown, _ready = await kept_long_ready_hand(world)
    user = str(table.seats[w].user_id)
    message = shown.response
    menu = selects(message)[0]
    group = next(o for o in menu["options"] if str(o["value"]).startswith("g"))
    await world.actor(user).select(message, [group["value"]], custom_id=menu["custom_id"])
    await world.settle()
    assert note_of(shown.response).startswith("Choose in"), note_of(shown.response)


async def test_tap_on_a_ready_hand_awaiting_its_redraw(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty-Nine at two. The waiting player's ready hand offers cards; the other plays, the total
    rises, and one of the ready cards no longer fits, so the view is due a redraw. The table message
    shows it is their turn first (its edit is queued before the view's); they follow the view's own
    advice ("Play when the table message shows it is your turn") and tap a card that is still legal
    before the redraw lands. It is played (the view's index means exactly the card it showed: a
    live view's turn and choices change together), not refused as from an earlier turn."""
    gate = asyncio.Event()
    gate.set()
    real = DiscordNotifier._refresh_view
    later: list[Any] = []

    async def held(self: Any, table: Any, user_id: str) -> None:
        if not gate.is_set():  # the redraw is slow (pictures queued): it lands after the tap
            later.append((self, table, user_id))
            return
        await real(self, table, user_id)

    async def release() -> None:
        gate.set()
        for args in later:
            await real(*args)
        later.clear()
        await world.settle()

    monkeypatch.setattr(DiscordNotifier, "_refresh_view", held)
    table = await start_game(world, "twenty_nine", 2)
    assert table.state is not None
    live = LivePlay(world)
    for _ in range(80):
        if world.table is None or table.state.is_over:
            break
        (mover,) = table.state.awaiting()
        w = 1 - mover
        user = str(table.seats[w].user_id)
        shown = live.views.get(user) or sent_view(world, world.actor(user), live.since)
        ready = table.state.ready_actions(w)
        deal = table.state.deal_no
        gate.clear()
        await live.move()
        if world.table is None or table.state.is_over or table.state.deal_no != deal or table.state.awaiting() != {w}:
            await release()
            continue
        legal = table.state.legal_actions(w)
        still = [a for a in ready if a in legal]
        if shown is None or legal == ready or not still:
            await release()
            continue
        live.views[user] = shown
        message = shown.response
        target = as_read(still[0].label())
        buttons = [c for c in components_of(message) if str(c.get("custom_id", "")).startswith("parlour:act:")]
        menus = [c for c in selects(message) if str(c.get("custom_id", "")).startswith("parlour:pick:")]
        turn = table.turn
        hit = [c for c in buttons if as_read(c.get("label")) == target]
        if hit:
            await world.actor(user).click(message, custom_id=str(hit[0]["custom_id"]))
        else:
            menu, option = next((m, o) for m in menus for o in m["options"] if as_read(o["label"]) == target)
            await world.actor(user).select(message, [option["value"]], custom_id=menu["custom_id"])
        await world.settle()
        await release()
        assert table.turn > turn, note_of(shown.response)
        return
    raise AssertionError("no position found")


async def test_typing_on_a_kept_ready_hand(world: World) -> None:
    """Ninety-Nine at three, a kept ready hand with a black Ace (Type it offered): typing the move
    from it plays it; the view no longer offers the card just played."""
    table, w, shown, ready = await kept_long_ready_hand(world)
    assert table.state is not None
    actor = world.actor(table.seats[w].user_id)
    form = await actor.click(shown.response, label="Type it")
    assert form.modal is not None
    action = next((a for a in ready if a.card is not None and not a.label().startswith("A")), ready[0])
    typed = typed_form(action).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    turn = table.turn
    await actor.submit_modal(form, {"entry": typed})
    await world.settle()
    assert table.turn > turn
    text = embed_text(shown.response)
    assert action.card is not None and action.card not in table.state.view(w).hand
    assert action.card.short not in text.split("Your hand:")[-1].split("\n")[0]  # the view shows it gone


async def test_leaving_with_a_ready_hand_open(world: World) -> None:
    """Hundred at three: a waiting player's ready hand is open; they /leave (a bot takes their seat).
    Their view no longer offers cards nor tells them to play when their turn comes: it says they left."""
    table = await start_game(world, "hundred", 3)
    assert table.state is not None and table.message_id is not None
    (mover,) = table.state.awaiting()
    leaver = next(s for s in range(3) if s != mover)
    user = str(table.seats[leaver].user_id)
    actor = world.actor(user)
    shown = sent_view(world, actor, int(table.message_id))
    assert shown is not None and READY_HAND in embed_text(shown.response)
    await actor.slash(world.channel, "leave")
    await world.settle()
    assert table.seats[leaver].bot is not None
    text = embed_text(shown.response)
    acts = [c for c in components_of(shown.response) if str(c.get("custom_id", "")).startswith("parlour:act:")]
    assert READY_HAND not in text and not acts and shown.response.content == LEFT_VIEW


async def test_a_refusal_of_a_tap_too_soon_stays_true(world: World) -> None:
    """Hundred at three: the player who plays third taps their ready hand at once and is refused.
    The first player moves: the note names nobody as awaited (it now waits for the second), so it
    stays true."""
    table = await start_game(world, "hundred", 3)
    assert table.state is not None and table.message_id is not None
    (first,) = table.state.awaiting()
    second = table.state.next_seat(first)
    third = table.state.next_seat(second)
    user = str(table.seats[third].user_id)
    shown = sent_view(world, world.actor(user), int(table.message_id))
    assert shown is not None
    act = next(c for c in components_of(shown.response) if str(c.get("custom_id", "")).startswith("parlour:act:"))
    await world.actor(user).click(shown.response, custom_id=str(act["custom_id"]))
    await world.settle()
    await LivePlay(world).move()
    assert table.state.awaiting() == {second}
    assert table.seats[first].name not in note_of(shown.response) and note_of(shown.response) == NOT_YET


async def mover_plays(world: World, table: Table) -> None:
    """The player to move plays their first choice, through the service (as their click would)."""
    assert table.state is not None
    (mover,) = table.state.awaiting()
    user = User(str(table.seats[mover].user_id), table.seats[mover].name)
    action = table.state.legal_actions(mover)[0]
    await world.bot.service.act_chosen(table.guild_id, table.channel_id, user, lambda now: (action, None))


async def test_start_view_landing_after_the_turn_came(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundred at two. The start's followup view of the waiting player is slow to go out (pictures
    queued): it is drawn as a ready hand, and before it is sent the first player moves, so it is the
    waiting player's turn when it lands. It is checked again once sent and offers that turn; when
    the player's time runs out and a bot plays for them, the view says so (it does not go on
    offering the card the bot played)."""
    real = notifier_module.hand_message
    delayed: list[int] = []

    async def slow(table: Any, info: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("urgent") and info.seat not in info.view.awaiting and not delayed:
            delayed.append(info.seat)
            await mover_plays(world, table)  # while this view is drawn (pictures queued)
        return await real(table, info, *args, **kwargs)

    monkeypatch.setattr(notifier_module, "hand_message", slow)
    table = await start_game(world, "hundred", 2)
    assert table.state is not None and table.message_id is not None
    (waiting,) = delayed
    assert table.state.awaiting() == {waiting}
    sent = sent_view(world, world.actor(table.seats[waiting].user_id), int(table.message_id))
    assert sent is not None
    turn = table.turn
    await world.env.advance_time(605)  # their time runs out: a bot plays for them
    await world.settle()
    assert table.turn > turn
    assert TIMED_OUT in embed_text(sent.response)


async def test_refresh_landing_after_the_turn_came(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundred at two. At a new deal the waiting player's live view is redrawn (a refresh) as a
    ready hand; while it is drawn, the first player of the deal moves, so it is the waiting player's
    turn when the edit lands. What the follows marked meanwhile is checked again once the edit is
    out; then their time runs out, a bot plays for them, and the view says so."""
    real = notifier_module.hand_message
    hit: list[int] = []

    async def slow(table: Any, info: Any, *args: Any, **kwargs: Any) -> Any:
        is_refresh = not kwargs and len(args) == 1
        if is_refresh and not hit and info.ready:
            hit.append(info.seat)
            await mover_plays(world, table)
        return await real(table, info, *args, **kwargs)

    monkeypatch.setattr(notifier_module, "hand_message", slow)
    table = await start_game(world, "hundred", 3)
    assert table.state is not None
    live = LivePlay(world)
    for _ in range(200):
        if hit or table.state.is_over:
            break
        await live.move()
    assert hit, f"no refresh at a new deal {table.state.deal_no} {table.state.is_over}"
    await world.settle()
    (seat,) = hit
    user = str(table.seats[seat].user_id)
    view = world.bot.notifier.live.current(table.id, user)
    assert view is not None
    message = live.views[user].response
    turn = table.turn
    await world.env.advance_time(605)
    await world.settle()
    assert table.turn > turn
    assert TIMED_OUT in embed_text(message)


async def test_a_tap_meant_for_a_turn_a_bot_played_is_not_played_on_the_next(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann plays Hundred against a bot and lets her time run out: a bot plays her turn, the bot
    seat plays, and the turn is hers again in the same deal. Before her view's redraw lands she
    taps a card it showed, meant for the turn the bot played: it is refused, not played on a turn
    she has not seen, and told that a bot played that turn for her."""
    later: list[Any] = []
    real = DiscordNotifier._refresh_view

    async def held(self: Any, table: Any, user_id: str) -> None:
        later.append((self, table, user_id))  # the redraw is slow (pictures queued): it lands after the tap

    table = await start_game(world, "hundred", 1, bots=1)
    assert table.state is not None and table.message_id is not None
    seat = next(i for i, s in enumerate(table.seats) if s.bot is None)
    assert table.state.awaiting() == {seat}
    view = sent_view(world, world.ann, int(table.message_id))
    assert view is not None
    shown = {
        as_read(str(c.get("label"))): str(c["custom_id"])
        for c in components_of(view.response)
        if str(c.get("custom_id", "")).startswith("parlour:act:")
    }
    deal, turn = table.state.deal_no, table.turn
    monkeypatch.setattr(DiscordNotifier, "_refresh_view", held)
    await world.env.advance_time(700)  # past the turn's time: a bot plays for Ann, then the bot seat
    await world.settle()
    assert table.turn >= turn + 2 and table.state.deal_no == deal and table.state.awaiting() == {seat}
    legal = {as_read(a.label()) for a in table.state.legal_actions(seat)}
    label = next(lbl for lbl in shown if lbl in legal)
    before = table.turn
    await world.ann.click(view.response, custom_id=shown[label])
    await world.settle()
    assert table.turn == before, f"{label}, meant for the turn a bot played, was played on the next one"
    assert note_of(view.response) == BOT_PLAYED and "Your turn: choose below." in embed_text(view.response)
    monkeypatch.setattr(DiscordNotifier, "_refresh_view", real)
    for args in later:
        await real(*args)
    await world.settle()
