"""Benchmark (not a test): what a table types in referee mode, per deal, before and after the
quick entry forms.

    .venv/bin/python -m tests.bench.bench_entry [--matches 3] [--games spec,jubilee]

For each game it plays dealt matches at random (the mirror helpers of the referee tests: a dealt
online match, entered entry by entry into the referee game, the scores checked equal after every
deal), records those entries, and types them again into a fresh referee game through
:func:`games.notation.read_action` as text, two ways:

* **before**: one entry per card, call, count or turned card (the card-by-card forms, every trick
  count entered), each typed as short as the reader takes it ("KH", "A1 KH", "4"; a player's name
  in front only where the entry could be for several players);
* **after**: the quick forms: a round of plays, a Spec turn (cell, call and card), the predictions,
  a deal's calls, the bid cards shown together, the trick counts, each in one line ("KH 7H QH",
  "A1 KH 10S", "hearts odd", "Ann AH Bob 9H Cat 7S"), forced counts left to the bot;
* **results** (the adding-up games with a results-only mode): only each deal's result.

Every replay must end with the dealt match's scores and outcome (it raises otherwise). It prints
entries and typed characters per deal for each game and each way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, GameState, Seat
from games.notation import EntryError, read_action, typed_form
from games.referee.series import Series, single_awaited
from games.registry import referee_game
from tests.games import (
    test_referee_adders,
    test_referee_caterpillar,
    test_referee_costly_colours,
    test_referee_hoodwink,
    test_referee_parity,
    test_referee_parity_for_three,
    test_referee_spec,
)

Mirror = Callable[[int], object]

GAMES: dict[str, tuple[int, Mirror]] = {
    "parity": (2, lambda seed: test_referee_parity.mirror({}, seed)),
    "parity_for_three": (3, lambda seed: test_referee_parity_for_three.mirror({}, seed)),
    "hoodwink": (3, lambda seed: test_referee_hoodwink.mirror({}, seed)),
    "spec": (4, lambda seed: test_referee_spec.mirror(4, {"illegal_call_mode": "strict"}, seed)),
    "spec/challenges": (4, lambda seed: test_referee_spec.mirror(4, {}, seed)),
    "caterpillar": (2, lambda seed: test_referee_caterpillar.mirror({}, seed)),
    "costly_colours": (2, lambda seed: test_referee_costly_colours.mirror({}, 2, seed)),
    **{
        game_id: (
            players,
            lambda seed, game_id=game_id, players=players: test_referee_adders.mirror(game_id, players, {}, seed),  # type: ignore[misc]
        )
        for game_id, players in (
            ("fifty_one", 3),
            ("hundred", 3),
            ("jubilee", 3),
            ("ninety_nine", 3),
            ("obstacle_race", 3),
            ("twenty_nine", 3),
            ("wit_and_reason_1", 2),
            ("wit_and_reason_2", 2),
        )
    },
}
"""row -> (players, a mirrored match for a seed); a row is a game id, or ``id/variant``. Spec is
measured in strict mode (forbidden calls refused: no challenges), and with challenges as the
random players make them, far more often than a real table (about one a call)."""

RESULTS_GAMES = ("hundred", "jubilee", "obstacle_race", "twenty_nine", "wit_and_reason_1", "wit_and_reason_2")


@dataclass
class Recording:
    """What the referee game of one mirrored match was given, and how it ended."""

    players: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    entries: list[tuple[Seat, Action]] = field(default_factory=list)
    state: GameState[Any] | None = None
    deal_results: list[tuple[list[int], list[int]]] = field(default_factory=list)
    """Per deal: the scores before and after it (for the results-only replays)."""
    side_counts: list[list[int]] = field(default_factory=list)
    """Twenty-Nine: the cards each side counted at each deal's end."""


@contextmanager
def recording(game_id: str) -> Iterator[Recording]:
    """Record every entry applied to the referee game's states while the block runs."""
    cls = referee_game(game_id).state_cls
    rec = Recording()
    original_apply = cls.apply
    original_score = getattr(cls, "score_deal", None)
    starts: list[list[int]] = []  # the scores at the start of each deal

    def apply(self: GameState[Any], seat: Seat, action: Action) -> Any:
        if rec.state is None:  # the mirror's referee state (a replay of it afterwards is not recorded)
            rec.state, rec.players, rec.seed = self, list(self.players), self.seed
            rec.options = self.options.model_dump(mode="json")
            starts.append(list(self.scores))
        if rec.state is not self:
            return original_apply(self, seat, action)
        deal = self.deal_no
        events = original_apply(self, seat, action)
        rec.entries.append((seat, action))
        if self.deal_no != deal or self.is_over:
            rec.deal_results.append((starts[-1], list(self.scores)))
            starts.append(list(self.scores))
        return events

    def score_deal(self: Any) -> Any:
        if game_id == "twenty_nine" and not self.by_result():
            from games.adders.twenty_nine import side_card_counts

            won = [len(cards) for cards in self.deal.won]
            unplayed = [sum(self.cards_held(s) for s in side) for side in self.sides]
            rec.side_counts.append(side_card_counts(won, unplayed, self.options.unplayed))
        return original_score(self) if original_score is not None else []

    cls.apply = apply  # type: ignore[method-assign]
    if original_score is not None:
        cls.score_deal = score_deal
    try:
        yield rec
    finally:
        cls.apply = original_apply  # type: ignore[method-assign]
        if original_score is not None:
            cls.score_deal = original_score


# --- typing the entries again -------------------------------------------------------------------


def text_for(state: GameState[Any], seat: Seat, action: Action) -> str:
    """The shortest text the reader takes as this entry for this seat: the typed form, with the
    player's name in front where it could be someone else's."""
    plain = typed_form(action)
    shortest = [plain]
    card = action.card
    if card is not None and card.rank is not None and action.kind == "play":  # "7" where only one 7 fits
        shortest.insert(0, "1" if card.rank == 14 else card.rank.code)
    for text in (*shortest, f"{state.name(seat)}: {plain}"):
        try:
            if read_action(state, text, seat=None) == (seat, action):
                return text
        except EntryError:
            continue
    raise AssertionError(f"{state.game.id}: cannot type {action!r} for {state.name(seat)}")


def is_echo(state: GameState[Any], seat: Seat, action: Action) -> bool:
    """An entry the bot has already filled in (a forced count entered anyway)."""
    check = getattr(state, "is_echo", None) or getattr(state, "_is_echo", None)
    return bool(check and check(seat, action))


def joins(game_id: str, group: list[Action], nxt: Action, players: int) -> bool:
    """Whether a table would say ``nxt`` in the same breath as ``group`` (one natural unit)."""
    kinds = [a.kind for a in group]
    if game_id in ("parity", "parity_for_three", "hoodwink"):
        calls = ("trump", "parity", "joker")  # the calls of a deal, said in turn
        if kinds[0] in calls:
            return nxt.kind in calls
        return kinds[0] in ("bid", "tricks_won") and nxt.kind == kinds[0]  # bids shown together; the counts
    if game_id == "costly_colours":  # the deck card and the mog, said in turn
        setup = ("deck_card", "propose_mog", "no_mog", "accept_mog", "refuse_mog", "mog_pass", "take_stock", "keep_hand")
        if kinds[0] in setup:
            return nxt.kind in setup
    if game_id == "spec":
        if kinds[0] == "predict":
            return nxt.kind == "predict"
        return kinds == ["call"] and nxt.kind == "turned_up"
    if any(k in ("starter",) for k in kinds) or nxt.kind == "starter":
        return all(k == "starter" for k in kinds) and nxt.kind == "starter"
    plays = ("play", "play_as", "pass", "go", "bust", "court_short")
    return all(k in plays for k in kinds) and nxt.kind in plays and len(group) < players


@dataclass
class Tally:
    entries: int = 0
    chars: int = 0

    def add(self, text: str) -> None:
        self.entries += 1
        self.chars += len(text)


def steps(state: GameState[Any], entries: list[tuple[Seat, Action]]) -> Iterator[tuple[GameState[Any], Seat, Action]]:
    """Each entry with the position it is made in (on a clone of ``state``)."""
    trial = state.clone()
    for seat, action in entries:
        yield trial, seat, action
        trial.apply(seat, action)


def replay_before(rec: Recording, game_id: str) -> Tally:
    state = referee_game(game_id).start(rec.players, rec.options, seed=rec.seed)
    tally = Tally()
    for seat, action in rec.entries:
        if is_echo(state, seat, action):  # a forced count: it had to be entered before
            tally.add(f"{state.name(seat)}: {typed_form(action)}")
            state.apply(seat, action)
            continue
        text = text_for(state, seat, action)
        tally.add(text)
        state.apply(*read_action(state, text, seat=None))
    finish_same(state, rec)
    return tally


def replay_after(rec: Recording, game_id: str) -> Tally:
    state = referee_game(game_id).start(rec.players, rec.options, seed=rec.seed)
    series = any(issubclass(k, Series) for k in state.game.action_types)
    tally = Tally()
    i = 0
    entries = rec.entries
    while i < len(entries):
        seat, action = entries[i]
        if is_echo(state, seat, action):
            i += 1
            continue
        group = [action]
        if series:
            trial = state.clone()
            trial.apply(seat, action)
            j = i + 1
            while j < len(entries):
                s, a = entries[j]
                if is_echo(trial, s, a) or not joins(game_id, group, a, len(rec.players)):
                    break
                trial.apply(s, a)
                group.append(a)
                j += 1
        if len(group) == 1:
            text = text_for(state, seat, action)
        else:
            # each entry as short as it reads at its point ("7" where only one Seven fits), or,
            # where several players may enter at once, after its player's name
            short, named, alone = [], [], True
            for at, s, a in steps(state, entries[i : i + len(group)]):
                alone = alone and single_awaited(at) == s
                short.append(text_for(at, s, a) if alone else "")
                named.append(f"{at.name(s)} {typed_form(a)}")
            text = " ".join(short if alone else named)
            got = read_action(state, text, seat=None)
            assert got[0] == seat and isinstance(got[1], Series) and list(got[1].entries) == group, (game_id, text, got)
        tally.add(text)
        state.apply(*read_action(state, text, seat=None))
        i += len(group)
    finish_same(state, rec)
    return tally


def replay_results(rec: Recording, game_id: str) -> Tally:
    options = {**rec.options, "entries": "result"}
    state = referee_game(game_id).start(rec.players, options, seed=rec.seed)
    tally = Tally()
    names = rec.players
    for number, (before, after) in enumerate(rec.deal_results):
        deltas = [a - b for a, b in zip(after, before, strict=True)]
        if game_id == "hundred":
            texts = [f"{names[s]}: {'made' if d > 0 else 'jumped'}" for s, d in enumerate(deltas) if d]
        elif game_id == "twenty_nine":
            sides = state.sides  # type: ignore[attr-defined]
            counts = rec.side_counts[number]
            texts = [f"{names[side[0]]}: {counts[i]}" for i, side in enumerate(sides)]
        elif game_id.startswith("wit_and_reason"):
            texts = [f"{names[s]}: won" for s, d in enumerate(deltas) if d] or ["draw"]
        else:
            texts = [f"{names[s]}: {d}" for s, d in enumerate(deltas)]
        for text in texts:
            tally.add(text)
            state.apply(*read_action(state, text, seat=None))
    finish_same(state, rec)
    return tally


def finish_same(state: GameState[Any], rec: Recording) -> None:
    assert rec.state is not None
    assert state.scores == rec.state.scores, (state.game.id, state.scores, rec.state.scores)
    assert state.outcome == rec.state.outcome, state.game.id


# --- the table -------------------------------------------------------------------------------------


def deals_of(state: GameState[Any]) -> int:
    played = getattr(state, "deals_played", None)
    return int(played()) if callable(played) else state.deal_no


def bench(row: str, matches: int) -> dict[str, tuple[float, float]]:
    players, mirror = GAMES[row]
    game_id = row.partition("/")[0]
    out: dict[str, Tally] = {"before": Tally(), "after": Tally(), "results": Tally()}
    deals = 0
    for m in range(matches):
        with recording(game_id) as rec:
            mirror(500 + m)
        assert rec.state is not None and rec.state.is_over and len(rec.players) == players
        deals += deals_of(rec.state)
        for name, replay in (("before", replay_before), ("after", replay_after)):
            t = replay(rec, game_id)
            out[name].entries += t.entries
            out[name].chars += t.chars
        if game_id in RESULTS_GAMES:
            t = replay_results(rec, game_id)
            out["results"].entries += t.entries
            out["results"].chars += t.chars
    return {k: (t.entries / deals, t.chars / deals) for k, t in out.items() if t.entries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=3, help="mirrored matches per game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    args = parser.parse_args()
    print(f"{'game':18} {'players':>7} | {'before':>15} | {'after':>15} | {'results only':>15}")
    print(f"{'':18} {'':>7} | {'entries':>7} {'chars':>7} | {'entries':>7} {'chars':>7} | {'entries':>7} {'chars':>7}")
    for game_id in args.games.split(","):
        figures = bench(game_id, args.matches)
        cells = []
        for name in ("before", "after", "results"):
            if name in figures:
                e, c = figures[name]
                cells.append(f"{e:7.1f} {c:7.1f}")
            else:
                cells.append(f"{'-':>7} {'-':>7}")
        print(f"{game_id:18} {GAMES[game_id][0]:>7} | " + " | ".join(cells), flush=True)
    print("Per deal (a Caterpillar game, a Wit and Reason race); every replay ended with the dealt match's scores.")


if __name__ == "__main__":
    main()
