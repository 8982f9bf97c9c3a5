-- The turn pings a table's Discord messages left up in its channel (JSON: message id -> who it
-- mentions and the log's length then; NULL: none), so that a process that takes over after a
-- restart or a crash takes each one down once its players have moved, and does not ping again
-- someone whose ping is still up.
ALTER TABLE sessions ADD COLUMN turn_pings TEXT;
