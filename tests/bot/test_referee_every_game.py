"""Every game in referee mode, through the table service: a whole match of entries made by the
people at the table, with undo, a correction, a restart in the middle, and the result recorded
as a referee-mode result with the scores the entries add up to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.tables import TableError, TableService, User
from games.engine import SetupError
from games.registry import game_ids, get_game, referee_game
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier, stored_actions

G, C = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")
GUESTS = ["Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
MAX_ENTRIES = 6000


def refereed_games() -> list[str]:
    out = []
    for game_id in game_ids():
        try:
            referee_game(game_id)
        except SetupError:
            continue
        out.append(game_id)
    return out


def test_every_game_of_the_catalogue_can_be_refereed() -> None:
    catalogue = [g for g in game_ids() if g != "toy"]
    assert [g for g in catalogue if g not in refereed_games()] == []


async def random_entry(service: TableService, rng: random.Random, user: User) -> None:
    turn, entries = service.entries(G, C, user)
    assert entries, "a live referee table always offers an entry"
    seat, entry = rng.choice(entries)
    await service.act(G, C, user, entry, turn=turn, seat=seat)


@pytest.mark.parametrize("game_id", refereed_games())
async def test_a_whole_refereed_match(game_id: str, db_path: Path) -> None:
    game = get_game(game_id)
    people: list[User | str] = [ANN, BOB, *GUESTS][: max(game.min_players, 2 if game.max_players >= 2 else 1)]
    store = await Store.open(db_path)
    service = TableService(store, RecordingNotifier(), rng=random.Random(7))
    await service.open_referee(G, C, ANN, game_id, people, [])
    table = service.require_table(G, C)
    assert table.mode == "referee" and table.state is not None
    rng = random.Random(game_id)

    # a few entries, one taken back, one corrected by the host
    for _ in range(3):
        await random_entry(service, rng, BOB)
    before = table.state.fingerprint()
    with pytest.raises(TableError):
        await service.act(G, C, User("8", "Stranger"), service.entries(G, C, ANN)[1][0][1])
    assert table.state.fingerprint() == before
    await service.undo(G, C, BOB)
    _seat, choices = await service.entry_choices(G, C, ANN, 1)
    first = (await stored_actions(service, table))[0][1]
    assert first in choices
    for other in [c for c in choices if c != first]:  # a correction that fits the entries after it
        before = table.state.fingerprint()
        try:
            await service.correct(G, C, ANN, 1, other)
        except TableError as exc:
            assert "makes entry 2 impossible" in str(exc) and table.state.fingerprint() == before
            continue
        assert (await stored_actions(service, table))[0][1] == other
        break

    # the bot restarts mid-match: the referee table comes back by replay, entries and all
    for _ in range(5):
        if service.table(G, C) is None:
            break
        await random_entry(service, rng, ANN)
    fingerprint = table.state.fingerprint()
    await service.shutdown()
    store = await Store.open(db_path)
    service = TableService(store, RecordingNotifier())
    assert await service.load() == (1 if not table.state.is_over else 0)
    if not table.state.is_over:
        restored = service.require_table(G, C)
        await service.ready(G, C)  # a restored table reads its log on first use
        assert restored.state is not None and restored.state.fingerprint() == fingerprint
        table = restored

    entries = 0
    while service.table(G, C) is not None:
        await random_entry(service, rng, rng.choice([ANN, BOB]))
        entries += 1
        assert entries < MAX_ENTRIES, f"{game_id}: the refereed match did not end"
    assert table.state is not None and table.state.outcome is not None
    results = await store.results(G)
    assert len(results) == 1
    recorded = results[0]
    assert [p.score for p in recorded["players"]] == list(table.state.outcome.scores)
    async with store.conn.execute("SELECT mode, unrated FROM results") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "referee"
    await service.shutdown()
    await store.close()
