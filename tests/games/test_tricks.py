"""The shared trick machinery, with the follow-suit and winner cases from the rules files."""

from games.cards import BLACK_JOKER, JOKER, RED_JOKER, Suit, card, ranks_from
from games.tricks import TrickRules

PARITY_HEARTS = TrickRules(ranks_from("AKQJT52"), Suit.HEARTS, jokers_high=(RED_JOKER, BLACK_JOKER))
HOODWINK_HEARTS = TrickRules(ranks_from("AKQJT987"), Suit.HEARTS, jokers_low=(JOKER,))


def test_trump_beats_led_suit() -> None:
    # Parity: led K♠, follower void in spades plays 2♥ -> 2♥ wins
    assert PARITY_HEARTS.winner([(0, card("KS")), (1, card("2H"))]) == 1


def test_jokers_follow_as_trumps() -> None:
    # led red Joker, follower holds black Joker and A♥: must follow with a trump; red Joker wins
    hand = [BLACK_JOKER, card("AH"), card("KS")]
    assert set(PARITY_HEARTS.follow_options(hand, RED_JOKER)) == {BLACK_JOKER, card("AH")}
    assert PARITY_HEARTS.winner([(0, RED_JOKER), (1, BLACK_JOKER)]) == 0
    assert PARITY_HEARTS.winner([(0, card("AH")), (1, BLACK_JOKER)]) == 1


def test_undifferentiated_jokers_first_played_wins() -> None:
    rules = TrickRules(ranks_from("AKQJT52"), Suit.SPADES, jokers_high=(JOKER,))
    assert rules.winner([(1, JOKER), (0, JOKER)]) == 1


def test_no_trump_jokers() -> None:
    nt = TrickRules(ranks_from("AKQJT52"), None, jokers_are_trumps=False)
    # a led joker wins and the follower may play anything
    assert nt.follow_options([card("AS"), card("2H")], RED_JOKER) == [card("AS"), card("2H")]
    assert nt.winner([(0, RED_JOKER), (1, card("AS"))]) == 0
    # a joker may follow only when void, and then loses
    assert nt.follow_options([RED_JOKER, card("2S")], card("AS")) == [card("2S")]
    assert nt.winner([(0, card("2S")), (1, RED_JOKER)]) == 0


def test_hoodwink_joker_is_lowest_trump() -> None:
    # hearts led, Joker is the only trump: it must be played, and loses to any heart
    assert HOODWINK_HEARTS.follow_options([JOKER, card("AC")], card("7H")) == [JOKER]
    assert HOODWINK_HEARTS.winner([(0, card("7H")), (1, JOKER)]) == 0
    # clubs led, void player trumps with the Joker and wins unless a heart comes
    assert HOODWINK_HEARTS.winner([(0, card("AC")), (1, JOKER), (2, card("KC"))]) == 1
    assert HOODWINK_HEARTS.winner([(0, card("AC")), (1, JOKER), (2, card("7H"))]) == 2
    assert HOODWINK_HEARTS.must_follow_reason([JOKER, card("AC")], card("7H"), card("AC"))
