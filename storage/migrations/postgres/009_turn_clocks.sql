-- When a table's turn clock was last known to run (a Unix time, noted by the bot every few
-- seconds while the table is in play and at shutdown): after a restart the clock goes on from
-- there, so the downtime does not count as a player's thinking time. NULL: never noted.
ALTER TABLE sessions ADD COLUMN clock_at DOUBLE PRECISION;
