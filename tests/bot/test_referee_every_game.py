"""Every game in referee mode, through the table service: a whole match of entries made by the
people at the table, with a restart in the middle, and the result recorded as a referee-mode
result with the scores the entries add up to; and, in a match still going, entries taken back and
corrected.

What the tests need of a game is read from the game itself, never assumed of its rules: the
entries before an undo and a correction are chosen among those that leave the match going (on a
clone of the position), and where a default match ends whatever is entered before those steps
can be made, the test says so and skips them (a game needs no rule changed to pass).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from bot.tables import TableError, TableService, User
from games.engine import Action, Game, GameState, PlayCard, SetupError
from games.registry import declare, game_ids, get_game, referee_game, register, unregister
from storage.query import Query
from storage.sessions import Store
from tests.bot.conftest import RecordingNotifier, stored_actions
from tests.games import demo_game

G, C = "g1", "c1"
ANN, BOB, CAT = User("1", "Ann"), User("2", "Bob"), User("3", "Cat")
GUESTS = ["Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
MAX_ENTRIES = 6000
DEMO = demo_game.GAME.id


@pytest.fixture(autouse=True)
def demo_served() -> Iterator[None]:
    """The demonstration game (``tests/games/demo_game.py``), served for every test here: its
    referee mode comes from its declaration alone, and it is checked like the catalogue's games."""
    register(demo_game.GAME)
    try:
        yield
    finally:
        unregister(DEMO)


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
    assert DEMO in catalogue
    assert [g for g in catalogue if g not in refereed_games()] == []


REFEREED = [*refereed_games(), DEMO]
"""The games served at collection, and the demonstration game (served by :func:`demo_served`)."""


async def random_entry(service: TableService, rng: random.Random, user: User) -> None:
    """A random entry by ``user``; or, once the match is over and its result waits for the last
    entry's confirmation, that confirmation, by the player who did not make it."""
    turn, entries = service.entries(G, C, user)
    if not entries:
        table = service.require_table(G, C)
        assert table.state is not None and table.state.is_over, "a live referee table always offers an entry"
        confirmer = BOB if table.actors[-1] == ANN.id else ANN
        await service.confirm(G, C, confirmer)
        return
    seat, entry = rng.choice(entries)
    await service.act(G, C, user, entry, turn=turn, seat=seat)


def ends_the_match(state: GameState[Any], seat: int, entry: Action) -> bool:
    twin = state.clone()
    twin.apply(seat, entry)
    return twin.is_over


async def entry_leaving_the_match_going(service: TableService, rng: random.Random, user: User) -> bool:
    """Make a random entry among those after which the match goes on (the same pick as
    :func:`random_entry` when none ends it); ``False``, and nothing entered, if every entry ends it."""
    table = service.require_table(G, C)
    assert table.state is not None
    turn, entries = service.entries(G, C, user)
    going = [(seat, entry) for seat, entry in entries if not ends_the_match(table.state, seat, entry)]
    if not going:
        return False
    seat, entry = rng.choice(going)
    await service.act(G, C, user, entry, turn=turn, seat=seat)
    return True


def people_for(game_id: str) -> list[User | str]:
    game = get_game(game_id)
    return [ANN, BOB, *GUESTS][: max(game.min_players, 2 if game.max_players >= 2 else 1)]


async def restarted(service: TableService, db_path: Path) -> tuple[TableService, Store]:
    """The bot restarts: a new service on the same database, its tables loaded."""
    table = service.require_table(G, C)
    assert table.state is not None
    fingerprint = table.state.fingerprint()
    await service.shutdown()
    await service.store.close()
    store = await Store.open(db_path)
    service = TableService(store, RecordingNotifier())
    assert await service.load() == 1
    restored = service.require_table(G, C)
    await service.ready(G, C)  # a restored table reads its log on first use
    assert restored.state is not None and restored.state.fingerprint() == fingerprint
    return service, store


@pytest.mark.parametrize("game_id", REFEREED)
async def test_entries_taken_back_and_corrected(game_id: str, db_path: Path) -> None:
    """A stranger's entry is refused, the last entry is taken back, the first one corrected by
    the host, and a restart replays the corrected entries to the same position."""
    store = await Store.open(db_path)
    service = TableService(store, RecordingNotifier(), rng=random.Random(7))
    try:
        await service.open_referee(G, C, ANN, game_id, people_for(game_id), [])
        rng = random.Random(game_id)
        made = 0
        while made < 3 and await entry_leaving_the_match_going(service, rng, BOB):
            made += 1
        table = service.require_table(G, C)
        assert table.mode == "referee" and table.state is not None and not table.state.is_over

        before = table.state.fingerprint()
        with pytest.raises(TableError):
            await service.act(G, C, User("8", "Stranger"), service.entries(G, C, ANN)[1][0][1])
        assert table.state.fingerprint() == before
        if made == 0:
            pytest.skip(f"{game_id}: a default referee match ends at its first entry, whatever it is: nothing to take back")
        await service.undo(G, C, BOB)
        assert len(await stored_actions(service, table)) == made - 1
        if made == 1:
            pytest.skip(
                f"{game_id}: a default referee match ends at its second entry, whatever it is: "
                "after an undo no entry is left to correct"
            )
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
        if service.table(G, C) is not None:
            service, store = await restarted(service, db_path)
    finally:
        await service.shutdown()
        await store.close()


@pytest.mark.parametrize("game_id", REFEREED)
async def test_a_whole_refereed_match(game_id: str, db_path: Path) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingNotifier(), rng=random.Random(7))
    await service.open_referee(G, C, ANN, game_id, people_for(game_id), [])
    table = service.require_table(G, C)
    assert table.mode == "referee" and table.state is not None
    rng = random.Random(game_id)

    # the bot restarts mid-match (if the match lasts that long): the referee table comes back by
    # replay, entries and all
    for _ in range(8):
        if service.table(G, C) is None:
            break
        await random_entry(service, rng, rng.choice([ANN, BOB]))
    if service.table(G, C) is not None:
        service, store = await restarted(service, db_path)
        table = service.require_table(G, C)

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
    async with store.conn.execute(Query("SELECT mode, unrated FROM results")) as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "referee"
    await service.shutdown()
    await store.close()


# --- a game whose default match is short passes as it is -----------------------------------------


class OneDealOptions(demo_game.DemoOptions):
    deals: int = Field(1, ge=1, le=6, description="How many deals the match lasts.")


class OneDealState(demo_game.DemoState):
    pass


class OneDealReferee(demo_game.DemoReferee):
    pass


ONE_DEAL = declare(
    Game(
        id="one_deal_demo",
        title="One-deal High Card",
        min_players=2,
        max_players=3,
        options=OneDealOptions,
        state=OneDealState,
        actions=[PlayCard],
        summary=demo_game.SUMMARY,
    ),
    referee=OneDealReferee,
)


async def test_a_game_whose_default_match_ends_at_its_first_entry_passes(db_path: Path, tmp_path: Path) -> None:
    """The demonstration game cut to one deal of two players: one entry (the bot fills in the
    other count). The whole match is refereed, confirmed and recorded; the correction, which needs
    an entry left after an undo, is skipped with the reason, and nothing fails."""
    register(ONE_DEAL)
    try:
        await test_a_whole_refereed_match(ONE_DEAL.id, db_path)
        with pytest.raises(pytest.skip.Exception, match="ends at its first entry, whatever it is"):
            await test_entries_taken_back_and_corrected(ONE_DEAL.id, tmp_path / "second.sqlite3")
    finally:
        unregister(ONE_DEAL.id)
