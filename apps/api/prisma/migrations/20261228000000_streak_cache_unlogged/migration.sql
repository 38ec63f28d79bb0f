-- The shared streak cache holds copies of the indexer's answers, each written by an uncached read. As a logged table
-- every such read was a commit that waited for the WAL to reach the disk. Unlogged, its writes skip the WAL: a crash
-- of PostgreSQL empties the table (and a standby does not carry it), which a cache can afford; it refills from the
-- indexer on the next reads.
ALTER TABLE "streak_cache" SET UNLOGGED;
