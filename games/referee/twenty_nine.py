"""Twenty-Nine refereed: every card as it is played, and a pass for a player who cannot play.

The Tens taken out so that the cards divide evenly stay unknown (suits do not matter), so the bot
counts them instead: once as many Tens have been played as are in the deal, another is refused.
A pass is accepted only while the player's hand could be all cards too big for the pile. Tricks,
blocks, the end of the deal, sides and the match are the online game's
(:mod:`games.adders.twenty_nine`).
"""

from __future__ import annotations

from games.adders.twenty_nine import GAME as ONLINE
from games.adders.twenty_nine import TwentyNineOptions, TwentyNineState, card_value
from games.cards import Card, Rank
from games.engine import Action, Event, Game, Pass, PlayCard, Seat
from games.referee import referee_mode
from games.referee.counting import RefereeCounting

TENS = 4


class RefereeTwentyNineState(RefereeCounting[TwentyNineOptions], TwentyNineState):
    def aside_count(self, rest: int) -> int:
        return rest  # the Tens taken out before the deal

    def after_deal(self, rest: list[Card]) -> list[Event]:
        events = super().after_deal(rest)
        if self.aside:
            word = "Ten" if self.aside == 1 else "Tens"
            events.append(self.event("set_aside", f"Take {self.aside} {word} out of the pack (any suits) before dealing."))
        return events

    def tens_left(self) -> int:
        """Tens still in the hands: the unseen Tens but those taken out."""
        return sum(k for c, k in self.unseen.items() if c.rank is Rank.TEN) - self.aside

    def refusal(self, seat: Seat, action: Action, before: int, after: int) -> str | None:
        card = action.card
        if card is not None and card.rank is Rank.TEN and self.tens_left() <= 0:
            return f"Only {TENS - self.aside} Tens are in this deal ({self.aside} taken out), and all of them have been played."
        return super().refusal(seat, action, before, after)

    def view_notes(self, seat: Seat | None) -> list[str]:
        notes = super().view_notes(seat)
        if self.aside:
            notes.insert(-1, f"Tens taken out: {self.aside}")
        return notes

    def held_value(self) -> int:
        return sum(card_value(c) * k for c, k in self.unseen.items()) - 10 * self.aside


SUMMARY = """
Referee mode: play Twenty-Nine with a real 52-card pack and enter each card as it is played; the
bot keeps the pile's total, gives each 29 to its side, detects blocks and the end of the deal, and
runs the match exactly as the online game does.

Take out the Tens the bot asks for (1 with 3 players, 2 with 5, 3 with 7, 4 with 6 or 8) and deal
everything. Enter each card in turn from the dealer's left, or Pass for a player who cannot add a
card without passing 29; a pass is refused when the player must hold a card that fits, and when no
card left unseen could fit the bot passes for everyone. A card already played, a card that would
pass 29, and a Ten beyond those in the deal are refused. Whoever makes exactly 29 takes the pile for
their side and starts the next one. Cards still held at the end count for their holder's side
(unless unplayed=ignore); the side with most cards wins the deal.
"""

GAME: Game[TwentyNineOptions] = referee_mode(
    ONLINE,
    state=RefereeTwentyNineState,
    actions=[PlayCard, Pass],
    summary=SUMMARY,
    series=True,
)
