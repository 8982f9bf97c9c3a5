"""The routes of the pages of record, under ``/servers/{guild_id}/``:

* ``/servers/{guild_id}/``: the server's index (its games' leaderboards, recent matches);
* ``/servers/{guild_id}/games/{game}?period=all|season|month|week&page=N``: a leaderboard;
* ``/servers/{guild_id}/players/{key}``: a player (``key`` derives from the server's secret);
* ``.../board.png`` and ``.../rating.png``: the pictures a link's preview shows.

A server that has not turned its pages on answers exactly as one that does not exist: 404, with
a short page. Match pages (``/servers/{guild_id}/matches/{id}``) are served elsewhere.
"""

from __future__ import annotations

import asyncio
import math
from collections import OrderedDict
from collections.abc import Mapping

from aiohttp import web

from bot.render.charts import board_chart, rating_chart
from bot.render.records import game_title, period_of, plural
from bot.service.model import TableError
from bot.web.records import views
from bot.web.records.access import PLAYER_KEY, RecordServer, open_server
from bot.web.records.shell import page
from games.registry import get_game
from storage import stats
from storage.ratings import display_rating
from storage.sessions import Store

BOARD_ROWS = 50
RECENT = 10
RIVALS = 10
PICTURE_CACHE = {"Cache-Control": "public, max-age=300"}
KEY_CACHE_SERVERS = 256


class RecordPages:
    """The handlers; ``public_url`` makes the absolute addresses Open Graph wants."""

    def __init__(self, store: Store, public_url: str, headers: Mapping[str, str]) -> None:
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.headers = dict(headers)
        self._keys: OrderedDict[str, dict[str, str]] = OrderedDict()

    # -- helpers ---------------------------------------------------------------------------------------

    async def server(self, request: web.Request) -> RecordServer:
        found = await open_server(self.store, request.match_info["guild_id"])
        if found is None:
            raise self.not_found(request)
        return found

    def not_found(self, request: web.Request, what: str = "There are no pages here.") -> web.HTTPNotFound:
        body = (
            f"<h1>Nothing to show</h1><p>{views.text(what)}</p>"
            "<p>A server's pages appear once its admins turn them on with <code>/admin settings pages:True</code>.</p>"
        )
        html = page(title="Nothing to show", description=what, body=body, url=self.public_url + request.path)
        return web.HTTPNotFound(text=html, content_type="text/html", headers=self.headers)

    def html(self, html: str) -> web.Response:
        return web.Response(text=html, content_type="text/html", headers=self.headers)

    def png(self, data: bytes) -> web.Response:
        return web.Response(body=data, content_type="image/png", headers={**self.headers, **PICTURE_CACHE})

    def game_of(self, request: web.Request, server: RecordServer) -> str:
        try:
            return get_game(request.match_info["game"]).id
        except Exception:
            raise self.not_found(request, "There is no such game here.") from None

    async def user_of(self, request: web.Request, server: RecordServer) -> str:
        """The member a player page's key names (only members holding a rating here have one)."""
        key = request.match_info["key"]
        if not PLAYER_KEY.fullmatch(key):
            raise self.not_found(request, "There is no such player here.")
        keys = self._keys.get(server.guild_id)
        if keys is None or key not in keys:
            keys = {server.key(u): u for u in await stats.rated_players(server.conn, server.guild_id)}
            self._keys[server.guild_id] = keys
            self._keys.move_to_end(server.guild_id)
            while len(self._keys) > KEY_CACHE_SERVERS:
                self._keys.popitem(last=False)
        if key not in keys:
            raise self.not_found(request, "There is no such player here.")
        return keys[key]

    # -- pages -----------------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        server = await self.server(request)
        games = await stats.rated_games(server.conn, server.guild_id)
        recent = await stats.history(server.conn, server.guild_id, limit=RECENT)
        base = server.base(self.public_url)
        image = f"{base}/games/{games[0].game}/board.png" if games else None
        description = (
            f"Leaderboards in {', '.join(game_title(g.game) for g in games[:4])}"
            + (" and more" if len(games) > 4 else "") + ", and the latest matches."
            if games else "Leaderboards and matches played with Parlour."
        )
        return self.html(
            page(
                title=f"{server.title} - Parlour",
                description=description,
                body=views.index_body(server, games, recent),
                url=base + "/",
                image=image,
                home=f"/servers/{server.guild_id}/",
            )
        )

    async def board(self, request: web.Request) -> web.Response:
        server = await self.server(request)
        game = self.game_of(request, server)
        try:
            period = period_of(request.query.get("period"))
        except TableError as exc:
            raise web.HTTPBadRequest(text=str(exc), headers=self.headers) from None
        raw_page = request.query.get("page", "1")
        page_no = int(raw_page) - 1 if raw_page.isdigit() and 0 < int(raw_page) < 10**6 else 0
        board = await stats.leaderboard(server.conn, server.guild_id, game, period, offset=page_no * BOARD_ROWS, limit=BOARD_ROWS)
        pages = max(1, math.ceil(board.total / BOARD_ROWS))
        if page_no >= pages:
            raise self.not_found(request, f"This leaderboard has {plural(pages, 'page')}.")
        title = f"{game_title(game)} leaderboard - {views.scope_words(board)}"
        top = [r for r in board.rows if not r.provisional][:3]
        description = (
            "Top: " + ", ".join(f"{server.name(r.user_id, r.name)} ({display_rating(r.rating)})" for r in top) + "."
            if top else f"{plural(board.total, 'player')} on {server.title}'s leaderboard."
        )
        base = server.base(self.public_url)
        return self.html(
            page(
                title=title,
                description=description,
                body=views.board_body(server, board, page_no, pages),
                url=base + views.board_href(server, game, period, page_no).removeprefix(f"/servers/{server.guild_id}"),
                image=f"{base}/games/{game}/board.png" + (f"?period={period}" if period != "all" else ""),
                home=f"/servers/{server.guild_id}/",
            )
        )

    async def board_png(self, request: web.Request) -> web.Response:
        server = await self.server(request)
        game = self.game_of(request, server)
        try:
            period = period_of(request.query.get("period"))
        except TableError:
            period = "all"
        board = await stats.leaderboard(server.conn, server.guild_id, game, period, limit=8)
        rows = [(server.name(r.user_id, r.name), display_rating(r.rating)) for r in board.rows if not r.provisional]
        title = f"{game_title(game)} - {views.scope_words(board)}"
        return self.png(await asyncio.to_thread(board_chart, title, rows[:8]))

    async def player(self, request: web.Request) -> web.Response:
        server = await self.server(request)
        user_id = await self.user_of(request, server)
        stored, games = await stats.player_games(server.conn, server.guild_id, user_id)
        histories = await stats.rating_histories(server.conn, server.guild_id, user_id)
        rivals = await stats.opponents(server.conn, server.guild_id, user_id, RIVALS)
        name = server.name(user_id, stored or "A player")
        total = sum(g.games for g in games)
        best = max((g for g in games if g.rating is not None), key=lambda g: g.games, default=None)
        description = f"{plural(total, 'finished match', 'finished matches')} on {server.title}" + (
            f"; {game_title(best.game)} rating {display_rating(best.rating)}." if best and best.rating is not None else "."
        )
        base = server.base(self.public_url)
        url = f"{base}/players/{request.match_info['key']}"
        return self.html(
            page(
                title=f"{name} - {server.title}",
                description=description,
                body=views.player_body(server, name, games, histories, rivals),
                url=url,
                image=url + "/rating.png",
                home=f"/servers/{server.guild_id}/",
            )
        )

    async def player_png(self, request: web.Request) -> web.Response:
        server = await self.server(request)
        user_id = await self.user_of(request, server)
        stored, _ = await stats.player_games(server.conn, server.guild_id, user_id)
        histories = await stats.rating_histories(server.conn, server.guild_id, user_id)
        name = server.name(user_id, stored or "A player")
        game = max(histories, key=lambda g: len(histories[g]), default=None)
        history = [(at, float(display_rating(v))) for at, v in histories.get(game, [])] if game else []
        title = f"{name} - rating in {game_title(game)}" if game else f"{name} - no rated match yet"
        return self.png(await asyncio.to_thread(rating_chart, title, history))


def add_record_routes(app: web.Application, store: Store, public_url: str, headers: Mapping[str, str]) -> RecordPages:
    """Serve the pages of record from ``app`` (the web server's own application)."""
    pages = RecordPages(store, public_url, headers)
    app.add_routes(
        [
            web.get("/servers/{guild_id}", pages.index),
            web.get("/servers/{guild_id}/", pages.index),
            web.get("/servers/{guild_id}/games/{game}", pages.board),
            web.get("/servers/{guild_id}/games/{game}/board.png", pages.board_png),
            web.get("/servers/{guild_id}/players/{key}", pages.player),
            web.get("/servers/{guild_id}/players/{key}/rating.png", pages.player_png),
        ]
    )
    return pages
