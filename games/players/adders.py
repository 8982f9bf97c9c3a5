# Over 400 lines: six games' small models for the shared planner of players/counting.py, side by side.
"""Bot players for six adding-up games: what each game means to the planner of
:mod:`games.players.counting` (values, what scores, what a stuck player suffers, which cards are
worth keeping). The bots assume the standard options; legality always comes from the game.

Points are on each game's own scale: Fifty-One -1 for the deal lost; Hundred +1/-1 for the point;
Jubilee the jubilee points in tens; Obstacle Race +1/-1 per obstacle; Ninety-Nine -1 for a life;
Twenty-Nine the cards a side holds or has taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.adders import fifty_one, hundred, jubilee, ninety_nine, obstacle_race
from games.cards import Card, Rank, full_pack, piquet_pack
from games.counting import CountingView, PlayAs, play_as, play_card, play_card_of
from games.engine import Action, Seat
from games.players import Player
from games.players.counting import (
    AdderModel,
    ByTableSizePlayer,
    GreedyAdderPlayer,
    PlayoutAdderPlayer,
    Position,
    SearchingAdderPlayer,
    unseen_cards,
)
from games.players.twenty_nine import TwentyNineModel, TwentyNineStrong


def _next_in(n: int, seat: Seat, direction: int, out_mask: int = 0) -> Seat:
    """The next of ``n`` seats in ``direction`` that is still in the match."""
    for step in range(1, n + 1):
        s = (seat + direction * step) % n
        if not out_mask >> s & 1:
            return s
    return seat


def lives_match_share(lives: tuple[int, ...], seat: Seat, first_out_ends: bool) -> float:
    """``seat``'s expected share of a match played for lives, each deal costing one player still in
    a life, any of them alike. With ``first_out_ends`` the match ends when a player has no life
    left and the most lives win (a tie shared); otherwise a player with none drops out and the last
    one in wins."""
    return _lives_match_share(tuple(max(0, k) for k in lives), seat, first_out_ends)


@lru_cache(maxsize=1 << 14)
def _lives_match_share(lives: tuple[int, ...], seat: Seat, first_out_ends: bool) -> float:
    alive = [s for s, k in enumerate(lives) if k > 0]
    if first_out_ends and len(alive) < len(lives):
        best = max(lives)
        return 1 / lives.count(best) if lives[seat] == best else 0.0
    if not first_out_ends and len(alive) <= 1:
        return 1.0 if alive == [seat] else 0.0
    return sum(
        _lives_match_share(tuple(k - (s == loser) for s, k in enumerate(lives)), seat, first_out_ends)
        for loser in alive
    ) / len(alive)


# --- Fifty-One ---------------------------------------------------------------------------------


def fewest_wins_share(penalties: tuple[int, ...], seat: Seat, deals_left: int) -> float:
    """``seat``'s expected share of a match won by the fewest penalties (a tie shared), with
    ``deals_left`` deals to come, each lost by any player alike."""
    low = min(penalties)  # only the differences count: one entry per shape
    return _fewest_wins_share(tuple(p - low for p in penalties), seat, deals_left)


@lru_cache(maxsize=1 << 16)
def _fewest_wins_share(penalties: tuple[int, ...], seat: Seat, deals_left: int) -> float:
    n = len(penalties)
    if deals_left <= 0:
        best = min(penalties)
        winners = sum(1 for p in penalties if p == best)
        return 1 / winners if penalties[seat] == best else 0.0
    return sum(
        _fewest_wins_share(tuple(p + (s == loser) for s, p in enumerate(penalties)), seat, deals_left - 1)
        for loser in range(n)
    ) / n


class FiftyOneModel(AdderModel):
    """Taking the total past 50 loses the deal; everyone draws before playing."""

    game_id = "fifty_one"
    draws = "before"

    def pack(self, view: CountingView) -> list[Card]:
        return piquet_pack()

    def value(self, card: Card) -> int:
        assert card.rank is not None
        return fifty_one.PENGUIN_VALUES[card.rank]

    def extra_cards(self, view: CountingView, seat: Seat) -> int:
        if seat == view.seat:  # my next turn starts with a draw too
            return 1 if view.stock > len(view.players) else 0
        return 1 if view.stock else 0

    def candidates(self, view: CountingView, legal: Sequence[Action]) -> list[Action]:
        """A Ten or a Nine (which never raise the total) is never spent while a card that raises
        it stays safe: they are what saves a player late in the deal."""
        raising = [
            a
            for a in legal
            if (c := play_card_of(a)) is not None
            and self.value(c) > 0
            and not fifty_one.loses(view.total + self.value(c))
        ]
        return super().candidates(view, raising or legal)

    def care(self, view: CountingView, seat: Seat, other: Seat) -> float:
        """In a match of a fixed number of deals, a deal lost by ``other`` costs ``seat`` what it
        takes from seat's chance of winning the match (1 less that chance): losing a deal itself
        costs most, and of two opponents it matters which loses (against two players who lost one
        deal and none, the second losing wins the match outright). Otherwise the plain rule."""
        if view.deals_left is None:
            return super().care(view, seat, other)
        penalties = list(view.scores)
        penalties[other] += 1
        max_deals = 12  # the enumeration is n ** deals; later deals hardly change the judgement
        return 1.0 - fewest_wins_share(tuple(penalties), seat, min(view.deals_left, max_deals))

    def rule_of_thumb(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        """The same rule for a playout's choice among safe plays: a card that raises the total first."""
        card = play_card_of(action)
        return 1.0 if card is not None and self.value(card) > 0 else 0.0

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        if fifty_one.loses(after):
            return pos._replace(total=after, ended=True), -1.0
        return pos._replace(total=after, mover=self.next_seat(pos, seat, action)), 0.0


# --- Hundred -----------------------------------------------------------------------------------


class HundredModel(AdderModel):
    """Exactly 100 wins a point, jumping past it loses one; either ends the deal."""

    game_id = "hundred"

    def pack(self, view: CountingView) -> list[Card]:
        return piquet_pack()

    def value(self, card: Card) -> int:
        assert card.rank is not None
        return hundred.VALUES[card.rank]

    def mark(self, view: CountingView) -> int:
        return hundred.FIRST_POINT if view.total < hundred.FIRST_POINT else hundred.SECOND_POINT

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        result = hundred.point_result(pos.total, after, pos.mark)
        if result:
            return pos._replace(total=after, ended=True), float(result)
        return pos._replace(total=after, mover=self.next_seat(pos, seat, action)), 0.0


# --- Jubilee -----------------------------------------------------------------------------------


class JubileeModel(AdderModel):
    """Multiples of 25 score, jumping one costs; the total never drops below 0; black opens."""

    game_id = "jubilee"
    draws = "after"

    def pack(self, view: CountingView) -> list[Card]:
        return jubilee.jubilee_pack()

    def value(self, card: Card) -> int:
        return jubilee.card_value(card)

    def mark(self, view: CountingView) -> int:
        return int(view.total != 0 or any(r.card is not None for r in view.recent))

    def extra_cards(self, view: CountingView, seat: Seat) -> int:
        return 1 if seat == view.seat and view.stock else 0  # I draw after this play

    def allowed(self, pos: Position, action: Action, after: int) -> bool:
        card = play_card_of(action)
        assert card is not None
        return after >= 0 and (bool(pos.mark) or jubilee.is_black(card))

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        points = jubilee.play_points(pos.total, after) / jubilee.HIT_POINTS
        return pos._replace(total=after, mark=1, mover=self.next_seat(pos, seat, action)), points

    def keep(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        card = play_card_of(action)
        assert card is not None
        if card.is_joker:
            return -20.0  # a Joker passes the turn without moving: keep it for a bad spot
        return float(abs(self.value(card)))  # small cards make exact hits later


# --- Obstacle Race -----------------------------------------------------------------------------


class ObstacleRaceModel(AdderModel):
    """Landing on 55, 66, 77, 88, 99 or 111 scores, jumping one costs; 120 starts again at 0."""

    game_id = "obstacle_race"

    def pack(self, view: CountingView) -> list[Card]:
        return piquet_pack()

    def value(self, card: Card) -> int:
        assert card.rank is not None
        return obstacle_race.BASE_VALUES[card.rank]

    def plays_of(self, pos: Position, card: Card) -> list[Action]:
        if card.rank is Rank.QUEEN:
            return [play_as(card, v) for v in obstacle_race.QUEEN_CHOICES]
        return [play_card(card)]

    def allowed(self, pos: Position, action: Action, after: int) -> bool:
        return after >= 0

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        points = float(obstacle_race.obstacle_points(pos.total, after))
        total = 0 if obstacle_race.reaches_line(after) else after
        return pos._replace(total=total, mover=self.next_seat(pos, seat, action)), points

    def keep(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        card = play_card_of(action)
        assert card is not None
        if card.rank is Rank.QUEEN:
            return -5.0  # the only card that can step back onto an obstacle
        return float(self.value(card))


# --- Ninety-Nine -------------------------------------------------------------------------------

_NINETY_NINE_ACE_TOTALS = (99, 95, 90, 89, 80, 50, 0)
"""The totals a black Ace is searched with (the menu offers all 100)."""


def _always_safe(card: Card) -> bool:
    """Cards that can be played on any total: a Three, Four, Nine, Ten or black Ace."""
    return ninety_nine.is_black_ace(card) or card.rank in (Rank.THREE, Rank.FOUR, Rank.NINE, Rank.TEN)


_NINETY_NINE_STEER = 3.0
"""How far the steering of the lost life (:meth:`NinetyNineModel.keep`) outweighs the press."""


class NinetyNineModel(AdderModel):
    """The total may not pass 99; the player who cannot play loses a life. A Jack reverses."""

    game_id = "ninety_nine"
    draws = "after"

    def depth(self, view: CountingView) -> int | None:
        """A round, to our own next turn, at three; at four or more only our own play, judged by
        :meth:`keep`. Against three easy bots (4,000 matches, seed 0) searching the round won .30
        and the next player's reply alone .335, the judgement alone .334 (.324 on seed 50000): with
        three others between our turns the search's seats, who see every hand and play to strand
        whoever comes next, are no guide to what the table will do. Over 20,000 matches (seed
        200000) the judgement alone won .320 [.314, .326]. Tried against it on the same seeds, no
        gain beyond noise or a loss. On 4,000 matches of seed 100000, where it won .337: spending a
        Nine to set 99 while a plain card fits, from 80, 90 or 95 up (.27, .30, .32); a Three or
        Four before the Nine (.30); the smallest plain card (.26); a Jack first or last (.33/.34).
        On 8,000 of seed 200000, where it won .317: the Nine only with two safe cards held (.31,
        .315); pressing by the chance the next seat is stuck, read from its last play (.318);
        leaving room for a next seat whose lost life would end the match against us (.319);
        keeping cards that fit the new total (.312); slowing down when no safe card is kept (.28).
        Playouts with the others as easy players: .31 (400 matches); six plies of them, .334 over
        1,200 matches where the judgement won .325, but .319 over 4,800 fresh ones (seeds 300000
        and 302400) where it won .3285, at 75 times the CPU. A playout's stock is not refilled
        from the played cards as the game's is, so one that runs long ends with hands empty: a
        handicap to whole-deal playouts, not to six plies. These figures are of the press alone;
        steering the lost life by the match, in :meth:`keep`, came later."""
        active = sum(1 for out in view.out if not out)
        return 1 if active >= 4 else min(5, active + 1)

    def pack(self, view: CountingView) -> list[Card]:
        return full_pack()

    def value(self, card: Card) -> int:
        if ninety_nine.is_black_ace(card):
            return 0
        return ninety_nine.new_total(0, card) if card.rank is not Rank.NINE else 0

    def mark(self, view: CountingView) -> int:
        return sum(1 << s for s, out in enumerate(view.out) if out)

    def extra_cards(self, view: CountingView, seat: Seat) -> int:
        return 1 if seat == view.seat else 0  # I draw after this play (the stock is reshuffled)

    def stock_size(self, view: CountingView, unseen: int) -> int:
        return unseen  # the played cards are reshuffled into the stock when it runs out

    def plays_of(self, pos: Position, card: Card) -> list[Action]:
        if ninety_nine.is_black_ace(card):
            return [play_as(card, 99, True)]
        return [play_card(card)]

    def after(self, pos: Position, action: Action) -> int:
        card = play_card_of(action)
        assert card is not None
        chosen = action.value if isinstance(action, PlayAs) else None
        return ninety_nine.new_total(pos.total, card, None, chosen)

    def effect_key(self, action: Action, after: int) -> int:
        card = play_card_of(action)
        return after * 2 + int(card is not None and ninety_nine.reverses(card))

    def allowed(self, pos: Position, action: Action, after: int) -> bool:
        card = play_card_of(action)
        assert card is not None
        return ninety_nine.can_play(pos.total, card)

    def play(self, pos: Position, seat: Seat, action: Action, after: int) -> tuple[Position, float]:
        card = play_card_of(action)
        direction = -pos.direction if card is not None and ninety_nine.reverses(card) else pos.direction
        nxt = _next_in(len(pos.hands), seat, direction, pos.mark)
        return pos._replace(total=after, direction=direction, mover=nxt), 0.0

    def stuck(self, pos: Position, seat: Seat) -> tuple[Position, float]:
        return pos._replace(ended=True), -1.0

    def value_class(self, card: Card) -> int:
        return int(_always_safe(card)) * 100 + (int(card.rank) if card.rank is not None else 0)

    def candidates(self, view: CountingView, legal: Sequence[Action]) -> list[Action]:
        """A card that fits any total is never spent while another card fits (a short search
        cannot see how much it is missed later); a black Ace is searched with a few totals."""
        wanted = set(_NINETY_NINE_ACE_TOTALS)
        kept = [a for a in legal if not (isinstance(a, PlayAs) and a.sets_total and a.value not in wanted)]
        plain = [a for a in kept if (c := play_card_of(a)) is not None and not _always_safe(c)]
        return super().candidates(view, plain or kept)

    def rule_of_thumb(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        """Play a card that fits any total only when nothing else fits."""
        card = play_card_of(action)
        return 0.0 if card is not None and _always_safe(card) else 1.0

    def keep(self, view: CountingView, hand: Sequence[Card], action: Action, after: int) -> float:
        """Press the next player: the play that leaves the highest total. While a plain card fits
        (only those are candidates then) that is the card adding most, keeping the small ones,
        which still fit when the total is high; when only cards that fit any total are left, a
        Nine or a black Ace naming 99 before a Three or Four, a Ten last (it gives the next player
        room), and of equal plays a black Ace last.

        Then steer the lost life: add what the next player's losing it is worth to us
        (:meth:`stakes`) times how hard the new total presses them (the share of unseen cards that
        do not fit it, squared), so that a player whose loss would help us is pressed harder (by a
        Jack, too, which makes the one before us next) and one whose loss would hurt us is given
        room. Against three easy bots this lifted the win share from .320 to .330 (20,000
        matches, seed 200000), .325 to .333 (8,000, seed 300000) and .337 to .348 (4,000, seed
        100000); over 12,000 fresh matches (seeds 600000 and 700000), .324 to .334. The share
        cubed (the chance that three cards all miss) gave .326, .333 and .344; weights of 2 or 5
        in place of 3 (1 or 10, cubed) did no better; neither did reading the next seat's hand
        from its last play, nor pressing the seat after it too. At three the search decides and
        this is a tie-break (.424 either way over 3,000 matches); in a match to the last survivor
        it neither helped nor hurt (.411 against .412 over 3,000)."""
        card = play_card_of(action)
        assert card is not None
        press = after / 100 - (0.001 if ninety_nine.is_black_ace(card) else 0.0)
        stakes = self.stakes(view)
        if stakes is None:
            return press
        unseen = unseen_cards(self, view)
        misfit = sum(1 for c in unseen if not ninety_nine.can_play(after, c)) / max(1, len(unseen))
        return press + _NINETY_NINE_STEER * stakes[self.next_after(view, card)] * misfit**2

    def stakes(self, view: CountingView) -> list[float] | None:
        """For each seat, what its losing this deal's life is worth to us (our share of the match,
        later deals lost by anyone alike), less the average over the opponents still in; ``None``
        where there are no lives, or nothing to choose between the opponents."""
        if view.lives is None or view.seat is None:
            return None
        lives = tuple(view.lives)
        shares = [
            lives_match_share(tuple(k - (s == loser) for s, k in enumerate(lives)), view.seat, view.ends_at_first_out)
            for loser in range(len(lives))
        ]
        rivals = [shares[s] for s in range(len(lives)) if s != view.seat and not (view.out and view.out[s])]
        if not rivals or max(rivals) == min(rivals):
            return None
        average = sum(rivals) / len(rivals)
        return [share - average for share in shares]

    def next_after(self, view: CountingView, card: Card) -> Seat:
        """Who plays after ours with ``card`` (a Jack turns play round)."""
        assert view.seat is not None
        direction = -view.direction if ninety_nine.reverses(card) else view.direction
        out_mask = sum(1 << s for s, out in enumerate(view.out) if out)
        return _next_in(len(view.players), view.seat, direction, out_mask)


# --- registration ------------------------------------------------------------------------------

FIFTY_ONE, HUNDRED, JUBILEE = FiftyOneModel(), HundredModel(), JubileeModel()
OBSTACLE_RACE, NINETY_NINE, TWENTY_NINE = ObstacleRaceModel(), NinetyNineModel(), TwentyNineModel()
MODELS: tuple[AdderModel, ...] = (FIFTY_ONE, HUNDRED, JUBILEE, OBSTACLE_RACE, NINETY_NINE, TWENTY_NINE)


def _strong(model: AdderModel) -> Player:
    """The strong player of each game: the one that measured best against the easy player.

    Playing deals out beats the short search where the blow falls late (Fifty-One's lost deal;
    Jubilee at three or more, where two others play before our next turn; Twenty-Nine at three or
    more, won by the cards counted at the deal's end); elsewhere the search is already clearly
    better than easy and as good as playouts or better (Hundred, Ninety-Nine, Obstacle Race at
    three or more, Twenty-Nine and Jubilee at two)."""
    if isinstance(model, FiftyOneModel):
        # the playouts play the others as careful players (a card that raises the total and is
        # safe, any of them; then a Nine or Ten) and ourselves by keep (the highest safe card),
        # 100 deals a play. Against two easy bots the deals lost fell from .29-.30 to .245-.25
        # (800 matches, seeds 0 and 7000); half-random others, careless playouts of our own and 24
        # deals had lost .29 (wild 0.5) and .28 with 100 deals. Judging by the match (care) won
        # against random play, by steering the last deal's loss to the right opponent.
        return PlayoutAdderPlayer(model, samples=100, horizon=60, wild=0.0, keep_weight=0.0, own_keeps=True)
    if isinstance(model, JubileeModel):
        return ByTableSizePlayer(SearchingAdderPlayer(model), PlayoutAdderPlayer(model, samples=12, horizon=6, wild=0.5))
    if isinstance(model, NinetyNineModel):
        # more deals: against three easy bots (400 matches) 6 deals won .275, 20 deals .305; letting
        # the search spend a card that fits any total (to set 99 for the next player) won only .25.
        # At four or more the search stops at our own play (NinetyNineModel.depth) and keep judges.
        return SearchingAdderPlayer(model, samples=20)
    if isinstance(model, ObstacleRaceModel):
        # at two the search lost to a Monte Carlo player (MC of 60 won .665 [.61, .72] of 270,
        # issue 29): seeing three plies, it spent big cards and jumped obstacles that the deals
        # played out avoid. Playouts of the rest of the deal (24 deals, every seat taking the play
        # worth most at once, our own later plays by keep): MC won .418 [.35, .49] of 200 (seeds
        # 999500-999699), strong's CPU a move p99 167 ms. MC's share of 30 matches (seeds 5200)
        # against other settings: half-random others .533, wild 0 .467, 8 plies .650; the search
        # with a keep that shuns totals from which an unseen card hits an obstacle, or that keeps
        # big cards: 10 of the first 10 and 9 of 10 (stopped there).
        return ByTableSizePlayer(
            PlayoutAdderPlayer(model, samples=24, horizon=60, wild=0.0, own_keeps=True), SearchingAdderPlayer(model)
        )
    if isinstance(model, TwentyNineModel):
        # at two the short search; with more seats whole deals played out (players/twenty_nine.py)
        return ByTableSizePlayer(SearchingAdderPlayer(model), TwentyNineStrong(model))
    return SearchingAdderPlayer(model)


# the players the adders' declarations name (games/adders/<id>.py)
FIFTY_ONE_EASY, FIFTY_ONE_STRONG = GreedyAdderPlayer(FIFTY_ONE), _strong(FIFTY_ONE)
HUNDRED_EASY, HUNDRED_STRONG = GreedyAdderPlayer(HUNDRED), _strong(HUNDRED)
JUBILEE_EASY, JUBILEE_STRONG = GreedyAdderPlayer(JUBILEE), _strong(JUBILEE)
OBSTACLE_RACE_EASY, OBSTACLE_RACE_STRONG = GreedyAdderPlayer(OBSTACLE_RACE), _strong(OBSTACLE_RACE)
NINETY_NINE_EASY, NINETY_NINE_STRONG = GreedyAdderPlayer(NINETY_NINE), _strong(NINETY_NINE)
TWENTY_NINE_EASY, TWENTY_NINE_STRONG = GreedyAdderPlayer(TWENTY_NINE), _strong(TWENTY_NINE)
