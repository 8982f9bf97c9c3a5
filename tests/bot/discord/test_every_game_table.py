"""Every game of the catalogue at a Discord table of people: a whole deal played through live
private views (after opening it once, each move is one interaction in it), the pictures of the
table and of each hand attached, and no card hidden from a person anywhere they can look: the
channel's messages, their own view, their DMs, an image's description or file name."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.messages import HAND_FILE, TABLE_FILE
from games.cards import Card
from games.engine import GameState, iter_cards
from games.registry import all_games
from tests.bot.discord.conftest import World, embed_text, start_game
from tests.bot.discord.live_play import LivePlay

MAX_MOVES = 400


def people_for(player_counts: tuple[int, ...]) -> int:
    return min(player_counts)


GAMES = [(g.id, people_for(g.player_counts)) for g in all_games()]


def shown_text(message: Any) -> str:
    """Everything a message shows in words: its text, its embeds and its attachments' names and
    descriptions (the alt text read out for an image)."""
    parts = [message.content or "", embed_text(message)]
    for attachment in message.attachments or []:
        if isinstance(attachment, dict):
            parts += [str(attachment.get("filename", "")), str(attachment.get("description") or "")]
        else:
            parts += [attachment.filename, attachment.description or ""]
    return "\n".join(parts)


def attachment_names(message: Any) -> list[str]:
    return [a["filename"] if isinstance(a, dict) else a.filename for a in message.attachments or []]


class Knowledge:
    """What each seat (and the channel, ``None``) has been shown during the current deal: the
    cards of its views, and the cards named in the events it was told. A card some seat holds
    that a viewer was never shown is hidden from that viewer."""

    def __init__(self) -> None:
        self.deal = -1
        self.known: dict[int | None, set[Card]] = {}
        self.dms_seen: dict[int, int] = {}

    def update(self, state: GameState[Any]) -> None:
        deal = state.view(None).deal
        if deal != self.deal:  # a new deal: the cards are dealt afresh
            self.deal, self.known = deal, {}
        viewers: list[int | None] = [None, *range(state.n)]
        pack = set().union(*(set(iter_cards(state.view(v))) for v in viewers))
        for viewer in viewers:
            seen = self.known.setdefault(viewer, set())
            seen |= set(iter_cards(state.view(viewer)))
            told = [e.text for e in state.log if e.to is None or e.to == viewer]
            seen |= {c for c in pack if any(c.short in text for text in told)}
        for viewer in range(state.n):  # what the table knows, every seat knows
            self.known[viewer] |= self.known[None]

    def hidden_from(self, state: GameState[Any], viewer: int | None) -> set[Card]:
        held = set().union(*(set(iter_cards(state.view(s).hand)) for s in range(state.n)))
        return held - self.known.get(viewer, set())


def leaks(text: str, cards: set[Card]) -> list[str]:
    """Hidden cards named in ``text`` (jokers are left out: rules text names them in general)."""
    return [c.short for c in cards if not c.is_joker and (c.short in text or c.name in text)]


def check_nothing_hidden_shows(world: World, live: LivePlay, knowledge: Knowledge) -> None:
    table = world.require_table()
    state = table.state
    assert state is not None
    knowledge.update(state)
    seats = {table.seats[s].user_id: s for s in range(len(table.seats))}
    public = knowledge.hidden_from(state, None)
    deal_messages = [m for m in world.bot_messages() if m.id >= int(table.message_id or 0)]
    for message in deal_messages:  # the channel in this deal: the table message, pings
        found = leaks(shown_text(message), public)
        assert not found, f"{found} are hidden, but shown in the channel: {shown_text(message)[:300]}"
    for user_id, shown in live.views.items():  # each person's own view: nobody else's secrets
        assert shown.response is not None
        found = leaks(shown_text(shown.response), knowledge.hidden_from(state, seats[user_id]))
        assert not found, f"{found} are hidden from {user_id}, but show in their private view"
    for actor in (world.ann, world.bob, world.cat):
        seat = seats.get(str(actor.id))
        if seat is None:
            continue
        dms = world.dms(actor)
        for dm in dms[knowledge.dms_seen.get(seat, 0) :]:  # a DM, when it arrives
            assert not leaks(shown_text(dm), knowledge.hidden_from(state, seat)), "a DM shows a hidden card"
        knowledge.dms_seen[seat] = len(dms)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
async def test_a_deal_of_every_game_through_live_views(world: World, game_id: str, players: int) -> None:
    table = await start_game(world, game_id, players)
    assert table.state is not None
    deal = table.state.view(None).deal
    live = LivePlay(world)
    knowledge = Knowledge()
    check_nothing_hidden_shows(world, live, knowledge)
    pictured = False
    while world.table is not None and table.state.view(None).deal == deal and live.moves < MAX_MOVES:
        message = world.table_message()
        assert TABLE_FILE in attachment_names(message), attachment_names(message)
        await live.move(pick=live.moves % 3)
        if world.table is not None:
            check_nothing_hidden_shows(world, live, knowledge)
        for shown in live.views.values():
            assert shown.response is not None
            pictured = pictured or HAND_FILE in attachment_names(shown.response)
    assert world.table is None or table.state.view(None).deal != deal, "the deal did not end"
    assert all(n.startswith("You chose") for n in live.notes), live.notes
    assert pictured, "no private view carried a picture of the hand"
    # each person opened their view once at most; every later move was made in it, mostly with
    # one interaction (long menus open a group first)
    assert live.opened <= players
    assert live.interactions <= 2 * live.moves
