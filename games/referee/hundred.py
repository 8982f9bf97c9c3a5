"""Hundred refereed: the left-over cards, then every card as it is played; or only the results.

The dealer enters the cards left over after the even deal (two with 3, 5 or 6 players), which
open the count; then each card played. Nobody can pass in Hundred, so every entry is a card. The
points for exactly 100 (and 200 with the option) and for jumping past them, the end of the deal
and the match are the online game's (:mod:`games.adders.hundred`). With ``entries=result`` the
table enters only who made or jumped each point.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.hundred import GAME as ONLINE
from games.adders.hundred import MATCH, VALUES, HundredDeal, HundredFacts, HundredOptions, HundredRules
from games.counting import CountingFacts
from games.engine import Action, Event, Game, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeCounting, Starter


class RefereeHundredOptions(HundredOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only who made "
        "or jumped past 100, and 200 with second_point_200).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class PointResult(Action):
    """Results mode: this player made the point exactly (+1) or jumped past it (-1)."""

    kind: Literal["point_result"] = "point_result"
    made: bool

    def label(self) -> str:
        return "Made it exactly (+1)" if self.made else "Jumped past it (\u22121)"

    def spoken(self) -> tuple[str, ...]:
        if self.made:
            return ("made", "exactly", "exact", "hit", "+1", "made it")
        return ("jumped", "jump", "past", "over", "-1", "jumped past")


_RESULTS: list[Action] = [PointResult(made=True), PointResult(made=False)]


SUMMARY = """
Referee mode: play Hundred with a real 32-card pack and enter each card as it is played; the bot
adds up, scores and runs the match exactly as the online game does.

Each deal: with 3, 5 or 6 players the dealer enters the two cards left over, laid face up; their
values open the count. Then enter every card in turn from the dealer's left (everyone must play,
so there is no pass); a whole round may be entered in one line, in playing order ("KH 7S 10D").
A card already played this deal is refused. Exactly 100 scores a point, jumping past it costs one,
and the deal ends there (with second_point_200, play goes on to 200). Values: Ace 11, King 4,
Queen 3, Jack 2, Ten 10, Nine 9, Eight 8, Seven 7. Most points after one deal per player (times
rounds) wins. With entries=result the table enters only who made exactly 100 (or jumped past it),
and the same for 200 with second_point_200; the bot keeps the match.
"""


class RefereeHundredState(RefereeCounting[RefereeHundredOptions]):
    """Hundred's parts (its rules, its deal and its match), held, not inherited from the online
    state."""

    rules_class = HundredRules
    values = VALUES
    match = MATCH
    deal_class = HundredDeal
    facts_class = HundredFacts
    deal: HundredDeal

    entry_kinds = (Starter, PlayCard, PointResult)
    rules_summary = SUMMARY
    options_model = RefereeHundredOptions
    takes_series = True

    stuck_entry = None
    result_entry = _RESULTS[0]

    def starter_count(self, rest: int) -> int:
        return rest  # every card left over is laid face up

    def result_entries(self, seat: Seat) -> list[Action]:
        return list(_RESULTS)

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, HundredFacts)
        return [(seat, _RESULTS[0] if made else _RESULTS[1]) for seat, made in facts.results]

    def settle_entry(self, seat: Seat, action: Action) -> list[Event]:
        """The online game's scoring of the point, without the cards."""
        assert isinstance(action, PointResult)
        point = self.deal.score_point(self, seat, action.made)
        who = self.name(seat)
        if action.made:
            return [self.event("point_won", f"{who} made exactly {point} and scores a point.")]
        return [self.event("point_lost", f"{who} jumped past {point} and loses a point.")]

    def result_question(self) -> str:
        return f"who made exactly {self.deal.points_left[0]} or jumped past it in deal {self.deal_no}"


GAME: Game[RefereeHundredOptions] = referee_mode(ONLINE, RefereeHundredState)
