"""Hoodwink's match, declared once (:data:`MATCH`): the dealt game (:mod:`games.hoodwink`) and its
referee mode (:mod:`games.referee.hoodwink`) both hand it the facts of every finished deal, and it
scores them with the pure rules of :mod:`games.hoodwink_scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import Card
from games.engine import Event, Outcome
from games.hoodwink_scoring import (
    PLAYERS,
    Roles,
    Scoring,
    Seat,
    deal_roles,
    hood_bonus_reasons,
    leaders,
    resolve_open_partnerships,
    score_deal,
    standard_match_over,
    variation3_match_over,
)
from games.match import DealFacts, Match, MatchState


class HoodwinkFacts(DealFacts):
    """A deal of Hoodwink as the match scores it: the three bid cards in seat order (after any
    dispute, the cards that stand), the trick counts and, where known, who won the first and the
    last trick (an open deal of scenario 2c or 2d goes by one of them; a refereed deal knows the
    one it needs, a dealt deal both)."""

    bids: tuple[Card, Card, Card]
    tricks: tuple[int, int, int]
    first_winner: Seat | None = None
    last_winner: Seat | None = None


class HoodwinkMatch(Match[HoodwinkFacts]):
    """Everyone scores every deal by their role; the deal passes left; the match ends at the
    target (standard) or after the agreed deals (variation 3), a tie for first settled by
    ``tie_break``."""

    def score(self, state: MatchState, facts: HoodwinkFacts) -> list[Event]:
        opts = state.options
        roles, scenario = deal_roles(facts.bids, opts.scenario_for)
        tricks = facts.tricks
        partners: tuple[Seat, Seat] | None
        hood: Seat | None
        if roles.partners is not None:
            partners, hood = roles.partners, roles.hood
        else:
            assert scenario is not None
            partners, hood = resolve_open_partnerships(
                tricks, scenario, facts.first_winner, facts.last_winner, opts.v2_equal_overrides
            )
        gained = score_deal(tricks, partners, hood, opts.scoring)
        for seat, points in enumerate(gained):
            state.scores[seat] += points
        counts = ", ".join(f"{state.name(s)} {t}" for s, t in enumerate(tricks))
        lines = [
            f"Deal {state.deal_no} tricks: {counts}.",
            verdict_text(state.players, tricks, roles, partners, hood, gained, opts.scoring),
            "Scores: " + ", ".join(f"{state.name(s)} {v}" for s, v in enumerate(state.scores)) + ".",
        ]
        events = [state.event("deal_scored", line) for line in lines]
        if opts.scoring == "v3":
            over = variation3_match_over(state.scores, state.deal_no, opts.deals, opts.tie_break)
        else:
            over = standard_match_over(state.scores, opts.target, opts.tie_break)
        if over:
            events.append(state.finish(self.outcome(state)))
        else:
            state.dealer = (state.dealer + 1) % PLAYERS
        return events

    @staticmethod
    def outcome(state: MatchState) -> Outcome:
        top = leaders(state.scores)
        best = state.scores[top[0]]
        names = " and ".join(state.name(s) for s in top)
        if len(top) == 1:
            note = f"{names} wins with {best} points."
        else:
            note = f"{names} share first place with {best} points each."
        final = "Final scores: " + ", ".join(f"{state.name(s)} {v}" for s, v in enumerate(state.scores)) + "."
        return Outcome.from_scores(state.scores, notes=[note, final])


MATCH = HoodwinkMatch()


def verdict_text(
    names: Sequence[str],
    tricks: Sequence[int],
    roles: Roles,
    partners: tuple[Seat, Seat] | None,
    hood: Seat | None,
    gained: Sequence[int],
    scoring: Scoring,
) -> str:
    """How the deal's sides did: ``Ann and Cat both took 4: the partners score 14 each.``"""
    if partners is None or hood is None:
        return "Nobody tied and scenario 2a gives no bonus: everyone scores their tricks."
    a, b = partners
    pair = f"{names[a]} and {names[b]}"
    prefix = f"{pair} end up as partners and {names[hood]} as the Hood. " if roles.partners is None else ""
    if tricks[a] == tricks[b]:
        return prefix + f"{pair} both took {tricks[a]}: the partners score {gained[a]} each."
    reasons = hood_bonus_reasons(tricks[a], tricks[b], tricks[hood], scoring)
    return (
        prefix
        + f"{names[hood]}, the Hood, splits the partners and scores {gained[hood]} "
        + f"({tricks[hood]} for tricks, {', '.join(reasons)})."
    )


def last_deal_lines(events: Sequence[Event]) -> list[str]:
    """The lines of the deal just scored, which the views keep showing until the next is."""
    return [e.text for e in events if e.kind == "deal_scored"]
