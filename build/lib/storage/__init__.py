"""Persistence: sessions, action logs, results, ratings and statistics, in SQLite (aiosqlite) or
PostgreSQL (asyncpg) behind one interface (``storage/db.py``). Knows nothing of Discord."""
