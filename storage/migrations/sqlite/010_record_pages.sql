-- The pages of record (a server's leaderboards and players on the web). Whether a server shows
-- them, and whether with members' names, are server settings (guild_settings' JSON); this table
-- keeps what the pages need besides: a secret per server from which each player's neutral label
-- ("Player 4821") and page address are derived, so that neither gives away a Discord id (a label
-- hashed from the id alone could be matched against a server's member list), and the server's
-- name as last seen by an admin turning the pages on.
CREATE TABLE record_pages (
    guild_id    TEXT PRIMARY KEY,
    secret      TEXT NOT NULL,
    guild_name  TEXT
);
