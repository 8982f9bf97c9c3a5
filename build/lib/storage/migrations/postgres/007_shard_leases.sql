-- Who owns each shard of a sharded bot: one row per shard, its owner (a process) and when its
-- lease lapses. The owner renews it while alive; once it has lapsed another process may take it.
-- Times are the database's clock (timestamptz), so processes on several machines agree.
CREATE TABLE shard_leases (
    shard       INTEGER PRIMARY KEY,
    owner       TEXT NOT NULL,
    taken_at    TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    expires_at  TIMESTAMPTZ NOT NULL
);
