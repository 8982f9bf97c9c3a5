"""Plain-text rendering of tables, hands and action menus, shared by the console and Discord."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.service.model import public_view
from games.engine import Action, Game, View
from games.referee.series import Series

if TYPE_CHECKING:
    from bot.service.model import Table


JOINER = "\u200d"
"""The zero-width joiner: kept, as emoji sequences (a family, a flag) are built with it."""


def strip_marks(text: str) -> str:
    """``text`` without the invisible characters that act on what surrounds them: direction
    marks and overrides (U+202E flips the rest of a line), zero-width and other format
    characters, and control characters other than a line break."""
    if all(line.isprintable() for line in text.split("\n")):
        # the usual case, in C: a printable character is in none of the categories removed
        # (str.isprintable is false for every "Other" and "Separator" but the space)
        return text
    return "".join(
        ch
        for ch in text
        if ch == "\n" or ch == JOINER or unicodedata.category(ch) not in ("Cf", "Cc", "Cs", "Co")
    )


def clean_name(text: str) -> str:
    """A person's name (a display name, a guest's name) as the bot keeps and shows it
    everywhere: no direction or control characters, on one line, spaces collapsed."""
    return " ".join(strip_marks(text).split())


def players_text(game: Game[Any]) -> str:
    counts = game.player_counts
    lo, hi = min(counts), max(counts)
    if len(counts) == hi - lo + 1:
        return str(lo) if lo == hi else f"{lo}-{hi}"
    return ", ".join(map(str, counts))


def option_title(game: Game[Any], name: str) -> str:
    """An option's name for people: the field's ``title`` where the game gives one, else its key
    in words (``no_trump``: "No trump"; ``v2_scenario``: "Variation 2 scenario")."""
    field_info = game.Options.model_fields.get(name)
    if field_info is not None and field_info.title:
        return field_info.title
    words = [f"variation {w[1:]}" if re.fullmatch(r"v\d+", w) else w for w in name.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def option_value_text(name: str, value: Any) -> str:
    """An option's value in words: on / off, "random" for a first dealer left blank, "none" for
    another blank value, and choices with spaces for underscores."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == "":
        return "random" if name == "first_dealer" else "none"
    if name == "first_dealer":
        return f"seat {value}"
    return str(value).replace("_", " ")


def options_text(game: Game[Any], options: Any) -> list[str]:
    """The options as people read them, one a line: ``No trump: off``."""
    values = options.model_dump(mode="json")
    return [f"{option_title(game, f.name)}: {option_value_text(f.name, values.get(f.name))}" for f in game.option_fields()]


def lobby_lines(table: Table) -> list[str]:
    g = table.game
    lines = [f"{g.title} - a table is open ({players_text(g)} players)."]
    for i, s in enumerate(table.seats, 1):
        tag = " (host)" if s.user_id == table.host_id and s.bot is None else ""
        kind = f" [bot, {s.bot}]" if s.bot is not None else ""
        lines.append(f"  {i}. {s.name}{kind}{tag}")
    opts = options_text(g, table.options)
    if opts:
        lines.append("Options: " + "; ".join(opts))
    return lines


def table_lines(table: Table) -> list[str]:
    """The public description of a table: lobby, play or result."""
    if table.state is None:
        return lobby_lines(table)
    view = public_view(table)
    lines = [f"{table.game.title} (turn {table.state.turn})", *view.text_lines()]
    if table.recent:
        lines.append("Recent: " + " ".join(e.text for e in table.recent[-4:]))
    if table.unrated and table.state.is_over:
        lines.append("Unrated: " + ", ".join(sorted(table.unrated)) + ".")
    return lines


ENTRIES_SHOWN = 4


def entry_label(table: Table, seat: int, entry: Action) -> str:
    """A referee entry with the player(s) it is for: ``bob: 3 tricks``; a line of entries names
    each entry's player where the line says whose it is (``ann Bid A♥, bob Bid 9♥``)."""
    if isinstance(entry, Series):
        if entry.seats:
            return ", ".join(f"{table.seats[s].name} {e.label()}" for s, e in zip(entry.seats, entry.entries, strict=True))
        return f"from {table.seats[seat].name} on: {entry.label()}"
    return f"{table.seats[seat].name}: {entry.label()}"


def entry_status_lines(
    table: Table, actions: Sequence[tuple[int, dict[str, Any]]], log: Sequence[dict[str, Any]]
) -> list[str]:
    """Referee mode: the last few entries, each with who entered it and whether it was confirmed
    or corrected, and the last entry taken back; so the table sees every Undo and Confirm."""

    def who(user_id: str | None) -> str:
        if user_id is None:
            return "someone"
        seat = table.seat_of(user_id)
        if seat is not None:
            return table.seats[seat].name
        return "the host" if user_id == table.host_id else "a moderator"

    corrected = {row["seq"]: row["by_user"] for row in log if row["kind"] == "correct"}
    lines: list[str] = []
    first = max(0, len(actions) - ENTRIES_SHOWN)
    for seq in range(first, len(actions)):
        seat, data = actions[seq]
        label = entry_label(table, seat, table.game.action_from_json(data))
        made = table.actors[seq] if seq < len(table.actors) else None
        confirmed = table.confirmed_by[seq] if seq < len(table.confirmed_by) else None
        status = [f"entered by {who(made)}"]
        if seq in corrected:
            status = [f"corrected by {who(corrected[seq])}"]
        status.append(f"confirmed by {who(confirmed)}" if confirmed else "not confirmed yet")
        lines.append(f"#{seq + 1} {label} - {', '.join(status)}")
    if log and log[-1]["kind"] == "undo":
        undone = log[-1]
        text = table.game.action_from_json(undone["action"]).label() if undone.get("action") else "an entry"
        lines.append(f"Taken back by {who(undone['by_user'])}: #{undone['seq'] + 1} {text}")
    return lines


def private_text(table: Table, view: View) -> str:
    """The read-only private message (a DM) at a new deal."""
    return "\n".join([f"{table.game.title} in your channel - your view:", *view.text_lines()])


@dataclass
class MenuNode:
    """A level of a menu of actions: groups (by ``choice_path``) and leaf actions."""

    label: str
    actions: list[tuple[int, Action]] = field(default_factory=list)
    children: dict[str, MenuNode] = field(default_factory=dict)

    def count(self) -> int:
        return len(self.actions) + sum(c.count() for c in self.children.values())


def action_menu(legal: Sequence[Action], room: int = 25) -> MenuNode:
    """Group actions so that no level offers more than ``room`` entries.

    A level that fits is flat (every action a leaf); otherwise actions are grouped by the first
    element of their ``choice_path`` and each group is split the same way.
    """
    return _menu("", [(i, a, choice_path(a)) for i, a in enumerate(legal)], room, 0)


@functools.lru_cache(maxsize=8192)
def choice_path(action: Action) -> tuple[str, ...]:
    """``action.choice_path()``, remembered: an action is a frozen value whose path is made of
    its fields alone, and a menu of the same choices is built again at every turn they are open."""
    return action.choice_path()


def _menu(label: str, items: list[tuple[int, Action, tuple[str, ...]]], room: int, depth: int) -> MenuNode:
    node = MenuNode(label)
    if len(items) <= room or all(len(p) <= depth + 1 for _, _, p in items):
        node.actions = [(i, a) for i, a, _ in items]
        return node
    groups: dict[str, list[tuple[int, Action, tuple[str, ...]]]] = {}
    for i, a, p in items:
        key = p[depth] if len(p) > depth + 1 else a.label()
        groups.setdefault(key, []).append((i, a, p))
    for key, group in groups.items():
        if len(group) == 1 and len(group[0][2]) <= depth + 1:
            node.actions.append((group[0][0], group[0][1]))
        else:
            node.children[key] = _menu(key, group, room, depth + 1)
    return node


def numbered_actions(legal: Sequence[Action], start: int = 1) -> list[str]:
    """``#1 Spades / Q♠`` lines, for the console (full paths, so groups stay readable); ``#1`` is
    how a position is typed, since a bare number means a count or a value."""
    return [f"#{i} {' / '.join(a.choice_path())}" for i, a in enumerate(legal, start)]


LIST_AT_MOST = 30
"""A menu this long or shorter is listed in full; a longer one is summarised (see choices_summary)."""


def _rest(group: str, label: str) -> str:
    """A label without its group's name in front (``A1: K♥`` in group ``A1`` is ``K♥``)."""
    if group and label.startswith(group):
        return label[len(group) :].lstrip(":/ ") or label
    return label


def _some(items: Sequence[str], at_most: int = 8) -> str:
    shown = " ".join(items[:at_most])
    return shown if len(items) <= at_most else f"{shown} ... ({len(items) - at_most} more)"


def choices_summary(
    legal: Sequence[Action], *, at_most: int = LIST_AT_MOST, start: int = 1, command: str = "/move "
) -> list[str]:
    """A long menu as people can read it: its groups, what each holds, and examples to type.

    Up to ``at_most`` choices are listed in full (numbered from ``start``, as ``numbered_actions``),
    with how to type them. Beyond that
    the choices are grouped by the first step of their ``choice_path``; a card that can be played
    several ways is named once with how many; groups that offer the same choices (every cell of a
    grid with the same cards) are described once."""
    if not legal:
        return []
    if len(legal) <= at_most:
        return [*numbered_actions(legal, start), _examples(legal, command, position=start)]
    groups: dict[str, list[Action]] = {}
    for a in legal:
        path = a.choice_path()
        groups.setdefault(path[0] if len(path) > 1 else "", []).append(a)
    items = {g: _group_items(g, actions) for g, actions in groups.items()}
    lines = [f"{len(legal)} choices:"]
    named = [g for g in groups if g]
    if len(named) > 1 and all(items[g] == items[named[0]] for g in named):
        lines.append(f"  one of {len(named)}: {_some(named, 12)}")
        lines.append(f"  with one of {len(items[named[0]])}: {_some(items[named[0]], 12)}")
    else:
        lines += [f"  {g} ({len(groups[g])}): {_some(items[g])}" for g in named]
    if "" in groups:
        lines.append(f"  also: {_some(items[''])}")
    lines.append(_examples(legal, command))
    return lines


def _examples(legal: Sequence[Action], command: str, position: int | None = None) -> str:
    """How to type a choice: a typed form of the first and the last (plain ASCII, as
    :func:`games.notation.typed_form` writes them), and a position where there is a list."""
    from games.notation import typed_form

    cards = Counter(a.card for a in legal if a.card is not None)
    several = next((a for a in legal if a.card is not None and cards[a.card] > 1), None)  # QS -3
    shown = [legal[0], *([several] if several is not None else []), legal[-1]]
    examples = list(dict.fromkeys(typed_form(a) for a in shown))
    if position is not None and len(legal) > 1:
        examples.append(f"#{position + len(legal) - 1}")
    return "Type, for example: " + ", ".join(f"{command}{e}" for e in examples)


def _group_items(group: str, actions: Sequence[Action]) -> list[str]:
    """What a group offers, in order: each choice's card (or its label without the group's name),
    and a card that can be played in several ways once, with how many."""
    ways: dict[str, int] = {}
    for a in actions:
        key = a.card.short if a.card is not None else _rest(group, a.label())
        ways[key] = ways.get(key, 0) + 1
    items = []
    for a in actions:
        key = a.card.short if a.card is not None else _rest(group, a.label())
        if key in ways:
            n = ways.pop(key)
            items.append(f"{key} ({n} ways)" if n > 1 else key)
    return items
