"""The bot process of ``bench_capacity``: Parlour as ``python -m bot`` runs it, talking to the
simulated Discord at the given address instead of discord.com (settings from the environment, as
in production: ``DISCORD_TOKEN``, ``PARLOUR_DB``, ``PARLOUR_DEV_GUILD``, ``PARLOUR_PICTURE_WORKERS``).

    python -m tests.bench.capacity_bot http://127.0.0.1:PORT [--profile FILE] [--picture-wait S]

``--profile``: profile the CPU time of the process's main thread (its event loop) from start (or
from the last SIGUSR1) to stop and write the statistics to FILE (pstats) when it stops (SIGTERM). ``--picture-wait``: seconds a click's
answer waits for its picture (``bot.discord.play.PICTURE_WAIT``; 0: every click answered at once,
the picture in an edit), to measure that choice.
"""

from __future__ import annotations

import argparse
import cProfile
import signal
import sys
import time
from collections.abc import Sequence

from bot.discord.client import run_bot
from bot.settings import Settings
from tests.bench.simdiscord import point_discord_py_at


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("url", help="the simulated Discord, http://host:port")
    parser.add_argument("--profile", default=None, help="write the main thread's profile here on stop")
    parser.add_argument("--picture-wait", type=float, default=None, help="seconds an answer waits for its picture")
    args = parser.parse_args(argv)
    point_discord_py_at(args.url)
    if args.picture_wait is not None:
        from bot.discord import play

        play.PICTURE_WAIT = args.picture_wait
    settings = Settings()
    # CPU time of this thread, not wall time: on a busy machine a system call that lets another
    # process run would otherwise be charged with the time the bot was not running at all
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    if profiler is not None:
        # SIGUSR1 starts the count again: the benchmark sends it as a step's clicking starts, so
        # the profile is of the last step alone, not of the start-up and the tables' seating
        signal.signal(signal.SIGUSR1, lambda *_: profiler.clear())
        profiler.enable()
    try:
        return run_bot(settings)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)


if __name__ == "__main__":
    sys.exit(main())
