"""The console as people use it: told when their turn comes, leaving at once (/quit, the end of
input, Ctrl-C), what they type read as they mean it, and refusals in the game's own words."""

from __future__ import annotations

import asyncio
import io
import os
import random
import select
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console, ConsoleNotifier, run_console
from bot.tables import TableService
from games.cards import Card
from games.engine import IllegalAction, PlayCard
from games.notation import typed_form
from storage.sessions import Store


class Chat:
    """A console on a seeded service: lines in, printed lines out, the table at hand."""

    def __init__(self, console: Console, out: list[str]) -> None:
        self.console = console
        self.out = out

    async def say(self, *lines: str) -> str:
        start = len(self.out)
        for line in lines:
            await self.console.handle(line)
        return "\n".join(self.out[start:])

    @property
    def service(self) -> TableService:
        return self.console.service

    def state(self) -> Any:
        table = self.service.require_table("console", "table")
        assert table.state is not None
        return table.state


@pytest.fixture
async def chat(db_path: Path) -> AsyncIterator[Chat]:
    out: list[str] = []
    store = await Store.open(db_path)
    notifier = ConsoleNotifier(out.append)
    service = TableService(store, notifier, rng=random.Random(2026))
    yield Chat(Console(service, out.append, people=notifier.people), out)
    await service.shutdown()
    await store.close()


async def run_lines(db: Path, lines: list[str]) -> list[str]:
    out: list[str] = []
    await run_console(str(db), io.StringIO("\n".join(lines) + "\n"), out.append)
    return out


# -- the turn notice -------------------------------------------------------------------------------


async def test_a_player_is_told_each_time_their_turn_comes_and_only_then(chat: Chat) -> None:
    text = await chat.say("ann: /play toy deals=1 first_dealer=2", "ann: /addbot", "ann: /start")
    assert text.count(">> ann, it is your turn") == 1  # Ann leads the first trick
    for _ in range(6):
        state = chat.state()
        if state.is_over:
            break
        before = len(chat.out)
        await chat.say("/move #1")  # typed as Ann, the last name used
        after = "\n".join(chat.out[before:])
        if chat.service.table("console", "table") is not None:
            # the bot has answered and Ann is due again: she is told once more
            assert after.count(">> ann, it is your turn") == 1
    assert "The match is over" in "\n".join(chat.out)


async def test_the_notice_goes_to_the_player_due_and_not_twice_while_they_wait(chat: Chat) -> None:
    await chat.say("ann: /play toy deals=1 first_dealer=2", "bob: /join", "ann: /start")
    text = "\n".join(chat.out)
    assert ">> ann, it is your turn" in text and ">> bob" not in text
    refused = await chat.say("bob: /move #1")  # not Bob's turn: refused, and nobody is told again
    assert ">>" not in refused
    played = await chat.say("ann: /move #1")
    assert ">> bob, it is your turn" in played and ">> ann" not in played


async def test_lobby_changes_are_shown(chat: Chat) -> None:
    await chat.say("ann: /play toy")
    joined = await chat.say("bob: /join")
    assert "1. ann (host)" in joined and "2. bob" in joined
    changed = await chat.say("ann: /options deals=1")
    assert "Deals: 1" in changed


# -- quitting --------------------------------------------------------------------------------------


async def test_quit_stops_reading_at_once(db_path: Path) -> None:
    out = await run_lines(db_path, ["ann: /games", "ann: /quit", "ann: /play toy"])
    text = "\n".join(out)
    assert "parity" in text and "a table is open" not in text


async def test_a_bare_quit_before_anyone_is_named_quits_too(db_path: Path) -> None:
    out = await run_lines(db_path, ["/quit", "ann: /play toy"])
    assert "a table is open" not in "\n".join(out)


async def test_a_line_starting_with_a_slash_is_typed_as_the_last_name_used(db_path: Path) -> None:
    out = await run_lines(db_path, ["/play toy", "ann: /play toy", "/addbot", "bob: /join", "/leave"])
    text = "\n".join(out)
    assert "Say who is typing first" in text  # nobody named yet
    assert "2. Bot 1 [bot, easy]" in text  # /addbot as Ann
    assert "[to bob] You are not seated" not in text and text.count("3. bob") == 1  # Bob joined, then left


class FakeSource:
    """A terminal that types some lines, then raises what a key would: EOFError for Ctrl-D,
    KeyboardInterrupt for Ctrl-C at the prompt."""

    def __init__(self, lines: list[str], then: BaseException) -> None:
        self.lines = list(lines)
        self.then = then

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop(0) + "\n"
        raise self.then

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("key", [EOFError(), KeyboardInterrupt()], ids=["ctrl-d", "ctrl-c"])
async def test_ctrl_d_and_ctrl_c_at_the_prompt_end_the_console_cleanly(db_path: Path, key: BaseException) -> None:
    out: list[str] = []
    source = FakeSource(["ann: /play toy"], key)
    await asyncio.wait_for(run_console(str(db_path), source, out.append), 120)  # type: ignore[arg-type]
    assert "a table is open" in "\n".join(out)
    store = await Store.open(db_path)  # the console let go of the database (its lock file too)
    await store.close()


class BlockingSource:
    """A terminal where nobody presses Enter."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()
        self.answered = threading.Event()

    def readline(self) -> str:
        self.asked.set()
        self.release.wait(600)
        self.answered.set()
        return ""

    def isatty(self) -> bool:
        return False


async def test_an_interrupt_while_waiting_for_a_line_does_not_wait_for_enter(db_path: Path) -> None:
    source = BlockingSource()
    try:
        task = asyncio.create_task(run_console(str(db_path), source, [].append))  # type: ignore[arg-type]
        while not source.asked.is_set():
            await asyncio.sleep(0.01)
        task.cancel()  # what asyncio.run does with Ctrl-C
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not source.answered.is_set()  # it stopped with the line still unanswered: nobody pressed Enter
        store = await Store.open(db_path)  # closed on the way out
        await store.close()
    finally:
        source.release.set()  # the reading thread ends, whatever happened


@pytest.mark.slow  # a real terminal: run it alone (-m slow); under a loaded parallel run it now and then waits in vain
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_ctrl_c_at_a_real_terminal_quits_at_once_without_a_traceback(tmp_path: Path) -> None:
    import pty
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: the console at a terminal
        os.chdir(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PARLOUR_DB=str(tmp_path / "t.sqlite3"), DISCORD_TOKEN="", HOME=str(tmp_path))
        os.execve(sys.executable, [sys.executable, "-m", "bot"], env)
    output = b""

    def read_for(seconds: float, until: bytes | None = None) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end and (until is None or until not in output):
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return
                if not chunk:
                    return
                output += chunk

    try:
        settings = termios.tcgetattr(fd)
        read_for(60, b"Tab completes")
        os.write(fd, b"ann: /play parity\r")
        read_for(30, b"a table is open")
        read_for(30, b"ann> ")  # the prompt is back
        os.write(fd, b"ann: /hal")  # half a line typed...
        read_for(10, b"/hal")
        os.write(fd, b"\x03")  # ...and Ctrl-C
        started = time.monotonic()
        status = None
        while status is None and time.monotonic() - started < 60:  # generous: the machine may be busy
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
            else:
                read_for(0.05)
        read_for(0.2)
        assert status is not None, output.decode(errors="replace")
        assert os.waitstatus_to_exitcode(status) == 0
        text = output.decode(errors="replace")
        assert "Traceback" not in text and "Goodbye." in text
        assert termios.tcgetattr(fd)[3] == settings[3]  # echo and line mode as they were
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


# -- what people type, and refusals in the game's words -----------------------------------------------


def spoken(card: Card, style: int) -> str:
    """A card as people type it, in one of several notations."""
    if card.is_joker:
        return "joker" if card.colour is None else f"{card.colour.value} joker"
    forms = [card.code, card.code.lower(), card.short, f"{card.rank.title} of {card.suit.name.lower()}"]
    return forms[style % len(forms)]


async def test_cards_typed_in_any_notation_and_refusals_with_the_games_reason(chat: Chat) -> None:
    await chat.say("ann: /play parity first_dealer=2", "bob: /join", "ann: /start")
    # Bob deals, so Ann names trumps: Bob's try is refused with the engine's reason
    refused = await chat.say("bob: /move spades")
    assert "[to bob]" in refused and "It is not your turn: the table is waiting for ann." in refused
    assert "nothing to do" not in refused
    await chat.say("ann: /move spades")
    state = chat.state()
    assert "♠" in "\n".join(state.view(None).text_lines())
    parity_caller = min(state.awaiting())
    await chat.say(f"{['ann', 'bob'][parity_caller]}: /move odd")
    follow_refused = False
    style = 0
    while not chat.state().is_over and chat.state().deal_no == 1:
        state = chat.state()
        seat = min(state.awaiting())
        name = ["ann", "bob"][seat]
        legal = [a.card for a in state.legal_actions(seat)]
        hand = state.view(seat).hand
        wrong = [c for c in hand if c not in legal]
        if wrong and not follow_refused:
            try:
                state.check(seat, PlayCard(play=wrong[0]))
            except IllegalAction as exc:
                reason = str(exc)
            refusal = await chat.say(f"{name}: /move {spoken(wrong[0], style)}")
            assert reason in refusal and "follow suit" in reason  # the engine's words, not "You cannot..."
            assert chat.state().turn == state.turn  # nothing changed
            follow_refused = True
        turn = state.turn
        answer = await chat.say(f"{name}: /move {spoken(legal[0], style)}")
        assert chat.state().turn > turn or chat.state().deal_no > 1, answer
        style += 1
    assert follow_refused
    assert style >= 4  # every notation was used at least once


async def test_referee_entries_by_name_and_a_trick_count_corrected_by_its_number(chat: Chat) -> None:
    await chat.say("ann: /referee hoodwink ann bob cat first_dealer=1")
    bids = await chat.say("ann: /move 7C", "bob: /move 8c", "ann: /move cat: 9♣")  # Ann enters Cat's bid
    assert "[to" not in bids, bids
    await chat.say("ann: /move 9", "ann: /move bob: 2")  # counts: Ann 9, Bob 2, so Cat 0
    text = await chat.say("ann: /correct 4 8")
    assert "corrected entry 4: 9 tricks becomes 8 tricks." in text  # 8 is a count, not a position
    same = await chat.say("ann: /correct 4 8")
    assert "Entry 4 is already 8 tricks: there is nothing to correct." in same
    by_position = await chat.say("ann: /correct 4 #10")
    assert "corrected entry 4: 8 tricks becomes 9 tricks." in by_position  # #10 of 0..11 tricks


async def test_a_long_menu_is_summarised_with_examples_to_type(chat: Chat) -> None:
    await chat.say("ann: /referee spec ann bob first_dealer=1")
    state = chat.state()
    while not any(len(state.legal_actions(s)) > 100 for s in state.actors()):
        seat = min(state.actors())
        await chat.say(f"ann: /move {['ann', 'bob'][seat]}: {typed_form(state.legal_actions(seat)[0])}")
        state = chat.state()
    seat = next(s for s in state.actors() if len(state.legal_actions(s)) > 100)
    calls = len(state.legal_actions(seat))
    shown = await chat.say(f"{['ann', 'bob'][seat]}: /hand")
    assert f"{calls} choices:" in shown and "one of" in shown and "Type, for example: /move " in shown
    assert len(shown.splitlines()) < 20
    everything = await chat.say(f"{['ann', 'bob'][seat]}: /hand all")
    assert len(everything.splitlines()) > calls
