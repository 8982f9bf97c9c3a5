"""Drawing pictures away from the event loop, on every core.

A picture is a pure function of its layout (plain frozen data, picklable) and whether it is drawn
compact: :func:`draw` is that function. Pillow holds the interpreter lock while it draws, so
threads of one process draw one picture at a time (measured: two threads draw no faster than
one); :class:`Drawer` with ``workers`` > 0 runs :func:`draw` in that many processes instead, each
with its own caches of card faces and words, so the event loop only pickles a layout and reads
back the PNG. With ``workers`` = 0 it draws in a thread of this process (tests, a one-core machine).

The workers are fed by the event loop itself, one picture at a time each, over a pipe per worker
watched by the loop (no helper threads in the bot's process: concurrent.futures' process pool
moved every picture through two threads of its own, and their turns at the interpreter lock cost
the loop about a millisecond a picture). Pictures waiting for a worker wait in order, except that
one a click's answer waits for (``urgent``) goes before the others. A worker that dies is
replaced and the picture it was drawing is drawn here instead; after
:data:`CRASHES_BEFORE_GIVING_UP` deaths (or when no worker can be started) the process draws its
own pictures from then on. A worker that has not answered within its :data:`DEADLINE` is killed
and replaced, and its picture fails (:class:`PictureOverdue`): the message goes out without it,
and it is not drawn again here, where it might hang the bot itself.

The adapter draws through :func:`drawer`, the process's one drawer, set up by :func:`configure`.

Its length (over 400 lines): the worker's life (start, feed, deadline, death, replacement, giving
up) is one piece of state the loop owns; split across modules, each half would reach into the other's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import io
import logging
import multiprocessing
import os
import pickle
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bot.render.pictures import picture
from games.layout import Layout

log = logging.getLogger(__name__)

CRASHES_BEFORE_GIVING_UP = 3
"""Worker deaths after which pictures are drawn in this process for good."""
DEADLINE = 12.0
"""Seconds a worker may take over one picture before it is killed and the picture given up."""
KEPT = 256
"""Pictures remembered by layout in this process (a refreshed message, another viewer)."""


def draw(layout: Layout, compact: bool = False) -> bytes:
    """The PNG of ``layout``, drawn in whichever process calls it."""
    return picture(layout, compact)


def default_workers() -> int:
    """One drawing process per core."""
    return os.cpu_count() or 1


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type) -> tuple[str, ...] | None:
    """The fields of a frozen dataclass with slots and no pickling of its own (a layout's parts,
    not a card, which pickles as the one object of its kind), else ``None``."""
    try:
        return _FIELDS[cls]
    except KeyError:
        pass
    params = getattr(cls, "__dataclass_params__", None)
    plain = cls.__reduce__ is object.__reduce__ and cls.__reduce_ex__ is object.__reduce_ex__
    names = (
        tuple(f.name for f in dataclasses.fields(cls))
        if params is not None and params.frozen and "__slots__" in cls.__dict__ and plain
        else None
    )
    _FIELDS[cls] = names
    return names


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    """A frozen dataclass with slots from its fields' values, as pickle's own restore does it."""
    made: Any = object.__new__(cls)
    for name, value in zip(_fields_of(cls) or (), values, strict=True):
        object.__setattr__(made, name, value)
    return made


class _LayoutPickler(pickle.Pickler):
    """Pickles a layout's parts by their fields' values in one step each, where the default asks
    the dataclass for its fields again at every part (measured: 36 us for a Spec table, where
    multiprocessing's own pickler took 59)."""

    def reducer_override(self, obj: Any) -> Any:
        names = _fields_of(type(obj))
        if names is None:
            return NotImplemented
        return _rebuild, (type(obj), tuple(getattr(obj, name) for name in names))


def dumps(value: Any) -> bytes:
    """``value`` pickled as it travels to a worker (:func:`pickle.loads` reads it back)."""
    out = io.BytesIO()
    _LayoutPickler(out, pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


def _described(exc: BaseException) -> RuntimeError:
    """An error as plain text, for one that cannot travel or be raised as it is."""
    try:
        return RuntimeError(repr(exc))
    except Exception:  # a repr that fails in its turn
        return RuntimeError(type(exc).__name__)


def _serve(conn: Connection) -> None:
    """A worker: draw each (layout, compact) received, send back the PNG or the error. What its
    start-up made (some 35,000 objects: modules, the games' tables) and what its caches keep
    (faces, strips, lines of text: tens of thousands more) lives long, so it is taken out of the
    garbage collector's generations at the start and after each picture (``gc.freeze`` is a list
    splice; the caches hold no reference cycles, so what they let go is still freed): a full
    collection over them took 4-6 ms of CPU inside whichever picture it fell in, the slowest
    pictures of a benchmark run (the bot's own process freezes after start-up too,
    :func:`bot.service.restore.settle_memory`). Every picture gets an answer, so one bad
    layout never costs a worker."""
    gc.collect()
    gc.freeze()
    while True:
        try:
            received = conn.recv_bytes()
        except (EOFError, OSError):  # the bot closed the pipe: stop
            return
        reply: tuple[bool, bytes | Exception]
        try:
            work, args = pickle.loads(received)  # work None: a picture of a layout
            reply = (True, (work or draw)(*args))
        except Exception as exc:  # a picture that cannot be read or drawn is the bot's to report
            reply = (False, exc)
        gc.freeze()
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an error that cannot travel (pickle raises several kinds): say what it was
            value = reply[1]
            conn.send((False, _described(value if isinstance(value, Exception) else exc)))


@dataclass
class _Job:
    work: Callable[..., bytes] | None
    """What the worker runs: ``None`` for :func:`draw` (a picture of a layout), else a module's
    own function (it travels by name)."""
    args: tuple[Any, ...]
    future: asyncio.Future[bytes]


@dataclass
class _Worker:
    process: Any  # multiprocessing's SpawnProcess
    conn: Connection
    job: _Job | None = None
    timer: asyncio.TimerHandle | None = None


class Drawer:
    """Draws pictures in ``workers`` other processes, or in a thread of this one (``workers`` = 0)."""

    def __init__(self, workers: int = 0, deadline: float = DEADLINE) -> None:
        self.workers = workers
        self.deadline = deadline
        self.crashes = 0
        self._pooled = workers > 0
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._waiting: deque[_Job] = deque()
        self._urgent: deque[_Job] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._kept: OrderedDict[tuple[Layout, bool], bytes] = OrderedDict()

    @property
    def pooled(self) -> bool:
        """Whether pictures are drawn in other processes now."""
        return self._pooled

    def pids(self) -> list[int]:
        """The worker processes' ids (started on first use)."""
        return [w.process.pid for w in self._all]

    async def png(self, layout: Layout, compact: bool = False, urgent: bool = False) -> bytes:
        """The PNG of ``layout``, drawn while the event loop serves others; ``urgent``: someone
        waits for it now (a click's answer), so it goes before pictures that wait for a worker."""
        if not self._pooled:
            return await asyncio.to_thread(draw, layout, compact)
        key: tuple[Layout, bool] | None = (layout, compact)
        try:
            kept = self._kept.get((layout, compact))
        except TypeError:  # unhashable (a game's hook built a list where a tuple belongs)
            key, kept = None, None
        if kept is not None and key is not None:
            self._kept.move_to_end(key)
            return kept
        if not self._started():
            return await asyncio.to_thread(draw, layout, compact)
        try:
            data = await self._in_worker(None, (layout, compact), urgent)
        except _WorkerDied:
            return await asyncio.to_thread(draw, layout, compact)
        if key is not None:
            self._kept[key] = data
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return data

    async def call(self, work: Callable[..., bytes], *args: Any) -> bytes:
        """``work(*args)`` drawn as a picture is (in a worker, or in a thread of this process
        without workers), after the pictures already waiting: a picture that is no layout (the
        score chart, matplotlib's: a tenth of a second and more of CPU). ``work`` is a function
        of a module (it travels by name) and ``args`` pickle."""
        if self._pooled and self._started():
            try:
                return await self._in_worker(work, args, False)
            except (_WorkerDied, _CannotTravel):  # done here instead
                pass
        return await asyncio.to_thread(work, *args)

    def _started(self) -> bool:
        """Workers for this event loop, started on first use; ``False`` once none can be."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # first use, or a new event loop (tests): fresh workers
            self._stop_workers()
            self._fail_queued()  # the old loop's pictures: their loop is gone
            self._loop = loop
            self._start_workers(self.workers)
            if not self._all:
                self._give_up("no picture worker could be started")
                return False
        return True

    async def _in_worker(self, work: Callable[..., bytes] | None, args: tuple[Any, ...], urgent: bool) -> bytes:
        assert self._loop is not None
        job = _Job(work, args, self._loop.create_future())
        (self._urgent if urgent else self._waiting).append(job)
        self._feed()
        return await job.future

    # -- the workers -------------------------------------------------------------------------------

    def _start_workers(self, count: int) -> None:
        """Start up to ``count`` workers; one that cannot be started (no file descriptors or
        memory left) is logged and leaves nothing open."""
        context = multiprocessing.get_context("spawn")  # a forked worker would inherit the loop and sockets
        for _ in range(count):
            opened: list[Connection] = []
            try:
                mine, theirs = context.Pipe(duplex=True)
                opened = [mine, theirs]
                process = context.Process(target=_serve, args=(theirs,), daemon=True, name="parlour-pictures")
                process.start()
            except Exception:
                log.exception("a picture worker could not be started")
                for conn in opened:
                    conn.close()
                return
            theirs.close()
            worker = _Worker(process, mine)
            self._all.append(worker)
            self._idle.append(worker)
            assert self._loop is not None
            self._loop.add_reader(mine.fileno(), self._answered, worker)

    def _feed(self) -> None:
        """Give waiting pictures to idle workers (one each), urgent ones first. A layout that
        cannot be pickled fails its picture and takes no worker."""
        while self._idle and (self._urgent or self._waiting):
            job = (self._urgent or self._waiting).popleft()
            if job.future.done():  # its waiter gave up (cancelled)
                continue
            try:
                payload = dumps((job.work, job.args))
            except Exception as exc:  # pickle raises several kinds (a local object: AttributeError)
                job.future.set_exception(exc if job.work is None else _CannotTravel(repr(exc)))
                continue
            worker = self._idle.pop()
            worker.job = job
            try:
                worker.conn.send_bytes(payload)  # the worker waits in recv: the pipe drains
            except (OSError, ValueError):
                self._died(worker)
                continue
            assert self._loop is not None
            worker.timer = self._loop.call_later(self.deadline, self._overdue, worker, job)

    def _answered(self, worker: _Worker) -> None:
        """The worker's pipe is readable: its picture (or its end)."""
        ok: bool
        value: Any
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._died(worker)
            return
        except Exception as exc:  # an answer that cannot be read here (an error class that won't unpickle)
            ok, value = False, _described(exc)
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        job, worker.job = worker.job, None
        self._idle.append(worker)
        if job is not None and not job.future.done():
            if ok:
                job.future.set_result(value)
            elif isinstance(value, Exception) and not isinstance(value, StopIteration):
                job.future.set_exception(value)
            else:  # a future refuses StopIteration (TypeError), and a non-Exception is no error to raise
                job.future.set_exception(
                    _described(value) if isinstance(value, BaseException) else RuntimeError(repr(value))
                )
        self._feed()

    def _overdue(self, worker: _Worker, job: _Job) -> None:
        """A worker still on ``job`` at its deadline: killed and replaced, its picture given up
        (not drawn here: whatever hung the worker could hang the bot)."""
        worker.timer = None
        if worker not in self._all or worker.job is not job:
            return
        log.warning(
            "a picture worker took over %.0f s; killed (the message goes out without its picture)",
            self.deadline,
        )
        worker.job = None
        self._forget(worker)
        if not job.future.done():
            job.future.set_exception(PictureOverdue(f"no picture within {self.deadline:g} s"))
        self._replace()

    def _died(self, worker: _Worker) -> None:
        """A worker died: its picture is drawn here, and it is replaced (or, after too many deaths,
        every picture is drawn here from now on)."""
        if worker not in self._all:
            return
        self._forget(worker)
        job, worker.job = worker.job, None
        if job is not None and not job.future.done():
            job.future.set_exception(_WorkerDied())
        self.crashes += 1
        if self.crashes >= CRASHES_BEFORE_GIVING_UP:
            self._give_up(f"a picture worker died {self.crashes} times")
            return
        log.warning("a picture worker died; starting another (its picture is drawn here)")
        self._replace()

    def _replace(self) -> None:
        """Start a worker in place of one gone, then feed the waiting pictures; with no worker
        left (none could be started) pictures are drawn here."""
        self._start_workers(1)
        if not self._all:
            self._give_up("no picture worker could be started")
            return
        self._feed()

    def _give_up(self, why: str) -> None:
        """Draw every picture in this process from now on: those being drawn or waiting are
        drawn here (their workers were healthy, or gone: either way not the layout's fault)."""
        log.error("%s: pictures are drawn in this process from now on", why)
        self._pooled = False
        self._stop_workers()
        self._fail_queued()

    def _fail_queued(self) -> None:
        """Pictures waiting for a worker are drawn by their callers instead."""
        for waiting in (*self._urgent, *self._waiting):
            _fail(waiting.future)
        self._urgent.clear()
        self._waiting.clear()

    def _forget(self, worker: _Worker) -> None:
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(OSError, ValueError):  # a pipe already closed
                self._loop.remove_reader(worker.conn.fileno())
        self._all.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=1)

    def _stop_workers(self) -> None:
        """Stop every worker; the pictures they were drawing are drawn by their callers (never
        cancelled: a caller's ``except Exception`` would not see it)."""
        for worker in list(self._all):
            job, worker.job = worker.job, None
            if job is not None:
                _fail(job.future)
            self._forget(worker)

    def close(self) -> None:
        """Stop the workers; pictures being drawn or waiting are drawn by their callers here."""
        self._stop_workers()
        self._fail_queued()
        self._pooled = False


class _WorkerDied(Exception):
    """The picture's worker died before sending it back."""


class _CannotTravel(Exception):
    """A call's function or arguments cannot be pickled to a worker (it is done here instead)."""


class PictureOverdue(TimeoutError):
    """A picture's worker did not answer within the deadline (it was killed)."""


def _fail(future: asyncio.Future[bytes]) -> None:
    """Tell ``future``'s waiter to draw the picture itself, unless it is settled or its event
    loop is gone (a test's loop, closed)."""
    if not future.done():
        with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
            future.set_exception(_WorkerDied())


_drawer = Drawer(0)


def drawer() -> Drawer:
    """The process's drawer (drawing in a thread until :func:`configure` says otherwise)."""
    return _drawer


def configure(workers: int | None) -> Drawer:
    """Draw with ``workers`` processes from now on (``None``: one per core; 0: in a thread here).
    A drawer already of that size is kept, so bots sharing a process share its workers."""
    global _drawer
    count = default_workers() if workers is None else workers
    if count != _drawer.workers or (count > 0 and not _drawer.pooled):
        _drawer.close()
        _drawer = Drawer(count)
    return _drawer
