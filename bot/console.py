"""The local console: a group chat in a terminal, on the same table service as Discord.

Each line is a message typed as a named player::

    alice: /play parity
    bob: /join
    alice: /start
    alice: /hand
    bob: /move QS

A line that starts with ``/`` is typed as the last player named. It reads a terminal, a pipe or a
file (one message per line) and stops at the end of input, so whole games can be scripted for
demos, bug reports and tests. Private messages (a hand, a DM) are printed with a ``[to name]``
prefix: in a console everybody at the keyboard can read them.

At a terminal there is a prompt with line editing, history and completion (the standard library's
``readline`` where the platform has it), a notice when it becomes the turn of someone typing here,
and Ctrl-C or Ctrl-D (or ``/quit``) leave at once: lines are read one at a time, when asked, in a
daemon thread of the console's own, so leaving never waits for a line that will not come.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import queue
import random
import re
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from bot.numbers import plain_int
from bot.render.text import (
    choices_summary,
    lobby_lines,
    numbered_actions,
    players_text,
    private_text,
    table_lines,
)
from bot.service.model import Table, TableError, User
from bot.service.records import finished_match, record_from_json
from bot.service.registry import UNAVAILABLE, everywhere
from bot.shards import ShardKeeper, lease_plan
from bot.tables import TableService
from games.engine import Action, Event, IllegalAction, SetupError
from games.notation import read_action, read_choice
from games.registry import all_games, get_game
from storage.db import StorageUnavailable
from storage.sessions import Store

log = logging.getLogger(__name__)

GUILD = "console"
CHANNEL = "table"

HELP = """Type each message as `name: /command`; a line that starts with / is typed as the last name used.
  /games                     list the games
  /rules GAME                a game's rules and options
  /play GAME [key=value...]  open a table here (you host it)
  /join, /leave              take or give up a seat
  /addbot [LEVEL]            seat a bot player: random, easy (default), strong; Parity also vulcan
  /options key=value...      change options in the lobby (host); key= (blank) where blank is allowed
  /start, /cancel            start the game or close the lobby (host)
  /table                     show the table
  /hand [all]                your cards and your choices (a long menu is summarised; `all` lists it)
  /move WHAT                 make a choice, typed as you would say it: a card (KH, kh, K♥, 10h,
                             king of hearts), a count or a value (4, AS 12, QS -3), a suit (spades),
                             or #N for the N-th choice of /hand
  /abandon                   end a game in progress (host)
  /hint                      advice for your current choice (where the game has it and the host allowed it)
  /analyse [DEAL]            a finished deal against perfect play (where the game has it)
  /analyse match N [DEAL]    the same for a finished match of this server
Referee mode, for a game played with real cards:
  /referee GAME NAME NAME... [key=value...]  open a referee table for these players
  /entries [all]             the entries that can be made now, for every player
  /move WHAT                 make an entry for anyone at the table: `/move bob: KH` or `/move KH for bob`;
                             without a name, your own seat if it fits, else the one player it fits;
                             a player named like a card (jack, ace) takes the colon: `/move jack: KH`
  /confirm, /undo            confirm or take back the last entry
  /correct N WHAT            replace entry N by WHAT, typed as for /move, or #M of /choices N (host)
  /choices N                 what entry N could have been
Records:
  /leaderboard [GAME] [all|season|month|week]   /stats [NAME] [GAME]   /history [NAME]
  /replay MATCH              a finished match, deal by deal
  /export                    every result as CSV
  /season                    start a new season (admin)
  /settings [key=value...]   show or change the settings: reminder=SECONDS timeout=SECONDS dms=on|off
                             confirmation=on|off (referee entries need a second player)
  /defaults GAME [key=value...]  the options a new table of GAME starts with (none: the standard rules)
  /resetrating NAME          forget NAME's ratings (results stay)
  /adminlog                  recent admin actions and who made them
  /quit                      leave the console (so do Ctrl-D and Ctrl-C); open tables are kept"""

COMMANDS = (
    "games", "rules", "play", "join", "leave", "addbot", "options", "start", "cancel", "table", "hand",
    "move", "abandon", "hint", "analyse", "referee", "entries", "confirm", "undo", "correct", "choices",
    "leaderboard", "stats", "history", "replay", "export", "season", "settings", "defaults",
    "resetrating", "adminlog", "help", "quit",
)  # fmt: skip
"""The commands offered by completion at the prompt."""

GOODBYE = "Goodbye. Open tables are kept: start the console again to carry on."

DISCORD_TIME = re.compile(r"<t:(\d+):R>")


def local_times(text: str) -> str:
    """Discord's relative timestamps (``<t:UNIX:R>``) written out as the local time of day."""
    return DISCORD_TIME.sub(lambda m: time.strftime("at %H:%M:%S", time.localtime(int(m[1]))), text)


class ConsoleNotifier:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.people: set[str] = set()
        """The users typing here (anyone who has typed a line): they are told when their turn comes."""
        self._table: int | None = None
        self._due: set[int] = set()
        self._actions_seen = 0
        self._awaited: tuple[int, ...] = ()

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        for e in events:
            self.write(f"* {e.text}")
        if repost or table.state is None or table.state.is_over:
            self.write("\n".join(table_lines(table) if table.state is not None else lobby_lines(table)))
        self.turn_notices(table)

    def turn_notices(self, table: Table) -> None:
        """Tell the people typing here when their turn comes (once, until they have moved), and
        at a referee table whose entry is due next."""
        state = table.state
        if table.id != self._table:
            self._table, self._due, self._actions_seen, self._awaited = table.id, set(), 0, ()
        if state is None or state.is_over or table.status != "playing":
            return
        awaited = tuple(sorted(state.awaiting()))
        if table.mode == "referee":
            if awaited != self._awaited and awaited:
                names = " and ".join(table.seats[s].name for s in awaited)
                self.write(f"Next entry: {names}.")
            self._awaited = awaited
            return
        due = {
            s for s in awaited
            if table.seats[s].bot is None and table.seats[s].user_id in self.people
        }  # fmt: skip
        acted = set(table.actors[self._actions_seen :])
        for seat in sorted(due):
            if seat not in self._due or table.seats[seat].user_id in acted:
                self.write(f">> {table.seats[seat].name}, it is your turn: /hand shows your choices.")
        self._due, self._actions_seen, self._awaited = due, len(table.actors), awaited

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        self.write(f"[to {table.seats[seat].name}] " + text.replace("\n", "\n    "))
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        text = local_times(text)
        self.write(f"@{mention} {text}" if mention else text)

    async def tell(self, table: Table, text: str, mention: str) -> bool:
        await self.notice(table, text, mention)
        return True

    async def table_closed(self, table: Table) -> None:
        if table.state is not None and table.state.is_over:
            self.write("\n".join(table_lines(table)))
        self.write("The table is closed.")

    async def channel_notice(self, guild_id: str, channel_id: str, text: str) -> None:
        self.write(text)


class Console:
    def __init__(self, service: TableService, write: Callable[[str], None], people: set[str] | None = None) -> None:
        self.service = service
        self.write = write
        self.people = people if people is not None else set()
        """Everyone who has typed a line (shared with the notifier, for turn notices)."""
        self.speaker: User | None = None
        """The last player named: a line that starts with / is typed as them."""

    def user(self, name: str) -> User:
        return User(id=name.lower(), name=name)

    @property
    def prompt(self) -> str:
        return f"{self.speaker.name}> " if self.speaker is not None else "> "

    async def handle(self, line: str) -> bool:
        """Handle one typed line; returns ``False`` when the console should stop."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        if line.startswith("/"):
            if self.speaker is None:
                if line.split()[0].lower() in ("/quit", "/exit"):
                    return False
                self.write("Say who is typing first: `name: /command` (for example `alice: /play parity`).")
                return True
            user, message = self.speaker, line
        else:
            speaker, sep, message = line.partition(":")
            if not sep or not speaker.strip():
                self.write("Type messages as `name: /command` (for example `alice: /play parity`). /help lists commands.")
                return True
            user = self.user(speaker.strip())
            self.speaker = user
        self.people.add(user.id)
        message = message.strip()
        if not message.startswith("/"):
            self.write(f"<{user.name}> {message}")
            return True
        rest = message[1:].partition(" ")[2]
        try:
            parts = shlex.split(message[1:])
        except ValueError:
            parts = message[1:].split()
        if not parts:
            return True
        command, args = parts[0].lower(), parts[1:]
        if command in ("quit", "exit"):
            return False
        try:
            await self.service.ready(GUILD, CHANNEL)  # a table restored after a restart loads on first use
            if command in ("move", "m"):
                await self.move(user, rest.strip())
            elif command == "correct":
                await self.correct(user, rest.strip())
            else:
                await self.dispatch(user, command, args)
        except (TableError, SetupError, IllegalAction) as exc:
            self.write(f"[to {user.name}] {exc}")
        except StorageUnavailable as exc:
            log.warning("console command not applied: %s", exc)
            self.write(f"[to {user.name}] {UNAVAILABLE}")
        except Exception:  # a bug must not end everyone's game: report it and carry on
            log.exception("console command failed: %s", message)
            self.write(f"[to {user.name}] Sorry, something went wrong with that command; it was not applied.")
        return True

    async def dispatch(self, user: User, command: str, args: list[str]) -> None:
        s = self.service
        if command == "help":
            self.write(HELP)
        elif command == "games":
            for g in all_games():
                self.write(f"{g.id:<18} {g.title} ({players_text(g)} players)")
        elif command == "rules":
            if not args:
                raise TableError("Which game? For example /rules parity.")
            g = get_game(args[0])
            self.write(f"{g.title} ({players_text(g)} players)\n{g.summary.strip()}")
            for f in g.option_fields():
                self.write(f"  {f.name}={_typed_default(f.default)}  {f.description}")
        elif command == "play":
            if not args:
                raise TableError("Which game? For example /play parity. /games lists them.")
            await s.open_table(GUILD, CHANNEL, user, args[0], args[1:])
        elif command == "join":
            await s.join(GUILD, CHANNEL, user)
        elif command == "leave":
            await s.leave(GUILD, CHANNEL, user)
        elif command == "addbot":
            await s.add_bot(GUILD, CHANNEL, user, args[0] if args else "easy")
        elif command in ("options", "option"):
            await s.set_options(GUILD, CHANNEL, user, args)
        elif command == "start":
            await s.start(GUILD, CHANNEL, user)
        elif command == "cancel":
            await s.cancel(GUILD, CHANNEL, user)
        elif command == "abandon":
            await s.abandon(GUILD, CHANNEL, user)
        elif command == "table":
            self.write("\n".join(table_lines(s.require_table(GUILD, CHANNEL))))
        elif command == "hand":
            self.show_hand(user, everything=args[:1] == ["all"])
        elif command == "referee":
            await self.referee(user, args)
        elif command == "entries":
            self.show_entries(user, everything=args[:1] == ["all"])
        elif command == "confirm":
            await s.confirm(GUILD, CHANNEL, user)
        elif command == "undo":
            await s.undo(GUILD, CHANNEL, user)
        elif command == "choices":
            seat, legal = await s.entry_choices(GUILD, CHANNEL, user, _number(args, "an entry number"))
            table = s.require_table(GUILD, CHANNEL)
            lines = choices_summary(legal) if len(args) < 2 or args[1] != "all" else numbered_actions(legal)
            self.write(f"[to {user.name}] Entry for {table.seats[seat].name}:\n    " + "\n    ".join(lines))
        elif command == "hint":
            self.write(f"[to {user.name}] " + "\n    ".join(await s.hint(GUILD, CHANNEL, user)))
        elif command in ("analyse", "analyze"):
            match_id = None
            if args[:1] == ["match"]:
                match_id, args = _number(args[1:], "a match number"), args[2:]
            deal = _number(args, "a deal number") if args else None
            self.write("\n".join(await s.analyse(GUILD, CHANNEL, user, deal, match_id)))
        elif command in ("leaderboard", "stats", "history", "replay", "export", "season"):
            await self.records(user, command, args)
        elif command in ("settings", "defaults", "resetrating", "adminlog"):
            await self.admin(user, command, args)
        else:
            raise TableError(f"There is no /{command} command. /help lists them.")

    async def referee(self, user: User, args: list[str]) -> None:
        if not args:
            raise TableError("Which game, and who plays? For example /referee hoodwink ann bob cat.")
        names = [a for a in args[1:] if "=" not in a]
        options = [a for a in args[1:] if "=" in a]
        players: list[User | str] = [self.user(n) for n in names]
        await self.service.open_referee(GUILD, CHANNEL, user, args[0], players, options)

    def show_entries(self, user: User, everything: bool = False) -> None:
        """Referee mode: the entries open now, seat by seat (a long menu summarised)."""
        table = self.service.require_table(GUILD, CHANNEL)
        if table.mode != "referee":
            self.show_hand(user, everything)
            return
        _turn, entries = self.service.entries(GUILD, CHANNEL, user)
        by_seat: dict[int, list[Action]] = {}
        for seat, action in entries:
            by_seat.setdefault(seat, []).append(action)
        lines: list[str] = []
        start = 1
        for seat, actions in by_seat.items():
            name = table.seats[seat].name
            lines.append(f"For {name}:")
            prefix = f"{name}: " if len(by_seat) > 1 else ""
            if everything:
                lines += ["  " + line for line in numbered_actions(actions, start)]
            else:
                lines += ["  " + line for line in choices_summary(actions, start=start, command=f"/move {prefix}")]
            start += len(actions)
        self.write(f"[to {user.name}] Entries now:\n    " + "\n    ".join(lines or ["(none)"]))

    async def records(self, user: User, command: str, args: list[str]) -> None:
        from bot.render import records
        from storage import stats

        conn = self.service.store.conn
        if command == "leaderboard":
            board_game = get_game(args[0]).id if args else all_games()[0].id
            period = records.period_of(args[1] if len(args) > 1 else None)
            board = await stats.leaderboard(conn, GUILD, board_game, period)
            self.write("\n".join(records.leaderboard_lines(board)))
        elif command == "stats":
            who = self.user(args[0]) if args else user
            game = get_game(args[1]).id if len(args) > 1 else None
            st = await stats.player_stats(conn, GUILD, who.id, game)
            self.write("\n".join(records.stats_lines(who.name, st, game)))
        elif command == "history":
            member = self.user(args[0]).id if args else None
            self.write("\n".join(records.history_lines(await stats.history(conn, GUILD, user_id=member))))
        elif command == "replay":
            number = _number(args, "a match number")
            data = finished_match(await stats.match_json(conn, GUILD, number), number)
            if not data["actions"]:
                raise TableError(f"Match #{number} never got going: there is nothing to replay.")
            self.write("\n\n".join(records.replay_pages(record_from_json(data), data["mode"])))
        elif command == "export":
            self.write(await stats.export_csv(conn, GUILD))
        elif command == "season":
            number = await stats.new_season(conn, GUILD, user.id)
            self.write(f"Season {number} begins. All-time ratings and results are kept.")

    async def admin(self, user: User, command: str, args: list[str]) -> None:
        """The server's administration; at the console whoever types is the admin."""
        from bot.admin import SettingsChange, change_settings, settings_lines
        from storage import stats

        change = SettingsChange()
        if command == "resetrating":
            if not args:
                raise TableError("Whose ratings? For example /resetrating bob.")
            removed = await stats.reset_rating(self.service.store.conn, GUILD, user.id, self.user(args[0]).id)
            self.write(f"{args[0]}: {removed} rating(s) removed; results stay.")
            return
        if command == "adminlog":
            for e in await stats.admin_log(self.service.store.conn, GUILD):
                self.write(f"{e['at'][:16]} {e['user_id']} {e['action']}: {e['detail']}")
            return
        if command == "defaults":
            if not args:
                raise TableError("Which game? For example /defaults parity no_trump=true.")
            change.default_options = (args[0], args[1:])
        for pair in args if command == "settings" else []:
            key, _, value = pair.partition("=")
            if key in ("reminder", "timeout"):
                seconds = _number([value], "a number of seconds")
                if key == "reminder":
                    change.turn_reminder_seconds = seconds
                else:
                    change.turn_timeout_seconds = seconds
            elif key in ("dms", "confirmation", "pages", "names") and value in ("on", "off"):
                on = value == "on"
                if key == "dms":
                    change.dms_enabled = on
                elif key == "confirmation":
                    change.referee_confirmation = on
                elif key == "pages":
                    change.pages = on
                else:
                    change.page_names = on
            else:
                raise TableError(
                    f"Unknown setting {pair!r}: reminder=SECONDS, timeout=SECONDS, dms=on|off, confirmation=on|off, "
                    "pages=on|off, names=on|off."
                )
        settings = await change_settings(self.service, GUILD, user.id, change)
        self.write("\n".join(settings_lines(settings)))

    def show_hand(self, user: User, everything: bool = False) -> None:
        table = self.service.require_table(GUILD, CHANNEL)
        if table.mode == "referee":
            self.show_entries(user, everything)  # anyone at the table enters for anyone
            return
        info = self.service.hand(GUILD, CHANNEL, user)
        lines = private_text(table, info.view).split("\n")
        lines += [e.text for e in info.private_events]
        if info.legal:
            lines.append("Your choices:")
            lines += numbered_actions(info.legal) if everything else choices_summary(info.legal)
        else:
            lines.append("Nothing to do right now.")
        self.write(f"[to {user.name}] " + "\n    ".join(lines))

    async def move(self, user: User, text: str) -> None:
        """A move (online) or an entry (referee mode), typed as people say it; read by
        :func:`games.notation.read_action`, so a refusal carries the game's own reason."""
        table = self.service.require_table(GUILD, CHANNEL)
        state = table.state
        if not text:
            raise TableError("Say what to play: /move followed by a card (KH), a count, a value, or #N from /hand.")
        if state is None or table.status != "playing":
            raise TableError("The game has not started yet." if table.status == "lobby" else "This game is over.")
        turn = state.turn
        if table.mode == "referee":
            self.service.entries(GUILD, CHANNEL, user)  # members only
            seat, action = read_action(state, text, seat=None, speaker=table.seat_of(user.id))
            await self.service.act(GUILD, CHANNEL, user, action, turn, seat=seat)
            return
        own = table.seat_of(user.id)
        if own is None:
            raise TableError("You are not playing at this table.")
        _seat, action = read_action(state, text, seat=own)
        await self.service.act(GUILD, CHANNEL, user, action, turn)

    async def correct(self, user: User, text: str) -> None:
        """``/correct N WHAT``: entry N becomes WHAT, read among what entry N could have been (a
        bare number is a count or a value there too; ``#M`` is the M-th of ``/choices N``)."""
        number, _, what = text.partition(" ")
        entry = _number([number], "an entry number, then the entry it should have been")
        if not what.strip():
            raise TableError(f"Say what entry {entry} should have been: /correct {entry} WHAT (/choices {entry} lists them).")
        _seat, legal = await self.service.entry_choices(GUILD, CHANNEL, user, entry)
        await self.service.correct(GUILD, CHANNEL, user, entry, read_choice(legal, what))


def _typed_default(value: Any) -> str:
    """An option's default as it would be typed: blank for none, true or false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(args: Sequence[str], what: str) -> int:
    number = plain_int(args[0]) if args else None
    if number is None:
        raise TableError(f"Give {what}.")
    return number


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


# -- running it -----------------------------------------------------------------------------------


class Session:
    """The console's storage, table service and console, opened and closed together."""

    def __init__(
        self, store: Store, service: TableService, console: Console, keeper: ShardKeeper | None = None
    ) -> None:
        self.store, self.service, self.console, self.keeper = store, service, console, keeper

    @classmethod
    async def open(
        cls, database: str, write: Callable[[str], None], seed: int | None = None
    ) -> tuple[Session, int]:
        """Open the database, take its lease (on PostgreSQL, as the bot does) and restore its
        tables; returns the session and how many tables. ``seed`` makes the deals the same on
        every run (a demo, a bug report)."""
        store = await Store.open(database)
        keeper: ShardKeeper | None = None
        try:
            leased = lease_plan(store.conn, None)
            if leased is not None:
                keeper = ShardKeeper(store.conn, leased)
                await keeper.acquire()
            notifier = ConsoleNotifier(write)
            service = TableService(store, notifier, rng=random.Random(seed) if seed is not None else None)
            if keeper is not None:

                async def lost(shards: list[int]) -> None:
                    service.let_go(everywhere)
                    write("Another Parlour process has taken this database over: this console can no longer act. /quit")

                keeper.start(lost)
            restored = await service.load()
            await service.wait_resumed()  # bots whose turn it was have moved before the first line is read
        except BaseException:
            if keeper is not None:
                await keeper.stop()
            await store.close()
            raise
        return cls(store, service, Console(service, write, people=notifier.people), keeper), restored

    async def close(self) -> None:
        try:
            await self.service.shutdown()
        finally:
            try:
                if self.keeper is not None:
                    await self.keeper.stop()
            finally:
                await self.store.close()


WELCOME = "Parlour console. Type `name: /help` for commands, `name: /play GAME` to open a table."


async def run_console(
    database: str, source: TextIO = sys.stdin, out: Callable[[str], None] = print, seed: int | None = None
) -> None:
    """Run the console on a file, a pipe or a test's source, one message a line, until its end,
    ``/quit``, or an interrupt (a ``KeyboardInterrupt`` from the source, or this task cancelled:
    it does not wait for a line that will not come)."""
    session, restored = await Session.open(database, out, seed)
    reader = LineReader(source.readline)
    try:
        out(WELCOME)
        if restored:
            out(f"Restored {restored} open table(s).")
        while True:
            line = await reader.next_line()
            if line is None or not await session.console.handle(line):
                break
    finally:
        await session.close()


def run_terminal(database: str, history_file: str | None = None, seed: int | None = None) -> None:
    """The console for a person at a terminal, until ``/quit``, Ctrl-D or Ctrl-C.

    The prompt is read in the main thread, where Ctrl-C arrives as ``KeyboardInterrupt`` at once
    (readline tidies the line it was editing), and the table service runs on an event loop in a
    thread of its own; Ctrl-C while a command runs cancels it. Open tables stay in the database."""
    terminal = Terminal(history_file or os.path.join(os.path.expanduser("~"), ".parlour_history"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="parlour-console-loop", daemon=True)
    thread.start()
    session: Session | None = None
    try:
        session, restored = asyncio.run_coroutine_threadsafe(Session.open(database, terminal.write, seed), loop).result()
        with terminal.session():
            terminal.write(WELCOME)
            terminal.write("Quit with /quit, Ctrl-D or Ctrl-C; the Up arrow brings back earlier lines, Tab completes.")
            if restored:
                terminal.write(f"Restored {restored} open table(s).")
            _talk(terminal, session.console, loop)
    finally:
        if session is not None:
            asyncio.run_coroutine_threadsafe(session.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def _talk(terminal: Terminal, console: Console, loop: asyncio.AbstractEventLoop) -> None:
    """Read and handle lines until the person leaves."""
    while True:
        try:
            line = terminal.read_line(console.prompt)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C at the prompt
            print(flush=True)
            break
        handled = asyncio.run_coroutine_threadsafe(console.handle(line), loop)
        try:
            if not handled.result():
                break
        except KeyboardInterrupt:  # Ctrl-C while a command runs: it is cancelled, and we leave
            handled.cancel()
            with contextlib.suppress(BaseException):
                concurrent.futures.wait([handled], timeout=5)
            print(flush=True)
            break
    print(GOODBYE, flush=True)
