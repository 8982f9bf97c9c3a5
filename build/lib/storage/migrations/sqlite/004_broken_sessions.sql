-- A session whose log no longer replays is marked 'broken' (its log kept for a bug report) and
-- frees its channel. SQLite cannot change a CHECK constraint in place: the table is rebuilt as
-- its documentation describes (new table, copy, drop, rename; foreign keys are off meanwhile).
CREATE TABLE sessions_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    host_id     TEXT NOT NULL,
    seats       TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    deck        TEXT,
    status      TEXT NOT NULL
                CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'cancelled', 'broken')),
    mode        TEXT NOT NULL DEFAULT 'online',
    message_id  TEXT,
    unrated     TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    broken_because TEXT                 -- why the session could not be restored
);
INSERT INTO sessions_new (id, guild_id, channel_id, game, options, host_id, seats, seed, deck, status,
                          mode, message_id, unrated, created_at, updated_at)
    SELECT id, guild_id, channel_id, game, options, host_id, seats, seed, deck, status,
           mode, message_id, unrated, created_at, updated_at FROM sessions;
CREATE TEMP TABLE old_sequence AS SELECT seq FROM sqlite_sequence WHERE name = 'sessions';
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
-- ids are never reused, even those of rows no longer here
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT seq FROM old_sequence), 0)) WHERE name = 'sessions';
DROP TABLE old_sequence;
CREATE UNIQUE INDEX sessions_open_channel ON sessions (guild_id, channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX sessions_status ON sessions (status);
