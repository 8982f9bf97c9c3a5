-- When a table's turn clock was last known to run (a Unix time, noted by the bot every few
-- seconds while the table is in play and at shutdown): after a restart the clock goes on from
-- there, so the downtime does not count as a player's thinking time. NULL: never noted.
ALTER TABLE sessions ADD COLUMN clock_at DOUBLE PRECISION;

-- A table's position at its latest deal start (online mode), so that a restart replays only the
-- actions after it. ``format`` names the game code that wrote it: a snapshot of other code is
-- not used (the log is replayed in full instead).
CREATE TABLE snapshots (
    session_id  BIGINT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,       -- how many actions of the log it holds
    format      TEXT NOT NULL,
    state       BYTEA NOT NULL
);
