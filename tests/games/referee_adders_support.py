"""Helpers for the adders' referee tests: start a refereed match, enter cards, check refusals."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import card
from games.counting import PlayAs, play_as, play_card
from games.engine import Action, GameState, IllegalAction
from games.referee.counting import starter_entry
from games.registry import referee_game


def start(game_id: str, players: list[str], **options: Any) -> Any:
    """A refereed match with the first dealer fixed (``first_dealer`` 1-based, default 1)."""
    return referee_game(game_id).start(players, {"first_dealer": 1, **options}, seed=5)


def entry(code: str) -> Action:
    """``"7S"`` plays the 7♠; ``"QS-3"`` / ``"QS+3"`` a card with a chosen value; ``"AS=0"`` a card
    setting the total."""
    if "=" in code:
        c, total = code.split("=")
        return play_as(card(c), int(total), True)
    for sign in "+-":
        if sign in code[1:]:
            c, value = code[: code.index(sign, 1)], code[code.index(sign, 1):]
            return play_as(card(c), int(value))
    return play_card(card(code))


def play(state: GameState[Any], *codes: str) -> None:
    """Enter cards for whoever is to play, in order."""
    for code in codes:
        seat = state.to_play  # type: ignore[attr-defined]
        state.apply(seat, entry(code))


def turn_up(state: GameState[Any], *codes: str) -> None:
    """The dealer enters the starters."""
    for code in codes:
        state.apply(state.dealer, starter_entry(card(code)))  # type: ignore[attr-defined]


def fingerprint(state: GameState[Any]) -> tuple[str, list[list[Action]]]:
    """What the table sees and may enter."""
    return state.view(None).model_dump_json(), [state.legal_actions(s) for s in range(state.n)]


def refused(state: GameState[Any], seat: int, action: Action | str) -> str:
    """An entry that must be refused, with its reason; nothing may change."""
    if isinstance(action, str):
        action = entry(action)
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert fingerprint(state) == before
    return str(info.value)


def texts(state: GameState[Any]) -> list[str]:
    return [e.text for e in state.log if e.to is None]


__all__ = ["PlayAs", "entry", "fingerprint", "play", "refused", "start", "texts", "turn_up"]
