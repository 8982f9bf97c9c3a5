-- The live table in a sharded bot: each lease names the path prefix where the reverse proxy
-- reaches its owner's web server (NULL: it runs none), so a page that reached another process is
-- sent there. And a table keeps the id of the Discord Activity instance launched for it (NULL:
-- none), so that an instance maps to its table after a restart too.
ALTER TABLE shard_leases ADD COLUMN web_prefix TEXT;
ALTER TABLE sessions ADD COLUMN activity_instance TEXT;
CREATE INDEX sessions_activity_instance ON sessions (activity_instance) WHERE activity_instance IS NOT NULL;
