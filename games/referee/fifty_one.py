"""Fifty-One refereed: the turned-up card, then every card as it is played.

The dealer enters the card turned up to open the total; then each card played (the draws from the
stock need no entries: the bot only counts them). A player must play even when every card busts,
so there is no pass. With German values a Seven is entered as 1 or 7. The loss at 51 or more,
penalties or lives, and the match are the online game's (:mod:`games.adders.fifty_one`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from games.adders.fifty_one import GAME as ONLINE
from games.adders.fifty_one import LIMIT, MATCH, FiftyOneDeal, FiftyOneFacts, FiftyOneOptions, FiftyOneRules
from games.counting import CountingFacts, PlayAs
from games.engine import Action, Event, Game, PlayCard, Seat
from games.referee import entries_alias, referee_mode
from games.referee.counting import RefereeCounting, Starter


class RefereeFiftyOneOptions(FiftyOneOptions):
    entries: Literal["cards", "result"] = Field(
        "cards",
        description="What the table enters: cards (each card as it is played) or result (only who lost each deal).",
    )

    _entries = field_validator("entries", mode="before")(entries_alias(plural=False))


class LostDeal(Action):
    """Result entry: this player took the total past 50."""

    kind: Literal["lost_deal"] = "lost_deal"

    def label(self) -> str:
        return f"Took it past {LIMIT}"


LOST = LostDeal()


SUMMARY = """
Referee mode: play Fifty-One with a real 32-card pack and enter each card as it is played; the bot
keeps the total, announces the loser and runs the match exactly as the online game does.

Each deal: the dealer enters the card turned up after dealing five each; its value opens the
total. Then enter the card each player plays, from the dealer's left (draw from the stock at the
table as usual: the bot only counts the cards left in it). A whole round may go in one entry, in playing
order ("KH 7S 10D"). There is no pass: a player must play even when every card takes the total
past 50. A card already seen this deal is refused. Whoever makes
the total 51 or more loses the deal. Values: Ace 11, King 4, Queen 3, Jack 2, Ten minus 1, Nine 0,
Eight 8, Seven 7 (values=german: Ace 1 and a Seven entered as 1 or 7). Match by penalties (fewest
deals lost after the planned deals) or by lives (the last player with a life left).
With entries=result the table enters only who lost each deal, and the bot keeps the match.
"""


class RefereeFiftyOneState(RefereeCounting[RefereeFiftyOneOptions]):
    """Fifty-One's parts (its rules, its deal and its match), held, not inherited from the online
    state."""

    rules_class = FiftyOneRules
    draw_timing = "before"
    match = MATCH
    deal_class = FiftyOneDeal
    facts_class = FiftyOneFacts
    deal: FiftyOneDeal

    entry_kinds = (Starter, PlayCard, PlayAs, LostDeal)
    rules_summary = SUMMARY
    options_model = RefereeFiftyOneOptions
    takes_series = True

    stuck_entry = None
    result_entry = LOST

    def starter_count(self, rest: int) -> int:
        return 1  # the top card after the deal; the others are the stock

    def settle_result(self, seat: Seat) -> list[Event]:
        return self.deal.lose_deal(self, seat)

    def result_entries_for(self, facts: CountingFacts) -> list[tuple[Seat, Action]]:
        assert isinstance(facts, FiftyOneFacts)
        return [(facts.loser, LOST)]

    def result_question(self) -> str:
        return f"who took the total past {LIMIT} in deal {self.deal_no}"


GAME: Game[RefereeFiftyOneOptions] = referee_mode(ONLINE, RefereeFiftyOneState)
