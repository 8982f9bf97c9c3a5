-- Referee mode: confirmation of entries, and a log of every entry, confirmation, undo and correction.
ALTER TABLE actions ADD COLUMN confirmed_by TEXT;

CREATE TABLE entry_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('confirm', 'undo', 'correct')),
    action      TEXT,                   -- JSON: the entry removed or the corrected entry
    previous    TEXT,                   -- JSON: what a correction replaced
    by_user     TEXT NOT NULL,
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX entry_log_session ON entry_log (session_id, seq);
