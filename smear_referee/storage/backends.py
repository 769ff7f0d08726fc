"""The databases a Store can sit on: an SQLite file (the embedded default) or PostgreSQL.

Both are driven with the same SQL, written with `?` placeholders (PostgreSQL's driver gets
`%s`), in autocommit mode with explicit BEGIN/COMMIT, so store.py's group commit and its
savepoints work the same on each. Each backend also makes sure one server at a time uses a
database: a lock file beside the SQLite file, a session advisory lock on PostgreSQL.
"""
from __future__ import annotations

import sqlite3
import time
from typing import Any

from smear_dsl.errors import SmearError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, rules_name TEXT NOT NULL, rules_text TEXT, players INTEGER NOT NULL,
    options_json TEXT NOT NULL, seed TEXT NOT NULL, first_dealer INTEGER NOT NULL, created REAL NOT NULL,
    duplicate INTEGER NOT NULL DEFAULT 0, hand_limit INTEGER NOT NULL DEFAULT 0, seal TEXT);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY, table_id TEXT NOT NULL, role TEXT NOT NULL, seat INTEGER, name TEXT);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL, version INTEGER NOT NULL, seat INTEGER NOT NULL, code TEXT NOT NULL, idem TEXT,
    digest TEXT, PRIMARY KEY (table_id, version));
CREATE UNIQUE INDEX IF NOT EXISTS moves_idem ON moves (table_id, idem) WHERE idem IS NOT NULL;
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL, state_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, config_json TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    tournament_id TEXT NOT NULL, round INTEGER NOT NULL, seed TEXT NOT NULL, tables_json TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round));
CREATE TABLE IF NOT EXISTS audit (
    tournament_id TEXT NOT NULL, seq INTEGER NOT NULL, entry_json TEXT NOT NULL, PRIMARY KEY (tournament_id, seq));
CREATE TABLE IF NOT EXISTS requests (
    scope TEXT NOT NULL, key_hash TEXT NOT NULL, digest TEXT NOT NULL, salt TEXT NOT NULL, answer_json TEXT NOT NULL,
    created REAL NOT NULL, PRIMARY KEY (scope, key_hash));
CREATE TABLE IF NOT EXISTS tournament_tips (
    tournament_id TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, proof TEXT NOT NULL,
    PRIMARY KEY (tournament_id, kind));
CREATE TABLE IF NOT EXISTS clubs (id TEXT PRIMARY KEY, name TEXT NOT NULL, config_json TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS club_members (
    club_id TEXT NOT NULL, member INTEGER NOT NULL, name TEXT NOT NULL, joined REAL NOT NULL, left_at REAL,
    PRIMARY KEY (club_id, member));
CREATE TABLE IF NOT EXISTS club_seasons (
    club_id TEXT NOT NULL, season INTEGER NOT NULL, opened REAL NOT NULL, closed REAL, head TEXT,
    PRIMARY KEY (club_id, season));
CREATE TABLE IF NOT EXISTS club_tables (
    table_id TEXT PRIMARY KEY, club_id TEXT NOT NULL, opened REAL NOT NULL, counted INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS club_tables_open ON club_tables (club_id, counted);
CREATE TABLE IF NOT EXISTS club_tournaments (
    tournament_id TEXT PRIMARY KEY, club_id TEXT NOT NULL, name TEXT NOT NULL, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS club_tournaments_of ON club_tournaments (club_id);
CREATE TABLE IF NOT EXISTS club_seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, member INTEGER NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS club_games (
    club_id TEXT NOT NULL, season INTEGER NOT NULL, game INTEGER NOT NULL, table_id TEXT NOT NULL UNIQUE,
    seats_json TEXT NOT NULL, result_json TEXT NOT NULL, record_json TEXT NOT NULL, digest TEXT NOT NULL,
    row_hash TEXT NOT NULL, PRIMARY KEY (club_id, season, game));
"""
# Columns added since the first schema: (table, column, declaration), added to older files at open.
ADDED_COLUMNS = (("tables", "seal", "TEXT"), ("moves", "digest", "TEXT"), ("tokens", "name", "TEXT"),
                 ("tables", "finished", "INTEGER NOT NULL DEFAULT 0"), ("tables", "outcome_json", "TEXT"),
                 ("tables", "record_json", "TEXT"), ("tables", "ended", "TEXT"), ("tables", "updated", "REAL"),
                 ("tables", "shard", "INTEGER"), ("tables", "chain0", "TEXT"), ("tables", "end_digest", "TEXT"),
                 ("tables", "record_digest", "TEXT"), ("moves", "chain", "TEXT"), ("snapshots", "chain", "TEXT"),
                 ("snapshots", "digest", "TEXT"),
                 ("tables", "turn_seconds", "INTEGER NOT NULL DEFAULT 0"),
                 # What proves each club row (clubproof.py), and the counts that show a row deleted.
                 ("clubs", "members", "INTEGER NOT NULL DEFAULT 0"), ("clubs", "proof", "TEXT"),
                 ("club_members", "proof", "TEXT"), ("club_seasons", "games", "INTEGER NOT NULL DEFAULT 0"),
                 ("club_seasons", "last", "TEXT"), ("club_seasons", "roster", "TEXT"), ("club_seasons", "proof", "TEXT"),
                 ("club_tables", "proof", "TEXT"),
                 ("club_seats", "proof", "TEXT"), ("club_tournaments", "proof", "TEXT"),
                 ("club_games", "record_sha", "TEXT"), ("club_games", "proof", "TEXT"),
                 # What proves each tournament row (integrity.py), and (tournament_tips) how many there are.
                 ("tournaments", "proof", "TEXT"), ("rounds", "proof", "TEXT"), ("audit", "proof", "TEXT"))
ADDED_INDEXES = ("CREATE INDEX IF NOT EXISTS tables_open ON tables (finished, created)",
                 "CREATE INDEX IF NOT EXISTS tables_seal ON tables (seal) WHERE seal IS NOT NULL",
                 "CREATE INDEX IF NOT EXISTS tokens_table ON tokens (table_id)",
                 "CREATE INDEX IF NOT EXISTS tables_shard ON tables (shard, finished)")
ADVISORY_KEY = 0x5E_A2_DE_F1  # pg_try_advisory_lock's key: one server per database
LOCK_WAIT = 5.0  # seconds a starting server waits for a lock held by a server that has just died


class StoreInUse(SmearError):
    """Another live server holds this database."""


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def backend_for(db: str, shared: bool = False) -> SqliteBackend | PostgresBackend:
    """A `postgresql://` (or `postgres://`) URL, or the path of an SQLite file. `shared`: one of
    several replicas on a PostgreSQL database (smear_referee/storage/cluster.py)."""
    if is_postgres(db):
        return PostgresBackend(db, shared)
    return SqliteBackend(db)


class SqliteBackend:
    """An SQLite file in WAL mode, synchronous=FULL for the writer; `FILE.lock` (flock) is held while open."""

    broken = staticmethod(lambda conn: False)  # a file does not go away under a connection

    name = "sqlite"
    Error = sqlite3.Error
    IntegrityError = sqlite3.IntegrityError
    BEGIN = "BEGIN IMMEDIATE"

    def __init__(self, path: str):
        self.where = path
        self._lock_file = _lock(path)

    def connect(self, writer: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(self.where, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        if writer:
            conn.execute("PRAGMA synchronous=FULL")
        return conn

    def create_schema(self) -> bool:
        """Create or bring up to date; True when the file held tables from before snapshots."""
        conn = self.connect()
        try:
            conn.executescript(SCHEMA)
            upgraded = False
            for table, column, decl in ADDED_COLUMNS:
                if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
                    upgraded |= column == "finished" and \
                        conn.execute("SELECT 1 FROM tables LIMIT 1").fetchone() is not None
            for sql in ADDED_INDEXES:
                conn.execute(sql)
            return upgraded
        finally:
            conn.close()

    def close(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()  # releases the flock
            self._lock_file = None


class _PgConnection:
    """A psycopg connection that takes store.py's `?` placeholders."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql: str, params: tuple = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), params)

    def close(self) -> None:
        self.conn.close()


class PostgresBackend:
    """A PostgreSQL database (psycopg 3): commits are durable when they return (synchronous_commit
    on, the server's default). A session advisory lock keeps a second server out; replicas
    (`shared`) hold it shared, so they keep out a lone server and it keeps them out."""

    name = "postgresql"
    BEGIN = "BEGIN"

    def __init__(self, url: str, shared: bool = False):
        import psycopg
        self.psycopg = psycopg
        self.Error = psycopg.Error
        self.IntegrityError = psycopg.IntegrityError
        self.where = _redacted(url)
        self.url = url
        try:
            self._holder: Any = psycopg.connect(url, autocommit=True)
        except psycopg.Error as e:
            raise StoreInUse(f"cannot reach the database {self.where}: {str(e).strip().splitlines()[0]}") from None
        self._kind = "_shared" if shared else ""
        deadline = time.monotonic() + LOCK_WAIT
        while not self._holder.execute(f"SELECT pg_try_advisory_lock{self._kind}(%s)", (ADVISORY_KEY,)).fetchone()[0]:  # type: ignore[index]  # noqa: E501
            if time.monotonic() > deadline:  # (a killed server's lock goes once PostgreSQL sees its socket closed)
                self._holder.close()
                raise StoreInUse(f"{self.where} is in use by " + ("a server that is not a replica (started without "
                                 "--advertise)" if shared else "another running server") +
                                 " (it holds the database's lock)")
            time.sleep(0.1)

    def connect(self, writer: bool = False) -> _PgConnection:
        return _PgConnection(self.psycopg.connect(self.url, autocommit=True, connect_timeout=5))

    @staticmethod
    def broken(conn: Any) -> bool:
        """The connection is gone (the server restarted, the network failed): open a new one."""
        return conn.conn.closed or conn.conn.broken

    def create_schema(self) -> bool:
        conn = self.connect()
        try:
            for sql in filter(str.strip, SCHEMA.replace("REAL", "DOUBLE PRECISION").split(";")):
                conn.execute(sql)
            for table, column, decl in ADDED_COLUMNS:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} "
                             f"{decl.replace('REAL', 'DOUBLE PRECISION')}")
            for sql in ADDED_INDEXES:
                conn.execute(sql)
            return False
        finally:
            conn.close()

    def close(self) -> None:
        if self._holder is not None:
            try:  # at once: the session's end would release it too, but only once the server notices
                self._holder.execute(f"SELECT pg_advisory_unlock{self._kind}(%s)", (ADVISORY_KEY,))
            except self.psycopg.Error:
                pass  # the connection is gone, and the lock with it
            self._holder.close()
            self._holder = None


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    return f"{scheme}//{creds.split(':', 1)[0]}:***@{tail}"


def _lock(path: str):
    """Hold `path.lock` exclusively (released when the file closes, or the process dies)."""
    import fcntl
    f = open(f"{path}.lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise StoreInUse(f"{path} is in use by another running server (its lock file {path}.lock is held)") from None
    return f
