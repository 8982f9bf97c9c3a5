-- What a process that stops or crashes leaves in a table's channel, for the next one to take over.
-- turn_pings: the turn pings its Discord messages left up (JSON: message id -> who it mentions and
-- the log's length then; NULL: none), taken down once their players have moved, and nobody pinged
-- twice. shown_turn: the turn the table message last showed (written after each post or edit); a
-- table whose log is longer was left behind by a crash between a move and its message's edit, and
-- is shown again at start-up. Tables open now with a message count as shown (NULL: no message
-- notes what it shows, as at the console, and nothing is shown again).
ALTER TABLE sessions ADD COLUMN turn_pings TEXT;
ALTER TABLE sessions ADD COLUMN shown_turn INTEGER;
UPDATE sessions SET shown_turn = (SELECT COUNT(*) FROM actions a WHERE a.session_id = sessions.id)
WHERE status IN ('lobby', 'playing') AND message_id IS NOT NULL;
