"""Plain-text rendering of tables, hands and action menus, shared by the console and Discord."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.engine import Action, Game, View

if TYPE_CHECKING:
    from bot.service.model import Table


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
    view = table.state.view(None)
    lines = [f"{table.game.title} (turn {table.state.turn})", *view.text_lines()]
    if table.recent:
        lines.append("Recent: " + " ".join(e.text for e in table.recent[-4:]))
    if table.unrated and table.state.is_over:
        lines.append("Unrated: " + ", ".join(sorted(table.unrated)) + ".")
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
    return _menu("", [(i, a, a.choice_path()) for i, a in enumerate(legal)], room, 0)


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


def numbered_actions(legal: Sequence[Action]) -> list[str]:
    """``1. Q♠`` lines, for the console (full paths, so groups stay readable)."""
    return [f"{i}. {' / '.join(a.choice_path())}" for i, a in enumerate(legal, 1)]
