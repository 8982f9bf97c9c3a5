"""The local console: a group chat in a terminal, on the same table service as Discord.

Each line is a message typed as a named player::

    alice: /play parity
    bob: /join
    alice: /start
    alice: /hand
    bob: /move 3

It reads a terminal, a pipe or a file (one message per line) and stops at the end of input, so
whole games can be scripted for demos, bug reports and tests. Private messages (a hand, a DM)
are printed with a ``[to name]`` prefix: in a console everybody at the keyboard can read them.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from bot.render.text import numbered_actions, players_text, private_text, table_lines
from bot.tables import Table, TableError, TableService, User
from games.cards import CardError, parse_card
from games.engine import Action, Event, SetupError
from games.registry import all_games, get_game
from storage.sessions import Store

log = logging.getLogger(__name__)

GUILD = "console"
CHANNEL = "table"

HELP = """Type each message as `name: /command`. Commands:
  /games                     list the games
  /rules GAME                a game's rules and options
  /play GAME [key=value...]  open a table here (you host it)
  /join, /leave              take or give up a seat
  /addbot [easy|strong]      seat a bot player
  /options key=value...      change options in the lobby (host)
  /start, /cancel            start the game or close the lobby (host)
  /table                     show the table
  /hand                      your cards and your choices, numbered
  /move N | CARD | LABEL     make a choice: its number from /hand, a card code such as QS, or its label
  /abandon                   end a game in progress (host)
  /quit                      leave the console"""


class ConsoleNotifier:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    async def table_changed(self, table: Table, events: Sequence[Event], repost: bool) -> None:
        for e in events:
            self.write(f"* {e.text}")
        if repost or table.state is None or table.state.is_over:
            self.write("\n".join(table_lines(table)))

    async def send_private(self, table: Table, seat: int, text: str) -> bool:
        self.write(f"[to {table.seats[seat].name}] " + text.replace("\n", "\n    "))
        return True

    async def notice(self, table: Table, text: str, mention: str | None = None) -> None:
        self.write(f"@{mention} {text}" if mention else text)

    async def table_closed(self, table: Table) -> None:
        if table.state is not None and table.state.is_over:
            self.write("\n".join(table_lines(table)))
        self.write("The table is closed.")


class Console:
    def __init__(self, service: TableService, write: Callable[[str], None]) -> None:
        self.service = service
        self.write = write

    def user(self, name: str) -> User:
        return User(id=name.lower(), name=name)

    async def handle(self, line: str) -> bool:
        """Handle one typed line; returns ``False`` when the console should stop."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        speaker, sep, message = line.partition(":")
        if not sep or not speaker.strip():
            self.write("Type messages as `name: /command` (for example `alice: /play parity`). /help lists commands.")
            return True
        user = self.user(speaker.strip())
        message = message.strip()
        if not message.startswith("/"):
            self.write(f"<{user.name}> {message}")
            return True
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
            await self.dispatch(user, command, args)
        except (TableError, SetupError) as exc:
            self.write(f"[to {user.name}] {exc}")
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
                self.write(f"  {f.name}={f.default}  {f.description}")
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
            self.show_hand(user)
        elif command in ("move", "m"):
            await self.move(user, " ".join(args))
        else:
            raise TableError(f"There is no /{command} command. /help lists them.")

    def show_hand(self, user: User) -> None:
        table = self.service.require_table(GUILD, CHANNEL)
        info = self.service.hand(GUILD, CHANNEL, user)
        lines = [private_text(table, info.view)]
        lines += [e.text for e in info.private_events]
        if info.legal:
            lines.append("Your choices:")
            lines += numbered_actions(info.legal)
        else:
            lines.append("Nothing to do right now.")
        self.write(f"[to {user.name}] " + "\n    ".join(lines))

    async def move(self, user: User, text: str) -> None:
        info = self.service.hand(GUILD, CHANNEL, user)
        action = pick_action(info.legal, text)
        await self.service.act(GUILD, CHANNEL, user, action, info.turn)


def pick_action(legal: Sequence[Action], text: str) -> Action:
    """Find the action a typed choice means: a number, a card code, a label or a full path."""
    text = text.strip()
    if not text:
        raise TableError("Say which choice: /move followed by its number from /hand.")
    if not legal:
        raise TableError("You have nothing to do right now.")
    if text.isdigit():
        index = int(text) - 1
        if 0 <= index < len(legal):
            return legal[index]
        raise TableError(f"Choose a number from 1 to {len(legal)}.")
    wanted = text.lower()
    for a in legal:
        if wanted in (a.label().lower(), " / ".join(a.choice_path()).lower()):
            return a
    try:
        card = parse_card(text)
    except CardError:
        card = None
    if card is not None:
        matches = [a for a in legal if a.card == card]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise TableError("That card can be played in several ways: choose by number from /hand.")
        raise TableError(f"You cannot play {card.short} now.")
    raise TableError(f"'{text}' is not one of your choices. /hand lists them.")


async def run_console(database: str, source: TextIO = sys.stdin, out: Callable[[str], None] = print) -> None:
    store = await Store.open(database)
    notifier = ConsoleNotifier(out)
    service = TableService(store, notifier)
    restored = await service.load()
    console = Console(service, out)
    out("Parlour console. Type `name: /help` for commands, `name: /play GAME` to open a table.")
    if restored:
        out(f"Restored {restored} open table(s).")
    try:
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, source.readline)
            if not line:
                break
            if not await console.handle(line):
                break
    finally:
        await service.shutdown()
        await store.close()
