"""SQLite persistence: tables, hashed tokens and the move log, written durably before any ack.

One writer thread owns the write connection and commits in groups: every write queued while
the previous commit was syncing goes into the next transaction, so many tables share one
fsync (WAL, synchronous=FULL) and `await store.write(...)` returns only after the commit.
On start the server reads everything back and replays each table's moves.
"""
from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
from dataclasses import dataclass
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
CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, config_json TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    tournament_id TEXT NOT NULL, round INTEGER NOT NULL, seed TEXT NOT NULL, tables_json TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round));
CREATE TABLE IF NOT EXISTS audit (
    tournament_id TEXT NOT NULL, seq INTEGER NOT NULL, entry_json TEXT NOT NULL, PRIMARY KEY (tournament_id, seq));
"""
# Columns added since the first schema: (table, column, declaration), added to older files at open.
ADDED_COLUMNS = (("tables", "seal", "TEXT"), ("moves", "digest", "TEXT"), ("tokens", "name", "TEXT"))


@dataclass
class StoredTable:
    id: str
    rules_name: str
    rules_text: str | None
    players: int
    options: dict[str, Any]
    seed: str
    first_dealer: int
    created: float
    tokens: list[tuple[str, str, int | None, str]]  # (hash, role, seat, name); role host | seat | bot | spectator
    moves: list[tuple[int, int, int, str | None, str | None]]  # (version, seat, code, idempotency key, digest)
    duplicate: bool = False
    hand_limit: int = 0
    seal: str | None = None  # the group (a duplicate round) whose tables stay sealed until all have finished


class StoreInUse(SmearError):
    """Another live server holds this database file."""


class Store:
    """The database file and its writer thread. A lock file beside it (`FILE.lock`, flock) is held
    while the store is open, so a second server cannot use the same tables."""

    def __init__(self, path: str):
        self.path = path
        self._lock_file = _lock(path)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)
        for table, column, decl in ADDED_COLUMNS:
            if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        conn.commit()
        conn.close()
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._writer, name="smear-store-writer", daemon=True)
        self._thread.start()
        self.commits = 0

    # ---- writes
    async def write(self, statements: list[tuple[str, tuple]]) -> None:
        """Run these statements in one transaction and return once it is durably committed."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put((statements, loop, fut))
        await fut

    def _writer(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        while True:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while True:  # group commit: everything already waiting joins this transaction
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)
                    break
                batch.append(item)
            results = self._commit(conn, batch)
            self.commits += 1
            # One wake-up per event loop settles the whole group (not one per write).
            by_loop: dict[Any, list] = {}
            for (_s, loop, fut), err in zip(batch, results):
                by_loop.setdefault(loop, []).append((fut, err))
            for loop, settled in by_loop.items():
                loop.call_soon_threadsafe(_settle_all, settled)
        conn.close()

    @staticmethod
    def _commit(conn: sqlite3.Connection, batch: list) -> list[BaseException | None]:
        """Commit the group in one transaction; if a statement fails, redo it write by write, each
        in a savepoint, so only the failing write fails."""
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statements, _loop, _fut in batch:
                for sql, params in statements:
                    conn.execute(sql, params)
            conn.execute("COMMIT")
            return [None] * len(batch)
        except sqlite3.Error:
            _rollback(conn)
        results: list[BaseException | None] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statements, _loop, _fut in batch:
                try:
                    conn.execute("SAVEPOINT one")
                    for sql, params in statements:
                        conn.execute(sql, params)
                    conn.execute("RELEASE one")
                    results.append(None)
                except sqlite3.Error as e:
                    conn.execute("ROLLBACK TO one")
                    conn.execute("RELEASE one")
                    results.append(e)
            conn.execute("COMMIT")
            return results
        except sqlite3.Error as e:  # the commit itself failed (disk full, I/O error): nothing was written
            _rollback(conn)
            return [e] * len(batch)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)
        if self._lock_file is not None:
            self._lock_file.close()  # releases the flock
            self._lock_file = None

    # ---- statements
    @staticmethod
    def create_table(t: StoredTable) -> list[tuple[str, tuple]]:
        out = [("INSERT INTO tables (id, rules_name, rules_text, players, options_json, seed, first_dealer, created, "
                "duplicate, hand_limit, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (t.id, t.rules_name, t.rules_text, t.players, json.dumps(t.options), t.seed, t.first_dealer, t.created,
                 int(t.duplicate), t.hand_limit, t.seal))]
        return out + [s for h, role, seat, name in t.tokens for s in Store.add_token(t.id, h, role, seat, name)]

    @staticmethod
    def add_token(table_id: str, token_hash: str, role: str, seat: int | None, name: str = "") -> list[tuple[str, tuple]]:
        return [("INSERT INTO tokens (hash, table_id, role, seat, name) VALUES (?, ?, ?, ?, ?)",
                 (token_hash, table_id, role, seat, name))]

    @staticmethod
    def add_move(table_id: str, version: int, seat: int, code: int, idem: str | None,
                 digest: str | None = None) -> list[tuple[str, tuple]]:
        return [("INSERT INTO moves (table_id, version, seat, code, idem, digest) VALUES (?, ?, ?, ?, ?, ?)",
                 (table_id, version, seat, str(code), idem, digest))]

    @staticmethod
    def create_tournament(tid: str, config: dict[str, Any], created: float, director_hash: str) -> list[tuple[str, tuple]]:
        return [("INSERT INTO tournaments VALUES (?, ?, ?)", (tid, json.dumps(config), created)),
                *Store.add_token(tid, director_hash, "director", None)]

    @staticmethod
    def add_round(tid: str, r: int, seed: str, tables: list[dict[str, Any]]) -> list[tuple[str, tuple]]:
        return [("INSERT INTO rounds VALUES (?, ?, ?, ?)", (tid, r, seed, json.dumps(tables)))]

    @staticmethod
    def add_audit(tid: str, entry: dict[str, Any]) -> list[tuple[str, tuple]]:
        return [("INSERT INTO audit VALUES (?, ?, ?)", (tid, entry["seq"], json.dumps(entry)))]

    def load_tournaments(self) -> list[tuple[str, dict, list[tuple[int, str, list]], list[dict], list[str]]]:
        """(id, config, [(round, seed, tables)], audit entries, director token hashes) of every tournament."""
        conn = sqlite3.connect(self.path)
        try:
            out = []
            for tid, config, _created in conn.execute("SELECT id, config_json, created FROM tournaments ORDER BY created"):
                rounds = [(r, seed, json.loads(tables)) for r, seed, tables in conn.execute(
                    "SELECT round, seed, tables_json FROM rounds WHERE tournament_id = ? ORDER BY round", (tid,))]
                audit = [json.loads(e) for (e,) in conn.execute(
                    "SELECT entry_json FROM audit WHERE tournament_id = ? ORDER BY seq", (tid,))]
                tokens = [h for (h,) in conn.execute(
                    "SELECT hash FROM tokens WHERE table_id = ? AND role = 'director'", (tid,))]
                out.append((tid, json.loads(config), rounds, audit, tokens))
            return out
        finally:
            conn.close()

    # ---- reads (at start-up)
    def load(self, table_id: str | None = None) -> list[StoredTable]:
        """Every table (or just `table_id`) with its tokens and moves, oldest first. Reads see only
        committed transactions (WAL), so this is safe beside the writer."""
        where, args = ("WHERE id = ?", (table_id,)) if table_id else ("", ())
        where_t = "WHERE table_id = ?" if table_id else ""
        conn = sqlite3.connect(self.path)
        try:
            tables = {}
            for row in conn.execute("SELECT id, rules_name, rules_text, players, options_json, seed, first_dealer, "
                                    f"created, duplicate, hand_limit, seal FROM tables {where} ORDER BY created", args):
                tables[row[0]] = StoredTable(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7],
                                             [], [], bool(row[8]), row[9], row[10])
            for h, tid, role, seat, name in conn.execute(
                    f"SELECT hash, table_id, role, seat, name FROM tokens {where_t}", args):
                if tid in tables:
                    tables[tid].tokens.append((h, role, seat, name or ""))
            for tid, version, seat, code, idem, digest in conn.execute(
                    f"SELECT table_id, version, seat, code, idem, digest FROM moves {where_t} ORDER BY table_id, version",
                    args):
                if tid in tables:
                    tables[tid].moves.append((version, seat, code, idem, digest))
            return list(tables.values())
        finally:
            conn.close()


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


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # no transaction was open


def _settle_all(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for fut, err in settled:
        if fut.done():
            continue
        if err is None:
            fut.set_result(None)
        else:
            fut.set_exception(err)
