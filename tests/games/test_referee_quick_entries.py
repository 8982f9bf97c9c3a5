"""The quick entry forms of every game, mirrored against dealt matches for the same cards.

Each game's mirror (the referee tests' helper: a dealt online match at random, entered into the
referee game, scores checked equal after every deal) is recorded; the same match is then typed
again as text through :func:`games.notation.read_action`, once entry by entry and once in the
quick forms (a round of plays, a Spec turn, the predictions, a deal's calls, the bid cards, the
trick counts, each in one line; forced counts left to the bot) and,
where the game has one, in its results-only mode. Every replay must end with the dealt match's
scores and outcome, and the quick forms must meet the goals per deal."""

from __future__ import annotations

import math

import pytest

from tests.bench.bench_entry import (
    GAMES,
    RESULTS_GAMES,
    deals_of,
    recording,
    replay_after,
    replay_before,
    replay_results,
)

TRICKS = {"parity": 15, "parity_for_three": 11, "hoodwink": 11}


@pytest.mark.parametrize("row", list(GAMES))
def test_quick_entries_give_the_dealt_scores(row: str) -> None:
    players, mirror = GAMES[row]
    game_id = row.partition("/")[0]
    with recording(game_id) as rec:
        mirror(900)
    assert rec.state is not None and rec.state.is_over and len(rec.players) == players
    deals = deals_of(rec.state)
    before = replay_before(rec, game_id)  # raises unless the scores and outcome are the dealt ones
    after = replay_after(rec, game_id)
    per_deal = after.entries / deals
    assert after.entries < before.entries
    if game_id in TRICKS:
        # the calls (or the bid cards) in one line, the counts in another, the last one filled in
        assert per_deal <= TRICKS[game_id] and after.entries == 2 * deals
    elif row == "spec":
        assert per_deal <= 30  # the predictions, 24 turns and the last card
    elif game_id == "caterpillar":
        assert per_deal <= 14  # 13 rounds of two cards, and one face-card count
    elif game_id != "costly_colours" and game_id != "spec":
        # the adders: at most one entry per round of plays (and the starters in one)
        assert after.entries <= math.ceil(before.entries / players) + 2 * deals
    if game_id in RESULTS_GAMES:
        results = replay_results(rec, game_id)
        assert results.entries / deals <= players
