"""Benchmark (not a test): how soon a Parlour process notices that a PostgreSQL restart took its
database lock, and how soon it holds it again.

    .venv/bin/python -m tests.bench.bench_lock_retake            # 5 stops and starts
    .venv/bin/python -m tests.bench.bench_lock_retake --rounds 20

On a throwaway server, one unsharded ``tests.shard_process`` runs; the server is stopped
(``pg_ctl stop -m fast``) and started again, ``--rounds`` times. Printed: the seconds from the
stop's return until the process says its lock is gone (asyncpg's termination listener), and from
the start's return until it holds it again (it tries every ``LOCK_RETRY_SECONDS``). Its lease,
which fences its writes, is kept through each restart.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.postgres_server import INSTALL_HINT, PostgresServer
from tests.shard_process import ShardProcess


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_lock_retake")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    server = PostgresServer.find()
    if server is None:
        raise SystemExit(INSTALL_HINT)
    server.start()
    noticed: list[float] = []
    retaken: list[float] = []
    try:
        process = ShardProcess(server.url("postgres"), lease=30.0)
        for _ in range(args.rounds):
            server.pause()
            stopped = time.monotonic()
            while process.ask(op="claim")["lock"]:
                time.sleep(0.005)
            noticed.append(time.monotonic() - stopped)
            server.resume()
            started = time.monotonic()
            while process.ask(op="claim")["retaken"] < len(retaken) + 1:
                time.sleep(0.005)
            retaken.append(time.monotonic() - started)
        assert process.ask(op="claim")["shards"] == [0]  # the lease was kept throughout
        process.quit()
    finally:
        server.stop()
    for name, values in (("lock found gone after the stop", noticed), ("lock held again after the start", retaken)):
        print(f"{name}: median {statistics.median(values):.3f} s, max {max(values):.3f} s over {len(values)}")


if __name__ == "__main__":
    main()
