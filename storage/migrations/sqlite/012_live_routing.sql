-- A table keeps the id of the Discord Activity instance launched for it (NULL: none), so that an
-- instance maps to its table after a restart too. (PostgreSQL's 012 also gives its shard leases
-- the owner's web prefix; a SQLite file has one process and no leases.)
ALTER TABLE sessions ADD COLUMN activity_instance TEXT;
CREATE INDEX sessions_activity_instance ON sessions (activity_instance) WHERE activity_instance IS NOT NULL;
