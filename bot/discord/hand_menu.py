"""A player's private view as components: their legal choices laid out in Discord's five rows,
a few cards as one button each (one tap a card), more cards in selects, a few other choices as
buttons, groups opened in two steps when there are more than a select holds, and Type it for a
long menu.

A card's button takes its suit's colour in the pictures' four-colour pack (spades black, hearts
red, diamonds blue, clubs green), which Discord's four button styles happen to match: grey, red,
blurple, green. A select's placeholder names what it asks for ("Play a card", "Bid or pass")."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.components import BUTTONS_PER_ROW, ROWS, ActButton, NavButton, PickSelect, TypeButton
from bot.discord.limits import OPTION_DESCRIPTION, OPTION_LABEL, SELECT_OPTIONS, clip, legible
from bot.render.text import MenuNode, action_menu, choice_path
from bot.service.model import HandInfo
from games.cards import Card, Colour, Suit
from games.engine import Action

TYPED_CHOICES = 26
"""From this many choices on (more than one menu holds), a private view also offers to type one."""
CARD_BUTTONS = 20
"""Up to this many cards are offered as buttons (four rows of five), if the view's other
components fit in the row left; more go in a select."""
SUIT_STYLES: dict[Suit, discord.ButtonStyle] = {
    Suit.SPADES: discord.ButtonStyle.secondary,
    Suit.HEARTS: discord.ButtonStyle.danger,
    Suit.DIAMONDS: discord.ButtonStyle.primary,
    Suit.CLUBS: discord.ButtonStyle.success,
}
PLAYS = frozenset({"play", "play_as"})
"""Action kinds that play a card (``play_as``: played for a chosen value)."""


def card_style(card: Card) -> discord.ButtonStyle:
    """A card button's style: its suit's colour (a red joker red, other jokers grey)."""
    if card.suit is not None:
        return SUIT_STYLES[card.suit]
    return discord.ButtonStyle.danger if card.colour is Colour.RED else discord.ButtonStyle.secondary


def placeholder(actions: Sequence[Action]) -> str:
    """What a menu of ``actions`` asks for, in a few words: "Play a card", "Bid or pass", "Call"."""
    kinds = list(dict.fromkeys("play" if a.kind in PLAYS else a.kind for a in actions))
    cards = all(a.card is not None for a in actions)
    if len(kinds) > 2 or not kinds:
        return "Choose a card" if cards else "Choose"
    words = " or ".join(k.replace("_", " ") for k in kinds) + (" a card" if cards else "")
    return words[0].upper() + words[1:]


def menu_node(menu: MenuNode, path: Sequence[int]) -> MenuNode | None:
    """The group at ``path`` (indices of children in order), or ``None`` if it is not there."""
    node = menu
    for i in path:
        children = list(node.children.values())
        if not 0 <= i < len(children):
            return None
        node = children[i]
    return node


@functools.lru_cache(maxsize=8192)
def option_text(action: Action) -> tuple[str, str | None]:
    """An action's label and description in a menu, as shown. Remembered by action: an action is
    a frozen value whose label and path are made of its fields alone, and the same choices come
    back turn after turn (a calling turn of Spec offers some 250, about a millisecond a view)."""
    path = choice_path(action)
    description = " / ".join(path) if len(path) > 1 else None
    label = clip(legible(action.label()), OPTION_LABEL)
    return label, clip(legible(description), OPTION_DESCRIPTION) if description else None


def _leaf_option(index: int, action: Action) -> discord.SelectOption:
    label, description = option_text(action)
    return discord.SelectOption(label=label, value=f"a{index}", description=description)


def _group_option(k: int, node: MenuNode) -> discord.SelectOption:
    count = node.count()
    return discord.SelectOption(
        label=clip(legible(node.label), OPTION_LABEL),
        value=f"g{k}",
        description=f"{count} choice{'s' * (count != 1)}...",
    )


def chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def resolve_path(menu: MenuNode, path: Sequence[int]) -> tuple[MenuNode, tuple[int, ...]]:
    """The group at ``path`` (the whole menu if it is not there), skipping groups that would only
    offer one way on (a suit holding one card that opens into many ways to play it)."""
    node = menu_node(menu, path)
    if node is None:
        node, path = menu, ()
    path = tuple(path)
    while not node.actions and len(node.children) == 1:
        node = next(iter(node.children.values()))
        path = (*path, 0)
    return node, path


def back_path(menu: MenuNode, path: tuple[int, ...]) -> tuple[int, ...] | None:
    """Where Back leads from ``path``: the nearest group above that offers a real choice."""
    target = path[:-1]
    while target and resolve_path(menu, target)[1] == path:
        target = target[:-1]
    if resolve_path(menu, target)[1] == path:
        return None
    return target


def hand_view(session: int, info: HandInfo, path: Sequence[int] = ()) -> discord.ui.View | None:
    """The choices of a hand as components, within five rows.

    A level of the menu that fits is shown flat: cards in a select, up to five other choices as
    buttons. When there are groups (more than 25 choices), each group gets its own select if all
    fit; otherwise the first select lists the groups and picking one opens it (two steps), with
    a Back button.
    """
    if not info.choices:
        return None
    menu = action_menu(info.choices, SELECT_OPTIONS)
    node, resolved = resolve_path(menu, path)
    back = back_path(menu, resolved) if resolved else None
    rows = _node_rows(session, info.turn, resolved, node, back)
    if len(info.choices) >= TYPED_CHOICES:  # a long menu: typing the choice is quicker
        typing: Row = [TypeButton(session)]
        if rows and len(rows[-1]) < BUTTONS_PER_ROW and all(isinstance(i, (ActButton, NavButton)) for i in rows[-1]):
            rows[-1] = [*rows[-1], *typing]
        else:  # in a row of its own, in place of the last menu if the view is full (typing reaches all)
            rows = [*rows[: ROWS - 1], typing]
    view = discord.ui.View(timeout=None)
    for row in rows[:ROWS]:  # discord.py lays items out in order: a select fills a row
        for item in row:
            view.add_item(item)
    return view


Row = list[discord.ui.DynamicItem[Any]]


def _lone_action(node: MenuNode) -> tuple[int, Action] | None:
    """The only action inside ``node``, if it holds just one."""
    if node.count() != 1:
        return None
    while not node.actions:
        node = next(iter(node.children.values()))
    return node.actions[0]


def _distinct(items: list[tuple[int, Action]]) -> bool:
    """Whether every action's label is its own (a button shows only the label)."""
    return len({legible(a.label()) for _, a in items}) == len(items)


def _card_button(session: int, turn: int, index: int, action: Action) -> ActButton:
    assert action.card is not None
    return ActButton(session, turn, index, action.label(), style=card_style(action.card))


def _node_rows(
    session: int, turn: int, path: tuple[int, ...], node: MenuNode, back_to: tuple[int, ...] | None
) -> list[Row]:
    cards = [(i, a) for i, a in node.actions if a.card is not None]
    others = [(i, a) for i, a in node.actions if a.card is None]
    children = list(node.children.values())
    counter = iter(range(1000))

    def select(entries: list[discord.SelectOption], placeholder: str) -> Row:
        return [PickSelect(session, turn, path, next(counter), entries, placeholder)]

    def leaf_selects(items: list[tuple[int, Action]], placeholder: str) -> list[Row]:
        return [
            select([_leaf_option(i, a) for i, a in chunk], placeholder)
            for chunk in chunks(items, SELECT_OPTIONS)
        ]

    button_row: Row = []
    other_rows: list[Row] = []
    if len(others) <= BUTTONS_PER_ROW:
        button_row = [ActButton(session, turn, i, a.label()) for i, a in others]
    else:
        other_rows = leaf_selects(others, placeholder([a for _, a in others]))
    back: Row = [NavButton(session, turn, back_to, "Back")] if back_to is not None else []

    def assemble(middle: list[Row]) -> list[Row]:
        rows = [*middle, *other_rows]
        tail = [*button_row, *back]
        if len(tail) <= BUTTONS_PER_ROW:
            rows += [tail] if tail else []
        else:
            rows += [button_row, back]
        return rows

    if not children and 0 < len(cards) <= CARD_BUTTONS and _distinct(cards):  # one tap a card, if the rest fits
        tapped = assemble(chunks([_card_button(session, turn, i, a) for i, a in cards], BUTTONS_PER_ROW))
        if len(tapped) <= ROWS:
            return tapped
    card_rows = leaf_selects(cards, placeholder([a for _, a in cards]) if not children else "Other cards")
    if not children:
        return assemble(card_rows)
    if all(not c.children and len(c.actions) <= SELECT_OPTIONS for c in children):
        # a select per group, if they fit: counted before their options are made (a calling turn
        # of Spec has 25 groups of 21, some 500 options made and thrown away at every view)
        if len(assemble([[] for _ in range(len(children) + len(card_rows))])) <= ROWS:
            per_group = [select([_leaf_option(i, a) for i, a in c.actions], c.label) for c in children]
            return assemble([*per_group, *card_rows])
        counter = iter(range(len(children), 1000))  # keep custom ids unique in any case
    entries: list[discord.SelectOption] = []
    for k, c in enumerate(children):
        lone = _lone_action(c)
        entries.append(_leaf_option(*lone) if lone is not None else _group_option(k, c))
    entries += [_leaf_option(i, a) for i, a in cards]
    group_rows = [select(chunk, "Choose a group first") for chunk in chunks(entries, SELECT_OPTIONS)]
    rows = assemble(group_rows)
    if len(rows) > ROWS:  # far more choices than Discord can show at once: keep what fits
        keep = ROWS - (len(rows) - len(group_rows))
        rows = assemble(group_rows[: max(keep, 1)])
    return rows
