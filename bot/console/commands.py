"""The console's commands: a typed line read as a player's message, parsed and carried out on
the table service."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from bot.numbers import plain_int
from bot.render.text import (
    choices_summary,
    numbered_actions,
    players_text,
    private_text,
    table_lines,
)
from bot.service.model import TableError, User
from bot.service.records import finished_match, record_from_json
from bot.service.registry import UNAVAILABLE
from bot.tables import TableService
from games.engine import Action, IllegalAction, SetupError
from games.notation import read_action, read_choice
from games.registry import all_games, get_game
from storage.db import StorageUnavailable

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
            self.write("\n".join((await s.analyse(GUILD, CHANNEL, user, deal, match_id)).lines()))
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
            elif key in SWITCHES:
                if value not in ("on", "off"):
                    raise TableError(f"{key}= takes on or off, not {value!r}: nothing was changed.")
                setattr(change, SWITCHES[key], value == "on")
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


SWITCHES = {"dms": "dms_enabled", "confirmation": "referee_confirmation", "pages": "pages", "names": "page_names"}
"""``/settings`` switches (``key=on|off``) and the :class:`~bot.admin.SettingsChange` field each sets."""


def _number(args: Sequence[str], what: str) -> int:
    number = plain_int(args[0]) if args else None
    if number is None:
        if args and args[0].strip().isascii() and args[0].strip().isdigit() and what.endswith(" number"):
            noun = what.removeprefix("a ").removeprefix("an ").removesuffix(" number")
            raise TableError(f"There is no {noun} {args[0].strip()[:12]}... (that number is far too long).")
        raise TableError(f"Give {what}" + (f": '{args[0][:20]}' is not one." if args else "."))
    return number
