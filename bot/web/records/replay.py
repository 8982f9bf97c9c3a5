"""A finished match as a page steps through it: its deals, its moves, and the position at any step.

Built once from the stored record (the match never changes again) by one replay of the whole log,
which keeps a copy of the position at each deal's start; a step is then at most one deal's moves
away. Nothing here reads a live match: :func:`replay_of` is only ever given a finished one (the
page refuses anything else before it gets here).

A step is named as the page's links name it: ``(deal, move)``, ``move`` 0 being the table before
the deal's first move and ``move`` k the table after its k-th.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.cards import Card
from games.engine import Action, Game, GameState, MatchRecord
from games.layout import Layout
from games.registry import get_game, referee_game


@dataclass(frozen=True)
class Move:
    """One action of the match, as the move list shows it."""

    number: int
    """Its place in the whole match, from 1."""
    deal: int
    index: int
    """Its place in its deal, from 1."""
    seat: int
    action: Action
    text: str
    """Who did what, in the game's own words (``Ann: play 7♠``)."""
    events: tuple[str, ...]
    """What the table saw happen (the public events it caused)."""


@dataclass(frozen=True)
class Position:
    """The table at one step: the public picture, every hand (nothing is hidden once the match is
    over) and the scores."""

    deal: int
    move: int
    layout: Layout
    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    scores: tuple[int, ...]


@dataclass
class Replay:
    """A finished match, indexed for stepping."""

    game: Game[Any]
    record: MatchRecord
    mode: str
    players: tuple[str, ...]
    moves: list[Move] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    """The deals in order (numbers as the game counts them)."""
    by_deal: dict[int, list[Move]] = field(default_factory=dict)
    starts: dict[int, GameState[Any]] = field(default_factory=dict)
    """A copy of the position before each deal's first move."""
    deal_scores: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """The match scores once each deal was over (or at the end, for the last)."""
    final: GameState[Any] | None = None

    def position(self, deal: int, move: int) -> Position:
        """The table after ``move`` moves of ``deal`` (both checked by :meth:`step` first)."""
        state = self.starts[deal].clone()
        for m in self.by_deal[deal][:move]:
            state.apply_checked(m.seat, m.action)
        return Position(deal, move, state.view(None).layout(), hands_of(state), tuple(state.scores))

    def step(self, deal: int | None, move: int | None) -> tuple[int, int]:
        """The step a link asks for, brought into range: no deal is the first; a move past the deal's
        end is its last; a deal past the match's end is its last."""
        deals = self.deals
        if deal is None or deal not in self.by_deal:
            deal = deals[-1] if deal is not None and deals and deal > deals[-1] else deals[0]
        last = len(self.by_deal[deal])
        return deal, 0 if move is None else max(0, min(move, last))

    def final_step(self) -> tuple[int, int]:
        deal = self.deals[-1]
        return deal, len(self.by_deal[deal])

    def neighbours(self, deal: int, move: int) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """The steps before and after this one (``None`` at either end of the match). The end of a
        deal and the start of the next are the same table, so stepping skips the second."""
        i = self.deals.index(deal)
        if move > 0:
            back: tuple[int, int] | None = (deal, move - 1)
        elif i > 0:
            before = self.deals[i - 1]
            back = (before, max(0, len(self.by_deal[before]) - 1))
        else:
            back = None
        if move < len(self.by_deal[deal]) - 1 or (move < len(self.by_deal[deal]) and i == len(self.deals) - 1):
            ahead: tuple[int, int] | None = (deal, move + 1)
        elif i < len(self.deals) - 1:
            ahead = (self.deals[i + 1], 0)
        else:
            ahead = None
        return back, ahead


def hands_of(state: GameState[Any]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """Each seat's hand as its own view shows it: a finished match hides nothing any more."""
    return tuple((name, tuple(state.view(seat).hand)) for seat, name in enumerate(state.players))


def game_of(game_id: str, mode: str) -> Game[Any]:
    return referee_game(game_id) if mode == "referee" else get_game(game_id)


def build(record: MatchRecord, mode: str = "online") -> Replay:
    """Replay a finished match once, indexing its moves by deal."""
    game = game_of(record.game, mode)
    state = game.start(record.players, record.options, record.seed, record.deck)
    replay = Replay(game, record, mode, tuple(record.players))
    deal = max(1, state.deal_no)
    replay.starts[deal] = state.clone()
    replay.deals.append(deal)
    replay.by_deal[deal] = []
    for number, seat, action, events in game.replay_steps(record, state, checked=False):
        moves = replay.by_deal[deal]
        move = Move(
            number,
            deal,
            len(moves) + 1,
            seat,
            action,
            f"{record.players[seat]}: {action.label()}",
            tuple(e.text for e in events if e.to is None),
        )
        moves.append(move)
        replay.moves.append(move)
        now = max(1, state.deal_no)
        if now != deal and not state.is_over:
            replay.deal_scores[deal] = tuple(state.scores)
            deal = now
            replay.starts[deal] = state.clone()
            replay.deals.append(deal)
            replay.by_deal[deal] = []
    replay.deal_scores[deal] = tuple(state.scores)
    if not replay.by_deal[deal] and len(replay.deals) > 1:  # a deal opened by the match's last move
        replay.deals.pop()
        del replay.by_deal[deal], replay.starts[deal], replay.deal_scores[deal]
    replay.final = state
    return replay
