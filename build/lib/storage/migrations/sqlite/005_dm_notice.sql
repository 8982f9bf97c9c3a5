-- Whether a player whose DMs are closed has been told so (the notice may fail; it is tried again
-- at the next deal, also after a restart). Players recorded before this column were told.
ALTER TABLE dm_closed ADD COLUMN told INTEGER NOT NULL DEFAULT 1;
