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

from bot.numbers import plain_int
from bot.render.text import numbered_actions, players_text, private_text, table_lines
from bot.service.model import Table, TableError, User
from bot.service.records import finished_match, record_from_json
from bot.tables import TableService
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
  /addbot [LEVEL]            seat a bot player: random, easy (default), strong; Parity also vulcan
  /options key=value...      change options in the lobby (host)
  /start, /cancel            start the game or close the lobby (host)
  /table                     show the table
  /hand                      your cards and your choices, numbered
  /move N | CARD | LABEL     make a choice: its number from /hand, a card code such as QS, or its label
  /abandon                   end a game in progress (host)
  /hint                      advice for your current choice (where the game has it and the host allowed it)
  /analyse [DEAL]            a finished deal against perfect play (where the game has it)
  /analyse match N [DEAL]    the same for a finished match of this server
Referee mode, for a game played with real cards:
  /referee GAME NAME NAME... [key=value...]  open a referee table for these players
  /entries                   the entries that can be made now, numbered
  /move N                    make entry N (anyone at the table may enter for anyone)
  /confirm, /undo            confirm or take back the last entry
  /correct N M               replace entry N by choice M of /choices N (host)
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
            await self.service.ready(GUILD, CHANNEL)  # a table restored after a restart loads on first use
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
        elif command == "referee":
            await self.referee(user, args)
        elif command == "entries":
            self.show_entries(user)
        elif command == "confirm":
            await s.confirm(GUILD, CHANNEL, user)
        elif command == "undo":
            await s.undo(GUILD, CHANNEL, user)
        elif command == "choices":
            seat, legal = await s.entry_choices(GUILD, CHANNEL, user, _number(args, "an entry number"))
            table = s.require_table(GUILD, CHANNEL)
            self.write(f"[to {user.name}] Entry for {table.seats[seat].name}:\n    " + "\n    ".join(numbered_actions(legal)))
        elif command == "correct":
            entry = _number(args[:1], "an entry number")
            _seat, legal = await s.entry_choices(GUILD, CHANNEL, user, entry)
            await s.correct(GUILD, CHANNEL, user, entry, pick_action(legal, " ".join(args[1:])))
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

    def show_entries(self, user: User) -> None:
        table = self.service.require_table(GUILD, CHANNEL)
        if table.mode != "referee":
            self.show_hand(user)
            return
        _turn, entries = self.service.entries(GUILD, CHANNEL, user)
        lines = [f"{i}. {table.seats[seat].name}: {' / '.join(a.choice_path())}" for i, (seat, a) in enumerate(entries, 1)]
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
            elif key in ("dms", "confirmation") and value in ("on", "off"):
                if key == "dms":
                    change.dms_enabled = value == "on"
                else:
                    change.referee_confirmation = value == "on"
            else:
                raise TableError(f"Unknown setting {pair!r}: reminder=SECONDS, timeout=SECONDS, dms=on|off, confirmation=on|off.")
        settings = await change_settings(self.service, GUILD, user.id, change)
        self.write("\n".join(settings_lines(settings)))

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
        table = self.service.require_table(GUILD, CHANNEL)
        if table.mode == "referee":
            turn, entries = self.service.entries(GUILD, CHANNEL, user)
            number = plain_int(text)
            if number is not None and 1 <= number <= len(entries):
                seat, action = entries[number - 1]
                await self.service.act(GUILD, CHANNEL, user, action, turn, seat=seat)
                return
            action = pick_action([a for _, a in entries], text)
            await self.service.act(GUILD, CHANNEL, user, action, turn)
            return
        info = self.service.hand(GUILD, CHANNEL, user)
        action = pick_action(info.legal, text)
        await self.service.act(GUILD, CHANNEL, user, action, info.turn)


def _number(args: Sequence[str], what: str) -> int:
    number = plain_int(args[0]) if args else None
    if number is None:
        raise TableError(f"Give {what}.")
    return number


def pick_action(legal: Sequence[Action], text: str) -> Action:
    """Find the action a typed choice means: a number, a card code, a label or a full path."""
    text = text.strip()
    if not text:
        raise TableError("Say which choice: /move followed by its number from /hand.")
    if not legal:
        raise TableError("You have nothing to do right now.")
    if plain_int(text) is not None:
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
    await service.wait_resumed()  # bots whose turn it was have moved before the first line is read
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
