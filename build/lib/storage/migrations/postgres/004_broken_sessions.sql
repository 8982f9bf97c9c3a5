-- A session whose log no longer replays is marked 'broken' (its log kept for a bug report) and
-- frees its channel. PostgreSQL changes the CHECK constraint in place (SQLite rebuilds the table).
ALTER TABLE sessions DROP CONSTRAINT sessions_status_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_status_check
    CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'cancelled', 'broken'));
ALTER TABLE sessions ADD COLUMN broken_because TEXT;  -- why the session could not be restored
