"""``python -m bot``: the Discord bot when ``DISCORD_TOKEN`` is set, else the local console.

    python -m bot                 run (Discord with a token; without one, the console at a terminal)
    python -m bot console [FILE]  the console, reading FILE (or stdin) one message per line
    python -m bot sync [--guild ID]  register the slash commands (globally, or in one guild)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings, settings_problem
from storage.db import StorageError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Parlour, the card-game referee.")
    sub = parser.add_subparsers(dest="command")
    con = sub.add_parser("console", help="the offline console")
    con.add_argument("file", nargs="?", help="read messages from this file instead of stdin")
    sync = sub.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None, help="only in this guild (instant, for development)")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"Parlour cannot start: {settings_problem(exc)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    wants_discord = args.command == "sync" or (args.command is None and not _at_a_terminal())
    if wants_discord or (args.command is None and settings.discord_token):
        if not settings.discord_token:
            # as a service (no terminal) an empty token is a mistake, not a wish for the console
            print(
                "Parlour cannot start: DISCORD_TOKEN is empty or not set; put the bot's token in the "
                "environment or .env (for the offline console, run it at a terminal or use "
                "`python -m bot console`).",
                file=sys.stderr,
            )
            return 2
        from bot.discord.client import run_bot

        return run_bot(settings, sync_only=args.command == "sync", sync_guild=getattr(args, "guild", None))

    from bot.console import is_terminal, run_console, run_terminal

    try:
        source = open(args.file, encoding="utf-8") if getattr(args, "file", None) else sys.stdin  # noqa: SIM115
    except OSError as exc:
        print(f"Parlour cannot read {args.file}: {exc.strerror}.", file=sys.stderr)
        return 2
    try:
        if is_terminal(source):  # a person typing: a prompt with editing, and Ctrl-C quits at once
            run_terminal(settings.database_target)
        else:
            asyncio.run(run_console(settings.database_target, source))
    except StorageError as exc:
        print(f"Parlour cannot start: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        if source is not sys.stdin:
            source.close()
    return 0


def _at_a_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    raise SystemExit(main())
