"""Reading the console's lines: one at a time in a thread of its own, and at a terminal a prompt
with line editing, history and completion."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from bot.console.commands import COMMANDS
from games.registry import all_games

log = logging.getLogger(__name__)

# -- reading lines --------------------------------------------------------------------------------


class LineReader:
    """Lines read one at a time, only when asked, in a daemon thread of the reader's own.

    Reading ahead would print the next prompt before the answer to this line; the event loop's
    default executor would make every exit wait for a line (its threads are joined at shutdown).
    A read that raises ``EOFError`` or ``KeyboardInterrupt`` (Ctrl-D, Ctrl-C at ``input``, or a
    test's fake source) ends the input, as does an empty read (the end of a file).
    """

    def __init__(self, read_line: Callable[[], str]) -> None:
        self._read_line = read_line
        self._asks: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[str | None]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def next_line(self) -> str | None:
        """The next line, or ``None`` at the end of input."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="parlour-console-input", daemon=True)
            self._thread.start()
        self._asks.put((loop, future))
        return await future

    def _serve(self) -> None:
        while True:
            loop, future = self._asks.get()
            line: str | None
            try:
                line = self._read_line() or None
            except (EOFError, KeyboardInterrupt):
                line = None
            except Exception:  # a terminal that went away: the input ends
                log.exception("reading the console's input failed")
                line = None
            try:
                loop.call_soon_threadsafe(_settle, future, line)
            except RuntimeError:  # the loop has closed: the console is gone
                return


def _settle(future: asyncio.Future[str | None], line: str | None) -> None:
    if not future.done():
        future.set_result(line)


class Terminal:
    """The console at a terminal: a prompt with line editing, history and completion (readline
    where the platform has it), output that does not tear the line being typed, and the
    terminal's settings put back however the console ends."""

    HISTORY_LINES = 1000

    def __init__(self, history_file: str | None) -> None:
        self.history_file = history_file
        self.prompt = "> "
        self.typing = False
        self.readline: Any = None
        try:
            import readline

            self.readline = readline
        except ImportError:  # Windows without pyreadline: input() still works, without editing
            pass

    def read_line(self, prompt: str) -> str:
        """One line typed at the prompt; ``EOFError`` at Ctrl-D, ``KeyboardInterrupt`` at Ctrl-C."""
        self.prompt = prompt
        self.typing = True
        try:
            return input(prompt)
        finally:
            self.typing = False

    def write(self, text: str) -> None:
        """Print a message; while a line is being typed, above it, and the line is shown again."""
        if self.typing and self.readline is not None:
            sys.stdout.write("\r\x1b[K" + text + "\n" + self.prompt + self.readline.get_line_buffer())
            sys.stdout.flush()
        else:
            print(text, flush=True)

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """Set up line editing for the session; afterwards save the history and restore the
        terminal's settings (a quit while a line is half typed must not leave it without echo)."""
        saved = _terminal_settings()
        rl = self.readline
        if rl is not None:
            rl.set_completer(self.complete)
            rl.set_completer_delims(" \t")
            if "libedit" in (getattr(rl, "__doc__", "") or ""):
                rl.parse_and_bind("bind ^I rl_complete")
            else:
                rl.parse_and_bind("tab: complete")
            rl.set_history_length(self.HISTORY_LINES)
            if self.history_file:
                with contextlib.suppress(OSError):
                    rl.read_history_file(self.history_file)
        try:
            yield
        finally:
            if rl is not None and self.history_file:
                with contextlib.suppress(OSError):
                    rl.write_history_file(self.history_file)
            _restore_terminal(saved)

    def complete(self, text: str, state: int) -> str | None:
        """Completion at the prompt: a command after ``/``, a game's id after one that takes it."""
        rl = self.readline
        before = rl.get_line_buffer()[: rl.get_begidx()] if rl is not None else ""
        if ":" in before and not before.lstrip().startswith("/"):
            before = before.split(":", 1)[1]
        words = before.split()
        if not words and text.startswith("/"):
            options = [f"/{c} " for c in COMMANDS if f"/{c}".startswith(text)]
        elif len(words) == 1 and words[0] in ("/play", "/rules", "/referee", "/defaults", "/leaderboard"):
            options = [f"{g.id} " for g in all_games() if g.id.startswith(text)]
        else:
            options = []
        return options[state] if state < len(options) else None


def _terminal_settings() -> Any:
    try:
        import termios

        return termios.tcgetattr(sys.stdin.fileno())
    except (ImportError, OSError, ValueError):
        return None


def _restore_terminal(saved: Any) -> None:
    if saved is None:
        return
    with contextlib.suppress(ImportError, OSError, ValueError):
        import termios

        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)


def is_terminal(source: TextIO) -> bool:
    """Whether the console talks to a person at a terminal (then: prompt, editing, history)."""
    try:
        return source is sys.stdin and source.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
