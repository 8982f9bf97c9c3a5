"""Players' names in pictures (bot/render/names.py): cut to their place's width with the picture's
font, told apart when cut alike, never drawn as empty boxes, and kept whole in the alt text and
the table's text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from bot.render import drawlog, names, pictures
from bot.render.cardfaces import rich_width
from bot.render.names import NAME_SIZE, NAME_W, drawn_characters, fitted
from bot.render.tableau import Style, draw_layout
from games.cards import card
from games.engine import GameState
from games.layout import Counts, Facts, Layout, Row, ScoreLine, Scores, Spot, played_row
from games.registry import get_game
from games.simulate import play_match
from tests.bot.test_pictures import LONG_NAMES, long_names

WIDTHS = (NAME_W, 56, 60)
"""The width names are cut to in pictures, and wider ones (:func:`fitted` serves any width)."""


def width(text: str) -> int:
    return rich_width(text, NAME_SIZE, True)


def test_a_long_name_is_cut_to_its_place_measured_with_the_font() -> None:
    """Ten W's and ten i's have the same length but not the same width: from 56 px on, the i's
    fit whole where the W's are cut; every form fits its place and ends with "…" when cut."""
    for w in WIDTHS:
        wide, narrow = fitted(("W" * 10, "i" * 10), w)
        assert width(wide) <= w and width(narrow) <= w
        assert wide.startswith("W") and wide.endswith("…")
        assert narrow == "i" * 10 if w >= 56 else narrow.endswith("…")
        (long,) = fitted(("Wolfgang Amadeus Mozart the 1st",), w)
        assert width(long) <= w and long.startswith("W") and long.endswith("…")
    assert fitted(("iiiii", "ann"), NAME_W) == ("iiiii", "ann")  # names that fit are left alone


def test_names_cut_alike_keep_their_ends_or_their_seats() -> None:
    """Two names that cut to the same start are told apart by their ends where those fit, else by
    their seats; names that do not clash keep the plain cut."""
    assert fitted(("Alexander Thompson", "Alexander Thompsen"), 60) == ("Al…on", "Al…en")
    assert fitted(("Alexandra Smith 1", "Alexandra Smith 2"), NAME_W) == ("Al…1", "Al…2")
    # "pson" and "ason" do not fit with a letter of the start: the seats tell them apart
    assert fitted(("Ann", "Alexander Thompson", "Alexander Thomason"), NAME_W) == ("Ann", "#2", "#3")
    assert fitted(("Alexander Thompson", "Alexander Thomason", "Bo"), 60) == ("A… #1", "A… #2", "Bo")
    for w in WIDTHS:
        forms = fitted(tuple(long_names(13)), w)
        assert len(set(forms)) == 13, f"{w} px: {forms}"
        assert all(width(f) <= w for f in forms), f"{w} px: {forms}"


def test_the_same_name_twice_is_drawn_the_same() -> None:
    """A table's seats never share a name (the lobby and a referee table number a second "Sam":
    ``tests/bot/test_referee_service.py``); given the same name twice, the picture draws it the
    same, as the text writes it."""
    assert fitted(("Sam", "Sam"), NAME_W) == ("Sam", "Sam")


def test_a_name_numbered_by_its_table_keeps_its_number_when_cut() -> None:
    """A lobby (or a referee table) numbers a second "Sam" who sits: "Sam (2)". Cut to fit, the
    number stays (a plain cut gave "Sa…", "Jo (…"), its brackets dropped where they do not fit."""
    assert fitted(("Sam", "Sam (2)"), NAME_W) == ("Sam", "S…2")
    assert fitted(("Jo", "Jo (2)"), NAME_W) == ("Jo", "Jo 2")
    assert fitted(("Alexander", "Alexander (2)", "Alexander (3)"), NAME_W) == ("Ale…", "Al…2", "Al…3")
    assert fitted(("Sam", "Sam (2)"), 80) == ("Sam", "Sam (2)")  # whole where it fits


def test_letters_the_font_lacks_are_never_drawn_as_boxes() -> None:
    """DejaVu Sans has no Chinese, Japanese or Korean letters and no emoji skin tones; it has 😀.
    A name it cannot draw at all is written by its seat ("#1"); a name it draws in part keeps
    what it draws, a missing run written "?"."""
    drawn = drawn_characters()
    assert drawn is not None and ord("山") not in drawn and ord("😀") in drawn and ord("é") in drawn
    players = ("山田太郎", "Zoë 😀", "👍🏽Bob", "Bob 李明", "김민준")
    for w in WIDTHS:
        assert fitted(players, w)[::4] == ("#1", "#5")
    assert fitted(players, 60)[1:4] == ("Zoë 😀", "?Bob", "Bob ?")
    assert fitted(players, NAME_W)[1:4] == ("Zo…", "?Bob", "Bo…")


def test_the_picture_draws_cut_names_and_the_alt_text_keeps_them_whole() -> None:
    players = ("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "山田太郎", "iiiiiiiiii")
    layout = Layout(
        "Test",
        f"{players[0]} to play",
        (
            played_row("Trick", players, [(0, card("QS")), (1, card("KS")), (2, card("2S"))], winner=1, note=f"{players[1]} winning"),
            Counts("Cards in hand", tuple((p, 5) for p in players)),
            Scores(("Score",), tuple(ScoreLine(p, ("0",)) for p in players)),
        ),
        players=players,
    )
    with drawlog.recording() as log:
        draw_layout(layout, Style())
    shown = [text for text, _ in log.texts]
    assert not any(players[0] in t or "山" in t for t in shown), shown
    forms = fitted(players, NAME_W)
    assert f"{forms[0]} to play" in " ".join(shown)
    assert forms[1] in shown  # the stand-in for a name the font cannot draw
    for form in forms:  # each in one form under its card, in the counts and in the scores
        assert sum(1 for t in shown if t == form or t.startswith(f"{form} ")) >= 3, (form, shown)
    alt = layout.text()
    assert all(p in alt for p in players) and "…" not in alt
    assert names.shortened(layout).text() != alt  # (the picture's own text is the shortened one)


def test_every_character_drawn_in_every_game_with_long_names_is_in_the_font() -> None:
    """Over a whole match of each game with names from :data:`LONG_NAMES` (CJK, emoji), each
    picture's text holds only characters the font draws (suit symbols are drawn as pips)."""
    drawn = drawn_characters()
    assert drawn is not None
    for game_id in ("hoodwink", "costly_colours", "ninety_nine"):
        game = get_game(game_id)
        state = play_match(game, long_names(max(game.player_counts)), seed=3)
        for layout in (pictures.table_layout(state.view(None)), pictures.hand_layout(state.view(0), state.legal_actions(0))):
            with drawlog.recording() as log:
                draw_layout(layout, Style())
            missing = {ch for text, _ in log.texts for ch in text if ord(ch) not in drawn and ch not in "♠♥♦♣"}
            assert not missing, f"{game_id}: {missing}"
        alt = pictures.table_alt_text(state.view(None))
        assert all(name in alt for name in state.players), f"{game_id}: {alt}"


def test_the_table_text_keeps_long_names_whole() -> None:
    game = get_game("hoodwink")
    state = play_match(game, list(LONG_NAMES[:3]), seed=3)
    text = "\n".join(state.view(None).text_lines())
    assert all(name in text for name in LONG_NAMES[:3])
    assert all(name in pictures.table_alt_text(state.view(None)) for name in LONG_NAMES[:3])


def other_cuts(text: str, whole: str, forms: Sequence[str]) -> list[str]:
    """The cuts of ``whole`` ("Wo…", "Wolf…") drawn in ``text`` that are none of the players'
    ``forms`` (a cut is found only where it starts a word: "W…" is not drawn inside "WW…")."""
    found = []
    for k in range(1, len(whole)):
        cut = whole[:k].rstrip() + "…"
        if cut not in forms and re.search(rf"(?<![\w?#]){re.escape(cut)}(?!\w)", text):
            found.append(cut)
    return found


@pytest.mark.parametrize("game_id", ["hoodwink", "ninety_nine", "spec"])
def test_a_players_name_reads_the_same_everywhere_in_a_picture(game_id: str) -> None:
    """With long names, a player's name is cut once for a picture: the heading, the labels under
    the cards, the score lines, the counts and the notes hold the same form (once "WW…" in the
    heading, "W…" in the scores and "Wolf…" in a note of one Hoodwink picture). Read from the
    layout as it is drawn (its names shortened), table and hand."""
    checked = 0
    for state in states_of(game_id)[::9]:
        view = state.view(None)
        forms = fitted(tuple(view.players), NAME_W)
        for layout in (pictures.table_layout(view), pictures.hand_layout(state.view(0), state.legal_actions(0))):
            text = names.shortened(layout).text()
            for seat, form in enumerate(forms):
                whole = names.drawable(view.players[seat], seat)
                assert not other_cuts(text, whole, forms), (state.turn, form, other_cuts(text, whole, forms), text)
                checked += form in text
    assert checked


def test_a_layout_without_players_is_drawn_as_it_is() -> None:
    layout = Layout("Test", "", (Row("Cards", (Spot(card("QS"), label="Wolfgang Amadeus Mozart"),)),))
    assert names.shortened(layout) is layout


def states_of(game_id: str, seed: int = 7) -> list[GameState[Any]]:
    """Every position of a random match at the game's largest player count, with long names."""
    game = get_game(game_id)
    kept: list[GameState[Any]] = []
    final = play_match(game, long_names(max(game.player_counts)), seed=seed, on_action=lambda s: kept.append(s.clone()))
    return [*kept, final]


def test_spec_leaves_the_guesses_to_the_text_which_states_each_one() -> None:
    """Spec's score table beside the grid has two columns (a third, the guesses at the last card,
    widened the picture past 464 px with real names): the table's text says each guess, by name."""
    guessed = 0
    for state in states_of("spec")[:40]:
        view = state.view(None)
        [scores] = [a for a in view.layout().areas if isinstance(a, Scores)]
        assert scores.columns == ("Score", "Deal")
        made = [(name, p) for name, p in zip(view.players, view.predictions, strict=True) if p is not None]  # type: ignore[attr-defined]
        lines = [line for line in view.table_lines() if line.startswith("Predictions: ")]
        if not made:
            assert not lines
            continue
        guessed += 1
        [line] = lines
        said = [part.rpartition(" ") for part in line.removeprefix("Predictions: ").split(", ")]
        assert [(name, shown) for name, _, shown in said] == [
            (name, "Joker" if p == "Joker" else card(p).short) for name, p in made
        ]
    assert guessed


def test_costly_colours_leaves_the_partners_to_the_text() -> None:
    """Four players play in partnerships: the picture's facts no longer name them (the fact took
    a second line and widened the picture with real names); the table's text says who partners
    whom, by whole name, at every position."""
    states = states_of("costly_colours")
    for state in states[:: max(1, len(states) // 20)]:
        view = state.view(None)
        facts = [k for a in view.layout().areas if isinstance(a, Facts) for k, _ in a.items]
        assert "Partners" not in facts
        a, b, c, d = view.players
        assert f"Partners: {a} & {c}; {b} & {d}" in view.table_lines()


INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u00ad", "\u2060", "\ufeff")
"""Format characters DejaVu has and draws as nothing: zero-width space, non-joiner and joiner,
direction marks, soft hyphen, word joiner, byte order mark."""


def drawn(form: str) -> str:
    """What a form looks like in the picture: composed, its invisible characters gone."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFC", form) if unicodedata.category(c) != "Cf")


def test_look_alike_names_are_told_apart() -> None:
    """Two players whose names differ only by a character drawn as nothing, or by how an accent
    is encoded ("Zoë" as one character or as "e" and a combining diaeresis), are told apart in
    every place; the same name twice is drawn the same; nothing invisible is drawn."""
    pairs = [("Al", f"A{c}l") for c in INVISIBLE] + [("Bob", f"Bo{c}b") for c in INVISIBLE]
    pairs += [("Zoë", "Zoe\u0308"), ("Alexandra", "Alexandr\u200ba"), ("Ed", "Ed\ufeff")]
    for w in WIDTHS:
        for pair in pairs:
            forms = fitted(pair, w)
            assert drawn(forms[0]) != drawn(forms[1]), (pair, w, forms)
            assert all(form == drawn(form) and width(form) <= w for form in forms)
        assert fitted(("Zoë", "Zoë"), w) == ("Zoë", "Zoë")
        assert fitted(("Zoe\u0308", "Ann"), w)[0] == "Zoë"  # drawn composed: the same as the other Zoë
        assert fitted(("Bo\u200bb", "Ann"), w)[0] == "Bob"


def test_a_seat_mark_cuts_only_a_name_that_does_not_fit() -> None:
    """Names told apart by their seats keep "…" only when cut: "Al #2", never "Al… #2" (where
    "Al #2" fits: a label, a heading)."""
    for w in (56, 60):
        forms = fitted(("Al", "A\u200bl"), w)
        assert forms == ("Al #1", "Al #2"), (w, forms)


def test_random_name_sets_drawn_alike_only_when_the_same() -> None:
    """A few hundred sets of names built from letters, accents in both encodings and invisible
    characters: two seats are drawn alike only when their names are the same string (the same
    name may still be drawn by its seat, "#1" and "#4", where nothing of it can be drawn)."""
    import random

    rng = random.Random(6)
    parts = ["B", "o", "b", "e", "ë", "e\u0308", *INVISIBLE]
    for _ in range(300):
        names = tuple("".join(rng.choice(parts) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(2, 4)))
        forms = fitted(names, NAME_W)
        for i in range(len(names)):
            for j in range(i):
                assert drawn(forms[i]) != drawn(forms[j]) or names[i] == names[j], (names, forms)
