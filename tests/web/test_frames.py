"""Frames for every game: random matches, and at every position the frame of each seat and of a
spectator: it names no card its viewer may not see, offers exactly the viewer's legal actions, and
survives JSON. Referee tables: the entries any awaited seat may take, and no cards of a hand."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.service.model import Table
from bot.web.frames import frame
from bot.web.live import viewer_frame
from bot.web.sessions import WebUser
from games.engine import GameState
from games.players import RandomPlayer
from games.registry import catalogue, referee_game
from storage.sessions import SeatRecord
from tests.playout import known_cards, visible_cards
from tests.web.test_server import frame_cards

GAMES = [d.game for d in catalogue()]


def table_of(state: GameState[Any], mode: str = "online") -> Table:
    seats = [SeatRecord(name, user_id=str(100 + i)) for i, name in enumerate(state.players)]
    return Table(
        id=1,
        guild_id="10",
        channel_id="20",
        game=state.game,
        options=state.options,
        host_id="100",
        seats=seats,
        seed=state.seed,
        status="playing",
        state=state,
        mode=mode,
    )


def allowed_cards(state: GameState[Any], seat: int | None) -> set[Any]:
    return set(visible_cards(state, seat)) | set(known_cards(state))


def check_position(table: Table) -> None:
    state = table.state
    assert state is not None
    for seat in [None, *range(state.n)]:
        data = frame(table, seat)
        assert json.loads(json.dumps(data)) == data
        hidden = {c for c in frame_cards(data) if c not in allowed_cards(state, seat)}
        assert not hidden, f"{state.game.id}: the frame of seat {seat} names {sorted(map(str, hidden))}"
        legal = state.legal_actions(seat) if seat is not None else []
        assert [c["label"] for c in data["choices"]] == [a.label() for a in legal]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_frame_of_a_random_match_shows_only_what_its_viewer_may_see(game: Any) -> None:
    rng = random.Random(7)
    for players in sorted({game.player_counts[0], game.player_counts[-1]}):
        state = game.start([f"P{i}" for i in range(players)], {}, seed=rng.randrange(10**6))
        table, chooser, steps = table_of(state), RandomPlayer(), 0
        while not state.is_over and steps < 400:
            if steps % 3 == 0:
                check_position(table)
            seat = rng.choice(state.actors())
            state.apply(seat, chooser.choose(state.view(seat), state.legal_actions(seat), rng))
            steps += 1
        check_position(table)


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_a_referee_tables_frame_offers_every_awaited_entry_to_its_members(game_id: str) -> None:
    ref = referee_game(game_id)
    state = ref.start([f"P{i}" for i in range(ref.player_counts[0])], {}, seed=3)
    table = table_of(state, mode="referee")
    member = viewer_frame(table, WebUser("100", "P0"))
    outsider = viewer_frame(table, WebUser("999", "Eve"))
    offered = [(s, a.label()) for s in sorted(state.awaiting()) for a in state.legal_actions(s)]
    assert [(c["seat"], c["label"]) for c in member["choices"]] == offered
    assert outsider["choices"] == [] and member["hand"] == []
