"""Hoodwink's rules as pure functions: roles from the three bid cards, the disciplined bid of
variation 1, the open partnerships of variation 2, deal scores (standard and variation 3) and
the end of the match. The match that holds them is :mod:`games.hoodwink_match`.

They take only the facts (bid cards, trick counts, who won the first and last tricks), so a
referee for people playing with real cards can call them without a dealt hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import SUITS, Card, Suit

Seat = int
Scoring = Literal["standard", "v3"]
Scenario = Literal["2a", "2b", "2c", "2d"]
SCENARIOS: tuple[Scenario, ...] = ("2a", "2b", "2c", "2d")
TieBreak = Literal["extra_deal", "shared"]
Which = Literal["first", "last"]

PLAYERS = 3
TRICKS_PER_DEAL = 11
BONUS = 10


# --- roles ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roles:
    """Trumps and the sides of one deal.

    ``partners`` and ``hood`` are ``None`` when partnerships stay open until the end of play
    (variation 2 after three bids in one suit).
    """

    trumps: Suit
    partners: tuple[Seat, Seat] | None
    hood: Seat | None
    how: Literal["all_same", "two_same", "all_differ"]


def check_bids(bids: Sequence[Card]) -> None:
    """Raise ``ValueError`` unless these are three distinct suited cards."""
    if len(bids) != PLAYERS:
        raise ValueError(f"Hoodwink needs exactly three bid cards, not {len(bids)}.")
    if any(b.suit is None for b in bids):
        raise ValueError("The Joker cannot be a bid card: it has no suit of its own.")
    if len(set(bids)) != PLAYERS:
        raise ValueError("The three bid cards must be different cards.")


def determine_roles(bids: Sequence[Card], open_when_all_same: bool = False) -> Roles:
    """Trumps, partners and the Hood from the three revealed bid cards (seat order).

    * one suit for all three: it is trumps; the highest and lowest cards are partners, the
      middle card is the Hood (unless ``open_when_all_same``, variation 2);
    * two in one suit: those two are partners, the Hood's suit is trumps;
    * three suits: the two of one colour are partners, the suit nobody bid is trumps.
    """
    check_bids(bids)
    suits = [b.suit for b in bids]
    assert all(s is not None for s in suits)
    distinct = set(suits)
    if len(distinct) == 1:
        trumps = bids[0].suit
        assert trumps is not None
        if open_when_all_same:
            return Roles(trumps, None, None, "all_same")
        order = sorted(range(PLAYERS), key=lambda s: int(bids[s].rank or 0))
        low, middle, high = order
        return Roles(trumps, _pair(low, high), middle, "all_same")
    if len(distinct) == 2:
        for hood in range(PLAYERS):
            a, b = (s for s in range(PLAYERS) if s != hood)
            if suits[a] == suits[b]:
                trumps = suits[hood]
                assert trumps is not None
                return Roles(trumps, _pair(a, b), hood, "two_same")
        raise AssertionError("two suits among three bids always pair two of them")
    for hood in range(PLAYERS):
        a, b = (s for s in range(PLAYERS) if s != hood)
        sa, sb = suits[a], suits[b]
        assert sa is not None and sb is not None
        if sa.colour == sb.colour:
            (trumps,) = (s for s in SUITS if s not in distinct)
            return Roles(trumps, _pair(a, b), hood, "all_differ")
    raise AssertionError("three suits from two colours always share a colour")


def _pair(a: Seat, b: Seat) -> tuple[Seat, Seat]:
    return (a, b) if a < b else (b, a)


def deal_roles(bids: Sequence[Card], scenario_for: Callable[[Suit], Scenario | None]) -> tuple[Roles, Scenario | None]:
    """Trumps and sides from the three bid cards, and the variation 2 scenario that keeps the
    partnerships open when all three are of one suit (``scenario_for``: the table's options)."""
    same_suit = len({c.suit for c in bids}) == 1
    scenario = scenario_for(bids[0].suit) if same_suit and bids[0].suit else None
    return determine_roles(bids, open_when_all_same=scenario is not None), scenario


def roles_text(roles: Roles, scenario: Scenario | None, names: Sequence[str]) -> str:
    """``Trumps are ♥. Ann and Cat are partners; Bob is the Hood.``"""
    if roles.hood is not None and roles.partners is not None:
        a, b = roles.partners
        return f"Trumps are {roles.trumps.symbol}. {names[a]} and {names[b]} are partners; {names[roles.hood]} is the Hood."
    return (
        f"Trumps are {roles.trumps.symbol}. Everyone bid that suit, so partnerships stay open "
        f"(scenario {scenario}): two players who finish level become the partners."
    )


# --- variation 1: disciplined bids -----------------------------------------------------------------


def disciplined_bid_cards(hand: Iterable[Card]) -> list[Card]:
    """The cards a player may bid under variation 1: the top card of the longest suit.

    Suits of equal length are compared by their top cards, then the next ones, and so on; the
    Joker is not counted. When two suits still cannot be separated, either top card may be bid.
    """
    by_suit: dict[Suit, list[int]] = {}
    top: dict[Suit, Card] = {}
    for c in hand:
        if c.suit is None or c.rank is None:
            continue
        by_suit.setdefault(c.suit, []).append(int(c.rank))
        if c.suit not in top or int(c.rank) > int(top[c.suit].rank or 0):
            top[c.suit] = c
    if not by_suit:
        return []
    keys = {s: (len(r), sorted(r, reverse=True)) for s, r in by_suit.items()}
    best = max(keys.values())
    return [top[s] for s in SUITS if s in keys and keys[s] == best]


# --- variation 2: open partnerships --------------------------------------------------------------


def parse_suit_scenarios(text: str) -> dict[Suit, Scenario]:
    """Read a mapping such as ``S:2a,H:2b,D:2c,C:2d`` (suit letters or symbols; ``a`` for ``2a``)."""
    out: dict[Suit, Scenario] = {}
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        suit_text, sep, scen_text = part.partition(":") if ":" in part else part.partition("=")
        if not sep:
            raise ValueError(f"'{part}' should look like S:2a (a suit, a colon, a scenario).")
        suit = _suit_named(suit_text.strip())
        scenario = scen_text.strip().lower()
        if not scenario.startswith("2"):
            scenario = "2" + scenario
        if scenario not in SCENARIOS:
            raise ValueError(f"'{scen_text.strip()}' is not a scenario: use 2a, 2b, 2c or 2d.")
        if suit in out:
            raise ValueError(f"{suit.title} appears twice in the mapping.")
        out[suit] = scenario  # type: ignore[assignment]
    return out


def _suit_named(text: str) -> Suit:
    for s in SUITS:
        if text.upper() in (s.value, s.symbol, s.title.upper(), s.title.upper().rstrip("S")):
            return s
    raise ValueError(f"'{text}' is not a suit: use S, H, D or C.")


def format_suit_scenarios(mapping: Mapping[Suit, Scenario]) -> str:
    return ",".join(f"{s.value}:{mapping[s]}" for s in SUITS if s in mapping)


def resolve_open_partnerships(
    tricks: Sequence[int],
    scenario: Scenario,
    first_trick_winner: Seat | None = None,
    last_trick_winner: Seat | None = None,
    equal_overrides: bool = True,
) -> tuple[tuple[Seat, Seat] | None, Seat | None]:
    """Partners and Hood after an open deal (variation 2), from the trick counts.

    Two equal counts make those players the partners (who have then succeeded). When all three
    differ the scenario decides: 2a nobody (no bonuses), 2b the middle count is the Hood, 2c the
    last trick's winner, 2d the first trick's winner. With ``equal_overrides`` off, 2c and 2d name
    their Hood even when two counts are equal.
    """
    _check_counts(tricks)
    pair = next(
        ((a, b) for a in range(PLAYERS) for b in range(a + 1, PLAYERS) if tricks[a] == tricks[b]),
        None,
    )
    if pair is not None and (equal_overrides or scenario in ("2a", "2b")):
        (third,) = (s for s in range(PLAYERS) if s not in pair)
        return pair, third
    if scenario == "2a":
        return None, None
    if scenario == "2b":
        hood = sorted(range(PLAYERS), key=lambda s: tricks[s])[1]
    elif scenario == "2c":
        if last_trick_winner is None:
            raise ValueError("Scenario 2c needs the winner of the last trick.")
        hood = last_trick_winner
    else:
        if first_trick_winner is None:
            raise ValueError("Scenario 2d needs the winner of the first trick.")
        hood = first_trick_winner
    a, b = (s for s in range(PLAYERS) if s != hood)
    return (a, b), hood


def deciding_trick(
    roles: Roles, scenario: Scenario | None, tricks: Sequence[int | None], equal_overrides: bool
) -> Which | None:
    """Which trick's winner an open deal of scenario 2c or 2d goes by, given the counts (``None``:
    the counts settle it, or the deal was not open)."""
    if roles.partners is not None or scenario not in ("2c", "2d"):
        return None
    if len(set(tricks)) < PLAYERS and equal_overrides:
        return None  # two equal counts make the partners
    return "last" if scenario == "2c" else "first"


# --- scores -----------------------------------------------------------------------------------


def _check_counts(tricks: Sequence[int]) -> None:
    if len(tricks) != PLAYERS or any(t < 0 for t in tricks) or sum(tricks) != TRICKS_PER_DEAL:
        raise ValueError(f"Three trick counts adding up to {TRICKS_PER_DEAL} are needed, not {list(tricks)}.")


def standard_scores(p1: int, p2: int, h: int) -> tuple[int, int, int]:
    """Standard scores ``(partner 1, partner 2, Hood)`` from the three trick counts.

    Partners who take equal counts add 10 each. Otherwise the Hood adds 10, 10 more for an odd
    count, and 10 more for matching a partner's count.
    """
    _check_counts((p1, p2, h))
    if p1 == p2:
        return p1 + BONUS, p2 + BONUS, h
    hood = h + BONUS + (BONUS if h % 2 else 0) + (BONUS if h in (p1, p2) else 0)
    return p1, p2, hood


def variation3_scores(p1: int, p2: int, h: int) -> tuple[int, int, int]:
    """Variation 3 scores ``(partner 1, partner 2, Hood)``.

    Partners level on ``t`` tricks score 11 per trick each. Otherwise the Hood scores its tricks
    plus 10 per trick of difference between the partners, 20 if it matched a partner's count.
    """
    _check_counts((p1, p2, h))
    if p1 == p2:
        return 11 * p1, 11 * p2, h
    factor = 2 * BONUS if h in (p1, p2) else BONUS
    return p1, p2, h + factor * abs(p1 - p2)


def score_deal(
    tricks: Sequence[int],
    partners: tuple[Seat, Seat] | None,
    hood: Seat | None,
    scoring: Scoring = "standard",
) -> list[int]:
    """Each seat's score for a deal. Without partners and Hood (2a) everyone scores tricks only."""
    _check_counts(tricks)
    if partners is None or hood is None:
        return list(tricks)
    a, b = partners
    if len({a, b, hood}) != PLAYERS:
        raise ValueError("The two partners and the Hood must be three different players.")
    rule = standard_scores if scoring == "standard" else variation3_scores
    sa, sb, sh = rule(tricks[a], tricks[b], tricks[hood])
    out = [0] * PLAYERS
    out[a], out[b], out[hood] = sa, sb, sh
    return out


def hood_bonus_reasons(p1: int, p2: int, h: int, scoring: Scoring = "standard") -> list[str]:
    """Why the Hood scored what it did, in short phrases (empty when the partners succeeded)."""
    if p1 == p2:
        return []
    if scoring == "v3":
        factor = 20 if h in (p1, p2) else 10
        text = f"{factor} x {abs(p1 - p2)} for the partners' gap"
        return [text + (", doubled for matching a partner" if factor == 20 else "")]
    reasons = ["10 for splitting the partners"]
    if h % 2:
        reasons.append("10 for an odd count")
    if h in (p1, p2):
        reasons.append("10 for matching a partner")
    return reasons


# --- the end of the match -------------------------------------------------------------------------


def leaders(scores: Sequence[int]) -> list[Seat]:
    top = max(scores)
    return [s for s, v in enumerate(scores) if v == top]


def standard_match_over(scores: Sequence[int], target: int = 100, tie_break: TieBreak = "extra_deal") -> bool:
    """After a deal: has someone reached the target, with the lead unshared (or sharing allowed)?"""
    if max(scores) < target:
        return False
    return tie_break == "shared" or len(leaders(scores)) == 1


def variation3_match_over(
    scores: Sequence[int], deals_played: int, deals: int = 9, tie_break: TieBreak = "extra_deal"
) -> bool:
    """After a deal under variation 3: are the agreed deals played, with the lead unshared?

    A tie for first with ``extra_deal`` is settled by further rounds of three deals, so that
    everyone keeps dealing equally often.
    """
    if deals_played < deals or deals_played % PLAYERS:
        return False
    return tie_break == "shared" or len(leaders(scores)) == 1

