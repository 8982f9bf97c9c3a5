"""Discord's limits: the clipping helpers, the checks, and every game's messages within them."""

from __future__ import annotations

import random
from typing import Any, Literal

import discord
import pytest

from bot.discord.components import ActButton, NavButton, PickSelect
from bot.discord.embeds import games_embed, hand_embed, help_embed, lobby_embed, rules_embed, table_embed
from bot.discord.hand_menu import back_path, hand_view, resolve_path
from bot.discord.limits import (
    CUSTOM_ID,
    EMBED_TOTAL,
    ROWS,
    clip,
    clip_lines,
    embed_problems,
    fit_embed,
    legible,
    view_problems,
)
from bot.discord.messages import table_view
from bot.discord.options import options_view
from bot.render.text import action_menu
from bot.tables import HandInfo, Table
from games.cards import Card, Colour, Rank, Suit
from games.engine import Action, PlayCard, View
from games.registry import all_games
from storage.sessions import SeatRecord


def test_clip_and_clip_lines() -> None:
    assert clip("short", 10) == "short"
    assert clip("x" * 20, 10) == "x" * 9 + "…" and len(clip("x" * 20, 10)) == 10
    lines = [f"line {i}" for i in range(100)]
    kept_end = clip_lines(lines, 60)
    assert len(kept_end) <= 60 and kept_end.endswith("line 99") and kept_end.startswith("…")
    kept_start = clip_lines(lines, 60, keep="start")
    assert len(kept_start) <= 60 and kept_start.startswith("line 0") and kept_start.endswith("…")
    assert clip_lines(["a", "b"], 60) == "a\nb"


def test_fit_embed_repairs_every_limit() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"n{i}" * 100, value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    problems = embed_problems(embed)
    assert any("title" in p for p in problems) and any("30 fields" in p for p in problems)
    assert any("totals" in p for p in problems)
    fitted = fit_embed(embed)
    assert embed_problems(fitted) == [] and len(fitted) <= EMBED_TOTAL


async def test_view_problems_reports_each_problem() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="L" * 90, custom_id="a"))
    view.add_item(discord.ui.Button(label="ok", custom_id="a"))
    view.add_item(discord.ui.Button(label="ok", custom_id="c" * 120))
    options = [discord.SelectOption(label="o" * 120, value=str(i)) for i in range(3)]
    view.add_item(discord.ui.Select(custom_id="s", options=options, placeholder="p" * 200))
    problems = " | ".join(view_problems(view))
    assert "button label" in problems and "used twice" in problems and "custom_id" in problems
    assert "option label" in problems and "placeholder" in problems


async def test_custom_ids_stay_short_for_big_numbers() -> None:
    items: list[discord.ui.DynamicItem[Any]] = [
        ActButton(10**15, 10**9, 999, "x"),
        PickSelect(10**15, 10**9, tuple(range(9)), 99, [discord.SelectOption(label="a", value="a999")], "p"),
        NavButton(10**15, 10**9, tuple(range(9))),
    ]
    for item in items:
        assert len(item.custom_id) <= CUSTOM_ID


# -- hand menus -----------------------------------------------------------------------------------


class Call(Action):
    kind: Literal["call"] = "call"
    cell: str
    value: int

    def label(self) -> str:
        return f"{self.cell}: {self.value}"

    def choice_path(self) -> tuple[str, ...]:
        return (self.cell, self.label())


class Say(Action):
    kind: Literal["say"] = "say"
    word: str

    def label(self) -> str:
        return self.word


class Deep(Action):
    """An action three groups deep, the only way to play its card (a Ninety-Nine black Ace)."""

    kind: Literal["deep"] = "deep"
    value: int

    def label(self) -> str:
        return f"A♠ as {self.value}"

    def choice_path(self) -> tuple[str, ...]:
        low = self.value // 25 * 25
        return ("Spades", "A♠", f"{low}-{low + 24}", self.label())


class Bid(Action):
    kind: Literal["bid"] = "bid"
    value: int

    def label(self) -> str:
        return str(self.value)


class Shown(Action):
    """Shows a card (its label is the card's own, as a play's is)."""

    kind: Literal["show"] = "show"
    show: Card

    @property
    def card(self) -> Card:
        return self.show


def cards(n: int) -> list[Action]:
    ranks = list(Rank)
    out: list[Action] = []
    for suit in [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]:
        for rank in ranks:
            out.append(PlayCard(play=Card(rank, suit)))
    return out[:n]


def info(legal: list[Action]) -> HandInfo:
    view = View(game="t", players=["a"], seat=0, deal=1, dealer=None, scores=[0], awaiting=[0], phase="p")
    return HandInfo(0, view, legal, 7, [])


def shape(view: discord.ui.View | None) -> list[tuple[str, int]]:
    """(kind, size) of each item: ("select", options) or ("button", 1), in order."""
    assert view is not None and view_problems(view) == []
    out = []
    for item in view.children:
        d = item.to_component_dict()
        out.append(("select", len(d["options"])) if d["type"] == 3 else ("button", 1))
    return out


def buttons(view: discord.ui.View | None) -> list[tuple[str, str]]:
    """(label, style) of each button, in order."""
    assert view is not None
    out = []
    for item in view.children:
        d = item.to_component_dict()
        if d["type"] == 2:
            out.append((d["label"], discord.ButtonStyle(d["style"]).name))
    return out


def rows(view: discord.ui.View | None) -> int:
    assert view is not None
    return len(view.to_components())


async def test_few_cards_one_tap_each_and_small_choices_as_buttons() -> None:
    thirteen = hand_view(1, info(cards(13)))
    assert shape(thirteen) == [("button", 1)] * 13 and rows(thirteen) == 3
    assert [label for label, _ in buttons(thirteen)] == [legible(a.label()) for a in cards(13)]
    assert shape(hand_view(1, info([Say(word=w) for w in "abc"]))) == [("button", 1)] * 3
    assert shape(hand_view(1, info([Say(word=w) for w in "abcdefg"]))) == [("select", 7)]
    mixed = hand_view(1, info([*cards(10), Say(word="Pass")]))
    assert shape(mixed) == [("button", 1)] * 11 and rows(mixed) == 3  # two rows of cards, then Pass
    assert buttons(mixed)[-1] == ("Pass", "secondary")
    twenty = hand_view(1, info([*cards(20), *[Say(word=w) for w in "abcde"]]))
    assert shape(twenty) == [("button", 1)] * 25 and rows(twenty) == 5  # the most that fits
    many_others = hand_view(1, info([*cards(16), *[Say(word=w) for w in "abcdef"]]))
    assert shape(many_others) == [("button", 1)] * 16 + [("select", 6)] and rows(many_others) == 5


async def test_card_buttons_take_their_suit_colour() -> None:
    legal: list[Action] = [
        PlayCard(play=Card(Rank.ACE, Suit.SPADES)),
        PlayCard(play=Card(Rank.ACE, Suit.HEARTS)),
        PlayCard(play=Card(Rank.ACE, Suit.DIAMONDS)),
        PlayCard(play=Card(Rank.ACE, Suit.CLUBS)),
        PlayCard(play=Card.joker(Colour.RED)),
        PlayCard(play=Card.joker()),
    ]
    assert [style for _, style in buttons(hand_view(1, info(legal)))] == [
        "secondary", "danger", "primary", "success", "danger", "secondary"
    ]  # the pictures' four-colour pack: spades black, hearts red, diamonds blue, clubs green


async def test_a_long_list_is_a_menu_named_for_its_choice() -> None:
    long = hand_view(1, info(cards(21)))
    assert shape(long) == [("select", 21)] and placeholders(long) == ["Play a card"]
    bids = [Bid(value=v) for v in range(9)] + [Say(word="Pass")]
    assert placeholders(hand_view(1, info(bids))) == ["Bid or say"]
    assert placeholders(hand_view(1, info([Bid(value=v) for v in range(9)]))) == ["Bid"]
    twins = [PlayCard(play=Card(Rank.TWO, Suit.SPADES)), Shown(show=Card(Rank.TWO, Suit.SPADES))]
    assert shape(hand_view(1, info(twins))) == [("select", 2)]  # one label twice: the menu tells them apart
    assert placeholders(hand_view(1, info(twins))) == ["Play or show a card"]


def placeholders(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return [d["placeholder"] for d in (i.to_component_dict() for i in view.children) if d["type"] == 3]


async def test_many_cards_one_select_per_suit() -> None:
    legal = cards(40)  # more than 25: grouped by suit, each suit its own select, and Type it
    typing = ("button", 1)
    assert shape(hand_view(1, info(legal))) == [("select", 13), ("select", 13), ("select", 13), ("select", 1), typing]
    with_pass = hand_view(1, info([*legal, Say(word="Pass")]))
    assert shape(with_pass) == [("select", 13), ("select", 13), ("select", 13), ("select", 1), ("button", 1), typing]
    assert with_pass is not None and with_pass.children[-1].to_component_dict()["label"] == "Type it"


async def test_calls_are_two_steps_cell_then_call() -> None:
    legal: list[Action] = [Call(cell=f"{r}{c}", value=v) for r in "ABCDE" for c in "12345" for v in range(21)]
    legal.append(Say(word="Challenge"))
    top = hand_view(1, info(legal))
    assert shape(top) == [("select", 25), ("button", 1), ("button", 1)]  # Challenge, Type it
    assert top is not None
    entries = top.children[0].to_component_dict()["options"]
    assert entries[0]["label"] == "A1" and entries[0]["value"] == "g0"
    inside = hand_view(1, info(legal), (3,))
    assert shape(inside) == [("select", 21), ("button", 1), ("button", 1)]  # the cell's calls, Back, Type it
    assert inside is not None
    assert inside.children[0].to_component_dict()["options"][0]["label"] == "A4: 0"
    assert inside.children[1].to_component_dict().get("label") == "Back"


async def test_a_lone_path_opens_by_itself() -> None:
    legal: list[Action] = [Deep(value=v) for v in range(100)]
    menu = action_menu(legal)
    node, path = resolve_path(menu, ())
    assert path == (0, 0) and len(node.children) == 4  # Spades > A♠ skipped: nothing to choose there
    assert back_path(menu, path) is None
    assert shape(hand_view(1, info(legal))) == [("select", 25)] * 4 + [("button", 1)]  # one per range, Type it
    legal += [PlayCard(play=Card(Rank.NINE, Suit.HEARTS))]
    top = hand_view(1, info(legal))
    assert top is not None
    labels = [o["label"] for o in top.children[0].to_component_dict()["options"]]
    assert labels == ["Spades", legible("9♥")]  # a group of one card is offered as the card itself
    menu = action_menu(legal)
    assert resolve_path(menu, (0,))[1] == (0, 0) and back_path(menu, (0, 0)) == ()


async def test_far_too_many_choices_still_fit() -> None:
    legal: list[Action] = [Call(cell=f"C{i}", value=v) for i in range(200) for v in range(2)]
    view = hand_view(1, info(legal))
    assert view is not None and len(view.to_components()) <= ROWS and view_problems(view) == []


# -- every game of the catalogue ------------------------------------------------------------------


def make_table(game: Any, n: int, seed: int) -> Table:
    state = game.start([f"Player {i} " + "x" * 40 for i in range(n)], None, seed=seed)
    seats = [SeatRecord(name=f"Player {i} " + "x" * 40, user_id=str(10**17 + i)) for i in range(n)]
    return Table(10**9, "1", "2", game, state.options, seats[0].user_id or "", seats, seed, "playing", state)


GAMES = all_games()


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
async def test_every_message_of_every_game_fits(game: Any) -> None:
    assert embed_problems(rules_embed(game)) == []
    for n in sorted({min(game.player_counts), max(game.player_counts)}):
        table = make_table(game, n, seed=11)
        state = table.state
        assert state is not None
        rng = random.Random(n)
        step = 0
        while not state.is_over and step < 400:
            if step % 5 == 0:
                table.recent = state.log[-8:]
                assert embed_problems(table_embed(table)) == [], game.id
                view = table_view(table)
                assert view is not None and view_problems(view) == []
                for seat in range(n):
                    legal = state.legal_actions(seat)
                    hand = HandInfo(seat, state.view(seat), legal, state.turn, state.log[-5:])
                    assert embed_problems(hand_embed(table, hand, "note " * 300)) == []
                    if legal:
                        view = hand_view(table.id, hand)
                        assert view is not None
                        assert view_problems(view) == [], game.id
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        if state.is_over:
            assert embed_problems(table_embed(table)) == []
            assert table_view(table) is None  # no buttons on a finished match


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
async def test_lobby_and_options_menus_fit(game: Any) -> None:
    table = make_table(game, min(game.player_counts), seed=3)
    table.state, table.status = None, "lobby"
    assert embed_problems(lobby_embed(table)) == []
    assert view_problems(table_view(table)) == []  # type: ignore[arg-type]
    page = 0
    while True:
        view, _names = options_view(table, page)
        assert view_problems(view) == []
        buttons = [c.to_component_dict() for c in view.children]
        if not any(b.get("label") == "Next" and not b.get("disabled") for b in buttons):
            break
        page += 1


def test_catalogue_and_help_fit() -> None:
    assert embed_problems(games_embed(GAMES * 20)) == []
    assert embed_problems(help_embed()) == []
