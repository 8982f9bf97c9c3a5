"""Layouts that go wrong in a picture worker in chosen ways (tests/bot/test_picture_pool.py).

They live in a module of their own so that a worker process can import them to read them back."""

from __future__ import annotations

from typing import Any


class _Failing:
    """A layout whose drawing fails: any field the picture asks for raises :meth:`error`."""

    def error(self) -> BaseException:
        raise NotImplementedError

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # pickle's own questions (``__setstate__``...)
            raise AttributeError(name)
        raise self.error()


class StopsIteration(_Failing):
    """Drawing raises StopIteration, which an asyncio future refuses to hold."""

    def error(self) -> BaseException:
        return StopIteration()


class RaisesUnsendable(_Failing):
    """Drawing raises an error holding a local function: it cannot be pickled back to the bot."""

    def error(self) -> BaseException:
        def local() -> None:
            pass

        return ValueError(local)


class NeedsTwo(Exception):
    """An error that pickles but cannot be unpickled (its class wants two arguments)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(first + second)


class RaisesUnreadable(_Failing):
    """Drawing raises :class:`NeedsTwo`: the worker sends it, the bot cannot read it back."""

    def error(self) -> BaseException:
        return NeedsTwo("a", "b")


class Unloadable:
    """Pickles, but reading it back fails in the worker (ValueError)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return int, ("not a number",)
