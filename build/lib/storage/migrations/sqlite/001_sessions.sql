-- Sessions (one table in one channel), their action logs, finished results and per-user flags.
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,          -- JSON of the game's Options
    host_id     TEXT NOT NULL,
    seats       TEXT NOT NULL,          -- JSON list of {user_id, name, bot}
    seed        INTEGER NOT NULL,
    deck        TEXT,                   -- JSON list of pack orders, or NULL for shuffled deals
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'cancelled')),
    mode        TEXT NOT NULL DEFAULT 'online',
    message_id  TEXT,                   -- the transport's table message
    unrated     TEXT NOT NULL DEFAULT '[]',  -- JSON list of reasons this match is not rated
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- At most one open table per channel.
CREATE UNIQUE INDEX sessions_open_channel ON sessions (guild_id, channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX sessions_status ON sessions (status);

CREATE TABLE actions (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,       -- 0-based; equals the game's turn before the action
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL,          -- JSON of the action
    actor_id    TEXT,                   -- who clicked (NULL for a bot seat)
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session_id, seq)
);

CREATE TABLE results (
    session_id  INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    guild_id    TEXT NOT NULL,
    game        TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    outcome     TEXT NOT NULL           -- JSON of the game's Outcome
);
CREATE INDEX results_guild_game ON results (guild_id, game, finished_at);

CREATE TABLE result_players (
    session_id  INTEGER NOT NULL REFERENCES results (session_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     TEXT,                   -- NULL for a bot or a guest
    name        TEXT NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    PRIMARY KEY (session_id, seat)
);
CREATE INDEX result_players_user ON result_players (user_id);

CREATE TABLE dm_closed (
    user_id     TEXT PRIMARY KEY,
    noted_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE guild_settings (
    guild_id    TEXT PRIMARY KEY,
    settings    TEXT NOT NULL           -- JSON of bot.settings.GuildSettings
);
