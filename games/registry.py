"""The catalogue of games, derived from one declaration per game.

A game declares itself once, at the end of its own module (OpenSpiel's habit), and that one
statement says everything the rest of Parlour needs to know about it::

    GAME = declare(
        Game(id="parity", title="Parity", min_players=2, max_players=2, options=ParityOptions,
             state=ParityState, actions=[...], summary=SUMMARY),
        referee="games.referee.parity:RefereeParityState",     # its referee mode: the state
        bots={"easy": "games.players.parity:EASY", ...},       # its bot levels, weakest first
        hinter="games.players.parity:parity_hint",             # optional
        analyser="games.players.parity:analyse_parity",        # optional
    )

Heavy pieces (the bot players, the Parity solver, the referee state) are named as ``"module:NAME"``
and imported on first use; a declaration may also hold the objects themselves. A game's referee
mode is its referee state (a :class:`~games.referee.state.RefereeState` declaring its entries,
rules summary and options): the registry derives the referee game from it and the online game
(:func:`~games.referee.referee_mode`), so nothing else names it.
``random`` is a level of every game and is never declared. :data:`CATALOGUE` lists the modules
whose games the bot serves, in the order they are listed to players; ``tests/games/test_every_game.py``
checks that every declaration is complete (bots at each level, a referee mode that replays a
dealt match, a rules summary).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

from games.engine import Game, SetupError
from games.ladder import Ladder
from games.ladder import load as load_ladder
from games.parts import Analyser, Hinter, Player, RandomPlayer
from games.referee import referee_mode
from games.referee.state import RefereeState

# The modules of the served games, in catalogue order. A game's id is its module's name, and ids
# never change once released: they are stored with every session.
CATALOGUE: tuple[str, ...] = (
    "games.parity",
    "games.parity_for_three",
    "games.hoodwink",
    "games.spec",
    "games.caterpillar",
    "games.costly_colours",
    "games.adders.fifty_one",
    "games.adders.hundred",
    "games.adders.jubilee",
    "games.adders.ninety_nine",
    "games.adders.obstacle_race",
    "games.adders.twenty_nine",
    "games.adders.wit_and_reason_1",
    "games.adders.wit_and_reason_2",
)

_MODULES: dict[str, str] = {module.rpartition(".")[2]: module for module in CATALOGUE}
"""game id -> module, derived from :data:`CATALOGUE`."""


@dataclass(frozen=True)
class Declaration:
    """Everything about one game: the game itself (id, title, player counts, options model, rules
    summary), its referee mode, its bot levels and, where it has them, its hinter and analyser.

    ``referee`` is the referee state, or ``"module:NAME"`` naming it; the referee game is derived
    from it (:func:`referee_game`).
    ``bots`` maps each level but ``random`` (weakest first) to ``"module:NAME"`` naming a player,
    or to the player itself. ``hinter`` and ``analyser`` are ``"module:NAME"`` or the function.
    How the levels fare is measured data, not part of the declaration: see :func:`ladder`.
    """

    game: Game[Any]
    referee: str | type[RefereeState[Any]] | None = None
    bots: Mapping[str, str | Player] = field(default_factory=dict)
    hinter: str | Hinter | None = None
    analyser: str | Analyser | None = None

    @property
    def id(self) -> str:
        return self.game.id

    def levels(self) -> list[str]:
        """The bot levels of this game, weakest first: ``random``, then the declared ones."""
        return ["random", *self.bots]


_DECLARED: dict[str, Declaration] = {}
"""Every declaration made so far, by game id (served or not: a test's game is declared too)."""


OptionsT = TypeVar("OptionsT", bound=BaseModel)


def declare(
    game: Game[OptionsT],
    *,
    referee: str | type[RefereeState[Any]] | None = None,
    bots: Mapping[str, str | Player] | None = None,
    hinter: str | Hinter | None = None,
    analyser: str | Analyser | None = None,
) -> Game[OptionsT]:
    """Declare ``game`` with its referee mode, bot levels and advice; returns ``game``.

    Declaring does not serve the game: the catalogue's modules are served, and a test serves a
    game of its own with :func:`register`.
    """
    if "random" in (bots or {}):
        raise ValueError(f"{game.id}: 'random' is a level of every game; declare only the others.")
    known = _DECLARED.get(game.id)
    if known is not None and known.game is not game:
        raise ValueError(f"Two games declare the id {game.id!r}.")
    _DECLARED[game.id] = Declaration(game, referee, dict(bots or {}), hinter, analyser)
    return game


def resolve(reference: Any) -> Any:
    """The object a reference names: ``"module:NAME"`` is imported, anything else is itself."""
    if not isinstance(reference, str):
        return reference
    module, _, name = reference.partition(":")
    target = importlib.import_module(module)
    return getattr(target, name) if name else target


# --- the catalogue and games registered by tests ---------------------------------------------------


@cache
def _import(game_id: str) -> Declaration:
    module_name = _MODULES[game_id]
    module = importlib.import_module(module_name)
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise TypeError(f"{module_name} must end with GAME = declare(Game(...), ...).")
    if game.id != game_id:
        raise ValueError(f"{module_name} declares id {game.id!r}; a game's id is its module's name, {game_id!r}.")
    found = _DECLARED.get(game_id)
    if found is None or found.game is not game:
        raise TypeError(f"{module_name} defines GAME without declaring it: write GAME = declare(Game(...), ...).")
    return found


_EXTRA: dict[str, Declaration] = {}
"""Games served besides the catalogue (a test's toy game), by id."""

_EXTRA_REFEREE: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> None:
    """Serve a game that is not in the catalogue (a test's game, a plug-in).

    A declared game is served as declared. A bare game, declared nowhere (the table service's toy
    game), is served with a random player standing in at the ``easy`` and ``strong`` levels, so that
    bot seats can be tested with it. The catalogue's games are all declared, and the every-game
    test refuses a stand-in among their bots.
    """
    found = _DECLARED.get(game.id)
    if found is not None and found.game is game:
        _EXTRA[game.id] = found
        return
    stand_in = RandomPlayer()
    _EXTRA[game.id] = Declaration(game, bots={"easy": stand_in, "strong": stand_in})


def unregister(game_id: str) -> None:
    """Stop serving a game added with :func:`register` (tests tidy up with it)."""
    _EXTRA.pop(game_id, None)
    _EXTRA_REFEREE.pop(game_id, None)


def register_referee(game: Game[Any]) -> None:
    """Serve ``game`` itself as the referee mode of the registered game with its id (the tests' toy
    game doubles as its own referee game); a declared game's referee mode is its ``referee=``."""
    _EXTRA_REFEREE[game.id] = game


def _find(game_id: str) -> Declaration | None:
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    return _import(game_id) if game_id in _MODULES else None


def _key(text: str) -> str:
    return text.strip().lower().replace("-", "_").replace(" ", "_")


def declaration(game_id: str) -> Declaration:
    """The declaration of a served game, by id or title; raises :class:`SetupError` otherwise."""
    key = _key(game_id)
    found = _find(key)
    if found is not None:
        return found
    for d in declarations():
        if _key(d.game.title) == key:
            return d
    raise SetupError(f"There is no game called '{game_id}'. Games: {', '.join(game_ids())}.")


def ladder(game_id: str) -> Ladder | None:
    """The measured bot ladder of a served game (``games/ladders/<id>.json``, written by
    ``tests/bench/ladder.py``), or ``None`` where it has not been measured."""
    return load_ladder(declaration(game_id).id)


def ladder_lines(game_id: str) -> list[str]:
    """How each bot level of a game fares, weakest first ("strong: rated 2174; wins 56% ..."), for
    the rules; empty for a game whose ladder has not been measured (the rules then show none)."""
    found = ladder(game_id)
    return [] if found is None else found.lines()


def catalogue() -> list[Declaration]:
    """The declarations of the catalogue's games, in catalogue order (no game added by a test)."""
    return [_import(game_id) for game_id in _MODULES]


def declarations() -> list[Declaration]:
    """Every served game's declaration: the catalogue's, then those added with :func:`register`."""
    served = [_EXTRA.get(game_id) or _import(game_id) for game_id in _MODULES]
    return [*served, *(d for game_id, d in _EXTRA.items() if game_id not in _MODULES)]


def all_games() -> list[Game[Any]]:
    """Every available game, in catalogue order."""
    return [d.game for d in declarations()]


def served_ids() -> list[str]:
    """The ids of every served game, in catalogue order then those added with :func:`register`,
    without loading any game (a listing that must not fail with one game that does not load)."""
    return [*_MODULES, *(game_id for game_id in _EXTRA if game_id not in _MODULES)]


def game_ids() -> list[str]:
    return [g.id for g in all_games()]


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; raises :class:`SetupError` with a list of known ids otherwise."""
    return declaration(game_id).game


def referee_game(game_id: str) -> Game[Any]:
    """The referee-mode version of a game (entries typed in as people play with real cards)."""
    found = declaration(game_id)
    game = found.game
    if game.id in _EXTRA_REFEREE:
        return _EXTRA_REFEREE[game.id]
    if found.referee is None:
        raise SetupError(f"Referee mode is not available for {game.title} yet.")
    state = resolve(found.referee)
    if not (isinstance(state, type) and issubclass(state, RefereeState)):
        raise TypeError(f"The referee mode of {game.id} ({found.referee!r}) is not a referee state.")
    return referee_mode(game, state)


__all__ = [
    "CATALOGUE",
    "Declaration",
    "all_games",
    "catalogue",
    "declaration",
    "declarations",
    "declare",
    "game_ids",
    "get_game",
    "ladder",
    "ladder_lines",
    "referee_game",
    "register",
    "register_referee",
    "resolve",
    "unregister",
]
