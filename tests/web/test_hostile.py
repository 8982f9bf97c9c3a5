"""The live table's server against a hostile member: what a browser sends that the page never
would (a made-up Activity instance id, a flood of log-ins and hellos), and what the server then
asks Discord with the bot's token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiohttp
import pytest

from bot.service.model import Table
from bot.web.live import viewer_frame
from bot.web.server import SESSION_ENDED
from bot.web.sessions import Sessions, WebUser, session_key
from tests.web.conftest import CHANNEL, CLIENT_ID, GUILD, INSTANCE_ID, USERS, Site, log_in, open_tab, user
from tests.web.test_server import start_table

INSTANCES = f"/applications/{CLIENT_ID}/activity-instances/"


@pytest.mark.parametrize(
    "instance",
    ["../../../users/@me", "../../guilds/10/members", "%2e%2e/%2e%2e/users/@me", "123?with_users=1", "12/../34", "a#b"],
)
async def test_an_instance_id_that_is_not_one_asks_discord_nothing_and_is_refused(site: Site, instance: str) -> None:
    """An instance id goes into the path of a request made with the bot's token: one that is not
    an id (a ``..``, a slash, a query) would send that token to another of Discord's endpoints."""
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "mallory")
        site.stand_in.asked.clear()
        tab = await open_tab(http, site, {"session": session, "instance": instance})
        answer = await tab.next()
    assert site.stand_in.asked == [], f"the bot's token was sent to {site.stand_in.asked}"
    assert answer == {"type": "refused", "text": "That is not an Activity Discord knows of.", "fatal": True}


async def test_after_discord_answers_429_nothing_is_asked_until_its_retry_after(site: Site) -> None:
    """A flood of log-ins (anyone may post codes) must not go on hammering Discord once it says
    "rate limited": each 429 counts towards Cloudflare's ban of the bot's address (10,000 invalid
    requests in 10 minutes), which would take the whole bot off Discord."""
    now = [1000.0]
    site.identity.clock = lambda: now[0]
    site.stand_in.busy = 30.0
    async with aiohttp.ClientSession() as http:

        async def post(code: str) -> tuple[int, str]:
            async with http.post(
                f"{site.url}/api/activity-session", json={"code": code}, headers={"Origin": site.origin}
            ) as response:
                return response.status, await response.text()

        answers = [await post(f"junk-{i}") for i in range(25)]
        assert site.stand_in.asked == ["/oauth2/token"], "Discord was asked again while it said to wait"
        assert {status for status, _ in answers} == {429}
        assert answers[-1][1] == "Discord asks Parlour to wait: try again in 30 seconds."
        site.stand_in.busy = None
        now[0] += 29.0
        assert (await post("mock-ann"))[0] == 429 and len(site.stand_in.asked) == 1
        now[0] += 1.5
        assert (await post("mock-ann"))[0] == 200  # Discord is asked again once the wait is over


async def test_a_users_own_429_on_log_in_holds_back_nobody_else(site: Site) -> None:
    """Discord limits ``/users/@me`` by the user's own token: one member who drove theirs into a
    429 (even one Discord calls global: their token's global limit) is told to wait, and the next
    member logs in at once."""
    site.stand_in.busy_users.add("ann")
    async with aiohttp.ClientSession() as http:

        async def post(code: str) -> int:
            async with http.post(
                f"{site.url}/api/activity-session", json={"code": code}, headers={"Origin": site.origin}
            ) as response:
                return response.status

        assert await post("mock-ann") == 429
        assert await post("mock-bob") == 200


async def test_a_flood_of_hellos_from_one_user_is_cut_off_before_discord_is_asked(site: Site) -> None:
    """Each hello costs a request to Discord (the Activity's record with the bot's token, or a
    server membership look-up, on the bot's own REST budget): one member opening sockets in a loop
    must not spend it. The cut-off is not fatal: a page told to wait tries again by itself."""
    await start_table(site.service)
    site.stand_in.in_instance.add("ann")
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "ann")
        site.stand_in.asked.clear()
        answers = []
        for _ in range(40):
            tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
            answers.append(await tab.next())
            await tab.ws.close()
    assert len(site.stand_in.asked) <= 16, f"{len(site.stand_in.asked)} hellos from one user were sent on to Discord"
    assert answers[0]["type"] == "table"
    assert answers[-1] == {
        "type": "refused",
        "text": "Too many connections at once: wait a moment (the page tries again by itself).",
        "fatal": False,
    }


DEEP = "[" * 2000 + "]" * 2000
"""Valid JSON under the size limits that Python's parser cannot read (RecursionError, not ValueError)."""


async def test_json_nested_too_deep_is_refused_as_unreadable(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """A hello, a move and a log-in nested 2,000 deep: each is answered as any unreadable message
    is, the socket plays on, and nothing is logged as an error."""
    await start_table(site.service)
    site.stand_in.in_instance.add("ann")
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{site.url}/api/activity-session", data=DEEP, headers={"Origin": site.origin, "Content-Type": "application/json"}
        ) as response:
            assert (response.status, await response.text()) == (400, "Send the log-in code as JSON.")
        session = await log_in(http, site, "ann")
        deep_hello = await http.ws_connect(f"{site.url}/ws", headers={"Origin": site.origin})
        await deep_hello.send_str(DEEP)
        assert (await deep_hello.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
        first = await tab.next()
        await tab.ws.send_str(DEEP)
        assert await tab.next() == {"type": "refused", "text": "That message could not be read."}
        await tab.send({"refresh": {}})
        assert (await tab.next())["turn"] == first["turn"]  # the socket still serves
    errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_double_tap_on_undo_takes_back_one_entry(site: Site) -> None:
    """The pad's Undo says how many entries its frame showed: the second tap of a double tap
    reaches the server after the first took an entry back, and is refused, not a second undo."""
    await site.service.open_referee(GUILD, CHANNEL, user("ann"), "fifty_one", [user("ann"), user("bob")], ["first_dealer=1"])
    for _ in range(2):
        table = site.service.require_table(GUILD, CHANNEL)
        assert table.state is not None
        seat = min(table.state.awaiting())
        await site.service.act(GUILD, CHANNEL, user("ann"), table.state.legal_actions(seat)[0], seat=seat)
    site.stand_in.in_instance.add("ann")
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "ann")
        tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
        shown = await tab.next()
        assert shown["entered"] == 2
        await tab.send({"undo": {"entered": shown["entered"]}})
        await tab.send({"undo": {"entered": shown["entered"]}})
        answers = await tab.rest(0.3)
    refusals = [a for a in answers if a.get("type") == "refused"]
    assert len(refusals) == 1 and "changed since your table showed them (2 then, 1 now)" in refusals[0]["text"]
    assert len(site.service.require_table(GUILD, CHANNEL).actors) == 1


@pytest.mark.parametrize("instance", ["", "i" * 101])
async def test_an_unusable_instance_id_does_not_let_an_outsider_watch_a_table(site: Site, instance: str) -> None:
    """A hello with an instance id the server does not look up (empty, too long) is a browser's
    hello for the table it names: its user must be a member of the server like any watcher."""
    await start_table(site.service)
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "mallory")  # a Discord user, not a member of the server
        tab = await open_tab(http, site, {"session": session, "instance": instance, "table": [GUILD, CHANNEL]})
        answer = await tab.next()
    assert answer == {"type": "refused", "text": "Only members of this server may watch its tables.", "fatal": True}


async def bob_enters_at_a_referee_table(site: Site) -> tuple[Table, Callable[[int], Awaitable[None]]]:
    """Ann referees Fifty-One with Bob, her page in the Activity: the table, and a way for Bob to
    enter the ``pick``-th of the entries open now."""
    await site.service.open_referee(GUILD, CHANNEL, user("ann"), "fifty_one", [user("ann"), user("bob")], ["first_dealer=1"])
    table = site.service.require_table(GUILD, CHANNEL)
    site.stand_in.in_instance.add("ann")

    async def enter(pick: int) -> None:
        assert table.state is not None
        seat = min(table.state.awaiting())
        legal = table.state.legal_actions(seat)
        await site.service.act(GUILD, CHANNEL, user("bob"), legal[pick % len(legal)], seat=seat)

    return table, enter


async def test_a_tap_on_a_frame_that_an_undo_and_a_new_entry_outdated_enters_nothing_unseen(site: Site) -> None:
    """Turn numbers repeat at a referee table: an undo takes the turn back, the next entry brings
    it forward again. A tap chosen in a frame of the first entry's turn arrives after the second:
    the same turn, but another list of entries. It must not enter whatever now has its number."""
    table, enter = await bob_enters_at_a_referee_table(site)

    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "ann")
        tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
        await tab.next()
        await enter(0)
        stale = await tab.next()  # Ann's page after Bob's first entry
        await site.service.undo(GUILD, CHANNEL, user("bob"))
        await enter(-1)  # another entry in its place: the turn is the same again
        await tab.rest()
        now = [c["label"] for c in viewer_frame(table, WebUser(USERS["ann"], "Ann"))["choices"]]
        differs = next(i for i, c in enumerate(stale["choices"]) if i < len(now) and now[i] != c["label"])
        assert stale["turn"] == table.turn
        chosen = stale["choices"][differs]
        await tab.send({"act": {"turn": stale["turn"], "choice": chosen["i"], "label": chosen["label"]}})
        answers = await tab.rest(0.3)
    assert table.turn == stale["turn"], f"Ann tapped {chosen['label']!r}; {now[differs]!r} was entered"
    assert any(a.get("type") == "refused" for a in answers)


async def test_a_confirm_from_a_frame_that_an_undo_and_a_new_entry_outdated_confirms_nothing(site: Site) -> None:
    """The count comes back after an undo and another entry: the pad's Confirm names the entries
    its frame showed (``seen``), so Ann's tap on the frame of Bob's first card confirms nothing;
    her tap on the frame that shows his second confirms it."""
    table, enter = await bob_enters_at_a_referee_table(site)

    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "ann")
        tab = await open_tab(http, site, {"session": session, "instance": INSTANCE_ID})
        await tab.next()
        await enter(0)
        stale = await tab.next()  # Ann's page shows Bob's first card
        await site.service.undo(GUILD, CHANNEL, user("bob"))
        await enter(-1)
        fresh = (await tab.rest())[-1]
        await tab.send({"confirm": {"entered": stale["entered"], "seen": stale.get("seen")}})
        refused = await tab.rest(0.3)
        assert list(table.confirmed_by) == [None], "Ann confirmed a card her page never showed"
        assert stale["entered"] == fresh["entered"] == 1 and stale["seen"] != fresh["seen"]
        await tab.send({"confirm": {"entered": fresh["entered"], "seen": fresh["seen"]}})
        await tab.rest(0.3)
    texts = [a["text"] for a in refused if a.get("type") == "refused"]
    assert texts and "changed since your table showed them (1 then and now" in texts[0], texts
    assert list(table.confirmed_by) == [USERS["ann"]]


async def test_a_socket_is_closed_when_its_session_token_runs_out(site: Site) -> None:
    """A table watched live is not watched past the sign-in's end: when the session token the
    socket was opened with lapses, the page is told in a last frame and the socket closes."""
    await start_table(site.service)
    site.stand_in.in_instance.add("ann")
    async with aiohttp.ClientSession() as http:
        session = await log_in(http, site, "ann")
        site.server.sessions = Sessions(session_key("secret"), lifetime=1)  # tokens issued from now last a second
        ann = site.server.sessions.user(session)
        assert ann is not None
        short = site.server.sessions.issue(ann)
        tab = await open_tab(http, site, {"session": short, "instance": INSTANCE_ID})
        assert (await tab.next())["type"] == "table"
        last = await tab.next(timeout=10)
        assert last == {"type": "refused", "text": SESSION_ENDED, "fatal": True}
        closing = await tab.ws.receive(timeout=10)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
