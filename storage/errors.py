"""Storage's own exceptions: each backend turns its driver's errors into these at its boundary, so
that the rest of the bot names neither sqlite3 nor asyncpg."""

from __future__ import annotations


class StorageError(Exception):
    """Storage refused or could not do something; the message says what (and, for a database that
    cannot be used as configured, what to change). The subclasses below say which case it is."""


class DatabaseInUse(StorageError):
    """Another process holds the database."""


class StorageUnavailable(StorageError):
    """The database is not answering or cannot be written just now (its server is down or
    restarting, its disk is full, its file became read-only, its connection was closed): the
    statement that met this wrote nothing, and a transaction that met it was rolled back. Worth
    trying again in a moment."""


class NewerDatabase(StorageError):
    """The database was written by a newer Parlour: its schema is past this code's last migration."""


class Conflict(StorageError):
    """A write refused by a constraint of the tables, with nothing written: a unique key (a second
    open table in one channel, an action's number logged twice by a double click racing), or a
    foreign key (a row whose parent is missing). The transaction it met was rolled back."""
