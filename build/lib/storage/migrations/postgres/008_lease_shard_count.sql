-- Each lease says how many shards its owner divides the servers into. Processes that disagree
-- would place a server on two different shards, so a process refuses to take a lease while a
-- live one names another count. Leases written before this column have no count (NULL).
ALTER TABLE shard_leases ADD COLUMN shard_count INTEGER;
