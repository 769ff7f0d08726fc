"""The store: the move log and its group commit, SQLite or PostgreSQL, shards and leases, the hash chain, its tools."""
