# Over 400 lines: one reader for every game's typed input; its tokens, spoken forms and matching are one algorithm.
"""What people type, read as an action of the game in front of them.

One reader for every game, online and refereed, in the console and in Discord's text inputs. It is
driven by the actions the game offers now (``legal_actions``), not by a parser per game: the text
and every offered action are turned into the same *tokens* (a card, a number, a cell such as
``A1``, a suit, a rank, a word) and compared. An action is spoken in several forms:

1. its label and its menu path (``A1: K♥``, ``Hearts / Q♥``, ``4 tricks``, ``A♠ → 12``);
2. forms derived from what it holds: its card alone (``KH``), its fields in order (``A1 KH``,
   ``AS 12``, ``QS -3``, ``spades``, a count such as ``4``), its kind followed by its fields
   (``challenge 3``), and any ``spoken()`` forms the action class adds;
3. the rank alone, when that settles it (``2`` in Wit and Reason II, where suits do not matter);
4. a shortening of a label by its words (``bust`` for "Bust: cannot play").

The lowest level that matches wins; two different actions at that level are ambiguous and the
refusal says what each could mean. A bare number is never a position in a list: a position is
written ``#18``.

Cards are written as people type them, on a keyboard or a phone: ``KH``, ``kh``, ``K♥``, ``K♥️``
and ``K❤`` (emoji suits, with or without the variation selector), ``♥K`` (suit first), ``K H``
and ``10 h`` (a space between), ``king of hearts``. Values take ``+3``, ``-3``, ``plus 3``,
``minus 3`` and ``QS+3``, ``AS46``; numbers up to twenty may be words (``five``); ``passes`` and
``passed`` are ``pass``. Entries in a line may be separated by spaces, ``,`` ``;`` ``/`` or ``-``
(a dash before a number is its sign).

In referee mode (``seat=None``) anyone may enter for any seat that may act now. The entry may
name its seat (``bob: KH``, ``bob KH``, ``@bob KH``, ``KH for bob``); otherwise the speaker's own
seat is taken when the entry fits it, else the one seat it fits, else the refusal names the seats
it could be for. A player whose name is also a card word (``jack``, ``ace``, ``ten``, ``joker``,
``pass``) is named by ``jack:``, ``@jack`` or ``... for jack``, or where a seat is expected (at
the start of a line when several players may enter); elsewhere the word is the card word. Where
the referee game offers a *series* entry (several plays in one line, such as a round of an
adding-up game, "KH 7H QH"), text that reads as several entries in a row becomes one series.

**A line is read whole or not at all.** Every reading of the text is tried: as one entry and as a
line, a lower-case "as" as the word and as the Ace of Spades, a card-word name as a seat where one
is expected. One reading is entered; two different ones enter nothing, and the refusal lists each
in full ("ann Joker, bob Joker, cat 5♠") with how to type it so that it reads one way.

A text that is understood but not allowed is refused with the game's own reason
(:meth:`GameState.check`), said together with what was understood.
"""

from __future__ import annotations

import itertools
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from games.cards import RANKS, SUITS, Card, Colour, Rank, Suit
from games.engine import Action, GameState, IllegalAction, Seat


class EntryError(IllegalAction):
    """Text that is not an entry that can be made now; the message says what was understood and
    why it was refused (the game's reason where the entry could be built)."""


class AmbiguousEntry(EntryError):
    """Text that says more than one entry: the message lists them and how to type each."""


# --- tokens --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One unit of meaning: ``kind`` is card, num, cell, suit, rank or word."""

    kind: str
    value: Any

    def matches(self, typed: Token) -> bool:
        """Whether ``typed`` (from the text) says this token (from an action's form)."""
        if self.kind != typed.kind:
            # "five" says 5
            return self.kind == "num" and typed.kind == "rank" and int(typed.value) <= 10 and self.value == int(typed.value)
        if self.value == typed.value:
            return True
        # a plain "joker" says any joker (the pack decides its colour)
        return self.kind == "card" and typed.value.is_joker and typed.value.colour is None and self.value.is_joker

    def text(self) -> str:
        if self.kind == "card":
            return str(self.value.short)
        if self.kind == "suit":
            return str(self.value.title)
        if self.kind == "rank":
            return str(self.value.title)
        return str(self.value)


_SUIT_WORDS: dict[str, Suit] = {}
for _suit in SUITS:
    _name = _suit.name.lower()
    for _word in (_name, _name[:-1], _suit.symbol, _suit.value.lower()):
        _SUIT_WORDS[_word] = _suit
_SUIT_WORDS |= {"\u2664": Suit.SPADES, "\u2661": Suit.HEARTS, "\u2662": Suit.DIAMONDS, "\u2667": Suit.CLUBS}
_SUIT_SYMBOLS = {w for w in _SUIT_WORDS if len(w) == 1 and not w.isascii()}
_SUIT_LETTERS = {s.value.lower(): s for s in SUITS}

_RANK_WORDS: dict[str, Rank] = {}
for _rank in RANKS:
    _RANK_WORDS[_rank.title.lower()] = _rank
    _RANK_WORDS[_rank.title.lower() + "s"] = _rank
    _RANK_WORDS[_rank.code.lower()] = _rank
_RANK_WORDS |= {"t": Rank.TEN, "1": Rank.ACE, "deuce": Rank.TWO, "deuces": Rank.TWO, "sixes": Rank.SIX}
_RANK_LETTERS = {"a": Rank.ACE, "k": Rank.KING, "q": Rank.QUEEN, "j": Rank.JACK, "t": Rank.TEN}
_RANK_NAMES = {w: r for w, r in _RANK_WORDS.items() if len(w) > 2}

_JOKERS: dict[str, Colour | None] = {"joker": None, "jk": None, "rj": Colour.RED, "bj": Colour.BLACK}
_COLOURS = {"red": Colour.RED, "black": Colour.BLACK}
_NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        )
    )
}
"""Number words that are not ranks ("one", "eleven"...; "five" is the rank, which also says 5)."""
_SIGN_WORDS = {"minus": "-", "plus": "+"}

_SYMBOLS = "\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667"
_RANK_CODE = r"(?:10|[2-9]|[akqjt1])"
_COMPACT_CARD = re.compile(rf"^({_RANK_CODE})([shdc{_SYMBOLS}])$")
_SUIT_FIRST = re.compile(rf"^([{_SYMBOLS}])({_RANK_CODE})$")
_CARD_RUN = re.compile(rf"(?:{_RANK_CODE}[{_SYMBOLS}])+|(?:[{_SYMBOLS}]{_RANK_CODE})+")
_CARD_NUMBER = re.compile(rf"^({_RANK_CODE}[shdc{_SYMBOLS}])([+-]?\d+)$")
_CELL = re.compile(r"^[a-e][1-5]$")
_NUMBER = re.compile(r"^[+-]?\d+$")
MAX_DIGITS = 9
"""The longest number an entry may hold (a longer one is refused, not read)."""
_FILLER = frozenset({"the", "of", "at", "to", "is", "and", "then"})
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\uff0d": "-", "\ufe0f": None, "\ufe0e": None})
_EMOJI_SUITS = str.maketrans({"\u2764": "\u2665", "\U0001f5a4": "\u2660"})
_ARROWS = re.compile(r"\u2192|->|=>|=|\u21d2|\u27f6")
_SPLIT = re.compile(r"[\s,;:/|()\[\]{}!?\"]+")
_SEAT_MARK = re.compile("^\ue000(\\d+)\ue001$")


def normalise(text: str) -> str:
    """Lower case, plain minus signs, emoji suits plain (no variation selector), arrows and
    punctuation as spaces, a suit symbol typed after its rank with a space joined to it."""
    text = text.translate(_DASHES).translate(_EMOJI_SUITS).lower()
    text = _ARROWS.sub(" ", text)
    text = re.sub(rf"(?<![\w{_SYMBOLS}])({_RANK_CODE})\s+([{_SYMBOLS}])(?![\w{_SYMBOLS}])", r"\1\2", text)
    text = re.sub(r"(?<=\w)\.(?=\s|$)", " ", text)  # a full stop, not a decimal point
    return text


def _words(text: str) -> list[str]:
    """The words of a normalised text: cards run together split apart ("q\u2665" "10\u2660"), a
    dash between entries a separator ("qh-7h"), a sign before a number kept ("qs-3" is "qs" "-3")."""
    out: list[str] = []
    for raw in _SPLIT.split(text):
        word = raw.strip(".'`")
        if not word:
            continue
        if _SEAT_MARK.match(word) or _NUMBER.match(word):
            out.append(word)
            continue
        for part in re.split(r"(?<=[^\s+-])(?=[+-])", word):
            if not _NUMBER.match(part):
                part = part.lstrip("+-")
            if not part:
                continue
            run = _CARD_RUN.fullmatch(part)
            if run and not _COMPACT_CARD.match(part) and not _SUIT_FIRST.match(part):
                out += [m.group(0) for m in re.finditer(rf"{_RANK_CODE}[{_SYMBOLS}]|[{_SYMBOLS}]{_RANK_CODE}", part)]
                continue
            joined = _CARD_NUMBER.match(part)
            if joined and not _CELL.match(part):
                out += [joined.group(1), joined.group(2)]
                continue
            if len(part) > 1 and part[0] in _SYMBOLS and not _SUIT_FIRST.match(part):
                out += [part[0], part[1:]]  # "\u2665queen"
                continue
            if len(part) > 1 and part[-1] in _SYMBOLS and not _COMPACT_CARD.match(part):
                out += [part[:-1], part[-1]]  # "queen\u2665"
                continue
            out.append(part)
    return out


def _number(word: str) -> int:
    if len(word.lstrip("+-")) > MAX_DIGITS:
        raise EntryError(f'"{word[:12]}..." is too long a number: no entry has more than {MAX_DIGITS} digits. Nothing was entered.')
    return int(word)


_LOWER_AS = re.compile(r"(?<![A-Za-z])as(?![A-Za-z])")


def _card_word(word: str) -> Card | None:
    compact = _COMPACT_CARD.match(word)
    if compact:
        rank = _RANK_WORDS[compact.group(1)]
        return Card(rank, _SUIT_WORDS.get(compact.group(2)) or _SUIT_LETTERS[compact.group(2)])
    first = _SUIT_FIRST.match(word)
    if first:
        return Card(_RANK_WORDS[first.group(2)], _SUIT_WORDS[first.group(1)])
    return None


def tokenize(text: str, filler_as: bool = True, names: Sequence[str] = ()) -> list[Token]:
    """The tokens of a text (an entry typed, or an action's label). ``filler_as``: a lower-case
    "as" between a card and a number is the word of "Q\u2660 as \u22123", not the Ace of Spades (an
    upper-case "AS" is always the card). ``names``: the players, read as seat tokens where the
    text names them (see :func:`mark_seats`)."""
    filler_as = filler_as and bool(_LOWER_AS.search(text))
    if names:
        text = mark_seats(text, names)
    words = _words(normalise(text))
    out: list[Token] = []
    i = 0
    while i < len(words):
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        seat = _SEAT_MARK.match(word)
        if seat:
            out.append(Token("seat", int(seat.group(1))))
            i += 1
            continue
        # jokers: "joker", "red joker", "rj"
        if word in _COLOURS and nxt == "joker":
            out.append(Token("card", Card.joker(_COLOURS[word])))
            i += 2
            continue
        if word in _JOKERS or word in ("redjoker", "blackjoker"):
            colour = _JOKERS.get(word, Colour.RED if word.startswith("red") else Colour.BLACK)
            out.append(Token("card", Card.joker(colour)))
            i += 1
            continue
        # "as" between a card and a number is a word of the label "Q\u2660 as \u22123", not the Ace of Spades
        if filler_as and word == "as" and out and out[-1].kind == "card" and nxt is not None and _NUMBER.match(nxt):
            i += 1
            continue
        # "minus 3", "plus three"
        if word in _SIGN_WORDS and nxt is not None and (nxt.isdigit() or nxt in _NUMBER_WORDS or nxt in _RANK_WORDS):
            value = _number(nxt) if nxt.isdigit() else _NUMBER_WORDS.get(nxt) or int(_RANK_WORDS[nxt])
            out.append(Token("num", -value if word == "minus" else value))
            i += 2
            continue
        card = _card_word(word)
        if card is not None:
            out.append(Token("card", card))
            i += 1
            continue
        if _CELL.match(word):
            out.append(Token("cell", word.upper()))
            i += 1
            continue
        named_rank = _RANK_WORDS.get(word)
        if named_rank is not None and nxt is not None:
            # "king of hearts", "K hearts", "10 of h", "ten \u2665", "10 h", "Q H"
            j = i + 1
            of = words[j] == "of"
            if of:
                j += 1
            follow = words[j] if j < len(words) else None
            named_suit: Suit | None = None
            if follow is not None:
                if len(follow) > 1 or not follow.isascii():
                    named_suit = _SUIT_WORDS.get(follow)
                elif of or len(word) <= 2:
                    named_suit = _SUIT_LETTERS.get(follow)
            if named_suit is not None:
                out.append(Token("card", Card(named_rank, named_suit)))
                i = j + 1
                continue
        if _NUMBER.match(word):
            out.append(Token("num", _number(word)))
            i += 1
            continue
        if word in _SUIT_WORDS:
            out.append(Token("suit", _SUIT_WORDS[word]))
            i += 1
            continue
        if word in _RANK_LETTERS or word in _RANK_NAMES:
            out.append(Token("rank", _RANK_LETTERS.get(word) or _RANK_NAMES[word]))
            i += 1
            continue
        if word in _NUMBER_WORDS:
            out.append(Token("num", _NUMBER_WORDS[word]))
            i += 1
            continue
        if word in _FILLER:
            i += 1
            continue
        cleaned = re.sub(r"[^\w+-]", "", word)
        if cleaned:
            out.append(Token("word", _PASS_WORDS.get(cleaned, cleaned)))
        i += 1
    return out


_PASS_WORDS = {"passes": "pass", "passed": "pass", "passing": "pass"}


@lru_cache(maxsize=1024)
def is_card_word(name: str) -> bool:
    """Whether a player's name is also something an entry says (a card, a rank, a suit, a
    number, a cell, an action's word): such a name is a seat only before a colon, after ``@``
    or after ``for`` at the end of the line."""
    said = tokenize(name, filler_as=False)
    return any(t.kind != "word" or t.value in _ACTION_WORDS for t in said) or not said


def mark_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with each player it names replaced by a seat mark: ``bob KH``, ``bob: KH``,
    ``@bob KH``, ``bob's KH``, ``KH for bob``. A name that is also a card word (a player called
    "jack") is a seat only as ``jack:``, ``@jack`` or ``... for jack``; elsewhere it is the card word."""
    for seat, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
        key = name.strip()
        if not key:
            continue
        word = re.escape(key)
        mark = f" \ue000{seat}\ue001 "
        if is_card_word(key):
            pattern = rf"@{word}(?!\w)(?:'s)?\s*:?|(?<![\w@]){word}\s*:|(?<=\bfor )@?{word}\s*$"
        else:
            pattern = rf"(?<![\w@])@?{word}(?!\w)(?:'s)?\s*:?"
        text = re.sub(pattern, mark, text, flags=re.IGNORECASE)
    return text


def tokenizations(text: str, names: Sequence[str] = ()) -> list[list[Token]]:
    """Every reading of a typed text: two where a lower-case "as" could be the word or the Ace of
    Spades ("4h as 46" in Ninety-Nine is the 4\u2665, then the A\u2660 setting 46)."""
    first = tokenize(text, names=names)
    other = tokenize(text, filler_as=False, names=names)
    return [first] if other == first else [first, other]


def tokens_text(tokens: Sequence[Token], names: Sequence[str] = ()) -> str:
    """Tokens said back (a seat by its player's name)."""
    return " ".join(names[t.value] if t.kind == "seat" and 0 <= t.value < len(names) else t.text() for t in tokens)


# --- how an action may be said -------------------------------------------------------------------

LABEL, DERIVED, RANK_ONLY, SHORTENED = 1, 2, 3, 4
"""Levels of a match, best first."""

NUMERIC_FIELDS = frozenset({"tricks", "count", "points", "value", "total", "score", "low", "high"})
"""Fields whose number alone says the action (a trick count, points, a value)."""

EXTRA_FORMS: dict[str, tuple[str, ...]] = {
    "pass": ("pass", "stuck", "cannot play", "no card"),
    "go": ("go", "pass"),
    "bust": ("bust", "pass", "cannot play"),
    "reveal": ("reveal", "turn up", "last card", "turn"),
    "joker": ("joker", "hold joker", "i hold joker", "holds joker"),
    "propose_mog": ("mog", "propose", "yes"),
    "no_mog": ("no mog", "no"),
    "accept_mog": ("accept", "yes"),
    "refuse_mog": ("refuse", "no"),
    "take_stock": ("take", "take stock", "stock"),
    "keep_hand": ("keep", "keep hand"),
    "no_gift_claim": ("nothing", "no claim", "no"),
    "mog_pass": ("nothing", "nothing claimed", "pass"),
    "no_estimate": ("no estimate", "none"),
    "no_request": ("no request", "none"),
    "ask_requests": ("any requests", "ask"),
    "court_short": ("court short", "short"),
    "stock_used_up": ("stock used up", "stock out", "normal end"),
    "lost_deal": ("lost", "lost deal", "bust"),
    "dispute_bid": ("dispute", "dispute bid", "wrong bid"),
}
"""Words people use for actions whose label is a phrase (by action kind)."""

_NO_TRUMP_FORMS = ("no trumps", "no trump", "notrump", "notrumps", "nt")

_ACTION_WORDS = frozenset(
    word
    for phrase in (*(p for forms_ in EXTRA_FORMS.values() for p in forms_), *_NO_TRUMP_FORMS, *EXTRA_FORMS)
    for word in re.split(r"[\s_]+", phrase)
) | {
    *("made", "jumped", "won", "draw", "drawn", "tricks", "trick", "play", "call", "challenge", "predict", "for"),
    *("odd", "even", "bid", "estimate", "turned", "up", "deck", "trump", "trumps", "passes", "passed", "claims"),
}
"""Words entries are made of: a player with such a name needs the colon (``pass: KH``)."""


def _field_tokens(name: str, value: Any) -> list[Token] | None:
    """The tokens a field's value is said by; ``None`` for a field that is never said."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, Card):
        return [Token("card", value)]
    if isinstance(value, Suit):
        return [Token("suit", value)]
    if isinstance(value, int):
        return [Token("num", value)]
    if isinstance(value, Enum):
        return tokenize(str(value.value))
    if isinstance(value, str):
        return tokenize(value)
    return None


def _fields_form(action: Action) -> tuple[list[Token], bool] | None:
    """The action's fields in order, and whether a lone number among them says the action."""
    out: list[Token] = []
    numeric = True
    for name in type(action).model_fields:
        if name == "kind":
            continue
        value = getattr(action, name)
        said = _field_tokens(name, value)
        if said is None:
            return None
        if said and said[0].kind == "num" and name not in NUMERIC_FIELDS:
            numeric = False
        out.extend(said)
    return out, numeric


@lru_cache(maxsize=50_000)
def forms(action: Action) -> tuple[tuple[int, tuple[Token, ...]], ...]:
    """Every way ``action`` may be said, as (level, tokens), best level first."""
    found: list[tuple[int, tuple[Token, ...]]] = []

    def add(level: int, tokens: Iterable[Token]) -> None:
        said = tuple(tokens)
        if said and (level, said) not in found:
            found.append((level, said))

    add(LABEL, tokenize(action.label()))
    path = action.choice_path()
    add(LABEL, tokenize(" ".join(path)))
    add(LABEL, tokenize(path[-1]))
    card = action.card
    if card is not None:
        add(DERIVED, [Token("card", card)])
    fields = _fields_form(action)
    kind_words = tokenize(action.kind.replace("_", " "))
    if fields is not None:
        said, numeric = fields
        if len(said) > 1 or (said and (said[0].kind != "num" or numeric)):
            add(DERIVED, said)
        add(DERIVED, [*kind_words, *said])
    for phrase in EXTRA_FORMS.get(action.kind, ()):
        add(DERIVED, [*tokenize(phrase), *(fields[0] if fields else [])])
    if action.kind == "trump" and getattr(action, "suit", "") is None:
        for phrase in _NO_TRUMP_FORMS:
            add(DERIVED, tokenize(phrase))
    spoken = getattr(action, "spoken", None)
    if callable(spoken):
        for phrase in spoken():
            add(DERIVED, tokenize(phrase))
    return tuple(sorted(found, key=lambda f: f[0]))


def _equal(form: Sequence[Token], typed: Sequence[Token]) -> bool:
    return len(form) == len(typed) and all(f.matches(t) for f, t in zip(form, typed, strict=True))


def _subsequence(typed: Sequence[Token], form: Sequence[Token]) -> bool:
    it = iter(form)
    return all(any(f.matches(t) for f in it) for t in typed)


def _rank_says(card: Card, typed: Token) -> bool:
    if card.rank is None:
        return False
    if typed.kind == "rank":
        return bool(typed.value == card.rank)
    if typed.kind == "num":
        number = 1 if card.rank is Rank.ACE else int(card.rank)
        return bool(typed.value == number) or (card.rank is Rank.ACE and typed.value == 14)
    return False


def match_level(action: Action, typed: Sequence[Token], upto: int = 4) -> int | None:
    """The best level at which ``typed`` says ``action`` (no worse than ``upto``), or ``None``."""
    all_forms = forms(action)
    for level, form in all_forms:
        if _equal(form, typed):
            return level
    card = action.card
    if card is not None and len(typed) == 1 and _rank_says(card, typed[0]):
        return RANK_ONLY
    if upto >= SHORTENED and any(t.kind in ("word", "suit", "rank", "card", "cell") for t in typed):
        for _, form in all_forms:
            if len(form) > len(typed) and _subsequence(typed, form):
                return SHORTENED
    return None


def best_matches(
    legal: Sequence[Action], typed: Sequence[Token], upto: int = 4
) -> tuple[int | None, list[Action]]:
    """The actions ``typed`` says at the best level found, and that level."""
    index = _Index(legal)
    best, found = index.best(typed)
    if best is not None or upto < SHORTENED:
        return best, found
    found = [a for a in legal if match_level(a, typed, SHORTENED) == SHORTENED]
    return (SHORTENED, found) if found else (None, [])


def _key(token: Token) -> tuple[str, Any]:
    """A token as plain values (quick to hash)."""
    value = token.value
    if token.kind == "card":
        return ("card", value.code if not value.is_joker else f"joker-{value.colour}")
    if isinstance(value, Enum):
        return (token.kind, value.value)
    return (token.kind, value)


@lru_cache(maxsize=50_000)
def _form_keys(action: Action) -> tuple[tuple[int, tuple[tuple[str, Any], ...]], ...]:
    return tuple((level, tuple(_key(t) for t in form)) for level, form in forms(action))


class _Index:
    """The actions of a list by the exact tokens of their label and derived forms, so that the
    parts of a line are looked up rather than compared with every action."""

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.by_form: dict[tuple[tuple[str, Any], ...], list[tuple[int, Action]]] = {}
        for action in legal:
            for level, key in _form_keys(action):
                self.by_form.setdefault(key, []).append((level, action))

    def best(self, typed: Sequence[Token]) -> tuple[int | None, list[Action]]:
        """What :func:`best_matches` finds up to the rank-only level."""
        choices: list[list[tuple[str, Any]]] = []
        for t in typed:
            alike = [_key(t)]
            if t.kind == "card" and t.value.is_joker and t.value.colour is None:
                alike += [_key(Token("card", Card.joker(c))) for c in Colour]
            elif t.kind == "rank" and int(t.value) <= 10:
                alike.append(("num", int(t.value)))
            choices.append(alike)
        best: int | None = None
        found: dict[int, Action] = {}
        for key in itertools.product(*choices):
            for level, action in self.by_form.get(key, ()):
                if best is None or level < best:
                    best, found = level, {id(action): action}
                elif level == best:
                    found.setdefault(id(action), action)
        if best is not None:
            return best, list(found.values())
        if len(typed) == 1:
            ranked = [a for a in self.legal if a.card is not None and _rank_says(a.card, typed[0])]
            return (RANK_ONLY, ranked) if ranked else (None, [])
        return None, []


# --- typing an action ----------------------------------------------------------------------------


def _typed_value(value: Any) -> str:
    if isinstance(value, Card):
        if value.is_joker:
            return "joker" if value.colour is None else f"{value.colour.value} joker"
        return value.code
    if isinstance(value, Suit):
        return value.name.lower()
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def typed_form(action: Action) -> str:
    """A short plain-ASCII way to type ``action`` (``KH``, ``AS 12``, ``A1 KH``, ``4``, ``pass``),
    for examples in messages and help."""
    typed = getattr(action, "typed", None)
    if callable(typed):
        return str(typed())
    extra = EXTRA_FORMS.get(action.kind)
    fields = _fields_form(action)
    if fields is not None:
        said, numeric = fields
        values = [
            _typed_value(getattr(action, name))
            for name in type(action).model_fields
            if name != "kind" and getattr(action, name) is not None and not isinstance(getattr(action, name), bool)
        ]
        if values and (len(said) > 1 or said[0].kind != "num" or numeric):
            text = " ".join(values)
            if isinstance(getattr(action, "value", None), int) and not getattr(action, "sets_total", True):
                text = text.replace(f" {action.value}", f" {action.value:+d}")  # type: ignore[attr-defined]
            return text
        if values:
            return " ".join([action.kind.replace("_", " "), *values])
    if extra:
        return extra[0]
    if action.kind == "trump":
        return "no trumps"
    spoken = getattr(action, "spoken", None)
    if callable(spoken) and spoken():
        return str(spoken()[0])  # "jumped"
    # the label in plain ASCII: a minus sign kept as "-" (the label's "\u22121" is -1, not 1)
    return re.sub(r"[^\x20-\x7e]", "", action.label().translate(_DASHES)).strip().lower() or action.kind


# --- the seat an entry is for --------------------------------------------------------------------


def entry_menu(state: GameState[Any], seat: Seat | None) -> list[tuple[Seat, Action]]:
    """Every entry open now, in the order menus list them: ``seat``'s legal actions, or at a
    referee table every seat that may act and its entries (what ``#N`` counts in)."""
    if state.is_over:
        return []
    seats = [seat] if seat is not None else state.actors()
    return [(s, a) for s in seats for a in state.legal_actions(s)]


def _choose_seat(fitting: Sequence[Seat], speaker: Seat | None) -> Seat | None:
    if speaker is not None and speaker in fitting:
        return speaker
    if len(fitting) == 1:
        return fitting[0]
    return None


def _names(state: GameState[Any], seats: Iterable[Seat]) -> str:
    names = [state.name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _choices_text(actions: Sequence[Action], limit: int = 6) -> str:
    labels = list(dict.fromkeys(a.label() for a in actions))
    shown = ", ".join(labels[:limit])
    if len(labels) > limit:
        shown += f" ... ({len(labels)} in all)"
    return shown


# --- reading -------------------------------------------------------------------------------------


MAX_ENTRY = 200
"""The longest entry read, in characters (the typed form's limit, checked again here for every
transport)."""


@dataclass
class _Reading:
    """One way of taking the text: the seat it names (if any) and the tokens of the rest."""

    named: Seat | None
    tokens: list[Token]
    line: list[Token]
    """Every token, seats included (what a line of several entries is read from)."""
    raw: str = ""
    """The whole text typed."""

    @property
    def text(self) -> str:
        return self.raw


def _reading(tokens: list[Token], raw: str) -> _Reading:
    """The reading of ``tokens``: a seat named at the start (``bob: KH``) or at the end (``KH for
    bob``) of a single entry is the seat it is for; seats elsewhere make it a line."""
    seats = [i for i, t in enumerate(tokens) if t.kind == "seat"]
    if seats == [0] and len(tokens) > 1:
        return _Reading(tokens[0].value, tokens[1:], tokens, raw)
    last = len(tokens) - 1
    if seats == [last] and last >= 2 and tokens[last - 1] == Token("word", "for"):
        return _Reading(tokens[last].value, tokens[: last - 1], tokens, raw)
    if seats:
        return _Reading(None, [], tokens, raw)  # only a line can name several seats
    return _Reading(None, tokens, tokens, raw)


def _card_word_seats(state: GameState[Any], typed: Sequence[Token], at: int) -> list[tuple[Seat, int]]:
    """The players whose name is a card word (``ace``, ``jack``) said at ``typed[at]`` with more
    after it: read as seats only where a seat is expected (several players may enter)."""
    out: list[tuple[Seat, int]] = []
    for s, name in enumerate(state.players):
        if not is_card_word(name):
            continue
        said = _name_tokens(name)
        if said and at + len(said) < len(typed) and list(typed[at : at + len(said)]) == said:
            out.append((s, len(said)))
    return out


@lru_cache(maxsize=1024)
def _name_tokens_cached(name: str) -> tuple[Token, ...]:
    return tuple(tokenize(name, filler_as=False))


def _name_tokens(name: str) -> list[Token]:
    return list(_name_tokens_cached(name))


def _named_by_card_word(state: GameState[Any], tokens: list[Token]) -> list[list[Token]]:
    """``tokens`` with a leading card-word name (``ace KH``) as its seat, where a seat is expected."""
    return [[Token("seat", s), *tokens[size:]] for s, size in _card_word_seats(state, tokens, 0)]


@dataclass
class _Found:
    level: int
    seat: Seat
    actions: list[Action]


def read_action(
    state: GameState[Any], text: str, *, seat: Seat | None, speaker: Seat | None = None
) -> tuple[Seat, Action]:
    """The entry ``text`` means now, and the seat it is for.

    ``seat`` given (online play): the text must say one of ``state.legal_actions(seat)``.
    ``seat=None`` (referee mode): any seat that may act; the text may name it, else ``speaker``'s
    own seat is taken when the entry fits it, else the only seat it fits. Every reading of the
    text is tried (as one entry and, where the game takes them, as a line of several): one
    reading is entered; two different ones enter nothing, and the refusal lists each in full and
    how to type it. Raises :class:`EntryError` saying what was understood and why it cannot be
    entered.
    """
    raw = text.strip()
    if len(raw) > MAX_ENTRY:
        raise EntryError(f"An entry is at most {MAX_ENTRY} characters; this one has {len(raw)}. Nothing was entered.")
    if not raw:
        raise EntryError(f"Type an entry, for example {_example(state, seat)}.")
    if state.is_over:
        raise EntryError("This match is over: there is nothing more to enter.")
    position = re.fullmatch(r"#\s*(\d+)", raw)
    if position:
        return _by_position(state, seat, _number(position.group(1)))

    names = state.players if seat is None else ()
    readings: list[_Reading] = []
    for tokens in tokenizations(raw, names):
        readings.append(_reading(tokens, raw))
        if seat is None and _single_actor(state) is None:
            readings += [_reading(named, raw) for named in _named_by_card_word(state, tokens)]
    found: list[tuple[Seat, Action]] = []
    refused: list[EntryError] = []
    first_step: list[str] = []  # why a line's first entry was refused, if it was read as a line
    for reading in readings:
        try:
            for got in _read_whole(state, reading, seat, speaker, first_step):
                if got not in found:
                    found.append(got)
        except EntryError as exc:
            refused.append(exc)
    ambiguous = [e for e in refused if isinstance(e, AmbiguousEntry)]
    if len(found) == 1 and not ambiguous:
        return found[0]
    if found:
        raise _ambiguous(state, raw, found, seat, ambiguous)
    if refused:
        raise refused[0]
    raise _refusal(state, readings, seat, speaker, raw, first_step[0] if first_step else "")


def _read_whole(
    state: GameState[Any], reading: _Reading, seat: Seat | None, speaker: Seat | None, first_step: list[str]
) -> list[tuple[Seat, Action]]:
    """Every entry this reading could be: as one entry, and as a line of several. A single
    entry that could be several actions raises (the refusal lists them), unless the line reads."""
    out: list[tuple[Seat, Action]] = []
    single_refusal: EntryError | None = None
    if reading.tokens:
        try:
            one = _read_one(state, reading, seat, speaker)
        except EntryError as exc:
            single_refusal, one = exc, None
        if one is not None:
            out.append(one)
    try:
        lines = _read_series(state, reading, seat, speaker, first_step)
    except EntryError:
        if out or single_refusal is not None:
            lines = []  # the line's refusal says less than the single entry read
        else:
            raise
    out += [line for line in lines if line not in out]
    if single_refusal is not None:
        if lines:
            also = " or ".join(_in_full(state, *line, seat) for line in lines)
            raise AmbiguousEntry(f"{single_refusal} It also reads as a line: {also}. Nothing was entered.")
        raise single_refusal
    return out


def _in_full(state: GameState[Any], who: Seat, action: Action, seat: Seat | None) -> str:
    """An entry said in full: ``ann Joker, bob Joker, cat 5\u2660`` (the player only at a referee table)."""
    entries = getattr(action, "entries", None)
    if entries is not None:
        seats = getattr(action, "seats", ()) or [who] * len(entries)
        if seat is not None:
            return ", ".join(e.label() for e in entries)
        return ", ".join(f"{state.name(s)} {e.label()}" for s, e in zip(seats, entries, strict=True))
    return action.label() if seat is not None else f"{state.name(who)} {action.label()}"


def _unambiguous(state: GameState[Any], who: Seat, action: Action, seat: Seat | None) -> str:
    """How to type an entry so that it reads only one way: each entry after its player's name
    and a colon (``ann: joker bob: joker cat: 5S``)."""
    entries = getattr(action, "entries", None)
    if entries is not None:
        seats = getattr(action, "seats", ()) or [who] * len(entries)
        if seat is not None:
            return " ".join(typed_form(e) for e in entries)
        return " ".join(f"{state.name(s)}: {typed_form(e)}" for s, e in zip(seats, entries, strict=True))
    return typed_form(action) if seat is not None else f"{state.name(who)}: {typed_form(action)}"


def _ambiguous(
    state: GameState[Any], raw: str, found: Sequence[tuple[Seat, Action]], seat: Seat | None, refused: Sequence[EntryError]
) -> EntryError:
    readings = [f'{_in_full(state, s, a, seat)} (type "{_unambiguous(state, s, a, seat)}")' for s, a in found]
    more = f" It could also mean: {refused[0]}" if refused else ""
    return AmbiguousEntry(
        f'"{raw}" reads more than one way, so nothing was entered: as ' + ", or as ".join(readings) + f".{more}"
    )


def read_choice(legal: Sequence[Action], text: str) -> Action:
    """The one action of ``legal`` that ``text`` says (for a list given by the caller, such as the
    choices for correcting an earlier entry); ``#N`` is the N-th of the list."""
    raw = text.strip()
    if len(raw) > MAX_ENTRY:
        raise EntryError(f"An entry is at most {MAX_ENTRY} characters; this one has {len(raw)}. Nothing was entered.")
    position = re.fullmatch(r"#\s*(\d+)", raw)
    if position:
        number = _number(position.group(1))
        if not 1 <= number <= len(legal):
            raise EntryError(f"There is no choice #{number}: the choices are numbered 1 to {len(legal)}.")
        return legal[number - 1]
    typed = tokenize(raw)
    if not typed:
        example = f" For example: {typed_form(legal[0])}." if legal else ""
        raise EntryError(f'Nothing in "{raw}" reads as a choice.{example}')
    _, found = best_matches(legal, typed)
    if len(found) == 1:
        return found[0]
    if found:
        raise EntryError(f'"{raw}" could mean {_choices_text(found)}: say which, for example {typed_form(found[0])}.')
    example = f" For example: {typed_form(legal[0])}." if legal else ""
    raise EntryError(f'"{raw}" (read as {tokens_text(typed)}) is not one of the choices.{example}')


def _by_position(state: GameState[Any], seat: Seat | None, number: int) -> tuple[Seat, Action]:
    menu = entry_menu(state, seat)
    if not menu:
        raise EntryError("There is no entry to choose from now.")
    if not 1 <= number <= len(menu):
        raise EntryError(f"There is no entry #{number}: the list runs from 1 to {len(menu)}.")
    return menu[number - 1]


def _candidate_seats(state: GameState[Any], reading: _Reading, seat: Seat | None) -> list[Seat]:
    if seat is not None:
        return [seat]
    if reading.named is not None:
        return [reading.named]
    return state.actors()


def _matches(state: GameState[Any], seats: Sequence[Seat], typed: Sequence[Token]) -> list[_Found]:
    found: list[_Found] = []
    for s in seats:
        level, actions = best_matches(state.legal_actions(s), typed)
        if level is not None:
            found.append(_Found(level, s, actions))
    return found


def _read_one(
    state: GameState[Any], reading: _Reading, seat: Seat | None, speaker: Seat | None
) -> tuple[Seat, Action] | None:
    found = _matches(state, _candidate_seats(state, reading, seat), reading.tokens)
    if not found:
        return None
    best = min(f.level for f in found)
    top = [f for f in found if f.level == best]
    chosen = _choose_seat([f.seat for f in top], speaker)
    if chosen is None:
        example = typed_form(top[0].actions[0])
        raise AmbiguousEntry(
            f'"{reading.text}" could be an entry for {_names(state, (f.seat for f in top))}: say whose, '
            f'for example "{state.name(top[0].seat)}: {example}".'
        )
    actions = next(f.actions for f in top if f.seat == chosen)
    if len(actions) > 1:
        raise AmbiguousEntry(
            f'"{reading.raw}" could mean {_choices_text(actions)}: say which, for example '
            f'"{typed_form(actions[0])}".'
        )
    return chosen, actions[0]


# --- several entries in one line -----------------------------------------------------------------

SERIES_KIND = "series"
MAX_SEGMENT = 4
"""The most tokens one entry of a series takes (``A1 KH`` is two, ``QS -3`` two)."""


def series_type(state: GameState[Any]) -> type[Action] | None:
    """The game's series entry (several entries in one), if it has one."""
    for kind in state.game.action_types:
        if kind.model_fields["kind"].default == SERIES_KIND:
            return kind
    return None


@dataclass
class _Step:
    seat: Seat
    action: Action | None
    tokens: list[Token]
    because: str | Callable[[], str] = ""
    """Why the step was refused (worked out only for the refusal said)."""

    @property
    def reason(self) -> str:
        if callable(self.because):
            self.because = self.because()
        return self.because


def _single_actor(state: GameState[Any]) -> Seat | None:
    awaited = state.awaiting()
    return next(iter(awaited)) if len(awaited) == 1 else None


def _segment(
    state: GameState[Any], typed: Sequence[Token], first: Seat | None = None
) -> tuple[list[_Step], list[list[_Step]]]:
    """Split ``typed`` into entries made one after another. Each is made by the player named just
    before it (a seat token: ``bob 9H``, ``jack: 9H``), or else by the one player awaited at that
    point; ``first`` names the player of the first entry.

    Returns the furthest split (its last step unreadable or refused when no split reads the whole
    text) and the splits that read the whole text, at most two (two are an ambiguous line). Longer
    readings of a step are tried first (``QS -3`` before ``QS``); where one reads on to the end of
    the line, its words are not split into shorter entries."""
    best: list[_Step] = []
    wholes: list[list[_Step]] = []

    def keep(steps: list[_Step]) -> None:
        nonlocal best
        if len(steps) > len(best) or (len(steps) == len(best) and best and best[-1].action is not None):
            best = steps

    def walk(twin: GameState[Any], at: int, steps: list[_Step]) -> bool:
        """Whether the search is done (two whole splits found)."""
        if at == len(typed):
            if all(w != steps for w in wholes):
                wholes.append(steps)
            return len(wholes) >= 2
        options: list[tuple[Seat, int]] = []
        if twin.is_over:
            keep([*steps, _Step(-1, None, list(typed[at:]), "the match is over before it")])
            return False
        if typed[at].kind == "seat":
            if at + 1 < len(typed) and 0 <= typed[at].value < twin.n:
                options.append((typed[at].value, 1))
        elif first is not None and not steps:
            options.append((first, 0))
        else:
            single = _single_actor(twin)
            if single is not None:
                options.append((single, 0))
            elif first is None:  # a seat is expected: "ace KH" is the player called Ace
                options += [(s, size) for s, size in _card_word_seats(twin, typed, at)]
        if not options:
            why = (
                "nothing follows the player's name"
                if typed[at].kind == "seat"
                else "several players may enter there: name the player first"
            )
            keep([*steps, _Step(-1, None, list(typed[at:]), why)])
            return False
        for actor, skip in options:
            start = at + skip
            legal = twin.legal_actions(actor)
            index = _Index(legal)
            for size in range(min(MAX_SEGMENT, len(typed) - start), 0, -1):
                part = typed[start : start + size]
                if any(t.kind == "seat" for t in part):
                    continue
                level, found = index.best(part)
                if level is None or len(found) != 1:
                    # an entry the game accepts without listing it (a count already filled in)
                    found = [
                        a
                        for a in _built(twin, part, legal)
                        if match_level(a, part, DERIVED) is not None and twin.is_legal(actor, a)
                    ][:1]
                    if not found:
                        continue
                after = twin.clone()
                try:
                    after._apply(actor, found[0])  # legal: listed, or checked just above
                    after.history.append((actor, found[0]))
                except (IllegalAction, ValueError):  # a game may reject a card of another pack outright
                    continue
                before = len(wholes)
                if walk(after, start + size, [*steps, _Step(actor, found[0], list(part))]):
                    return True
                if len(wholes) > before:
                    break  # a phrase read as one entry is never also split ("no mog" is not "no", "mog")
        actor, skip = options[0]
        rest = typed[at + skip :]
        keep([*steps, _Step(actor, None, list(rest), lambda: _why(twin, actor, rest))])
        return False

    walk(state.clone(), 0, [])
    return best, wholes


def _why(state: GameState[Any], seat: Seat, rest: Sequence[Token]) -> str:
    """Why the first entry of ``rest`` cannot be made by ``seat`` now (the game's reason), or ""
    when no entry of the game can be made of it."""
    for size in range(min(MAX_SEGMENT, len(rest)), 0, -1):
        for action in _built(state, rest[:size]):
            try:
                state.check(seat, action)
            except (IllegalAction, ValueError) as exc:
                return f"{action.label()} for {state.name(seat)}: {_sentence(str(exc))}"
    return ""


def _sentence(text: str) -> str:
    return text.rstrip().rstrip(".")


def _read_series(
    state: GameState[Any], reading: _Reading, seat: Seat | None, speaker: Seat | None, first_step: list[str]
) -> list[tuple[Seat, Action]]:
    """The lines of several entries the reading could be (two when it splits two ways)."""
    kind = series_type(state)
    line = reading.line
    if kind is None or len(line) < 2:
        return []
    steps, wholes = _segment(state, line, seat)
    out: list[tuple[Seat, Action]] = []
    for whole in wholes:
        if len(whole) >= 2:
            entries = tuple(s.action for s in whole)
            seats = tuple(s.seat for s in whole)
            out.append((seats[0], kind.model_validate({"entries": entries, "seats": seats})))
    if wholes:
        return out
    failed = steps[-1] if steps else None
    if failed is not None and failed.action is None and len(steps) == 1 and failed.reason:
        first_step.append(f'Read "{reading.raw}" as {tokens_text(failed.tokens, state.players)}, which is refused: {failed.reason}.')
        return []  # the entry alone may explain itself better
    if failed is not None and failed.action is None and len(steps) >= 2:
        done = [s for s in steps if s.action is not None]
        head = ", ".join(f"{state.name(s.seat)} {s.action.label()}" for s in done if s.action is not None)
        said = f"{head}; then " if head else ""
        reason = failed.reason or f'"{tokens_text(failed.tokens[:1], state.players)}" is not an entry that can follow'
        raise EntryError(f'Read "{reading.raw}" as {said}{tokens_text(failed.tokens, state.players)}, which is refused: {reason}.')
    return []


# --- refusals ------------------------------------------------------------------------------------


def _annotation_kind(annotation: Any) -> tuple[str, tuple[Any, ...]]:
    """What a field holds, for building an action from tokens: card, suit, int, str, choice."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if annotation is Card:
        return "card", ()
    if annotation is Suit:
        return "suit", ()
    if annotation is bool:
        return "bool", ()
    if annotation is int:
        return "int", ()
    if annotation is str:
        return "str", ()
    if typing.get_origin(annotation) is typing.Literal:
        return "choice", typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "choice", tuple(m.value for m in annotation)
    return "other", ()


@lru_cache(maxsize=256)
def _plain(kind: type[Action]) -> Action | None:
    """The action of type ``kind`` with nothing chosen (``Pass()``, no-trump), if there is one."""
    values: dict[str, Any] = {}
    for name, info in kind.model_fields.items():
        if name == "kind" or not info.is_required():
            continue
        if type(None) not in typing.get_args(info.annotation):
            return None
        values[name] = None
    try:
        return kind(**values)
    except (ValueError, TypeError):
        return None


@lru_cache(maxsize=256)
def _kind_words(kind: type[Action]) -> frozenset[Any]:
    return frozenset(t.value for t in tokenize(str(kind.model_fields["kind"].default).replace("_", " ")))


def _build(kind: type[Action], typed: Sequence[Token], template: Action | None = None) -> Action | None:
    """An action of type ``kind`` from the tokens, filling its fields by type, in order (the
    fields the tokens cannot say, such as a flag, are copied from ``template``, an action of the
    same kind on offer)."""
    plain = _plain(kind)
    if plain is not None and match_level(plain, typed) in (LABEL, DERIVED):
        return plain
    rest = list(typed)
    values: dict[str, Any] = {}
    kind_words = _kind_words(kind)
    named = any(t.kind == "word" and t.value in kind_words for t in typed)
    for name, info in kind.model_fields.items():
        if name == "kind":
            continue
        what, choices = _annotation_kind(info.annotation)
        wanted = {"card": "card", "suit": "suit", "int": "num", "str": "cell"}.get(what)
        pick = None
        for i, t in enumerate(rest):
            if (wanted is not None and t.kind == wanted) or (
                what == "choice" and t.kind == "word" and t.value in {str(c) for c in choices}
            ):
                pick = i
                break
        if pick is None:
            if template is not None and (what in ("bool", "other") or named):
                values[name] = getattr(template, name)  # "challenge": the one on offer
            elif info.is_required():
                return None
            continue
        values[name] = rest.pop(pick).value
    if any(t.kind != "word" or t.value not in kind_words for t in rest):
        return None
    if not values and not rest:
        return None
    try:
        return kind(**values)
    except (ValueError, TypeError):
        return None


def _built(state: GameState[Any], typed: Sequence[Token], legal: Sequence[Action] | None = None) -> list[Action]:
    """Actions of this game that the tokens could mean, whether allowed now or not; the kinds
    offered now (in ``legal``, else to any seat) come first."""
    offered: dict[str, Action] = {}
    for a in legal if legal is not None else (a for s in state.actors() for a in state.legal_actions(s)):
        offered.setdefault(a.kind, a)
    kinds = sorted(state.game.action_types, key=lambda k: k.model_fields["kind"].default not in offered)
    out = []
    for kind in kinds:
        name = kind.model_fields["kind"].default
        if name == SERIES_KIND or len(typed) > len(kind.model_fields) - 1 + len(_kind_words(kind)):
            continue  # more tokens than its fields and its words can take
        action = _build(kind, typed, offered.get(name))
        if action is not None:
            out.append(action)
    return out


def _explain_seat(state: GameState[Any], reading: _Reading, seat: Seat | None, speaker: Seat | None) -> Seat:
    if seat is not None:
        return seat
    if reading.named is not None:
        return reading.named
    awaited = sorted(state.awaiting())
    if speaker is not None and (speaker in awaited or speaker in state.actors()):
        return speaker
    return awaited[0] if awaited else 0


def _refusal(
    state: GameState[Any],
    readings: Sequence[_Reading],
    seat: Seat | None,
    speaker: Seat | None,
    raw: str,
    first_step: str = "",
) -> EntryError:
    for reading in readings:
        if not reading.tokens:
            continue
        who = _explain_seat(state, reading, seat, speaker)
        for action in _built(state, reading.tokens):
            try:
                state.check(who, action)
            except (IllegalAction, ValueError) as exc:
                whose = f" for {state.name(who)}" if seat is None else ""
                return EntryError(f'Read "{reading.raw}" as {action.label()}{whose}, which is refused: {_sentence(str(exc))}.')
            return EntryError(f'"{raw}" reads as {action.label()}: enter it as "{typed_form(action)}".')
    if first_step:
        return EntryError(first_step)
    understood = next((r for r in readings if r.tokens), None)
    example = _example(state, seat)
    if understood is None:
        line = next((r.line for r in readings if len(r.line) > 1), None)
        if line is not None:  # several players named: a line none of whose readings holds
            return EntryError(
                f'"{raw}" (read as {_line_text(line, state.players)}) is not a line of entries that can be made now. '
                f"For example: {example}."
            )
        return EntryError(f'Nothing in "{raw}" reads as an entry. For example: {example}.')
    named = f"{state.name(understood.named)}: " if understood.named is not None else ""
    return EntryError(
        f'"{raw}" (read as {named}{tokens_text(understood.tokens)}) is not an entry that can be made now. '
        f"For example: {example}."
    )


def _line_text(line: Sequence[Token], names: Sequence[str]) -> str:
    """A line said back, each player named with a colon (``ann: zz bob: K\u2665``)."""
    return " ".join(
        f"{names[t.value]}:" if t.kind == "seat" and 0 <= t.value < len(names) else t.text() for t in line
    )


def _example(state: GameState[Any], seat: Seat | None) -> str:
    menu = entry_menu(state, seat)
    if not menu:
        return '"#1"'
    s, action = menu[len(menu) // 2] if len(menu) > 2 else menu[0]
    text = typed_form(action)
    if seat is None and len({x for x, _ in menu}) > 1:
        return f'"{state.name(s)}: {text}"'
    return f'"{text}"'


__all__ = [
    "EntryError",
    "Token",
    "best_matches",
    "entry_menu",
    "forms",
    "read_action",
    "read_choice",
    "series_type",
    "tokenize",
    "typed_form",
]

