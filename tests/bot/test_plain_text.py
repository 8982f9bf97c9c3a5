"""strip_marks and legible, which every name and every embed's text go through, take short cuts
(text with nothing to strip returned as it is; a regular expression for the suits): each must do
exactly what its character-by-character rule does."""

from __future__ import annotations

import unicodedata

from bot.discord.limits import SUITS, TEXT_STYLE, legible
from bot.discord.plain import plain
from bot.render.text import JOINER, clean_name, strip_marks


def by_rule(text: str) -> str:
    """The rule, one character at a time: line breaks and the zero-width joiner kept; format,
    control, surrogate and private-use characters dropped."""
    return "".join(
        ch for ch in text if ch == "\n" or ch == JOINER or unicodedata.category(ch) not in ("Cf", "Cc", "Cs", "Co")
    )


def test_every_character_of_the_basic_plane_and_samples_beyond_are_stripped_by_the_rule() -> None:
    points = [*range(0x10000), *range(0x1F000, 0x1FB00), *range(0xE0000, 0xE0080), 0xF0000, 0x10FFFD]
    for point in points:
        ch = chr(point)
        for text in (ch, f"a\n{ch}b"):
            assert strip_marks(text) == by_rule(text), hex(point)


def test_what_a_player_reads_is_kept_and_what_acts_on_it_is_dropped() -> None:
    assert strip_marks("Ann ♠10 → 36\nbob: 7♥") == "Ann ♠10 → 36\nbob: 7♥"  # printable: as it is
    assert strip_marks("ann\u202ebob") == "annbob"  # a right-to-left override would flip the line
    assert strip_marks("x\u200by\x07z\r") == "xyz"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert strip_marks(family) == family  # the joiner builds the emoji
    assert clean_name("  ann\u2066  \t bob\u2069 ") == "ann bob"
    assert plain("ann\u202e *bold*") == "ann \\*bold\\*"


def suits_as_text_by_rule(text: str) -> str:
    """Every suit followed by the text-presentation selector, one character at a time."""
    out = []
    for i, ch in enumerate(text):
        out.append(ch)
        if ch in SUITS and text[i + 1 : i + 2] != TEXT_STYLE:
            out.append(TEXT_STYLE)
    return "".join(out)


def test_every_suit_is_drawn_as_text_once() -> None:
    texts = [
        "", "no suits", "A♠ K♥ Q♦ J♣", "♠", "♠♠", f"♠{TEXT_STYLE}", f"♠{TEXT_STYLE}♥", f"{TEXT_STYLE}♣",
        f"10♦{TEXT_STYLE}{TEXT_STYLE} 9♦", "Spades / 9♠\nHearts / A♥", "☺♤♡",  # outlined suits are not ours
    ]
    for text in texts:
        assert legible(text) == suits_as_text_by_rule(text), text
        assert legible(legible(text)) == legible(text)  # never twice
