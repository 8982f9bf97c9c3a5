-- Ratings, seasons, rating history, admin log; results learn their mode and why they were unrated.
ALTER TABLE results ADD COLUMN mode TEXT NOT NULL DEFAULT 'online';
ALTER TABLE results ADD COLUMN unrated TEXT NOT NULL DEFAULT '[]';
ALTER TABLE result_players ADD COLUMN team INTEGER;

CREATE TABLE seasons (
    guild_id    TEXT NOT NULL,
    number      INTEGER NOT NULL,
    started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_by  TEXT,
    PRIMARY KEY (guild_id, number)
);

-- season 0 holds the all-time rating; season n >= 1 the rating within that season.
CREATE TABLE ratings (
    guild_id    TEXT NOT NULL,
    game        TEXT NOT NULL,
    season      INTEGER NOT NULL,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    ordinal     REAL NOT NULL,          -- mu - 3 sigma, the conservative figure shown
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, game, season, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, season, ordinal DESC);

CREATE TABLE rating_history (
    session_id  INTEGER NOT NULL REFERENCES results (session_id) ON DELETE CASCADE,
    guild_id    TEXT NOT NULL,
    game        TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    mu_before   REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history (guild_id, user_id, game, at);

CREATE TABLE admin_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    action      TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX results_guild_time ON results (guild_id, finished_at);
CREATE INDEX result_players_user_session ON result_players (user_id, session_id);
