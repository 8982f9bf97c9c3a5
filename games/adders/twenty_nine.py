# Over 400 lines: a whole game in one module (options, pure scoring helpers, rules, deal, facts, match, state, declaration), as games/README.md asks.
"""Twenty-Nine: the Penguin's children's adding game for 2 to 8 players (not the Indian trick game).

Rules: ``shared/rules/twenty_nine.md``. Players add cards to a pile, never passing 29; whoever
makes exactly 29 takes the pile for their side. The side with most cards at the end wins the deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from pydantic import Field

from games.cards import Card, Rank, full_pack
from games.counting import (
    CardSource,
    CountingDeal,
    CountingFacts,
    CountingMatch,
    CountingOptions,
    CountingRound,
    CountingRules,
    CountingState,
    play_card,
)
from games.counting_deal import DealTable
from games.engine import Action, Event, Game, Outcome, PlayCard, Seat, SetupError, Zone
from games.registry import declare

TARGET = 29


class TwentyNineOptions(CountingOptions):
    teams: Literal["standard", "none", "pairs", "two_teams"] = Field(
        "standard",
        description="Sides: standard (partners opposite with 4, 6 or 8 players, otherwise each for themselves), "
        "none (each for themselves), pairs (partners sitting opposite) or two_teams (two teams, alternate seats).",
    )
    unplayed: Literal["own_pile", "ignore"] = Field(
        "own_pile",
        description="Cards still in hand when the deal ends: add them to their holder's side, or leave them out.",
    )
    on_block: Literal["end_deal", "last_player_takes"] = Field(
        "end_deal",
        description="When nobody can play on the pile: the deal ends and the pile belongs to nobody, or the last "
        "player to play takes the pile and leads again.",
    )
    match_scoring: Literal["deals", "cards"] = Field(
        "deals",
        description="Match score: 1 point for each deal a side wins, or the total number of cards a side takes.",
    )


# --- pure functions -----------------------------------------------------------------------------


def rank_value(rank: Rank) -> int:
    """Ace and courts count 1, the numerals their pips."""
    return 1 if rank is Rank.ACE or rank.is_court else int(rank)


VALUES: dict[Rank, int] = {r: rank_value(r) for r in Rank}


def card_value(card: Card) -> int:
    assert card.rank is not None
    return VALUES[card.rank]


def tens_to_remove(players: int) -> int:
    """How many Tens leave the pack so that the cards divide evenly (0, 1, 0, 2, 4, 3, 4 for 2..8)."""
    return 52 % players


def can_play(total: int, card: Card) -> bool:
    return total + card_value(card) <= TARGET


def playable_cards(total: int, hand: Iterable[Card]) -> list[Card]:
    return [c for c in hand if can_play(total, c)]


def cards_value(cards: Iterable[Card]) -> int:
    return sum(card_value(c) for c in cards)


def another_trick_possible(pile_total: int, held_value: int) -> bool:
    """Whether the pile and the cards still held (worth ``held_value`` together) could yet make 29
    (else the last trick is not played)."""
    return pile_total + held_value >= TARGET


def cards_run_out(pile_total: int, held_value: int, tens_removed: int) -> bool:
    """Whether the deal ends because the cards have run out (a block is another matter).

    With Tens removed it stops as soon as the pile and the cards still held (worth ``held_value``)
    could not make another 29: the last trick is not played. With the full pack (2 or 4 players)
    it ends only when every card has been played: the cards come out in 29s, so this is the same
    until a block is taken by its last player (``on_block=last_player_takes``); after that the
    cards left may never make a 29, but play goes on, each further block taken the same way.
    """
    if tens_removed:
        return not another_trick_possible(pile_total, held_value)
    return held_value == 0  # every card is worth 1 or more


def is_blocked(total: int, hands: Iterable[Iterable[Card]]) -> bool:
    """Nobody can add a card to the pile without passing 29."""
    return not any(playable_cards(total, hand) for hand in hands)


def side_layout(players: int, teams: str) -> list[list[Seat]]:
    """The sides for this many players and the ``teams`` option (seats 0..n-1, clockwise)."""
    if teams == "standard":
        teams = "pairs" if players in (4, 6, 8) else "none"
    if teams == "none":
        return [[s] for s in range(players)]
    if players % 2 or players < 4:
        raise ValueError("partnerships need 4, 6 or 8 players")
    if teams == "pairs":
        half = players // 2
        return [[s, s + half] for s in range(half)]
    if teams == "two_teams":
        return [list(range(0, players, 2)), list(range(1, players, 2))]
    raise ValueError(f"unknown team layout {teams!r}")


def side_card_counts(
    won: Sequence[int],
    unplayed: Sequence[int] = (),
    rule: str = "own_pile",
) -> list[int]:
    """Cards each side counts at the end of a deal: the tricks it won, plus its members' unplayed
    cards when ``rule`` is ``own_pile``."""
    counts = list(won)
    if rule == "own_pile":
        for i, extra in enumerate(unplayed):
            counts[i] += extra
    return counts


def deal_winners(counts: Sequence[int]) -> list[int]:
    """The side holding the most cards wins the deal; a tie for the most is a drawn deal (no winner)."""
    best = max(counts)
    top = [i for i, c in enumerate(counts) if c == best]
    return top if len(top) == 1 else []


def side_name(players: Sequence[str], side: Sequence[Seat]) -> str:
    return " and ".join(players[s] for s in side)


def check_sides(players: int, options: TwentyNineOptions) -> None:
    """Partnerships need an even table of 4, 6 or 8 (both states check it at setup)."""
    if options.teams in ("pairs", "two_teams") and players not in (4, 6, 8):
        raise SetupError(
            f"Partnerships need 4, 6 or 8 players; with {players} everyone plays for themselves (teams=none)."
        )


class HasSides(Protocol):
    """A table with sides: its players and the seats of each side."""

    sides: list[list[Seat]]

    @property
    def players(self) -> tuple[str, ...]: ...


def side_text(table: HasSides, side: int) -> str:
    """A side's name at this table (``N and S``, or a player's name)."""
    return side_name(table.players, table.sides[side])


# --- the match ----------------------------------------------------------------------------------


class TwentyNineFacts(CountingFacts):
    """A deal of Twenty-Nine: the cards each side counts at its end."""

    counts: tuple[int, ...]


class TwentyNineMatch(CountingMatch[TwentyNineFacts]):
    """The side with most cards wins the deal; a side scores 1 per deal won (or its cards with
    match_scoring=cards)."""

    def init_match(self, state: CountingState[Any]) -> None:
        """The sides (each seat's side) and the deals each side has won."""
        st: TwentyNineState = state  # type: ignore[assignment]
        st.sides = side_layout(st.n, st.options.teams)
        st.side_of = [0] * st.n
        for i, side in enumerate(st.sides):
            for seat in side:
                st.side_of[seat] = i
        st.deals_won = [0] * len(st.sides)

    def view_fields(self, state: CountingState[Any]) -> dict[str, Any]:
        """Each seat's side (public: the table is seated in them), which a bot must not assume."""
        st: TwentyNineState = state  # type: ignore[assignment]
        return {"side_of": list(st.side_of)}

    def book(self, state: CountingState[Any], facts: TwentyNineFacts) -> list[Event]:
        st: TwentyNineState = state  # type: ignore[assignment]
        counts = facts.counts
        events: list[Event] = []
        winners = deal_winners(counts)
        tally = ", ".join(f"{side_text(st, i)} {c}" for i, c in enumerate(counts))
        if winners:
            st.deals_won[winners[0]] += 1
            verb = "win" if len(st.sides[winners[0]]) > 1 else "wins"
            result = f"{side_text(st, winners[0])} {verb} the deal"
        else:
            result = "a tie for the most cards: the deal is drawn"
        events.append(st.event("deal_score", f"Cards taken: {tally}; {result}."))
        for i, side in enumerate(st.sides):
            points = counts[i] if st.options.match_scoring == "cards" else int(i in winners)
            for seat in side:
                st.add_points(seat, points)
        return events

    def outcome(self, state: CountingState[Any]) -> Outcome:
        st: TwentyNineState = state  # type: ignore[assignment]
        teams = st.sides if any(len(side) > 1 for side in st.sides) else None
        what = "cards taken" if st.options.match_scoring == "cards" else "deals won"
        notes = [f"Scores are {what} over {st.deal_no} deals."]
        return Outcome.from_scores(st.scores, teams=teams, notes=notes)


MATCH = TwentyNineMatch()


class TwentyNineRules(CountingRules):
    """Each card adds its value; the total may not pass 29 (the ``ceiling``)."""

    def pack(self) -> list[Card]:
        return full_pack()


    def quick_plays(self, deal: CountingRound, candidates: Sequence[Card]) -> list[Action] | None:
        # what the machinery would list (each card keeping the total at 29 or under; no two cards alike), faster
        total = deal.total
        return [play_card(c) for c in candidates if total + VALUES[c.rank] <= TARGET]  # type: ignore[index]

    def held_value(self, cards: CardSource) -> int:
        """The values of every card still held, added up (see :func:`cards_run_out`): the hands'
        cards online; referee mode counts what the hands may still hold."""
        return cards_value(c for hand in cards.hands for c in hand)


class TwentyNineTable(DealTable, Protocol):
    """What a deal of Twenty-Nine asks of its table beyond :class:`DealTable`: the seats' sides."""

    sides: list[list[Seat]]
    side_of: list[int]

    @property
    def players(self) -> tuple[str, ...]: ...

    def set_next(self, seat: Seat | None) -> None: ...
    def side_counts(self) -> list[int]: ...


@dataclass
class TwentyNineDeal(CountingDeal):
    """A deal of Twenty-Nine: the cards each side has won, who played last, taking the pile at
    exactly 29 (or at a block, with last_player_takes) and the end once the cards run out."""

    won: list[list[Card]] = field(default_factory=list)
    last_player: Seat | None = None

    def init_deal(self, table: DealTable) -> None:
        sides: TwentyNineTable = table  # type: ignore[assignment]
        self.won = [[] for _ in sides.sides]
        self.last_player = None

    def facts(self, table: DealTable) -> dict[str, Any]:
        sides: TwentyNineTable = table  # type: ignore[assignment]
        return {**super().facts(table), "counts": tuple(sides.side_counts())}

    def side_counts(self, table: DealTable) -> list[int]:
        """The cards each side counts at the end of the deal: those it won, and (unless the
        options leave them out) those its players still hold."""
        sides: TwentyNineTable = table  # type: ignore[assignment]
        won = [len(cards) for cards in self.won]
        unplayed = [sum(self.cards.count(s) for s in side) for side in sides.sides]
        return side_card_counts(won, unplayed, table.options.unplayed)

    def view_notes(self, table: DealTable, seat: Seat | None) -> list[str]:
        """The cards each side has won this deal (naming the sides), the Tens left out and which
        deal this is (at the match's end its result says how many were played)."""
        sides: TwentyNineTable = table  # type: ignore[assignment]
        by = ", by side" if any(len(side) > 1 for side in sides.sides) else ""
        won = "; ".join(f"{side_text(sides, i)} {len(w)}" for i, w in enumerate(self.won))
        lines = [f"Cards won this deal{by}: {won}"]
        if self.cards.set_aside:
            lines.append(f"Tens left out: {len(self.cards.set_aside)}")
        if not table.is_over:
            lines.append(f"Deal {table.deal_no} of {table.planned_deals()}")
        return lines

    def after_deal(self, table: DealTable, rest: list[Card]) -> list[Event]:
        self.cards.place(aside=rest)
        if not rest:
            return []
        word = "Ten is" if len(rest) == 1 else "Tens are"
        return [table.event("set_aside", f"{len(rest)} {word} left out so that the cards come out even.")]

    def after_play(self, table: DealTable, seat: Seat, action: Action, before: int, after: int) -> list[Event]:
        self.last_player = seat
        events: list[Event] = []
        if after == TARGET:
            events += self.take_pile(table, seat, "makes 29 and takes")
        events += self.check_last_trick(table)
        return events

    def take_pile(self, table: DealTable, seat: Seat, how: str) -> list[Event]:
        """``seat``'s side takes the pile; the count starts again from 0, led by ``seat`` (or, with
        no cards left, the next player in turn who has some)."""
        sides: TwentyNineTable = table  # type: ignore[assignment]
        rnd = self.round
        count = len(rnd.pile)
        self.won[sides.side_of[seat]].extend(rnd.pile)
        rnd.pile = []
        rnd.total = 0
        cards = "the one card" if count == 1 else f"the {count} cards"
        self.note(f"takes {'1 card' if count == 1 else f'{count} cards'}")
        if self.cards.count(seat):
            sides.set_next(seat)
        else:  # a winner with no cards left: the next player in turn with cards leads
            nxt = table.next_seat(seat)
            if nxt is not None:
                sides.set_next(nxt)
        return [table.event("take", f"{table.name(seat)} {how} {cards} of the pile.")]

    def tens_removed(self, table: DealTable) -> int:
        """How many Tens this deal leaves out (none with 2 or 4 players)."""
        return tens_to_remove(len(self.deal_order(table)))

    def check_last_trick(self, table: DealTable) -> list[Event]:
        """End the deal once the cards have run out (see :func:`cards_run_out`): with Tens removed,
        when the pile and the hands together cannot make another 29; with the full pack, when every
        card has been played."""
        rnd = self.round
        if rnd.closed:
            return []
        rules: TwentyNineRules = self.rules  # type: ignore[assignment]
        held = rules.held_value(self.cards)
        if not cards_run_out(rnd.total, held, self.tens_removed(table)):
            return []
        rnd.close()
        if not held:
            return [table.event("deal_end", "All the cards have been played.")]
        return [table.event("deal_end", "The cards left cannot make another 29, so the deal ends here.")]

    def on_blocked(self, table: DealTable) -> list[Event]:
        if table.options.on_block == "last_player_takes" and self.last_player is not None:
            events = [table.event("blocked", "Nobody can add to the pile.")]
            events += self.take_pile(table, self.last_player, "played last and takes")
            return events + self.check_last_trick(table)
        self.round.close()
        return [table.event("blocked", "Nobody can add to the pile without passing 29, so the deal ends.")]

    def score_deal(self, table: DealTable) -> list[Event]:
        """A blocked pile left at the end goes to its last player (last_player_takes)."""
        if self.round.pile and table.options.on_block == "last_player_takes" and self.last_player is not None:
            events = self.take_pile(table, self.last_player, "played last and takes")
            self.round.next = None
            return events
        return []


class TwentyNineState(CountingState[TwentyNineOptions]):
    """Sides, won piles, the Tens set aside, the last trick and the end-of-deal count; turns,
    forced passes and the block detection are the shared counting machinery."""

    rules_class = TwentyNineRules
    values = VALUES
    ceiling = TARGET
    match: ClassVar[CountingMatch[Any]] = MATCH
    deal_class = TwentyNineDeal
    deal: TwentyNineDeal

    facts_class = TwentyNineFacts
    sides: list[list[Seat]]
    side_of: list[int]
    deals_won: list[int]

    @classmethod
    def check_setup(cls, players: int, options: TwentyNineOptions) -> None:
        check_sides(players, options)

    def next_pack_order(self, pack: Sequence[Card]) -> list[Card]:
        """The shuffled pack with the Tens to be removed moved to the bottom, where dealing stops."""
        order = super().next_pack_order(pack)
        remove = tens_to_remove(len(self.active_seats()))
        if not remove:
            return order
        tens = [i for i, c in enumerate(order) if c.rank is Rank.TEN][-remove:]
        out = [c for i, c in enumerate(order) if i not in tens]
        return out + [order[i] for i in tens]

    @property
    def won(self) -> list[list[Card]]:
        """The cards each side has won this deal (the deal's)."""
        return self.deal.won

    @won.setter
    def won(self, cards: list[list[Card]]) -> None:
        self.deal.won = cards

    def side_text(self, side: int) -> str:
        return side_text(self, side)

    def side_counts(self) -> list[int]:
        """The cards each side counts at the end of the deal (the deal's count)."""
        return self.deal.side_counts(self)

    def extra_zones(self) -> list[Zone]:
        return [Zone(f"won by side {i + 1}", cards, frozenset()) for i, cards in enumerate(self.won)]


SUMMARY = """Two to eight players with a 52-card pack. Aces, Jacks, Queens and Kings count 1, the other cards
their pips. Tens are left out until the cards divide evenly (1 with 3 players, 2 with 5, 3 with 7, 4
with 6 or 8) and all the cards are dealt.

The player at the dealer's left starts a pile; in turn each adds a card and says the new total, which
may not go past 29. A player who cannot add a card without passing 29 passes (the bot passes for
you); a player who can play must. Whoever makes exactly 29 takes the pile for their side and starts
the next one from 0 (if they have no cards left, the next player who has does).

The deal ends when every card has been played, when nobody can add to the pile (a block: the pile
then belongs to nobody), or, with Tens left out, as soon as the pile and all the cards still held
could not make another 29 (the last trick is not played). With on_block=last_player_takes the last
player to play takes a blocked pile and starts again instead; with the full pack (2 or 4 players)
play then goes on until every card is played, each further block taken the same way. Cards still
held count for their holder's side (or not, with unplayed=ignore). The side with the most cards wins
the deal; a tie for the most is a draw.

Sides: with 4, 6 or 8 players partners sit opposite each other (teams=pairs); teams=two_teams makes
two teams in alternate seats; teams=none, or any other number of players, is everyone for themselves.
Match: each player deals once (option rounds for more); a side scores 1 for each deal it wins, or the
cards it takes with match_scoring=cards.
"""

GAME = declare(
    Game(
        id="twenty_nine",
        title="Twenty-Nine",
        min_players=2,
        max_players=8,
        options=TwentyNineOptions,
        state=TwentyNineState,
        actions=[PlayCard],
        summary=SUMMARY,
    ),
    referee="games.referee.twenty_nine:RefereeTwentyNineState",
    bots={
        "easy": "games.players.adders:TWENTY_NINE_EASY",
        "strong": "games.players.adders:TWENTY_NINE_STRONG",
    },
)
