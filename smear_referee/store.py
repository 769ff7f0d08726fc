"""SQLite persistence: tables, hashed tokens and the move log, written durably before any ack.

One writer thread owns the write connection and commits in groups: every write queued while
the previous commit was syncing goes into the next transaction, so many tables share one
fsync (WAL, synchronous=FULL) and `await store.write(...)` returns only after the commit.
At each hand boundary a table's snapshot (engine/snapshot.py) is saved with the move that
reached it, and a finished table is marked so: on start the server reads back only unfinished
tables, each from its snapshot and the moves after it, so start-up follows the live tables,
not the history. Whatever else is asked for later (a finished table, an old token, an
idempotency key of an earlier hand, a record) is read from here when asked.
"""
from __future__ import annotations

import asyncio
import json
import queue
import threading
from dataclasses import dataclass
from typing import Any

from smear_dsl.errors import SmearError

from .backends import backend_for
from .cluster import FENCE_SQL, STILL_HELD_SQL, Fence, Fenced, shard_of

TABLE_COLUMNS = ("id, rules_name, rules_text, players, options_json, seed, first_dealer, created, duplicate, "
                 "hand_limit, seal, ended, updated")


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
    ended: str | None = None  # why the game was ended before its rules ended it (JSON: reason, at)
    updated: float | None = None  # when its last move was made
    snapshot: dict[str, Any] | None = None  # the latest: {"version", "seq", "state"}; `moves` follow it


class Store:
    """The database (an SQLite file or PostgreSQL: backends.py) and its writer thread. While the
    store is open no second server can use the same database."""

    def __init__(self, db: str, shared: bool = False):
        self.backend = backend_for(db, shared)
        self.path = self.backend.where  # for messages (a PostgreSQL URL without its password)
        self.upgraded = self.backend.create_schema()  # True: a file from before snapshots, read whole once
        self._reader = None  # the event loop's own connection, for the lookups below
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._writer, name="smear-store-writer", daemon=True)
        self._thread.start()
        self.commits = 0

    # ---- writes
    async def write(self, statements: list[tuple[str, tuple]], fence: Fence | None = None) -> None:
        """Run these statements in one transaction and return once it is durably committed. With a
        `fence` they run only if that lease is still held at commit (Fenced otherwise)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put((statements, loop, fut, fence))
        await fut

    def write_soon(self, statements: list[tuple[str, tuple]]) -> None:
        """Queue statements that need no answer (a snapshot caught up at start-up): written in order
        with the rest, and if they are lost nothing is (the moves they summarise are stored)."""
        self._queue.put((statements, None, None, None))

    def _writer(self) -> None:
        conn = None
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
            try:
                if conn is None:
                    conn = self.backend.connect(writer=True)
                results = self._commit(conn, batch, self.backend)
            except self.backend.Error as e:  # the database cannot be reached: this group fails, the next tries again
                results = [e] * len(batch)
            if conn is not None and self.backend.broken(conn):  # e.g. PostgreSQL restarted: a new connection next time
                _close(conn)
                conn = None
            self.commits += 1
            # One wake-up per event loop settles the whole group (not one per write).
            by_loop: dict[Any, list] = {}
            for (_s, loop, fut, _f), err in zip(batch, results):
                if loop is None:
                    continue
                by_loop.setdefault(loop, []).append((fut, err))
            for loop, settled in by_loop.items():
                loop.call_soon_threadsafe(_settle_all, settled)
        if conn is not None:
            _close(conn)

    @staticmethod
    def _commit(conn, batch: list, backend) -> list[BaseException | None]:
        """Commit the group in one transaction; if a statement fails, redo it write by write, each
        in a savepoint, so only the failing write fails. Fences (leases, cluster.py) are checked
        first, once per shard, in shard order; a write whose lease is lost fails with Fenced."""
        try:
            conn.execute(backend.BEGIN)
            refused = _fences(conn, batch)
            if not refused:
                for statements, _loop, _fut, _fence in batch:
                    for sql, params in statements:
                        conn.execute(sql, params)
                if not _lapsed(conn, batch):
                    conn.execute("COMMIT")
                    return [None] * len(batch)
            _rollback(conn, backend)
        except backend.Error:
            _rollback(conn, backend)
            if backend.broken(conn):
                raise
        results: list[BaseException | None] = []
        try:
            conn.execute(backend.BEGIN)
            refused = _fences(conn, batch)
            for statements, _loop, _fut, fence in batch:
                if fence in refused:
                    results.append(Fenced(f"shard {fence.shard} is no longer this replica's at epoch {fence.epoch}"))
                    continue
                try:
                    conn.execute("SAVEPOINT one")
                    for sql, params in statements:
                        conn.execute(sql, params)
                    conn.execute("RELEASE SAVEPOINT one")
                    results.append(None)
                except backend.Error as e:
                    conn.execute("ROLLBACK TO SAVEPOINT one")
                    conn.execute("RELEASE SAVEPOINT one")
                    results.append(e)
            lapsed = _lapsed(conn, batch)
            if lapsed:  # a lease ran out while this transaction ran: it commits nothing
                _rollback(conn, backend)
                return [Fenced(f"shard {item[3].shard}'s lease ran out before the commit") if item[3] in lapsed
                        else backend.Error("the group was rolled back (another write's lease ran out)")
                        for item in batch]
            conn.execute("COMMIT")
            return results
        except backend.Error as e:  # the commit itself failed (disk full, I/O error): nothing was written
            _rollback(conn, backend)
            return [e] * len(batch)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self._queue.put(None)
        self._thread.join(timeout=10)
        self.backend.close()

    # ---- statements
    @staticmethod
    def create_table(t: StoredTable) -> list[tuple[str, tuple]]:
        out = [("INSERT INTO tables (id, rules_name, rules_text, players, options_json, seed, first_dealer, created, "
                "duplicate, hand_limit, seal, shard) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (t.id, t.rules_name, t.rules_text, t.players, json.dumps(t.options), t.seed, t.first_dealer, t.created,
                 int(t.duplicate), t.hand_limit, t.seal, shard_of(t.id)))]
        return out + [s for h, role, seat, name in t.tokens for s in Store.add_token(t.id, h, role, seat, name)]

    @staticmethod
    def add_token(table_id: str, token_hash: str, role: str, seat: int | None, name: str = "") -> list[tuple[str, tuple]]:
        return [("INSERT INTO tokens (hash, table_id, role, seat, name) VALUES (?, ?, ?, ?, ?)",
                 (token_hash, table_id, role, seat, name))]

    @staticmethod
    def add_move(table_id: str, version: int, seat: int, code: int, idem: str | None,
                 digest: str | None = None, at: float | None = None) -> list[tuple[str, tuple]]:
        out = [("INSERT INTO moves (table_id, version, seat, code, idem, digest) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, version, seat, str(code), idem, digest))]
        if at is not None:
            out.append(("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id)))
        return out

    @staticmethod
    def save_snapshot(table_id: str, snapshot: dict[str, Any]) -> list[tuple[str, tuple]]:
        """The table's latest snapshot (it replaces the one before)."""
        return [("INSERT INTO snapshots (table_id, version, seq, state_json) VALUES (?, ?, ?, ?) ON CONFLICT (table_id) "
                 "DO UPDATE SET version = excluded.version, seq = excluded.seq, state_json = excluded.state_json",
                 (table_id, snapshot["version"], snapshot["seq"], json.dumps(snapshot["state"])))]

    @staticmethod
    def finish(table_id: str, scores: list[int], winner: int | None,
               ended: dict[str, Any] | None = None) -> list[tuple[str, tuple]]:
        """Mark the game over (start-up then leaves it in the store), with its outcome."""
        return [("UPDATE tables SET finished = 1, outcome_json = ?, ended = ? WHERE id = ?",
                 (json.dumps({"scores": list(scores), "winner": winner}), json.dumps(ended) if ended else None,
                  table_id))]

    @staticmethod
    def keep_record(table_id: str, record: dict[str, Any]) -> list[tuple[str, tuple]]:
        return [("UPDATE tables SET record_json = ? WHERE id = ?", (json.dumps(record), table_id))]

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
        conn = self.backend.connect()
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

    # ---- reads (at start-up, and of what has left memory)
    def open_tables(self) -> list[tuple[str, str | None, float | None]]:
        """(id, seal, time of its last move or None) of every unfinished table, oldest first; of
        every table when the file predates snapshots (it has not marked finished ones yet)."""
        conn = self.backend.connect()
        try:
            where = "" if self.upgraded else "WHERE finished = 0"
            return conn.execute(f"SELECT id, seal, updated FROM tables {where} ORDER BY created").fetchall()
        finally:
            conn.close()

    def load(self, table_ids: list[str]) -> list[StoredTable]:
        """These tables (those that exist), each with its tokens, its latest snapshot and the moves
        after it. Reads see only committed transactions (WAL), so this is safe beside the writer."""
        conn = self.backend.connect()
        try:
            tables = {}
            for tid in table_ids:
                row = conn.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (tid,)).fetchone()
                if row is not None:
                    tables[tid] = StoredTable(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6],
                                              row[7], [], [], bool(row[8]), row[9], row[10], row[11], row[12])
            for tid, t in tables.items():
                t.tokens = [(h, role, seat, name or "") for h, role, seat, name in conn.execute(
                    "SELECT hash, role, seat, name FROM tokens WHERE table_id = ?", (tid,))]
                snap = conn.execute("SELECT version, seq, state_json FROM snapshots WHERE table_id = ?", (tid,)).fetchone()
                after = 0
                if snap is not None:
                    t.snapshot = {"version": snap[0], "seq": snap[1], "state": json.loads(snap[2])}
                    after = snap[0]
                t.moves = [tuple(m) for m in conn.execute(
                    "SELECT version, seat, code, idem, digest FROM moves WHERE table_id = ? AND version > ? "
                    "ORDER BY version", (tid, after))]
            return list(tables.values())
        finally:
            conn.close()

    def moves_of(self, table_id: str) -> list[tuple[int, int, str]]:
        """Every move of a table, (version, seat, code) in order: for its record and old events.
        Opens its own connection, so it may run in a worker thread."""
        conn = self.backend.connect()
        try:
            return conn.execute("SELECT version, seat, code FROM moves WHERE table_id = ? ORDER BY version",
                                (table_id,)).fetchall()
        finally:
            conn.close()

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        """A point read by key, made on the event loop (one at a time) on the lookups' own connection;
        StoreDown if the database cannot answer (the connection is opened afresh next time)."""
        try:
            if self._reader is None:
                self._reader = self.backend.connect()
            return self._reader.execute(sql, params).fetchall()
        except self.backend.Error as e:
            if self._reader is not None:
                _close(self._reader)
                self._reader = None
            raise StoreDown(f"the database did not answer: {str(e).strip().splitlines()[0][:200] if str(e) else e}") \
                from None

    def find_token(self, token_hash: str) -> tuple[str, str, int | None] | None:
        """(table id, role, seat) of a token by its hash, if the store knows it."""
        return _one(self._read("SELECT table_id, role, seat FROM tokens WHERE hash = ?", (token_hash,)))

    def find_key(self, table_id: str, key: str) -> tuple[int, int, str | None] | None:
        """(version, seat, digest) of the move a table's idempotency key was used for, if it was."""
        return _one(self._read("SELECT version, seat, digest FROM moves WHERE table_id = ? AND idem = ?", (table_id, key)))

    def outcome(self, table_id: str) -> tuple[bool, list[int], int | None] | None:
        """(finished, scores, winner) as stored; None for no such table. Scores are stored only once
        the game is over."""
        row = _one(self._read("SELECT finished, outcome_json FROM tables WHERE id = ?", (table_id,)))
        if row is None:
            return None
        done = json.loads(row[1]) if row[1] else {"scores": [], "winner": None}
        return bool(row[0]), done["scores"], done["winner"]

    def record_of(self, table_id: str) -> dict[str, Any] | None:
        """A finished table's record, once one has been kept."""
        row = _one(self._read("SELECT record_json FROM tables WHERE id = ?", (table_id,)))
        return json.loads(row[0]) if row and row[0] else None

    def seal_tables(self, seal: str) -> list[str]:
        return [tid for (tid,) in self._read("SELECT id FROM tables WHERE seal = ? ORDER BY created", (seal,))]

    def stale_tables(self, before: float, limit: int) -> list[str]:
        """Unfinished tables with no move (nor creation) since `before`, oldest first."""
        return [tid for (tid,) in self._read(
            "SELECT id FROM tables WHERE finished = 0 AND COALESCE(updated, created) < ? ORDER BY created LIMIT ?",
            (before, limit))]

    def open_in_shards(self, shards: list[int]) -> list[tuple[str, float | None]]:
        """(id, time of its last move or None) of the unfinished tables of these shards, oldest
        first: a replica that takes the shards over. Opens its own connection: for a worker thread."""
        conn = self.backend.connect()
        try:
            marks = ", ".join("?" * len(shards))
            return [tuple(row) for row in conn.execute(
                f"SELECT id, updated FROM tables WHERE finished = 0 AND shard IN ({marks}) ORDER BY created", tuple(shards))]
        finally:
            _close(conn)

    def fill_shards(self) -> int:
        """Give tables written before shards their shard (a store that a lone server used before)."""
        conn = self.backend.connect()
        try:
            ids = [tid for (tid,) in conn.execute("SELECT id FROM tables WHERE shard IS NULL")]
            for tid in ids:
                conn.execute("UPDATE tables SET shard = ? WHERE id = ?", (shard_of(tid), tid))
            return len(ids)
        finally:
            _close(conn)


class StoreDown(SmearError):
    """The database did not answer a read (it is restarting, or unreachable)."""


def _fences(conn, batch: list) -> set[Fence]:
    """The fences of this group that no longer hold; those that do stay locked (FOR SHARE) until
    the transaction ends, so no takeover lands between this check and the commit."""
    fences = sorted({item[3] for item in batch if item[3] is not None}, key=lambda f: (f.shard, f.epoch))
    return {f for f in fences if conn.execute(FENCE_SQL, (f.shard, f.owner, f.epoch)).fetchone() is None}


def _lapsed(conn, batch: list) -> set[Fence]:
    """The fences of this group whose lease has run out since they were checked (the rows are
    still ours, locked FOR SHARE, so only time can have passed)."""
    fences = {item[3] for item in batch if item[3] is not None}
    if not fences:
        return set()
    alive = {shard for (shard,) in conn.execute(STILL_HELD_SQL, ([f.shard for f in fences],)).fetchall()}
    return {f for f in fences if f.shard not in alive}


def _one(rows: list[tuple]) -> tuple | None:
    return rows[0] if rows else None


def _close(conn) -> None:
    try:
        conn.close()
    except Exception:  # noqa: BLE001 - already gone
        pass


def _rollback(conn, backend) -> None:
    try:
        conn.execute("ROLLBACK")
    except backend.Error:
        pass  # no transaction was open


def _settle_all(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for fut, err in settled:
        if fut.done():
            continue
        if err is None:
            fut.set_result(None)
        else:
            fut.set_exception(err)
