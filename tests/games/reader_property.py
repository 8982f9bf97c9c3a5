"""The reader's property: every form it claims, read back at the position it was written for,
is exactly the entry written, or a refusal that lists the readings; never a different entry.

For every game, online and refereed, at several player counts, with plain seat names and with
seats named ``jack``, ``ace``, ``king``, ``ten`` and ``joker``, a match is played at random. At
each position some legal actions of each seat that may act are written in every form the reader
accepts (:func:`writings`: the typed form, the label, the menu path; card codes in upper and
lower case, suit symbols with and without a variation selector and before the rank, a space
between rank and suit, spoken names; signed values as ``+3``, ``plus 3``; number words; pass
words; with and without the seat's name) and, at referee tables that take lines, the next few
entries of the match joined into one line with each separator. :func:`check_config` returns
what was read (tests/games/test_reader_property.py runs it; tests/bench/bench_reader.py prints
the figures).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.cards import Card, Rank
from games.engine import Action, GameState, Seat
from games.notation import AmbiguousEntry, EntryError, is_card_word, read_action, series_type, typed_form
from games.referee.series import Series, single_awaited
from games.registry import catalogue, get_game, referee_game

PLAIN = ["ann", "bob", "cat", "dan", "eve", "fay"]
CARD_WORDS = ["jack", "ace", "king", "ten", "joker", "queenie"]
"""Seat names that are card words (and one that only starts like one)."""

SEPARATORS = (" ", ", ", " - ", "; ", " / ")

_SPOKEN_SUIT = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


@dataclass
class Tally:
    """What one run read: positions, texts by outcome, and every misreading found."""

    positions: int = 0
    read: int = 0
    exact: int = 0
    ambiguous: int = 0
    lines: int = 0
    forms: set[str] = field(default_factory=set)
    wrong: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.positions += other.positions
        self.read += other.read
        self.exact += other.exact
        self.ambiguous += other.ambiguous
        self.lines += other.lines
        self.forms |= other.forms
        self.wrong += other.wrong
        self.refused += other.refused


def card_variants(card: Card) -> dict[str, str]:
    """Ways to write a card, by form name."""
    if card.is_joker:
        base = "joker" if card.colour is None else f"{card.colour.value} joker"
        return {"joker": base, "joker-upper": base.upper(), **({"jk": "JK"} if card.colour is None else {})}
    assert card.rank is not None and card.suit is not None
    rank = "10" if card.rank is Rank.TEN else card.rank.code
    suit = card.suit.value
    symbol = _SYMBOL[suit]
    out = {
        "code": f"{rank}{suit}",
        "code-lower": f"{rank}{suit}".lower(),
        "symbol": f"{rank}{symbol}",
        "symbol-emoji": f"{rank}{symbol}\ufe0f",
        "suit-first": f"{symbol}{rank}",
        "suit-first-emoji": f"{symbol}\ufe0f{rank}",
        "spaced": f"{rank} {suit}",
        "spaced-lower": f"{rank} {suit.lower()}",
        "spaced-symbol": f"{rank} {symbol}",
        "spoken": f"{card.rank.title.lower()} of {_SPOKEN_SUIT[suit]}",
    }
    if suit == "H":
        out["heart-emoji"] = f"{rank}\u2764"
        out["heart-emoji-vs"] = f"{rank}\u2764\ufe0f"
    if card.rank is Rank.TEN:
        out["t"] = f"T{suit}"
    return out


def _plain_writings(action: Action) -> dict[str, str]:
    """An action's own texts: typed form, label, menu path, and the forms derived from them."""
    typed = typed_form(action)
    out = {"typed": typed, "label": action.label(), "path": " / ".join(action.choice_path())}
    card = action.card
    if card is not None:
        short = card.short
        code = "joker" if card.is_joker and card.colour is None else (f"{card.colour.value} joker" if card.is_joker else card.code)
        for name, variant in card_variants(card).items():
            if code in typed:
                out[f"typed/{name}"] = typed.replace(code, variant, 1)
            elif short in out["label"]:
                out[f"label/{name}"] = out["label"].replace(short, variant, 1)
    value = getattr(action, "value", None)
    if isinstance(value, int) and not getattr(action, "sets_total", True) and f"{value:+d}" in typed:
        signed = f"{value:+d}"
        word = "plus" if value >= 0 else "minus"
        out["signed-joined"] = typed.replace(f" {signed}", signed)
        out["signed-word"] = typed.replace(signed, f"{word} {abs(value)}")
    numbers = re.findall(r"(?<![\w+-])(\d+)$", typed)
    if numbers and int(numbers[0]) < len(_NUMBER_WORDS) and not (card is not None and typed.strip() == card.code):
        out["number-word"] = typed[: len(typed) - len(numbers[0])] + _NUMBER_WORDS[int(numbers[0])]
    if action.kind == "pass":
        out |= {"passes": "passes", "passed": "passed", "pass-upper": "PASS"}
    out["upper"] = typed.upper()
    return {k: v for k, v in out.items() if v.strip()}


def writings(state: GameState[Any], seat: Seat, action: Action, referee: bool) -> dict[str, str]:
    """Every form of ``action`` for ``seat``, with and (at a referee table) with the seat's name."""
    plain = _plain_writings(action)
    if not referee:
        return plain
    name = state.name(seat)
    out = dict(plain)
    for form in ("typed", "label", *(k for k in plain if k.startswith("typed/"))):
        out[f"{form}+name-colon"] = f"{name}: {plain[form]}"
        out[f"{form}+for-name"] = f"{plain[form]} for {name}"
        out[f"{form}+at-name"] = f"@{name} {plain[form]}"
        if not is_card_word(name):
            out[f"{form}+name"] = f"{name} {plain[form]}"
    return out


def _check_one(state: GameState[Any], text: str, expected: tuple[Seat, Action], referee: bool, tally: Tally, form: str) -> None:
    tally.read += 1
    tally.forms.add(form)
    try:
        got = read_action(state, text, seat=None if referee else expected[0])
    except AmbiguousEntry as exc:
        tally.ambiguous += 1
        message = str(exc)
        if " or " not in message and "could mean" not in message:
            tally.wrong.append(f"{state.game.id} {form} {text!r}: an ambiguity that lists no readings: {message}")
        for typed in re.findall(r'type "([^"]+)"', message):  # each way out offered must read as one entry
            try:
                read_action(state, typed, seat=None if referee else expected[0])
            except EntryError as again:
                tally.wrong.append(f"{state.game.id} {form} {text!r}: the suggestion {typed!r} is refused: {again}")
        return
    except EntryError as exc:
        tally.refused.append(f"{state.game.id} {form} {text!r} for {state.name(expected[0])} {expected[1].label()}: {exc}")
        return
    if got == expected or (isinstance(got[1], Series) and isinstance(expected[1], Series) and _same_line(got, expected)):
        tally.exact += 1
    else:
        tally.wrong.append(
            f"{state.game.id} {form} {text!r}: wanted {state.name(expected[0])} {expected[1].label()}, "
            f"got {state.name(got[0])} {got[1].label()}"
        )


def _same_line(got: tuple[Seat, Action], expected: tuple[Seat, Action]) -> bool:
    a, b = got[1], expected[1]
    assert isinstance(a, Series) and isinstance(b, Series)
    return list(a.entries) == list(b.entries) and list(a.seats or [got[0]]) [: 1] == [expected[0]] and (
        not b.seats or list(a.seats) == list(b.seats)
    )


def _lines(
    state: GameState[Any], plan: list[tuple[Seat, Action]], rng: random.Random
) -> Iterator[tuple[str, str, tuple[Seat, Action]]]:
    """The next entries of the match as lines: (form, text, expected series)."""
    kind = series_type(state)
    if kind is None or len(plan) < 2:
        return
    entries = [a for _, a in plan]
    seats = [s for s, _ in plan]
    line = kind.model_validate({"entries": entries, "seats": seats})
    expected = (seats[0], line)
    named = [f"{state.name(s)}: {typed_form(a)}" for s, a in plan]
    sep = rng.choice(SEPARATORS)
    yield f"line-named{sep.strip() or '_'}", sep.join(named), expected
    twin = state.clone()
    alone = True
    for s, a in plan:
        alone = alone and single_awaited(twin) == s
        twin.apply(s, a)
    if alone:
        typed = [typed_form(a) for a in entries]
        # a dash before a number is its sign ("QS-3"): a dash joins entries that start otherwise
        dash = not any(re.match(r"[+-]?\d+(\s|$)", t) for t in typed[1:])
        for form, sep in (("line", " "), ("line-comma", ", "), ("line-dash", "-"), ("line-semicolon", "; "), ("line-slash", " / ")):
            if sep != "-" or dash:
                yield form, sep.join(typed), expected
        cards = [a.card for a in entries]
        if all(c is not None and not c.is_joker for c in cards):
            for variant in ("code-lower", "symbol-emoji", "suit-first", "spaced"):
                texts = []
                for a, c in zip(entries, cards, strict=True):
                    assert c is not None
                    typed = typed_form(a)
                    texts.append(typed.replace(c.code, card_variants(c)[variant], 1) if c.code in typed else typed)
                yield f"line/{variant}", ", ".join(texts), expected


@dataclass(frozen=True)
class Config:
    game_id: str
    referee: bool
    players: int
    names: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        mode = "referee" if self.referee else "online"
        extra = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game_id}-{mode}-{self.players}-{self.names[0]}{'-' + extra if extra else ''}"


OPTIONS: dict[str, list[dict[str, Any]]] = {
    "hundred": [{"entries": "result"}],
    "jubilee": [{"entries": "result"}, {"joker_on_jubilee": "score"}],
    "obstacle_race": [{"entries": "result"}],
    "twenty_nine": [{"entries": "result"}],
    "wit_and_reason_1": [{"entries": "result"}],
    "wit_and_reason_2": [{"entries": "result"}],
}
"""Referee options tried beside the defaults."""


def configs(wide: bool) -> list[Config]:
    """Every game, online and referee; ``wide`` takes every player count, both name sets and the
    extra options, else one count and name set each (rotating)."""
    out: list[Config] = []
    for number, declared in enumerate(catalogue()):
        game = get_game(declared.id)
        counts = list(game.player_counts)
        for referee in (False, True):
            small = [c for c in counts if c <= 5] or counts  # the default run stays short
            picks = counts if wide else [small[(number + referee) % len(small)]]
            for n_index, count in enumerate(picks):
                name_sets = (PLAIN, CARD_WORDS) if wide else ((PLAIN, CARD_WORDS)[(number + n_index + referee) % 2],)
                for names in name_sets:
                    option_sets = [{}]
                    if referee and wide:
                        option_sets += OPTIONS.get(declared.id, [])
                    for options in option_sets:
                        out.append(Config(declared.id, referee, count, tuple(names[:count]), tuple(sorted(options.items()))))
    return out


def check_config(config: Config, seed: int, steps: int, per_position: int) -> Tally:
    """Play ``steps`` random legal entries of ``config``'s match, reading every form of up to
    ``per_position`` actions a seat may take at each position (the one played among them)."""
    rng = random.Random(f"{config}-{seed}")
    game = referee_game(config.game_id) if config.referee else get_game(config.game_id)
    try:
        state = game.start(list(config.names), dict(config.options), seed=seed)
    except Exception as exc:  # an option this game does not take is a mistake of the table above
        raise AssertionError(f"{config}: {exc}") from exc
    tally = Tally()
    for _ in range(steps):
        if state.is_over:
            break
        actors = sorted(state.actors())
        if not actors:
            break
        plan: list[tuple[Seat, Action]] = []
        twin = state.clone()
        for _ in range(rng.randint(2, 4)):  # the next entries, for lines
            if twin.is_over or not twin.actors():
                break
            s = rng.choice(sorted(twin.actors()))
            legal = twin.legal_actions(s)
            if not legal:
                break
            a = rng.choice(legal)
            plan.append((s, a))
            twin.apply(s, a)
        if not plan:
            break
        tally.positions += 1
        for seat in actors:
            legal = state.legal_actions(seat)
            picked = rng.sample(legal, min(per_position, len(legal)))
            if seat == plan[0][0] and plan[0][1] not in picked:
                picked[0] = plan[0][1]
            for action in picked:
                for form, text in writings(state, seat, action, config.referee).items():
                    _check_one(state, text, (seat, action), config.referee, tally, form)
        if config.referee:
            for form, text, expected in _lines(state, plan, rng):
                tally.lines += 1
                _check_one(state, text, expected, True, tally, form)
        state.apply(*plan[0])
    return tally
