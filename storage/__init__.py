"""Persistence in SQLite through aiosqlite: sessions, action logs, results. Knows nothing of Discord."""
