"""A private view's choices are built from remembered texts (``option_text`` and ``choice_path``,
kept by action): whatever was remembered at earlier positions, of other seats or other games, a
view shows exactly the choices open now, each under its own label, at the turn it was drawn."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.discord.hand_menu import hand_view, option_text
from bot.discord.limits import BUTTON_LABEL, OPTION_DESCRIPTION, OPTION_LABEL, clip, legible
from bot.render.text import choice_path
from bot.service.model import HandInfo
from games.engine import Action
from games.registry import all_games

ACT = re.compile(r"parlour:act:7:(\d+):(\d+)")
PICK = re.compile(r"parlour:pick:7:(\d+):")


def fresh_text(action: Action) -> tuple[str, str | None]:
    """An option's text worked out afresh, as before it was remembered."""
    path = action.choice_path()
    description = " / ".join(path) if len(path) > 1 else None
    return clip(legible(action.label()), OPTION_LABEL), clip(legible(description), OPTION_DESCRIPTION) if description else None


def shown(info: HandInfo) -> dict[int, str]:
    """The actions a view offers at its first level, by index, with the label shown."""
    view = hand_view(7, info)
    assert view is not None
    out: dict[int, str] = {}
    for item in view.children:
        component: Any = getattr(item, "item", item)
        custom_id = str(component.custom_id)
        if (act := ACT.fullmatch(custom_id)) is not None:
            assert int(act[1]) == info.turn, "a button of another turn"
            out[int(act[2])] = str(component.label)
        elif (pick := PICK.match(custom_id)) is not None:
            assert int(pick[1]) == info.turn, "a menu of another turn"
            out |= {int(o.value[1:]): o.label for o in component.options if o.value.startswith("a")}
    return out


def test_every_view_shows_the_choices_open_now_under_their_own_labels() -> None:
    rng = random.Random(28)
    for game in all_games():
        players = min(n for n in game.player_counts if n >= 2)
        state = game.start([f"p{i}" for i in range(players)], None, seed=rng.randrange(1 << 30))
        for _ in range(8):
            if state.is_over:
                break
            for seat in sorted(state.awaiting()):
                legal = state.legal_actions(seat)
                info = HandInfo(seat, state.view(seat), legal, state.turn, [])
                for index, label in shown(info).items():
                    assert 0 <= index < len(legal), f"{game.id}: a choice that is not open"
                    assert label in (fresh_text(legal[index])[0], clip(legible(legal[index].label()), BUTTON_LABEL)), game.id
                for action in legal:
                    assert option_text(action) == fresh_text(action), game.id
                    assert choice_path(action) == action.choice_path(), game.id
            seat = min(state.awaiting())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
