"""What every game must have, checked for every game of the catalogue and for the demonstration
game of the tests (``tests/games/demo_game.py``), each declared once with ``declare``:

* a complete declaration: a rules summary, a referee mode built from the online game (same id,
  title and player counts, its own summary), the bot levels ``random``, ``easy`` and ``strong``
  with a real player at each declared level, and the hinter and analyser it names;
* a short random playout keeping the invariants of ``tests/playout.py``;
* every bot level legal over a few whole matches (shorter ones for the games of
  ``SHORTER_MATCHES`` in the default suite);
* a referee mode that replays a dealt match: online matches played at random, the facts of each
  deal (as the game's match settled it) entered as the referee mode says a table enters them, the
  same scores after each deal and the same outcome, at every player count.

A game that forgets a piece fails here; nothing falls back silently (a level a game does not
declare is refused, a game without a referee mode is reported).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import advice
from games.engine import BaseOptions, Game, SetupError, snapshot_format
from games.players import RandomPlayer, UnknownLevel, bot_player, levels
from games.referee import parity as referee_parity
from games.referee import referee_mode
from games.referee.state import RefereeState
from games.registry import (
    Declaration,
    catalogue,
    declaration,
    declare,
    game_ids,
    get_game,
    referee_game,
    register,
    resolve,
    unregister,
)
from games.simulate import play_match
from tests.games import demo_game
from tests.games.mirror import mirror
from tests.players.checked import Checked
from tests.playout import run_playouts

DEMO = demo_game.GAME.id
GAMES = [*(d.id for d in catalogue()), DEMO]

@pytest.fixture
def served(game_id: str) -> Iterator[Declaration]:
    """The game's declaration, with the demonstration game served for the length of the test."""
    if game_id == DEMO:
        register(demo_game.GAME)
    try:
        yield declaration(game_id)
    finally:
        if game_id == DEMO:
            unregister(DEMO)


def problems(found: Declaration) -> list[str]:
    """What a declaration lacks or gets wrong (empty for a complete one)."""
    game, out = found.game, []
    if len(game.summary.strip()) < 100:
        out.append("no rules summary")
    if not issubclass(game.Options, BaseOptions):
        out.append("its options model does not extend BaseOptions")
    if found.levels()[:3] != ["random", "easy", "strong"]:
        out.append(f"bot levels {found.levels()}, not random, easy and strong first")
    for level, reference in found.bots.items():
        player = resolve(reference)
        if getattr(player, "name", None) != level or isinstance(player, RandomPlayer):
            out.append(f"the {level} bot is {player!r}, not a player of that level")
    for kind in ("hinter", "analyser"):
        reference = getattr(found, kind)
        if reference is not None and not callable(resolve(reference)):
            out.append(f"its {kind} {reference!r} is not a function")
    if found.referee is None:
        return [*out, "no referee mode"]
    ref = referee_game(game.id)
    if (ref.id, ref.title, ref.player_counts) != (game.id, game.title, game.player_counts):
        out.append("its referee game is not built from it (id, title, player counts)")
    if ref is game or not issubclass(ref.Options, game.Options):
        out.append("its referee game does not extend the online game's options")
    if not ref.summary.strip().startswith("Referee mode"):
        out.append("its referee game's summary does not begin 'Referee mode'")
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_the_declaration_is_complete(game_id: str, served: Declaration) -> None:
    assert problems(served) == []
    assert get_game(game_id) is served.game and game_id in game_ids()
    assert levels(game_id) == served.levels()
    assert advice.has_hints(game_id) == (served.hinter is not None)
    assert advice.has_analysis(game_id) == (served.analyser is not None)
    with pytest.raises(UnknownLevel, match="has no 'godlike' bot"):
        bot_player(game_id, "godlike")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_short_random_playout(game_id: str, served: Declaration) -> None:
    game = served.game
    for players in sorted({game.player_counts[0], game.player_counts[-1]}):
        run_playouts(game, players, {}, matches=1, seed=11, deep_every=25, sample_legal=4)


SHORTER_MATCHES: dict[str, dict[str, Any]] = {
    "hoodwink": {"target": 40},
    "caterpillar": {"games": 1},
    "parity_for_three": {"match_end": "open", "open_deal_cap": 2},
}
"""Games whose default match is long (the strong bots search at every card): the default suite's
bot-level matches are played to these options, and the slow test plays them at the defaults.
(Parity for Three: two deals, 1.2 s of CPU where a match to 100 points took 5.3 s.)"""


def every_bot_level_plays(served: Declaration, options: dict[str, Any], *, every_mix: bool) -> None:
    """Each level in every seat for one match, then beside the other levels for another (with
    ``every_mix`` false, only the last level's mixed match: the strongest in the first seat)."""
    game, names = served.game, served.levels()
    players = game.player_counts[0]
    for i, level in enumerate(names):
        alone = [Checked(bot_player(game.id, level)) for _ in range(players)]
        mixed = [Checked(bot_player(game.id, names[(i + s) % len(names)])) for s in range(players)]
        tables = (alone, mixed) if every_mix or i == len(names) - 1 else (alone,)
        for m, seats in enumerate(tables):
            state = play_match(game, players, options, seed=31 * i + m, policies=seats)
            assert state.outcome is not None
        assert all(seat.moves for seat in alone)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_level_plays_legal_moves(game_id: str, served: Declaration) -> None:
    every_bot_level_plays(served, SHORTER_MATCHES.get(game_id, {}), every_mix=False)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_level_plays_legal_moves_beside_every_other_level(game_id: str, served: Declaration) -> None:
    every_bot_level_plays(served, SHORTER_MATCHES.get(game_id, {}), every_mix=True)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SHORTER_MATCHES))
def test_every_bot_level_plays_legal_moves_in_a_default_match(game_id: str, served: Declaration) -> None:
    every_bot_level_plays(served, {}, every_mix=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_referee_mode_replays_a_dealt_match(game_id: str, served: Declaration) -> None:
    """The facts of random online deals, entered as the game's referee mode says a table enters
    them, score the same (``tests/games/mirror.py``; no list of games is kept here)."""
    referee = referee_game(game_id)  # a game without a referee mode stops here
    assert issubclass(referee.state_cls, RefereeState), "a referee state is a RefereeState (games/referee/state.py)"
    for players in served.game.player_counts:
        assert sum(mirror(served.game, referee, players, {}, seed) for seed in (1, 2)) >= 2


@pytest.mark.parametrize("game_id", GAMES)
def test_a_stored_log_replays_unchecked_to_the_position_checked_play_reached(game_id: str, served: Declaration) -> None:
    """A restart replays a match's own log without checking each action again: the position (and
    every position on the way, the scores after each deal, the outcome) is the one play reached."""
    game = served.game
    positions: list[dict[str, Any]] = []
    played = play_match(
        game, game.player_counts[-1], {}, seed=5, on_action=lambda s: positions.append(s.clone().fingerprint())
    )
    record = game.record(played)
    replayed = game.start(record.players, record.options, record.seed, record.deck)
    assert replayed.fingerprint() == positions[0]
    for number, *_ in game.replay_steps(record, replayed, checked=False):
        assert replayed.fingerprint() == positions[number]
    assert game.replay(record, checked=False).fingerprint() == played.fingerprint() == game.replay(record).fingerprint()
    assert played.outcome is not None and replayed.outcome == played.outcome


@pytest.mark.parametrize("game_id", GAMES)
def test_a_snapshot_then_the_rest_of_the_log_is_the_position_play_reached(game_id: str, served: Declaration) -> None:
    """A restart resumes from the position saved at a deal start and replays the actions after it;
    a snapshot from other game code is not used."""
    game = served.game
    played = play_match(game, game.player_counts[-1], {}, seed=6)
    record = game.record(played)
    middle = len(record.actions) // 2
    state = game.start(record.players, record.options, record.seed, record.deck)
    for _step in game.replay_steps(record.model_copy(update={"actions": record.actions[:middle]}), state):
        pass
    state.forget_past()
    saved = state.snapshot()
    resumed = game.from_snapshot(saved, snapshot_format())
    assert resumed is not None and resumed.turn == middle
    tail = record.model_copy(update={"actions": record.actions[middle:]})
    for _step in game.replay_steps(tail, resumed, checked=False, from_turn=middle):
        pass
    assert resumed.outcome == played.outcome and resumed.scores == played.scores
    assert resumed.view(None) == played.view(None) and resumed.deal_end == played.deal_end
    assert game.from_snapshot(saved, "other code") is None


# --- nothing falls back silently -----------------------------------------------------------------


def test_an_incomplete_declaration_is_reported() -> None:
    bare = Declaration(demo_game.GAME)
    assert problems(bare) == [
        "bot levels ['random'], not random, easy and strong first",
        "no referee mode",
    ]
    half = Declaration(demo_game.GAME, bots={"strong": RandomPlayer()})
    assert "bot levels ['random', 'strong'], not random, easy and strong first" in problems(half)
    assert any("the strong bot is" in p for p in problems(half))


def test_a_level_a_game_lacks_is_refused_not_replaced() -> None:
    assert levels("parity") == ["random", "easy", "strong", "vulcan"]
    assert "vulcan" not in levels("hundred")
    with pytest.raises(UnknownLevel, match="Hundred has no 'vulcan' bot; its levels are random, easy, strong"):
        bot_player("hundred", "vulcan")


def test_a_game_declared_but_not_served_is_unknown() -> None:
    unregister(DEMO)
    assert DEMO not in game_ids()
    with pytest.raises(SetupError, match="There is no game called 'demo'"):
        get_game(DEMO)
    with pytest.raises(SetupError):
        referee_game(DEMO)


def test_a_bare_game_gets_stand_ins_that_the_catalogue_may_not_use() -> None:
    """A test's toy game registered without a declaration plays random moves at every level;
    :func:`problems` refuses such stand-ins, so no game of the catalogue can have them."""

    class BareState(demo_game.DemoState):
        pass

    bare: Game[Any] = Game(
        id="bare_demo",
        title="Bare demo",
        min_players=2,
        max_players=3,
        options=demo_game.DemoOptions,
        state=BareState,
        actions=demo_game.GAME.action_types,
        summary=demo_game.SUMMARY,
    )
    register(bare)
    try:
        assert levels("bare_demo") == ["random", "easy", "strong"]
        found = declaration("bare_demo")
        assert "no referee mode" in problems(found)
        assert any("the easy bot is" in p for p in problems(found))
    finally:
        unregister("bare_demo")


def test_the_referee_game_is_derived_from_the_declared_state() -> None:
    """The declaration names the referee state; the referee game (entries, rules, options) comes
    from it, once: the registry and the referee module hold the same game."""
    ref = referee_game("parity")
    assert ref is referee_parity.GAME and ref.state_cls is referee_parity.RefereeParityState
    assert [t.__name__ for t in ref.action_types] == ["ChooseTrump", "ChooseParity", "TricksWon", "Series"]
    assert referee_game("fifty_one").Options.__name__ == "RefereeFiftyOneOptions"


class WrongState(demo_game.DemoState):
    pass


WRONG: Game[Any] = declare(
    Game(
        id="wrong_referee_demo",
        title="Wrong referee",
        min_players=2,
        max_players=3,
        options=demo_game.DemoOptions,
        state=WrongState,
        actions=demo_game.GAME.action_types,
        summary=demo_game.SUMMARY,
    ),
    referee="tests.games.demo_game:DemoState",
)
"""A game whose declaration names an online state as its referee mode (declared, served only by
its test)."""


def test_a_referee_reference_that_is_not_a_referee_state_is_refused() -> None:
    register(WRONG)
    try:
        with pytest.raises(TypeError, match="tests.games.demo_game:DemoState.*is not a referee state"):
            referee_game("wrong_referee_demo")
    finally:
        unregister("wrong_referee_demo")

    class NoEntries(demo_game.DemoReferee):
        entry_kinds = ()

    with pytest.raises(TypeError, match="NoEntries declares no entries"):
        referee_mode(demo_game.GAME, NoEntries)
