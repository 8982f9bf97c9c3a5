"""A throwaway PostgreSQL server for the tests, started from the installed server's own programs.

``initdb`` makes a cluster in a fresh temporary folder and ``pg_ctl`` starts it listening on a
Unix socket in that folder only (no TCP port, so nothing on the machine can clash with it), with
durability turned off (it is thrown away). PostgreSQL refuses to run as root: under root the
cluster belongs to the ``postgres`` user that Debian's package creates (or ``nobody``), and its
programs run through ``runuser``. Each test then gets a database of its own on that server.

    server = PostgresServer.find()      # None when no PostgreSQL is installed
    server.start()
    url = server.url("some_database")   # postgresql://postgres@/some_database?host=...
    server.stop()
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = "no PostgreSQL server is installed (on Debian: apt-get install -y postgresql)"


def _version_key(path: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path)) or (0,)


def find_bindir() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: ``PARLOUR_TEST_PG_BINDIR`` when it is
    set (``PARLOUR_TEST_PG_BINDIR=none`` runs the tests as if no server were installed), else
    Debian's newest ``/usr/lib/postgresql/<version>/bin``, else wherever ``PATH`` finds initdb."""
    wanted = os.environ.get("PARLOUR_TEST_PG_BINDIR")
    if wanted is not None:
        candidates = [wanted]
    else:
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
        on_path = shutil.which("initdb")
        if on_path:
            candidates.append(str(Path(os.path.realpath(on_path)).parent))
    for folder in candidates:
        if all((Path(folder) / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


class PostgresServer:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root: Path | None = None
        self.options = ""
        """The server's command-line options (its socket, durability), kept for a restart."""
        self.run_as: str | None = None
        """The user the server runs as, when this process is root (PostgreSQL refuses root)."""

    @classmethod
    def find(cls) -> PostgresServer | None:
        bindir = find_bindir()
        return cls(bindir) if bindir else None

    @property
    def socket_dir(self) -> Path:
        assert self.root is not None
        return self.root / "socket"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.root)
        if done.returncode != 0:
            log = self.root / "server.log" if self.root else None
            tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr or done.stdout}{tail}")

    def start(self, *, durable: bool = False) -> None:
        """Start the server; ``durable`` keeps PostgreSQL's own settings for writing to disk (a
        benchmark's figures should be a real server's), where the tests turn them off."""
        # /tmp: short enough for a socket's path (about 100 characters at most), and a folder the
        # server's user may pass through when this process is root and TMPDIR is root's own
        self.root = Path(tempfile.mkdtemp(prefix="parlour-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.socket_dir.mkdir()
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            import pwd

            self.run_as = "postgres" if _user_exists("postgres") else "nobody"
            account = pwd.getpwnam(self.run_as)
            for folder in (self.root, self.socket_dir):
                os.chown(folder, account.pw_uid, account.pw_gid)
        data = self.root / "data"
        self.options = " ".join([
            f"-k {self.socket_dir}",
            "-c listen_addresses=''",
            *([] if durable else ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
            "-c max_connections=200",
        ])  # fmt: skip
        try:
            self._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
            self.resume()
        except BaseException:
            self.stop()
            raise

    def pause(self) -> None:
        """Stop the server as an operator would (``pg_ctl stop -m fast``: clients are cut off,
        what committed is kept); :meth:`resume` starts it again on the same data."""
        assert self.root is not None
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "-t", "60", "stop")

    def resume(self) -> None:
        assert self.root is not None
        data = self.root / "data"
        self._run("pg_ctl", "-D", str(data), "-l", str(self.root / "server.log"), "-w", "-t", "60", "start", "-o", self.options)

    def restart(self) -> None:
        """A restart of the server, as after an upgrade or a crash: every connection ends, and with
        it every session's advisory locks; the tables are kept."""
        self.pause()
        self.resume()

    def stop(self) -> None:
        if self.root is None:
            return
        if (self.root / "data" / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def url(self, database: str = "postgres") -> str:
        # the socket folder in the query string: libpq's and asyncpg's way to name a Unix socket
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
