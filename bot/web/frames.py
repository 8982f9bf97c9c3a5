"""What the live table sends a browser: one JSON frame per viewer per change, built from views.

A seated player's frame is built from their own view (``state.view(seat)``) and their legal
actions; anyone else's from the public view. Nothing else of the state is read, so a frame can
never hold a card its viewer may not see: the same rule as every message and picture, checked by
the same kind of test (``tests/web/test_frames.py``).

The table is sent as the game's layout (:mod:`games.layout`, pure data) for the browser to draw,
the seated viewer's own hand as its cards, with each choice the viewer may make now (its label, its menu path and the card
it plays, if any) and, for each card of the hand it may not play, the game's reason.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from bot.service.model import Table
from games.cards import Card, Colour
from games.engine import Action, IllegalAction, PlayCard, View
from games.layout import Layout, own_hand

LOG_LINES = 12
"""How many of the latest public events (and the viewer's own) a frame carries."""


def card_json(card: Card) -> dict[str, Any]:
    """A card as the browser draws it: its code, rank and suit symbols, colour and name."""
    colour = card.card_colour
    return {
        "code": card.code,
        "rank": "" if card.is_joker or card.rank is None else card.rank.code,
        "suit": "" if card.suit is None else card.suit.symbol,
        "red": colour is Colour.RED,
        "joker": card.is_joker,
        "name": card.name,
    }


def layout_json(value: Any) -> Any:
    """A layout (frozen dataclasses of areas and spots) as plain JSON, each area tagged with its
    kind (``Row``, ``Pile``, ``Grid``...)."""
    if isinstance(value, Card):
        return card_json(value)
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"kind": type(value).__name__}
        for f in fields(value):
            out[f.name] = layout_json(getattr(value, f.name))
        return out
    if isinstance(value, tuple | list):
        return [layout_json(v) for v in value]
    return value


def choice_json(index: int, action: Action, seat: int | None = None) -> dict[str, Any]:
    card = action.card
    return {
        "i": index,
        "label": action.label(),
        "path": list(action.choice_path()),
        "card": card_json(card) if card is not None else None,
        "seat": seat,
    }


def refusals(table: Table, seat: int, hand: list[Card], playable: set[Card]) -> dict[str, str]:
    """Why each card of the hand that may not be played now is refused (the game's own reason),
    for the browser to show on hover or tap."""
    state = table.state
    if state is None or table.status != "playing" or seat not in state.awaiting():
        return {}
    out: dict[str, str] = {}
    for card in hand:
        if card in playable or card.code in out:
            continue
        try:
            state.check(seat, PlayCard(play=card))
        except IllegalAction as exc:
            out[card.code] = str(exc)
        except ValueError:
            continue
    return out


def table_layout(view: View) -> Layout:
    """The table's layout without the seat's own hand, which the page draws as buttons apart."""
    layout = view.layout()
    hand = own_hand(view)
    return replace(layout, areas=tuple(a for a in layout.areas if a not in hand))


def frame(table: Table, seat: int | None, *, entries: list[tuple[int, Action]] | None = None) -> dict[str, Any]:
    """The frame for a viewer at ``seat`` (``None``: a spectator). ``entries`` are a referee
    table's entries the viewer may make (any awaited seat's, for a member of the table)."""
    state = table.state
    base: dict[str, Any] = {
        "type": "table",
        "table": table.id,
        "game": {"id": table.game.id, "title": table.game.title},
        "mode": table.mode,
        "status": table.status,
        "seat": seat,
        "players": [
            {"seat": i, "name": s.name, "bot": s.bot is not None, "left": s.left_at is not None}
            for i, s in enumerate(table.seats)
        ],
    }
    if state is None:
        return {**base, "turn": table.turn, "layout": None, "hand": [], "choices": [], "reasons": {}, "log": []}
    view: View = state.view(seat)
    playing = table.status == "playing"
    choices: list[dict[str, Any]] = []
    hand: list[Card] = []
    reasons: dict[str, str] = {}
    if entries is not None:
        choices = [choice_json(i, action, s) for i, (s, action) in enumerate(entries)]
    elif seat is not None:
        legal = state.legal_actions(seat) if playing else []
        choices = [choice_json(i, action) for i, action in enumerate(legal)]
        playable = {a.card for a in legal if a.card is not None}
        hand = list(view.hand)
        reasons = refusals(table, seat, hand, playable)
    log = [e.text for e in state.log if e.to is None or (seat is not None and e.to == seat)][-LOG_LINES:]
    return {
        **base,
        "turn": state.turn,
        "deal": view.deal,
        "awaiting": sorted(view.awaiting),
        "scores": list(view.scores),
        "over": view.over,
        "result": list(view.outcome.notes) if view.over and view.outcome is not None else [],
        "layout": layout_json(table_layout(view)),
        "hand": [card_json(c) for c in hand],
        "choices": choices,
        "reasons": reasons,
        "log": log,
    }
