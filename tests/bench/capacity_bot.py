"""The bot process of ``bench_capacity``: Parlour as ``python -m bot`` runs it, talking to the
simulated Discord at the given address instead of discord.com (settings from the environment, as
in production: ``DISCORD_TOKEN``, ``PARLOUR_DB``, ``PARLOUR_DEV_GUILD``, ``PARLOUR_PICTURE_WORKERS``).

    python -m tests.bench.capacity_bot http://127.0.0.1:PORT [--profile FILE]

``--profile``: profile the CPU time of the process's main thread (its event loop) from start to stop and write
the statistics to FILE (pstats) when it stops (SIGTERM).
"""

from __future__ import annotations

import argparse
import cProfile
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
    args = parser.parse_args(argv)
    point_discord_py_at(args.url)
    settings = Settings()
    # CPU time of this thread, not wall time: on a busy machine a system call that lets another
    # process run would otherwise be charged with the time the bot was not running at all
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    if profiler is not None:
        profiler.enable()
    try:
        return run_bot(settings)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)


if __name__ == "__main__":
    sys.exit(main())
