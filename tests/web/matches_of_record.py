"""Finished matches of every game in a real store, and a web server serving their pages, for the
match page's tests and its benchmark."""

from __future__ import annotations

import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.web.records.match_page import MatchPages, add_match_routes
from bot.web.server import STATIC
from games.engine import GameState
from games.registry import get_game
from games.simulate import play_match
from storage.pages import ensure_pages_record
from storage.sessions import ResultPlayer, SeatRecord, Store

GUILD, OTHER_GUILD, CHANNEL = "10", "11", "20"

SHORT: dict[str, dict[str, Any]] = {
    "parity": {},
    "parity_for_three": {},
    "hoodwink": {},
    "spec": {},
    "caterpillar": {},
    "costly_colours": {},
    "fifty_one": {},
    "hundred": {},
    "jubilee": {},
    "ninety_nine": {},
    "obstacle_race": {},
    "twenty_nine": {},
    "wit_and_reason_1": {},
    "wit_and_reason_2": {},
}
"""Options for a short match of each game (the tests play one of each)."""

PLAYERS = {"parity": 2, "wit_and_reason_1": 2, "wit_and_reason_2": 2, "parity_for_three": 3}


def names(game_id: str, first: str = "Ann") -> list[str]:
    count = PLAYERS.get(game_id, max(2, get_game(game_id).min_players))
    return [first, "Bob", "Cat", "Dan", "Eve", "Fay"][:count]


async def store_match(
    store: Store,
    state: GameState[Any],
    *,
    guild: str = GUILD,
    channel: str = CHANNEL,
    upto: int | None = None,
) -> int:
    """Store a played match as the table service would: its session, its actions and, once over
    (``upto`` actions short of it: still in play), its result. Returns the match's number."""
    game = state.game
    record = game.record(state)
    seats = [SeatRecord(name, user_id=str(101 + i)) for i, name in enumerate(record.players)]
    session = await store.create_session(
        guild_id=guild, channel_id=channel, game=game.id, options=record.options, host_id="101",
        seats=seats, seed=record.seed, deck=None,
    )
    await store.set_status(session, "playing")
    actions = record.actions if upto is None else record.actions[:upto]
    for seq, (seat, action) in enumerate(actions):
        await store.append_action(session, seq, seat, action, str(101 + seat))
    if upto is None:
        await finish(store, session, state, guild)
    return session


async def finish(store: Store, session: int, state: GameState[Any], guild: str = GUILD, status: str = "finished") -> None:
    outcome = state.outcome
    assert outcome is not None
    await store.record_result(
        session, guild_id=guild, game=state.game.id, rated=status == "finished", outcome=outcome.model_dump(mode="json"), status=status,
        players=[
            ResultPlayer(seat, name, str(101 + seat), outcome.scores[seat], outcome.ranks[seat])
            for seat, name in enumerate(state.players)
        ],
    )


async def log_rest(store: Store, session: int, state: GameState[Any], start: int) -> None:
    """Log a match's actions from ``start`` on (a match stored part-way goes on)."""
    for seq, (seat, action) in enumerate(state.game.record(state).actions[start:], start):
        await store.append_action(session, seq, seat, action, str(101 + seat))


def played(game_id: str, seed: int = 1, options: Mapping[str, Any] | None = None, players: Sequence[str] | None = None) -> GameState[Any]:
    game = get_game(game_id)
    return play_match(game, list(players or names(game_id)), SHORT.get(game_id, {}) if options is None else options, seed=seed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def show_pages(store: Store, guild: str, *, pages: bool = True, names: bool = True) -> None:
    """A server's admins turn its pages on (or off), with or without members' names."""
    settings = await store.guild_settings(guild)
    await store.set_guild_settings(guild, {**settings, "pages": pages, "page_names": names})
    await ensure_pages_record(store.conn, guild, "The Back Room")


@dataclass
class RecordSite:
    """A store and a web server with the match pages only."""

    store: Store
    runner: web.AppRunner | None = None
    port: int = 0
    pages: MatchPages | None = None
    patience: float = 60.0
    """How long a step waits for its deal's analysis (the tests want the verdicts, every time)."""
    analysts: int = 0
    """Processes for the analyses (the tests analyse in threads: no process to start)."""
    ahead: bool = False
    """Whether every deal is analysed once a match is first shown (the tests analyse what they show)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        self.port = free_port()
        self.pages = add_match_routes(
            app, self.store, self.url, {"Cache-Control": "no-store"}, patience=self.patience, analysts=self.analysts,
            ahead=self.ahead,
        )
        app.router.add_static("/static/", STATIC)  # the web server's own static files (match.css, match.js)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
