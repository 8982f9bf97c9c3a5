"""The match page of record, over HTTP on a real port, from matches in a real SQLite store: a
finished match of every game renders, steps, shows every hand and ends on the stored result; a
match not over, unknown, of another server or of a server whose pages are off has no page."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.web.records.access import player_label
from games import advice
from games.engine import GameState
from games.registry import catalogue
from storage import stats
from storage.pages import pages_record
from storage.sessions import Store
from tests.web.matches_of_record import (
    GUILD,
    OTHER_GUILD,
    SHORT,
    RecordSite,
    finish,
    log_rest,
    played,
    show_pages,
    store_match,
)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[RecordSite]:
    store = await Store.open(tmp_path / "records.sqlite3")
    await show_pages(store, GUILD)
    await show_pages(store, OTHER_GUILD)
    found = RecordSite(store)
    await found.start()
    yield found
    await found.stop()
    await store.close()


async def fetch(site: RecordSite, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(site.url + path) as response:
        return response.status, await response.text()


def page_path(match: int, deal: int | None = None, move: int | None = None, guild: str = GUILD) -> str:
    query = "" if deal is None else f"?deal={deal}&move={move or 0}"
    return f"/servers/{guild}/matches/{match}{query}"


def part(text: str, cls: str) -> str:
    """The first ``<section class="cls">`` of a page, up to its end."""
    start = text.index(f'<section class="{cls}"')
    return text[start : text.index("</section>", start)]


def hands_shown(text: str) -> dict[str, list[str]]:
    """Each hand the page shows: its owner and its cards' names, in order."""
    if '<section class="hands">' not in text:
        return {}
    block = text[text.index('<section class="hands">') :]
    block = block[: block.index("</section>")]
    out: dict[str, list[str]] = {}
    for owner, cards in re.findall(r"<h4>(.*?)'s hand</h4>(.*?)</div></div>", block):
        out[html.unescape(owner)] = [html.unescape(n) for n in re.findall(r'role="img" aria-label="([^"]*)"', cards)]
    return out


def final_row(text: str) -> list[int]:
    foot = text[text.index("<tfoot>") : text.index("</tfoot>")]
    return [int(v) for v in re.findall(r"<td>(-?\d+)</td>", foot)]


def rel_link(text: str, rel: str) -> str | None:
    found = re.search(rf'<a rel="{rel}" href="([^"]*)"', text)
    return html.unescape(found.group(1)).removesuffix("#replay") if found else None


def deal_starts(state: GameState[Any]) -> dict[int, GameState[Any]]:
    """Each deal's first position, by replaying the record independently of the page."""
    game = state.game
    record = game.record(state)
    replayed = game.start(record.players, record.options, record.seed, record.deck)
    starts = {max(1, replayed.deal_no): replayed.clone()}
    for _ in game.replay_steps(record, replayed):
        if max(1, replayed.deal_no) not in starts and not replayed.is_over:
            starts[max(1, replayed.deal_no)] = replayed.clone()
    return starts


@pytest.mark.parametrize("game_id", sorted(SHORT))
async def test_a_finished_match_of_every_game_renders_steps_and_ends_on_its_result(site: RecordSite, game_id: str) -> None:
    state = played(game_id, seed=3)
    match = await store_match(site.store, state)
    stored = await stats.match_json(site.store.conn, GUILD, match)
    assert stored is not None and stored["outcome"] is not None

    status, first = await fetch(site, page_path(match))
    assert status == 200
    assert f"<h1>{html.escape(first_headline(first))}</h1>" in first
    assert 'id="step-title">Deal 1, the deal<' in first
    # every hand at the start of each deal, as each seat's own view holds it
    starts = deal_starts(state)
    for deal in sorted(starts)[:2]:
        status, text = await fetch(site, page_path(match, deal, 0))
        assert status == 200
        expected = {name: [c.name for c in starts[deal].view(seat).hand] for seat, name in enumerate(state.players)}
        assert hands_shown(text) == {n: cards for n, cards in expected.items() if cards}
    # stepping by the page's own links moves one move at a time
    step = rel_link(first, "next")
    assert step == page_path(match, 1, 1)
    status, second = await fetch(site, step)
    assert 'id="step-title">Deal 1, move 1 of ' in second
    assert rel_link(second, "prev") == page_path(match, 1, 0)
    assert html.escape(f"{state.players[state.game.record(state).actions[0][0]]}: ") in part(second, "last-move")
    # the last step: the final table, and the scores as stored
    status, last = await fetch(site, page_path(match, 999, 99999))
    assert status == 200 and rel_link(last, "next") is None
    assert final_row(last) == stored["outcome"]["scores"] == list(state.outcome.scores if state.outcome else [])
    assert '<div class="layout"><h3>Final result</h3>' in last


def first_headline(text: str) -> str:
    return html.unescape(re.search(r"<h1>(.*?)</h1>", text).group(1))  # type: ignore[union-attr]


async def test_open_graph_tags_name_the_winner_and_show_the_final_table(site: RecordSite) -> None:
    state = played("parity", seed=3, players=["ann", "bob"])
    match = await store_match(site.store, state)
    assert state.outcome is not None
    winner = state.outcome.ranks.index(1)
    _status, text = await fetch(site, page_path(match))
    scores = sorted(state.outcome.scores, reverse=True)
    title = f"{state.players[winner]} beat {state.players[1 - winner]} in Parity, {scores[0]}-{scores[1]}"
    assert f'<meta property="og:title" content="{title}">' in text
    assert f"<title>{title} - Parlour</title>" in text
    assert re.search(r'<meta property="og:description" content="Parity: \d+ deals, \d+ moves', text)
    image = re.search(r'<meta property="og:image" content="([^"]*)"', text)
    assert image is not None and image.group(1) == f"{site.url}/servers/{GUILD}/matches/{match}/final.png"
    async with aiohttp.ClientSession() as http, http.get(image.group(1)) as response:
        assert response.status == 200 and response.content_type == "image/png"
        assert (await response.read()).startswith(b"\x89PNG")


VERDICT = re.compile(r'<p class="verdict (lost|kept)">(.*?)</p>')


def verdict_on(step: str) -> tuple[str, str] | None:
    """The verdict a step's page shows beside its move: lost or kept, and its words."""
    found = VERDICT.search(step)
    return None if found is None else (found.group(1), html.unescape(re.sub(r"<[^>]+>", "", found.group(2))))


async def verdicts_shown(site: RecordSite, match: int, deal: int, moves: int) -> dict[int, tuple[str, str]]:
    """Each move of ``deal`` whose step shows a verdict, by its move number in the deal."""
    shown = {}
    for move in range(1, moves + 1):
        _, step = await fetch(site, page_path(match, deal, move))
        verdict = verdict_on(step)
        if verdict is not None:
            shown[move] = verdict
    return shown


def moves_before(state: GameState[Any], deal: int) -> int:
    """How many moves of the match come before ``deal``'s first, by replaying its record."""
    if deal == 1:
        return 0
    record = state.game.record(state)
    replay = state.game.start(record.players, record.options, record.seed, record.deck)
    for number, _seat, _action, _events in state.game.replay_steps(record, replay):
        if replay.deal_no == deal:  # this move ended the deal before
            return number
    raise AssertionError(f"the match has no deal {deal}")


async def test_each_parity_move_carries_its_verdict(site: RecordSite) -> None:
    state = played("parity", seed=5)
    match = await store_match(site.store, state)
    record = state.game.record(state)
    analysis = advice.analyse(record, 1)
    assert analysis is not None
    assert any(v.gave_away for v in analysis.verdicts)  # random players lose points: verdicts of both kinds to place
    _status, text = await fetch(site, page_path(match, 1, 0))
    moves = part(text, "moves")
    # the deal's own lines beside the dealt table; each losing card flagged in the move list
    assert html.escape(analysis.opening[0]) in part(text, "last-move")
    assert moves.count("✗ lost") == sum(v.gave_away for v in analysis.verdicts)
    shown = await verdicts_shown(site, match, 1, moves.count("<li>"))
    # deal 1 starts the record: a verdict's place in the record is its move's place in the deal
    placed = {v.number: ("lost" if v.gave_away else "kept", v.text) for v in analysis.verdicts}
    assert shown == placed  # each verdict at the move it is about, and nowhere else
    assert len(placed) == 30  # every one of the deal's 30 cards judged
@pytest.mark.parametrize(("game_id", "seed", "deal"), [("wit_and_reason_1", 2, 2), ("spec", 1, 1)])
async def test_every_verdict_sits_beside_its_move(site: RecordSite, game_id: str, seed: int, deal: int) -> None:
    state = played(game_id, seed=seed)
    match = await store_match(site.store, state)
    analysis = advice.analyse(state.game.record(state), deal)
    assert analysis is not None and analysis.verdicts
    _, text = await fetch(site, page_path(match, deal, 0))
    shown = await verdicts_shown(site, match, deal, part(text, "moves").count("<li>"))
    first = moves_before(state, deal)
    assert shown == {v.number - first: ("lost" if v.gave_away else "kept", v.text) for v in analysis.verdicts}


async def test_a_game_without_an_analyser_says_nothing(site: RecordSite) -> None:
    other = await store_match(site.store, played("hundred", seed=2))
    _, text = await fetch(site, page_path(other, 1, 1))
    assert 'class="verdict' not in text and "perfect play" not in text


@pytest.mark.parametrize("kind", ["lobby", "playing", "abandoned"])
async def test_a_match_not_finished_has_no_page_nor_picture(site: RecordSite, kind: str) -> None:
    state = played("hoodwink", seed=4)
    match = await store_match(site.store, state, upto=20)
    if kind == "lobby":
        await site.store.set_status(match, "lobby")
    if kind == "abandoned":  # stopped part-way: its result is stored, its hands were never all played
        await finish(site.store, match, state, status="abandoned")
    for path in (page_path(match), page_path(match, 1, 3), page_path(match) + "/final.png"):
        status, text = await fetch(site, path)
        assert status == 404, path
        assert "no page for this match" in text
        assert "Ann" not in text and "Bob" not in text


async def test_a_match_that_finishes_later_gets_its_page_then(site: RecordSite) -> None:
    state = played("caterpillar", seed=4)
    match = await store_match(site.store, state, upto=10)
    assert (await fetch(site, page_path(match)))[0] == 404
    assert (await fetch(site, page_path(match) + "/final.png"))[0] == 404
    await log_rest(site.store, match, state, 10)
    assert (await fetch(site, page_path(match)))[0] == 404  # every move logged, the result not yet
    await finish(site.store, match, state)
    status, text = await fetch(site, page_path(match))
    assert status == 200 and "Caterpillar" in text


async def test_unknown_other_servers_and_pages_off_answer_404(site: RecordSite) -> None:
    state = played("fifty_one", seed=4)
    theirs = await store_match(site.store, state, guild=OTHER_GUILD, channel="30")
    ours = await store_match(site.store, played("fifty_one", seed=5))
    assert (await fetch(site, page_path(theirs, guild=OTHER_GUILD)))[0] == 200
    for path in (
        page_path(theirs),  # another server's match, asked under ours
        page_path(ours + theirs + 1),  # no such match
        "/servers/10/matches/99999999999999999999",
        "/servers/abc/matches/1",
    ):
        status, text = await fetch(site, path)
        assert status == 404 and "no page for this match" in text, path
    assert (await fetch(site, page_path(ours)))[0] == 200
    await show_pages(site.store, GUILD, pages=False)  # the admins turn the pages off
    for path in (page_path(ours), page_path(ours, 1, 2), page_path(ours) + "/final.png"):
        assert (await fetch(site, path))[0] == 404, path


async def test_bad_step_numbers_show_the_nearest_step(site: RecordSite) -> None:
    match = await store_match(site.store, played("ninety_nine", seed=4))
    for query, title in (("?deal=abc&move=-1", "Deal 1, the deal"), ("?deal=1&move=99999", "Deal 1, move ")):
        status, text = await fetch(site, page_path(match) + query)
        assert status == 200 and f'id="step-title">{title}' in text


HOSTILE = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>']


async def test_hostile_display_names_are_escaped_and_hidden_where_the_server_says(site: RecordSite) -> None:
    state = played("parity", seed=6, players=HOSTILE)
    match = await store_match(site.store, state)
    _, text = await fetch(site, page_path(match, 1, 3))
    for name in HOSTILE:
        assert name not in text
        assert html.escape(name) in text
    assert "<script>alert" not in text and "<img" not in text
    await show_pages(site.store, GUILD, names=False)
    status, text = await fetch(site, page_path(match, 1, 3))
    assert status == 200
    record = await pages_record(site.store.conn, GUILD)
    assert record is not None
    labels = [player_label(record.secret, str(101 + seat)) for seat in range(2)]  # the server's neutral labels
    assert f"<h4>{labels[0]}'s hand</h4>" in text and f"<h4>{labels[1]}'s hand</h4>" in text
    for name in HOSTILE:
        assert html.escape(name) not in text and "alert" not in text
    # nor the members' Discord ids, as numbers of their own (the random port or a label's digits may hold "102")
    assert not re.search(r"(?<!\d)10[12](?!\d)", text)


def test_every_game_is_covered() -> None:
    assert {d.game.id for d in catalogue()} == set(SHORT)


async def test_a_step_asked_before_its_analysis_is_ready_says_so_and_gets_its_verdicts_later(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "records.sqlite3")
    await show_pages(store, GUILD)
    impatient = RecordSite(store, patience=0.0)
    await impatient.start()
    try:
        match = await store_match(store, played("parity", seed=5))
        status, text = await fetch(impatient, page_path(match, 1, 4))
        assert status == 200
        assert "The analyser is still at work on this deal" in text and 'class="verdict' not in text
        assert impatient.pages is not None
        view, _ = await impatient.pages.view(GUILD, match)
        await view.analyses[1]
        status, text = await fetch(impatient, page_path(match, 1, 4))
        assert "still at work" not in text and 'class="verdict' in text
    finally:
        await impatient.stop()
        await store.close()


@pytest.mark.slow
async def test_an_analyst_process_gives_the_verdicts_threads_give(tmp_path: Path) -> None:
    """The bot analyses in a worker process (and every deal ahead): the same page as in threads."""
    store = await Store.open(tmp_path / "records.sqlite3")
    await show_pages(store, GUILD)
    state = played("parity", seed=5)
    match = await store_match(store, state)
    pages: list[str] = []
    for analysts, ahead in ((0, False), (1, True)):
        runs = RecordSite(store, analysts=analysts, ahead=ahead)
        await runs.start()
        try:
            status, text = await fetch(runs, page_path(match, 2, 9))
            assert status == 200 and 'class="verdict' in text
            pages.append(text.replace(runs.url, ""))  # each run on its own port
            if ahead:
                assert runs.pages is not None
                view, _ = await runs.pages.view(GUILD, match)
                for deal in view.replay.deals:  # every deal analysed without being asked for
                    assert await view.analyses[deal] is not None
        finally:
            await runs.stop()
    assert pages[0] == pages[1]
    await store.close()
