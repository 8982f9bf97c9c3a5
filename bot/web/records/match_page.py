# Over 400 lines: the match page's HTTP side, its cache and its HTML in one place; the replay is in replay.py and the verdicts in judgements.py.
"""The match page, ``/servers/{guild_id}/matches/{match_id}``: a finished match stepped through deal
by deal and move by move.

Each step is drawn on the server from the game's layout (:mod:`games.layout`, the data the live
table sends a browser), every hand beside it, so the page works without JavaScript: plain links
step it (``?deal=2&move=5``). With JavaScript the arrow keys step it too, by fetching the next
step's page and swapping the replay in place. Where the game has an analyser, each move carries
its verdict (:mod:`bot.web.records.judgements`).

Only a finished match has a page. A match in its lobby or in play, or abandoned, answers 404, as
does an unknown one, one of another server, and any match of a server that has not turned its
pages on: nothing of a live match leaves the bot. The picture (``final.png``) is refused alike.

A finished match never changes, so its replay, each rendered step and its picture are cached.
"""

from __future__ import annotations

import asyncio
import html
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

from aiohttp import web

from bot.render.pictures import layout_png, with_players
from bot.service.records import record_from_json
from bot.web.records.access import RecordServer, open_server
from bot.web.records.judgements import analyse_deal, analyse_record, has_judgements
from bot.web.records.replay import Move, Position, Replay, build
from bot.web.records.shell import page
from games.cards import Card, Colour
from games.layout import Area, Counts, Facts, Grid, Layout, Notes, Pile, Row, Scores, Spot, grid_cells
from games.verdicts import Analysis, Verdict
from storage import stats
from storage.sessions import Store

log = logging.getLogger(__name__)

REPLAYS_KEPT = 64
PATIENCE = 0.08
"""How long a step waits for its deal's analysis before it is shown without it (saying so)."""
STEPS_KEPT = 1024
"""Rendered steps kept (15-20 KB each: about 20 MB at most)."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class NotFound(Exception):
    """No page: unknown, of another server, not finished, or the server's pages are off."""


# -- cards and areas as HTML -----------------------------------------------------------------------------


def card_html(card: Card | None) -> str:
    if card is None:
        return '<span class="card back" role="img" aria-label="a face-down card"></span>'
    classes = "card"
    if card.card_colour is Colour.RED:
        classes += " red"
    if card.is_joker or card.rank is None:
        classes += " joker"
        face = '<span class="rank" aria-hidden="true">★</span><span class="suit" aria-hidden="true">Joker</span>'
    else:
        suit = card.suit.symbol if card.suit is not None else ""
        face = f'<span class="rank" aria-hidden="true">{html.escape(card.rank.code)}</span><span class="suit" aria-hidden="true">{suit}</span>'
    name = html.escape(card.name)
    return f'<span class="{classes}" role="img" aria-label="{name}" title="{name}">{face}</span>'


def spot_html(spot: Spot) -> str:
    mark = f" {spot.mark}" if spot.mark else ""
    face = '<span class="card empty" aria-hidden="true"></span>' if spot.empty else card_html(spot.card)
    label = f'<span class="label">{html.escape(spot.label)}</span>' if spot.label else ""
    if spot.empty and spot.label:
        label = f'<span class="label">{html.escape(spot.label)}</span>'
    return f'<span class="spot{mark}">{face}{label}</span>'


def cards_html(spots: Sequence[Spot], overlap: bool = False) -> str:
    kind = "cards overlap" if overlap else "cards"
    return f'<div class="{kind}">' + "".join(spot_html(s) for s in spots) + "</div>"


def area_html(area: Area) -> str:
    e = html.escape
    kind = type(area).__name__.lower()
    title = getattr(area, "title", "")
    out = [f'<section class="area {kind}">']
    if title:
        out.append(f"<h4>{e(title)}</h4>")
    if isinstance(area, Facts):
        out.append('<dl class="facts">')
        out += [f'<div class="fact"><dt>{e(k)}</dt><dd>{e(v)}</dd></div>' for k, v in area.items]
        out.append("</dl>")
    elif isinstance(area, Row):
        out.append(cards_html(area.spots, area.overlap))
        if area.note:
            out.append(f'<p class="note">{e(area.note)}</p>')
    elif isinstance(area, Pile):
        out.append(cards_html(area.spots))
        if area.total is not None:
            out.append(f'<p class="total">{e(area.total_label)} {area.total}</p>')
        if area.note:
            out.append(f'<p class="note">{e(area.note)}</p>')
    elif isinstance(area, Grid):
        out.append(f'<table class="grid"><tr><td></td>{"".join(f"<th scope=col>{e(c)}</th>" for c in area.columns)}</tr>')
        cells = list(zip(grid_cells(area), area.cells, strict=True))
        for r, row in enumerate(area.rows):
            out.append(f"<tr><th scope=row>{e(row)}</th>")
            for _, spot in cells[r * len(area.columns) : (r + 1) * len(area.columns)]:
                out.append(f"<td>{spot_html(spot)}</td>")
            out.append("</tr>")
        out.append("</table>")
        if area.note:
            out.append(f'<p class="note">{e(area.note)}</p>')
    elif isinstance(area, Counts):
        out.append('<ul class="counts">' + "".join(f"<li>{e(n)}: {c}</li>" for n, c in area.items) + "</ul>")
    elif isinstance(area, Scores):
        head = "".join(f"<th scope=col>{e(c)}</th>" for c in area.columns)
        out.append(f'<table class="scores"><tr><td></td>{head}</tr>')
        for line in area.lines:
            mark = f' class="active" title="{e(area.active_text)}"' if line.active else ""
            values = "".join(f"<td>{e(v)}</td>" for v in line.values)
            out.append(f"<tr{mark}><th scope=row>{e(line.name)}</th>{values}</tr>")
        out.append("</table>")
    elif isinstance(area, Notes):
        out += [f'<p class="note">{e(line)}</p>' for line in area.lines]
    out.append("</section>")
    return "".join(out)


def layout_html(layout: Layout) -> str:
    head = f"<h3>{html.escape(layout.subtitle)}</h3>" if layout.subtitle else ""
    return f'<div class="layout">{head}' + "".join(area_html(a) for a in layout.areas) + "</div>"


# -- the page's words --------------------------------------------------------------------------------------


def shown_names(data: dict[str, Any], server: RecordServer) -> list[str]:
    """The players as the server's pages name them: a member by display name or neutral label
    (:meth:`~bot.web.records.access.RecordServer.name`), a bot by its own name, a guest by seat."""
    out = []
    for seat, (stored, info) in enumerate(zip(data["players"], data["seats"], strict=True)):
        if info.get("bot"):
            out.append(stored)
        elif info.get("user_id"):
            out.append(server.name(info["user_id"], stored))
        else:
            out.append(stored if server.names else f"Guest {seat + 1}")
    return out


def headline(players: Sequence[str], title: str, scores: Sequence[int], ranks: Sequence[int]) -> str:
    """``Ann beat Bob in Parity, 7-4``; with more players, everyone in order of their place (scores
    joined by "to" where one is below nought: ``-10 to -95``)."""
    order = sorted(range(len(players)), key=lambda s: (ranks[s], s))
    figures = (" to " if any(scores[s] < 0 for s in order) else "-").join(str(scores[s]) for s in order)
    winners = [players[s] for s in order if ranks[s] == 1]
    others = [players[s] for s in order if ranks[s] != 1]
    if len(winners) > 1:
        return f"{_and(winners)} shared first place in {title}, {figures}"
    if len(players) == 2:
        return f"{winners[0]} beat {others[0]} in {title}, {figures}"
    return f"{winners[0]} won {title} ahead of {_and(others)}, {figures}"


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def step_href(base: str, deal: int, move: int) -> str:
    return f"{base}?{urlencode({'deal': deal, 'move': move})}#replay"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# -- the page ----------------------------------------------------------------------------------------------


@dataclass
class MatchView:
    """Everything the page of one finished match needs, built once."""

    guild: str
    match: int
    data: dict[str, Any]
    replay: Replay
    title: str
    headline: str
    description: str
    analyses: dict[int, asyncio.Future[Analysis | None]]
    """Each deal's analysis, worked out in a worker thread (a Parity deal's solve takes a few
    hundred milliseconds): started for a deal when it is first shown, then for the others in turn."""

    @property
    def base(self) -> str:
        return f"/servers/{self.guild}/matches/{self.match}"


def match_view(server: RecordServer, match: int, data: dict[str, Any]) -> MatchView:
    guild = server.guild_id
    record = record_from_json(data).model_copy(update={"players": shown_names(data, server)})
    replay = build(record, data["mode"])
    final = replay.final
    assert final is not None and final.outcome is not None
    title = replay.game.title
    line = headline(replay.players, title, final.outcome.scores, final.outcome.ranks)
    when = (data.get("finished_at") or "")[:10]
    analysed = " Each move is set beside perfect play." if has_judgements(replay) else ""
    description = (
        f"{title}: {_plural(len(replay.deals), 'deal')}, {_plural(len(replay.moves), 'move')}"
        + (f", finished {when}" if when else "")
        + f". Step through every deal and move with every hand shown.{analysed}"
    )
    return MatchView(guild, match, data, replay, title, line, description, {})


def analysis(view: MatchView, deal: int, pool: Executor | None) -> asyncio.Future[Analysis | None]:
    """The deal's analysis, started now unless it was (call in the event loop): in ``pool`` (a
    process pool: the solvers are pure Python, and in a thread they would hold the interpreter
    lock against the pages being drawn) or else in a worker thread."""
    if deal not in view.analyses:
        view.analyses[deal] = asyncio.ensure_future(safely_analysed(view.replay, deal, pool))
    return view.analyses[deal]


async def safely_analysed(replay: Replay, deal: int, pool: Executor | None) -> Analysis | None:
    """A deal's analysis; an analyser's failure costs the page its verdicts, never the page."""
    try:
        if pool is None:
            return await asyncio.to_thread(analyse_deal, replay, deal)
        return await asyncio.get_running_loop().run_in_executor(pool, analyse_record, replay.record, replay.mode, deal)
    except Exception:
        log.exception("analysis of deal %s of a %s match failed", deal, replay.record.game)
        return None


async def analyse_all(view: MatchView, pool: Executor | None) -> None:
    """Every deal's analysis, one at a time (the page asks for a deal's own first)."""
    for deal in view.replay.deals:
        await analysis(view, deal, pool)


PENDING = "The analyser is still at work on this deal: step again in a moment to see each move's verdict."


def render_step(
    view: MatchView, deal: int, move: int, url: str, image: str, judged: Analysis | None = None, pending: bool = False
) -> str:
    """The page at a step; ``judged`` is the deal's analysis, ``pending`` while it is worked out."""
    replay = view.replay
    e = html.escape
    position = replay.position(deal, move)
    moves = replay.by_deal[deal]
    back, ahead = replay.neighbours(deal, move)
    body = [
        '<link rel="stylesheet" href="/static/match.css"><script src="/static/match.js" defer></script>',
        '<div class="match">',
        f"<header><p class=\"kicker\">{e(view.title)} · match #{view.match}</p><h1>{e(view.headline)}</h1>",
        f'<p class="lede">{e(view.description)}</p></header>',
        deals_nav(view, deal),
        f'<section id="replay" class="replay" aria-labelledby="step-title" data-deal="{deal}" data-move="{move}">',
        f'<h2 id="step-title">Deal {deal}, {"the deal" if move == 0 else f"move {move} of {len(moves)}"}</h2>',
        step_nav(view, deal, move, back, ahead),
        '<div class="board">',
        layout_html(position.layout),
        f'<p class="pending" role="status">{PENDING}</p>' if pending else "",
        last_move_html(moves[move - 1] if move else None, judged),
        hands_html(position),
        moves_html(view, deal, move, judged),
        "</div></section>",
        scores_html(view),
        "</div>",
    ]
    return page(
        title=view.headline, description=view.description, body="".join(body), url=url, image=image,
        home=f"/servers/{view.guild}/",
    )


def deals_nav(view: MatchView, current: int) -> str:
    links = []
    for deal in view.replay.deals:
        here = ' aria-current="page"' if deal == current else ""
        links.append(f'<li><a href="{step_href(view.base, deal, 0)}"{here}>{deal}</a></li>')
    return f'<nav class="deals" aria-label="Deals"><h2>Deals</h2><ol>{"".join(links)}</ol></nav>'


def step_nav(view: MatchView, deal: int, move: int, back: tuple[int, int] | None, ahead: tuple[int, int] | None) -> str:
    def link(step: tuple[int, int] | None, text: str, rel: str) -> str:
        if step is None:
            return f'<span class="off" aria-disabled="true">{text}</span>'
        return f'<a rel="{rel}" href="{step_href(view.base, *step)}">{text}</a>'

    last = len(view.replay.by_deal[deal])
    start = link((deal, 0) if move else None, "Start of the deal", "first")
    end = link((deal, last) if move != last else None, "End of the deal", "last")
    return (
        f'<nav class="step" aria-label="Step through the match">{link(back, "← Previous", "prev")}'
        f'{link(ahead, "Next →", "next")}{start}{end}'
        '<span class="keys">or the arrow keys</span></nav>'
    )


def hands_html(position: Position) -> str:
    shown = [(name, cards) for name, cards in position.hands if cards]
    if not shown:
        return ""
    out = ['<section class="hands"><h3>Hands</h3>']
    for name, cards in shown:
        out.append(f'<div class="hand"><h4>{html.escape(name)}\'s hand</h4>')
        out.append(cards_html([Spot(c) for c in cards], overlap=len(cards) > 10))
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def verdict_html(verdict: Verdict | None) -> str:
    """A move's verdict: what it was worth against the best (naming the best moves), then why."""
    if verdict is None:
        return ""
    e = html.escape
    kind = "lost" if verdict.gave_away else "kept"
    why = f' <span class="why">{e(verdict.why)}</span>' if verdict.why else ""
    return f'<p class="verdict {kind}">{e(verdict.said)}{why}</p>'


def last_move_html(move: Move | None, judged: Analysis | None) -> str:
    e = html.escape
    out = ['<section class="last-move" aria-live="polite"><h3>This step</h3>']
    if move is None:
        out.append("<p>The deal as dealt, before the first move.</p>")
        if judged is not None:
            out += [f'<p class="deal-note">{e(line)}</p>' for line in (*judged.opening, *judged.closing)]
    else:
        out.append(f"<p class=\"move-text\">{e(move.text)}</p>")
        out += [f'<p class="event">{e(t)}</p>' for t in move.events]
        out.append(verdict_html(judged.by_number().get(move.number) if judged else None))
    out.append("</section>")
    return "".join(out)


def moves_html(view: MatchView, deal: int, current: int, judged: Analysis | None) -> str:
    e = html.escape
    out = [f'<section class="moves"><h3>Moves of deal {deal}</h3><ol>']
    verdicts = judged.by_number() if judged else {}
    for move in view.replay.by_deal[deal]:
        verdict = verdicts.get(move.number)
        flag = ' <span class="flag" title="gave something away">✗ lost</span>' if verdict and verdict.gave_away else ""
        here = ' aria-current="step"' if move.index == current else ""
        out.append(f'<li><a href="{step_href(view.base, deal, move.index)}"{here}>{e(move.text)}</a>{flag}</li>')
    out.append("</ol></section>")
    return "".join(out)


def scores_html(view: MatchView) -> str:
    e = html.escape
    replay = view.replay
    names = "".join(f"<th scope=col>{e(n)}</th>" for n in replay.players)
    rows = [
        f'<tr><th scope=row><a href="{step_href(view.base, d, 0)}">Deal {d}</a></th>'
        + "".join(f"<td>{s}</td>" for s in replay.deal_scores[d])
        + "</tr>"
        for d in replay.deals
    ]
    final = replay.final
    assert final is not None and final.outcome is not None
    outcome = final.outcome
    result = "".join(f"<td>{s}</td>" for s in outcome.scores)
    notes = "".join(f"<p>{e(n)}</p>" for n in outcome.notes)
    return (
        '<section class="running"><h2>Scores as they ran</h2>'
        f'<div class="scroll"><table class="scores"><thead><tr><th scope=col>After</th>{names}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th scope=row>Final</th>{result}</tr></tfoot></table></div>{notes}</section>'
    )


# -- the routes --------------------------------------------------------------------------------------------


class Lru(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)
        return value


class MatchPages:
    """Serves match pages from the store, asking the server's setting at every request."""

    def __init__(
        self,
        store: Store,
        public_url: str,
        headers: Mapping[str, str],
        *,
        patience: float = PATIENCE,
        analysts: int = 1,
        ahead: bool = True,
    ) -> None:
        """``analysts``: processes working out the analyses (0: threads of this process); ``ahead``:
        analyse every deal of a match once its page is first asked for, not only the deals shown."""
        self.ahead = ahead
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.headers = dict(headers)
        self.patience = patience
        self.analysts = analysts
        self._pool: ProcessPoolExecutor | None = None
        self.views: Lru[tuple[str, int, bool], MatchView] = Lru(REPLAYS_KEPT)
        self.steps: Lru[tuple[str, int, bool, int, int], str] = Lru(STEPS_KEPT)
        self.pictures: Lru[tuple[str, int, bool], bytes] = Lru(REPLAYS_KEPT)
        self.tasks: set[asyncio.Future[None]] = set()

    async def view(self, guild: str, match: int) -> tuple[MatchView, bool]:
        """The finished match's page data, or :class:`NotFound`; and whether names are shown."""
        server = await open_server(self.store, guild)
        if server is None:
            raise NotFound
        key = (guild, match, server.names)
        found = self.views.get(key)
        if found is not None:
            return found, server.names
        data = await stats.match_json(self.store.conn, guild, match)
        if data is None or data["live"] or data["status"] != "finished" or not data["actions"]:
            raise NotFound  # never cached: a match in play gets its page once it is over
        built = await asyncio.to_thread(match_view, server, match, data)
        if self.ahead and has_judgements(built.replay):
            self.tasks.add(task := asyncio.ensure_future(analyse_all(built, self.pool)))
            task.add_done_callback(self.tasks.discard)
        return self.views.put(key, built), server.names

    async def page(self, request: web.Request) -> web.Response:
        guild, match = _ids(request)
        view, names = await self.view(guild, match)
        deal, move = view.replay.step(_number(request, "deal"), _number(request, "move"))
        key = (guild, match, names, deal, move)
        text = self.steps.get(key)
        if text is None:
            url = f"{self.public_url}{step_href(view.base, deal, move).removesuffix('#replay')}"
            image = f"{self.public_url}{view.base}/final.png"
            judged, pending = await self.judged(view, deal)
            text = await asyncio.to_thread(render_step, view, deal, move, url, image, judged, pending)
            if not pending:  # a step without its verdicts yet is drawn again once they are ready
                self.steps.put(key, text)
        return web.Response(text=text, content_type="text/html", headers=self.headers)

    async def picture(self, request: web.Request) -> web.Response:
        guild, match = _ids(request)
        view, names = await self.view(guild, match)
        key = (guild, match, names)
        png = self.pictures.get(key)
        if png is None:
            final = view.replay.final
            assert final is not None
            public = final.view(None)  # (its players' names drawn cut to fit, as in the channel)
            png = self.pictures.put(key, await asyncio.to_thread(layout_png, with_players(public.layout(), public)))
        return web.Response(body=png, content_type="image/png", headers={**self.headers, "Cache-Control": "public, max-age=300"})

    @property
    def pool(self) -> Executor | None:
        if self.analysts and self._pool is None:
            # spawn: a forked worker would inherit the bot's event loop and sockets
            self._pool = ProcessPoolExecutor(self.analysts, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """Stop the analyses still running in the background (the server is stopping)."""
        for task in self.tasks:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # at most the analysis of one deal to wait for
            self._pool = None

    async def judged(self, view: MatchView, deal: int) -> tuple[Analysis | None, bool]:
        """The deal's analysis if it is ready within :attr:`patience` seconds; else none yet,
        and ``True`` (pending)."""
        if not has_judgements(view.replay):
            return None, False
        found = analysis(view, deal, self.pool)
        try:
            return await asyncio.wait_for(asyncio.shield(found), self.patience), False
        except TimeoutError:
            return None, True

    def not_found(self, request: web.Request) -> web.Response:
        """The same answer for every match without a page and every server without pages, so that
        nobody learns which matches are in play or which servers use Parlour."""
        body = (
            f"<h1>Nothing to show</h1><p>{NOT_FOUND}</p><p>A finished match has its page once its server's "
            "admins turn the pages on with <code>/admin settings pages:True</code>.</p>"
        )
        text = page(title="Nothing to show", description=NOT_FOUND, body=body, url=self.public_url + request.path)
        return web.Response(status=404, text=text, content_type="text/html", headers=self.headers)

    def answer(self, handler: Callable[[web.Request], Awaitable[web.Response]]) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def wrapped(request: web.Request) -> web.Response:
            try:
                return await handler(request)
            except NotFound:
                return self.not_found(request)

        return wrapped


NOT_FOUND = "There is no page for this match: it is unknown here, or not over yet."


def _ids(request: web.Request) -> tuple[str, int]:
    guild, match = request.match_info["guild_id"], request.match_info["match_id"]
    if not (guild.isdigit() and match.isdigit() and len(guild) <= 20 and len(match) <= 18):
        raise NotFound
    return guild, int(match)


def _number(request: web.Request, name: str) -> int | None:
    value = request.query.get(name, "")
    return int(value) if value.isdigit() and len(value) <= 6 else None


def add_match_routes(
    app: web.Application, store: Store, public_url: str, headers: Mapping[str, str], **options: Any
) -> MatchPages:
    """Serve the match pages from ``app`` (the web server's own application); their stylesheet and
    script are the web server's static ``match.css`` and ``match.js``. ``options``: see
    :class:`MatchPages`."""
    pages = MatchPages(store, public_url, headers, **options)
    app.router.add_get("/servers/{guild_id}/matches/{match_id}", pages.answer(pages.page))
    app.router.add_get("/servers/{guild_id}/matches/{match_id}/final.png", pages.answer(pages.picture))

    async def close(_: web.Application) -> None:
        pages.close()

    app.on_cleanup.append(close)
    return pages
