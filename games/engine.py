# Over 400 lines: the whole game protocol (actions, events, views, outcomes, the state, the game, records, options) in the one module a game's author reads; copies and snapshots are in copying.py.
"""The game protocol every game implements.

A :class:`Game` is the static description (id, title, player range, options model, rules
summary). :meth:`Game.start` returns a :class:`GameState` for a whole match: every deal,
the dealer's rotation and the running scores, until the match ends with an :class:`Outcome`.

The state is deterministic: ``(game, options, players, seed, deck, actions)`` replays to an
equal state, which is what storage keeps and what makes crash recovery and replays exact.

Rules of the protocol, kept by :meth:`GameState.apply`:

* only a seat in :meth:`GameState.awaiting` may act, and only with an action from
  :meth:`GameState.legal_actions`; anything else raises :class:`IllegalAction` with a reason a
  player can read, and changes nothing;
* events are public unless ``Event.to`` names the one seat allowed to see them;
* :meth:`GameState.view` gives what one seat may know, ``view(None)`` what the whole table may.

:meth:`GameState.clone` is the one copy of a state (bots and solvers try moves on clones); a game
writes no copy helper of its own.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from games.cards import Card, format_cards, same_cards, shuffled
from games.copying import Copyable, read_snapshot
from games.copying import clone_value as clone_value
from games.copying import snapshot_format as snapshot_format
from games.layout import Area, Layout, generic_hand_layout, generic_layout

Seat = int


class IllegalAction(Exception):
    """A move the rules do not allow; ``str(exc)`` is a sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SetupError(ValueError):
    """A match that cannot start as asked (player count, options); the message is for users."""


# --- actions, events, views, outcomes ------------------------------------------------------------


class Action(BaseModel):
    """Base of every action. Subclasses add ``kind: Literal[...]`` and their fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str

    @property
    def card(self) -> Card | None:
        """The card this action plays or shows, if any (used to group cards in menus)."""
        return None

    def label(self) -> str:
        """A short text for a button or a menu entry."""
        c = self.card
        return c.short if c is not None else self.kind.replace("_", " ").capitalize()

    def choice_path(self) -> tuple[str, ...]:
        """Where this action sits in a menu: outer groups first, the action's own label last.

        Interfaces with limited room (Discord allows 25 options a menu) split by the outer groups.
        """
        c = self.card
        if c is not None:
            group = c.suit.title if c.suit is not None else "Jokers"
            return (group, self.label())
        return (self.label(),)


class PlayCard(Action):
    """Play a card from one's hand: the common move of trick-taking and adding-up games."""

    kind: Literal["play"] = "play"
    play: Card

    @property
    def card(self) -> Card:
        return self.play

    def label(self) -> str:
        return self.play.short


class Pass(Action):
    kind: Literal["pass"] = "pass"

    def label(self) -> str:
        return "Pass"


class Event(BaseModel):
    """Something that happened, as a sentence. ``to`` is ``None`` for the whole table."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    to: Seat | None = None


class Outcome(BaseModel):
    """The end of a match: final scores, ranks (1 is best; ties share a rank) and notes."""

    model_config = ConfigDict(frozen=True)

    scores: list[int]
    ranks: list[int]
    notes: list[str] = []
    teams: list[list[Seat]] | None = None

    @property
    def winners(self) -> list[Seat]:
        return [s for s, r in enumerate(self.ranks) if r == 1]

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[int],
        *,
        higher_is_better: bool = True,
        notes: Iterable[str] = (),
        teams: list[list[Seat]] | None = None,
        ranks: Sequence[int] | None = None,
    ) -> Outcome:
        return cls(
            scores=list(scores),
            ranks=list(ranks) if ranks is not None else rank_scores(scores, higher_is_better),
            notes=list(notes),
            teams=teams,
        )


def rank_scores(scores: Sequence[int], higher_is_better: bool = True) -> list[int]:
    """Competition ranking (1, 1, 3): equal scores share a rank."""
    sign = -1 if higher_is_better else 1
    return [1 + sum(1 for t in scores if sign * t < sign * s) for s in scores]


class View(BaseModel):
    """What one seat (or, with ``seat=None``, the whole table) may know.

    Games subclass it with their own fields and override :meth:`table_lines`.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    players: list[str]
    seat: Seat | None
    deal: int
    dealer: Seat | None
    scores: list[int]
    awaiting: list[Seat]
    phase: str
    hand: list[Card] = []
    over: bool = False
    outcome: Outcome | None = None
    deal_over: bool = False
    """This is the table as a finished deal left it (:attr:`GameState.deal_end`): nobody is awaited."""

    def table_lines(self) -> list[str]:
        """Game-specific lines describing the table (trick, total, grid...)."""
        return []

    def layout(self) -> Layout:
        """A picture of the table as this view sees it (pure data, drawn by ``bot/render``).

        The default shows every card field of the view, the seat's own hand and the scores; a game
        whose table has a shape (a trick, a grid, a running pile) overrides it. Only the view's own
        fields may go into it."""

        return generic_layout(self)

    def hand_context(self) -> tuple[Area, ...]:
        """What a seat needs beside its hand to choose a card (the trick to follow, the total)."""
        return ()

    def hand_layout(self, playable: Iterable[Card] = (), context: bool = True) -> Layout:
        """A picture of the seat's hand, the ``playable`` cards marked, under :meth:`hand_context`
        (``context=False``: the hand alone, for a view kept while others play: what their moves
        change would soon be out of date in it)."""
        return generic_hand_layout(self, playable, context)

    def text_lines(self) -> list[str]:
        """A complete plain-text description, for the console and embeds."""
        lines = [f"Deal {self.deal} - {'over' if self.deal_over else self.phase}"]
        lines.append(
            "Scores: " + ", ".join(f"{p} {s}" for p, s in zip(self.players, self.scores, strict=True))
        )
        lines.extend(self.table_lines())
        if self.seat is not None and self.hand:
            lines.append(f"Your hand: {format_cards(self.hand)}")
        if self.over and self.outcome is not None:
            lines.extend(self.outcome.notes)
        elif self.awaiting:
            lines.append("Waiting for: " + ", ".join(self.players[s] for s in self.awaiting))
        return lines


@dataclass(frozen=True)
class Zone:
    """A place cards lie during play. ``visible_to`` is ``None`` when the whole table sees it."""

    name: str
    cards: Sequence[Card]
    visible_to: frozenset[Seat] | None = None


# --- the state ----------------------------------------------------------------------------------

OptionsT = TypeVar("OptionsT", bound=BaseModel)


class GameState(Copyable, ABC, Generic[OptionsT]):
    """One match in progress. Subclasses implement the ``_``-prefixed hooks and the abstract API.

    :meth:`clone`, ``copy.deepcopy`` and :meth:`snapshot` come from :class:`games.copying.Copyable`."""

    _copied_lists: ClassVar[frozenset[str]] = frozenset(("history", "log"))
    """The base state's lists of immutable entries (``(seat, action)`` pairs, frozen events)."""

    game: ClassVar[Game[Any]]

    def __init__(
        self,
        players: Sequence[str],
        options: OptionsT,
        seed: int,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.options: OptionsT = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.fixed_decks: list[list[Card]] = normalise_decks(deck)
        self.history: list[tuple[Seat, Action]] = []
        """The actions applied, oldest first; after :meth:`forget_past` only the later ones."""
        self.log: list[Event] = []
        """The events of the match; after :meth:`forget_past` only the recent ones."""
        self.forgotten = 0
        """How many actions :meth:`forget_past` dropped from ``history`` (the stored log keeps them)."""
        self.scores: list[int] = [0] * len(self.players)
        self.deal_no = 0
        self.outcome: Outcome | None = None
        self.settled: Any = None
        """The facts of the last deal the match scored (:class:`games.match.DealFacts`), in the
        games that declare a :class:`games.match.Match`."""
        self.deal_end: View | None = None
        """The table as the last finished deal left it, as the whole table saw it (the public view:
        its last trick, its final total or revealed grid, the scores it left), kept while the next
        deal is played: the deal's own message keeps this picture. Taken by :meth:`keep_deal_end`
        when the match settles a deal, before the next one is dealt, so it holds nothing of the
        next deal; a replay takes it again at the same move."""

    # -- the public API --------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def turn(self) -> int:
        """How many actions have been applied; a menu offered at an older turn is stale."""
        return self.forgotten + len(self.history)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @abstractmethod
    def awaiting(self) -> frozenset[Seat]:
        """The seats whose input the game waits for; empty once the match is over."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Everything ``seat`` may do now.

        An awaited seat always has at least one. A seat that is not awaited may still have
        *optional* acts (a challenge of an illegal call, a partner's request): the game does not
        wait for them, but accepts them while they are listed.
        """

    def actors(self) -> list[Seat]:
        """Every seat that may act now: the awaited seats and those with optional acts."""
        if self.is_over:
            return []
        return [s for s in range(self.n) if self.legal_actions(s)]

    @abstractmethod
    def view(self, seat: Seat | None) -> View:
        """What ``seat`` may know; ``None`` is the public view."""

    @abstractmethod
    def card_zones(self) -> list[Zone]:
        """Every card of the match's pack, once each, with who may see it (for invariants)."""

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a move already known to be legal."""

    def public_knowledge(self) -> list[Card]:
        """Cards the whole table has seen though they lie in a hidden place (a bid card taken back
        into hand, say). Views may show these; the leak checks allow them."""
        return []

    @classmethod
    def check_setup(cls, players: int, options: OptionsT) -> None:
        """Raise :class:`SetupError` if these options cannot be played by this many players."""

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """Whether ``action`` is in ``legal_actions(seat)``. A game whose menus run long may decide
        it directly, without building the list; it must agree with the list."""
        return action in self.legal_actions(seat)

    def ready_actions(self, seat: Seat) -> list[Action]:
        """What ``seat`` would be offered if its turn came now, with the table as it stands: none
        while it is awaited (its choices are :meth:`legal_actions`), none by default.

        A waiting player's private view shows these (a ready hand), so that when their turn comes
        with the same choices the view needs no redraw. Only the seat's own knowledge may go into
        them (its hand and the public table): they are shown to that seat alone.
        """
        return []

    def explain_illegal(self, seat: Seat, action: Action) -> str | None:
        """Why ``action`` is not legal for ``seat`` now, or ``None`` to leave it to the base.

        :meth:`check` asks for every refused action of a seat at the table, including a seat the
        game is not waiting for: the game may know better than "It is not your turn" (a bid already
        down, a count already entered). Without a reason the base says whose turn it is, or, to a
        seat that may act, that it cannot do this now.
        """
        return None

    def check(self, seat: Seat, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may make ``action`` now."""
        if self.is_over:
            raise IllegalAction("This match is over.")
        if not 0 <= seat < self.n:
            raise IllegalAction("You are not playing at this table.")
        if self.is_legal(seat, action):
            return
        reason = self.explain_illegal(seat, action)
        if reason:
            raise IllegalAction(reason)
        if not self.legal_actions(seat):
            names = ", ".join(self.players[s] for s in sorted(self.awaiting()))
            raise IllegalAction(f"It is not your turn: the table is waiting for {names}.")
        raise IllegalAction(f"You cannot {action.label()} now.")

    def forget_past(self, keep_events: int = 32) -> None:
        """Drop the history and all but the recent events: what a live table needs is the position
        itself. Whoever calls this keeps the whole log elsewhere (the table service in storage), and
        :meth:`Game.record` of this state is then refused."""
        self.forgotten += len(self.history)
        self.history = []
        del self.log[:-keep_events]

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply one move, returning what happened; raises :class:`IllegalAction` and changes nothing if illegal."""
        self.check(seat, action)
        return self.apply_checked(seat, action)

    def apply_checked(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a move whose legality was checked when it was made (an action of the match's own
        stored log, replayed): the same as :meth:`apply` without checking again. An action that
        was never checked may leave the state anything but a position of the game."""
        events = self._apply(seat, action)
        self.history.append((seat, action))
        self.log.extend(events)
        return events

    def keep_deal_end(self) -> None:
        """Keep the table as the deal just settled left it (:attr:`deal_end`): the match calls this
        once it has scored a deal, before the next is dealt (:meth:`games.match.Match.settle`). A
        referee state keeps none (:meth:`games.referee.state.RefereeState.keep_deal_end`)."""
        self.deal_end = self.view(None).model_copy(update={"awaiting": [], "deal_over": True})

    # -- helpers for subclasses ------------------------------------------------------------------

    def name(self, seat: Seat) -> str:
        return self.players[seat]

    def choose_first_dealer(self) -> Seat:
        """Seat of the first dealer: the ``first_dealer`` option if set (1-based), else random."""
        chosen = getattr(self.options, "first_dealer", None)
        if chosen is not None:
            return (int(chosen) - 1) % self.n
        return self.rng.randrange(self.n)

    def next_pack_order(self, pack: Sequence[Card]) -> list[Card]:
        """The order of the pack for the next deal: a fixed deck if one was given, else a shuffle."""
        index = self.deal_no - 1 if self.deal_no > 0 else 0
        if index < len(self.fixed_decks):
            order = self.fixed_decks[index]
            if not same_cards(order, pack):
                raise SetupError(
                    f"The fixed deck for deal {index + 1} does not hold the {len(pack)} cards of this game's pack."
                )
            return list(order)
        return shuffled(pack, self.rng)

    def event(self, kind: str, text: str, to: Seat | None = None) -> Event:
        return Event(kind=kind, text=text, to=to)

    def finish(self, outcome: Outcome) -> Event:
        self.outcome = outcome
        winners = " and ".join(self.players[s] for s in outcome.winners)
        return self.event("match_over", f"The match is over: {winners} {'wins' if len(outcome.winners) == 1 else 'share first place'}.")

    def base_view(self, seat: Seat | None) -> dict[str, Any]:
        """The fields every view shares, for ``SomeView(**self.base_view(seat), ...)``."""
        return {
            "game": self.game.id,
            "players": list(self.players),
            "seat": seat,
            "deal": self.deal_no,
            "dealer": getattr(self, "dealer", None),
            "scores": list(self.scores),
            "awaiting": sorted(self.awaiting()),
            "over": self.is_over,
            "outcome": self.outcome,
        }

    def fingerprint(self) -> dict[str, Any]:
        """Everything the state holds, comparable with ``==`` (used to check replays)."""
        out: dict[str, Any] = {}
        for key, value in vars(self).items():
            out[key] = value.getstate() if isinstance(value, random.Random) else value
        return out


def normalise_decks(deck: Sequence[Card] | Sequence[Sequence[Card]] | None) -> list[list[Card]]:
    """Accept one pack order (for the first deal) or a list of orders (one per deal)."""
    if not deck:
        return []
    first = deck[0]
    if isinstance(first, Card):
        return [list(deck)]  # type: ignore[arg-type]
    return [list(d) for d in deck]  # type: ignore[arg-type]


# --- the game description -----------------------------------------------------------------------


class Game(Generic[OptionsT]):
    """The static description of a game. One instance per game, listed in the registry."""

    def __init__(
        self,
        *,
        id: str,
        title: str,
        min_players: int,
        max_players: int,
        options: type[OptionsT],
        state: type[GameState[OptionsT]],
        actions: Sequence[type[Action]],
        summary: str,
        player_counts: Sequence[int] | None = None,
    ) -> None:
        self.id = id
        self.title = title
        self.min_players = min_players
        self.max_players = max_players
        self.player_counts: tuple[int, ...] = tuple(
            player_counts or range(min_players, max_players + 1)
        )
        self.Options = options
        self.state_cls = state
        self.action_types = tuple(actions)
        self.summary = summary
        state.game = self

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    @cached_property
    def _action_adapter(self) -> TypeAdapter[Any]:
        from typing import Annotated, Union

        from pydantic import Discriminator

        if len(self.action_types) == 1:
            return TypeAdapter(self.action_types[0])
        union = Union[tuple(self.action_types)]  # type: ignore[valid-type]  # noqa: UP007
        return TypeAdapter(Annotated[union, Discriminator("kind")])  # type: ignore[arg-type]

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.model_dump(mode="json")

    def action_from_json(self, data: Mapping[str, Any] | str) -> Action:
        if isinstance(data, str):
            return self._action_adapter.validate_json(data)  # type: ignore[no-any-return]
        return self._action_adapter.validate_python(data)  # type: ignore[no-any-return]

    def options(self, values: Mapping[str, Any] | OptionsT | None = None) -> OptionsT:
        """Build and validate options; raises :class:`SetupError` with a readable message."""
        if isinstance(values, self.Options):
            return values
        try:
            return self.Options.model_validate(dict(values or {}))
        except ValidationError as exc:
            raise SetupError(options_error_text(exc)) from None

    def parse_options(self, pairs: Iterable[str]) -> OptionsT:
        """Options from ``key=value`` strings, as typed in a command."""
        values: dict[str, Any] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not key:
                raise SetupError(f"'{pair}' is not an option: write it as name=value.")
            if key not in self.Options.model_fields:
                known = ", ".join(self.Options.model_fields) or "none"
                raise SetupError(f"{self.title} has no option '{key}'. Its options: {known}.")
            values[key] = value.strip()
        return self.options(values)

    def check_players(self, count: int, options: OptionsT) -> None:
        if count not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise SetupError(f"{self.title} is for {counts} players, not {count}.")
        first = getattr(options, "first_dealer", None)
        if first is not None and first > count:
            raise SetupError(f"first_dealer must be a seat from 1 to {count}.")
        self.state_cls.check_setup(count, options)

    def start(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | OptionsT | None = None,
        seed: int | None = None,
        deck: Sequence[Card] | Sequence[Sequence[Card]] | None = None,
    ) -> GameState[OptionsT]:
        opts = self.options(options)
        self.check_players(len(players), opts)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return self.state_cls(players, opts, seed, deck)

    def replay(self, record: MatchRecord, *, checked: bool = True) -> GameState[OptionsT]:
        """Rebuild a match from its record by applying every action in order (``checked``: see
        :meth:`replay_steps`)."""
        state = self.start(record.players, record.options, record.seed, record.deck)
        for _ in self.replay_steps(record, state, checked=checked):
            pass
        return state

    def replay_steps(
        self,
        record: MatchRecord,
        state: GameState[OptionsT] | None = None,
        *,
        checked: bool = True,
        from_turn: int = 0,
    ) -> Iterator[tuple[int, Seat, Action, list[Event]]]:
        """The one way a match is replayed: apply the record's actions in order (to ``state``, a
        fresh start of the record, or a snapshot taken part-way: then only the actions after it),
        yielding ``(number, seat, action, events)`` after each, numbered from 1.

        The caller sees the state change as it goes (scores per deal, events per page); an action
        that no longer applies raises :class:`IllegalAction` naming its number. Unless
        ``checked``, the actions are taken as legal, as they were when they were logged (the
        match's own stored log, replayed to restore it: about twice as fast); one that does not
        fit the position raises :class:`ReplayError` only if applying it fails. ``from_turn``:
        the record holds the actions from this turn on (the tail after a snapshot)."""
        if state is None:
            state = self.start(record.players, record.options, record.seed, record.deck)
        if state.turn < from_turn:
            raise ValueError(f"the record begins at action {from_turn + 1}, after this state's turn {state.turn}")
        parsed: dict[str, Action] = {}
        for number, (seat, data) in enumerate(record.actions[state.turn - from_turn :], state.turn + 1):
            key = json.dumps(data, sort_keys=True)
            action = parsed.get(key)
            if action is None:  # a log repeats its moves (pass, draw, the same card in later deals)
                action = parsed[key] = self.action_from_json(data)
            try:
                events = state.apply(seat, action) if checked else state.apply_checked(seat, action)
            except IllegalAction as exc:
                raise ReplayError(number, str(exc)) from exc
            except Exception as exc:
                if checked:
                    raise
                raise ReplayError(number, f"{type(exc).__name__}: {exc}") from exc
            yield number, seat, action, events

    def from_snapshot(self, data: bytes, format: str) -> GameState[OptionsT] | None:
        """A position saved by :meth:`GameState.snapshot`, or ``None`` if other code saved it
        (``format`` is not :func:`snapshot_format`) or it is not a position of this game."""
        state = read_snapshot(data, format)
        return state if type(state) is self.state_cls else None

    def record(self, state: GameState[OptionsT]) -> MatchRecord:
        if state.forgotten:
            raise ValueError("this state forgot its early actions: read the match's stored log instead")
        return MatchRecord(
            game=self.id,
            options=state.options.model_dump(mode="json"),
            players=list(state.players),
            seed=state.seed,
            deck=state.fixed_decks or None,
            actions=[(seat, self.action_to_json(a)) for seat, a in state.history],
        )

    def option_fields(self) -> list[OptionInfo]:
        """The options with their type, default, choices and description, for menus and help."""
        return [describe_option(name, f) for name, f in self.Options.model_fields.items()]


class ReplayError(IllegalAction):
    """Action ``number`` (from 1) of a record no longer applies to the position before it."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"action {number} no longer applies: {reason}")
        self.number = number
        self.reason = reason


class MatchRecord(BaseModel):
    """Everything needed to rebuild a match exactly."""

    game: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    deck: list[list[Card]] | None = None
    actions: list[tuple[Seat, dict[str, Any]]] = []


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    description: str
    choices: tuple[str, ...] = field(default=())
    kind: str = "text"  # "bool", "int", "choice" or "text"


def describe_option(name: str, info: Any) -> OptionInfo:
    import types
    import typing

    annotation = info.annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]  # an optional value: describe the value's type
    description = info.description or ""
    default = info.default
    if annotation is bool:
        return OptionInfo(name, default, description, ("true", "false"), "bool")
    if typing.get_origin(annotation) is typing.Literal:
        values = typing.get_args(annotation)
        return OptionInfo(name, default, description, tuple(str(a) for a in values), "choice")
    if annotation is int:
        return OptionInfo(name, default, description, (), "int")
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return OptionInfo(
            name, default, description, tuple(str(m.value) for m in annotation), "choice"
        )
    return OptionInfo(name, default, description)


def options_error_text(exc: ValidationError) -> str:
    """What was wrong with the options, in our words: each option refused, what it must be, and
    what was given."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        msg = _option_error(err).rstrip(".")
        parts.append((f"{where}{msg}" if msg.startswith(":") else f"{where} {msg}") if where else msg.lstrip(": "))
    return "Invalid options: " + "; ".join(parts) + "."


OPTION_RULES = {
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "int_type": "must be a whole number",
    "float_parsing": "must be a number",
    "bool_parsing": "must be yes or no (true/false, on/off)",
    "bool_type": "must be yes or no (true/false, on/off)",
    "string_too_long": "is too long",
    "finite_number": "must be a finite number",
}
"""pydantic's error types for an option, said our way (the rest keep pydantic's words)."""


def _option_error(err: Mapping[str, Any]) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    given = err.get("input")
    shown = f" (you gave {str(given)[:40]!r})" if isinstance(given, str | int | float) and not isinstance(given, bool) else ""
    if kind == "extra_forbidden":
        return "is not an option of this game"
    if kind in ("less_than_equal", "less_than"):
        return f"must be at most {ctx.get('le', ctx.get('lt'))}{shown}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be at least {ctx.get('ge', ctx.get('gt'))}{shown}"
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected', '?')}{shown}"
    if kind in OPTION_RULES:
        return OPTION_RULES[kind] + shown
    return ": " + str(err["msg"]).removeprefix("Value error, ")


def base_options_config() -> ConfigDict:
    """The model config every Options model uses: unknown keys refused, values immutable."""
    return ConfigDict(extra="forbid", frozen=True)


class BaseOptions(BaseModel):
    """What every game's Options share. Subclass it and add the game's own options, each a
    ``Field(default, description=...)``: the description is shown to users."""

    model_config = base_options_config()

    first_dealer: int | None = Field(
        None,
        ge=1,
        le=13,
        description="Seat number (1 = first player) of the first dealer or first to play; blank (or random) for random.",
    )

    @field_validator("first_dealer", mode="before")
    @classmethod
    def _blank_is_random(cls, value: object) -> object:
        """A blank value (as typed in a command or left empty in a form) or ``random`` means random."""
        if isinstance(value, str) and value.strip().lower() in ("", "random", "none"):
            return None
        return value


def iter_cards(obj: Any) -> Iterator[Card]:
    """Every :class:`Card` inside a view, event or other nested structure (for leak checks)."""
    found: list[Card] = []
    _collect_cards(obj, found)
    return iter(found)


_LEAVES = (str, int, float, type(None), Enum)
"""Types that hold no card: almost everything inside a view is one."""

_LEAF, _CARD, _MODEL, _MAPPING, _COLLECTION, _OTHER = range(6)
_KINDS: dict[type, int] = {}
"""What each type met in a walk is (one of the kinds above), decided once a type by ``_kind``."""
_LEAF_TYPES: set[type] = set()
"""The types of kind ``_LEAF`` met so far, for the walk to skip an item without a call."""
_MODEL_FIELDS: dict[type, tuple[str, ...]] = {}


def _kind(cls: type) -> int:
    if issubclass(cls, _LEAVES):
        kind = _LEAF
        _LEAF_TYPES.add(cls)
    elif issubclass(cls, Card):
        kind = _CARD
    elif issubclass(cls, BaseModel):
        kind = _MODEL
        _MODEL_FIELDS[cls] = tuple(cls.model_fields)
    elif issubclass(cls, Mapping):
        kind = _MAPPING
    elif issubclass(cls, (list, tuple, set, frozenset)):
        kind = _COLLECTION
    else:
        kind = _OTHER
    _KINDS[cls] = kind
    return kind


def _collect_cards(obj: Any, found: list[Card]) -> None:
    # A plain recursive walk (nested generators cost far more), deciding what a type is once: the
    # leak checks of the random playouts walk every view after every action. Items of a type
    # already known to hold no card are skipped without a call.
    cls = type(obj)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _kind(cls)
    if kind == _LEAF:
        return
    leaves = _LEAF_TYPES
    if kind == _CARD:
        found.append(obj)
    elif kind == _MODEL:
        for name in _MODEL_FIELDS[cls]:
            value = getattr(obj, name)
            cls = type(value)
            if cls is Card:
                found.append(value)
            elif cls not in leaves:
                _collect_cards(value, found)
    elif kind == _MAPPING:
        for k, v in obj.items():
            if type(k) not in leaves:
                _collect_cards(k, found)
            if type(v) not in leaves:
                _collect_cards(v, found)
    elif kind == _COLLECTION:
        for item in obj:
            cls = type(item)
            if cls is Card:
                found.append(item)
            elif cls not in leaves:
                _collect_cards(item, found)
