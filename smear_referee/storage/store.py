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
import functools
import json
import logging
import os
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from smear_dsl.errors import SmearError
from smear_referee.storage import integrity as I
from smear_referee.storage.backends import backend_for
from smear_referee.storage.cluster import FENCE_SQL, STILL_HELD_SQL, Fence, Fenced, shard_of

log = logging.getLogger("smear_dsl.referee")
# Tests set this: a store read made on an event loop's thread (where it would stall every call)
# raises instead of only being counted.
STRICT = os.environ.get("SMEAR_STRICT_STORE") == "1"
READERS = 4  # threads reading the store for calls (each with its own connection)


def store_errors() -> tuple[type[BaseException], ...]:
    """What the databases' drivers raise: sqlite3's errors, and psycopg's once it is loaded. A SQLite
    referee never imports psycopg (160 ms of every start); nothing raises a psycopg error before it is."""
    import sqlite3
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error, psycopg.Error) if psycopg is not None and hasattr(psycopg, "Error") else (sqlite3.Error,)


T = TypeVar("T")

TABLE_COLUMNS = ("id, rules_name, rules_text, players, options_json, seed, first_dealer, created, duplicate, "
                 "hand_limit, seal, ended, updated, chain0, finished, outcome_json, end_digest, turn_seconds")


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
    moves: list[tuple[int, int, int, str | None, str | None, str | None]]  # (version, seat, code, key, digest, chain)
    duplicate: bool = False
    hand_limit: int = 0
    seal: str | None = None  # the group (a duplicate round) whose tables stay sealed until all have finished
    ended: str | None = None  # why the game was ended before its rules ended it (JSON: reason, at)
    updated: float | None = None  # when its last move was made
    snapshot: dict[str, Any] | None = None  # the latest: {"version", "seq", "state", "chain"}; `moves` follow it
    chain0: str | None = None  # the root of its chain (integrity.genesis) as stored
    options_json: str = "{}"  # its options as stored (the text the root hashes)
    broken: I.Broken | None = None  # a row that does not read back, or that its hashes do not prove
    finished: bool = False
    outcome_json: str | None = None  # its outcome as stored, once finished, bound to its chain by end_digest
    end_digest: str | None = None
    turn_seconds: int = 0  # its turn clock (0: none); not part of the game, so not under its root hash


class Store:
    """The database (an SQLite file or PostgreSQL: backends.py) and its writer thread. While the
    store is open no second server can use the same database."""

    def __init__(self, db: str, shared: bool = False):
        self.backend = backend_for(db, shared)
        self.path = self.backend.where  # for messages (a PostgreSQL URL without its password)
        self.upgraded = self.backend.create_schema()  # True: a file from before snapshots, read whole once
        self._local = threading.local()  # each reading thread's own connection
        self._connections: list = []  # every reading connection, closed with the store
        self._connections_lock = threading.Lock()
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="smear-store-read")
        self.blocking_calls = 0  # reads made on an event loop's thread (none, when all is well)
        self.chained = self._chain_legacy()  # tables from before integrity hashes, hashed once now
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
        self._queue.put(None)
        self._thread.join(timeout=10)
        self._readers.shutdown(wait=False, cancel_futures=True)
        with self._connections_lock:
            for conn in self._connections:
                _close(conn)
            self._connections.clear()
        self.backend.close()

    # ---- reading off the event loop
    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` (one of the read methods below) in the store's reading threads: a call that
        reads the store waits for it, every other call goes on being answered."""
        return await asyncio.get_running_loop().run_in_executor(self._readers, functools.partial(fn, *args))

    def _conn(self):
        """This thread's reading connection (opened at its first read, or again after a failure)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.backend.connect()
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def _drop_conn(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            with self._connections_lock:
                if conn in self._connections:
                    self._connections.remove(conn)
            _close(conn)

    # ---- statements
    @staticmethod
    def create_table(t: StoredTable) -> list[tuple[str, tuple]]:
        options = I.options_json(t.options)
        root = I.genesis(t.id, t.rules_name, t.rules_text, t.players, options, t.seed, t.first_dealer, t.duplicate,
                         t.hand_limit, t.seal)
        out = [("INSERT INTO tables (id, rules_name, rules_text, players, options_json, seed, first_dealer, created, "
                "duplicate, hand_limit, seal, shard, chain0, turn_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (t.id, t.rules_name, t.rules_text, t.players, options, t.seed, t.first_dealer, t.created,
                 int(t.duplicate), t.hand_limit, t.seal, shard_of(t.id), root, t.turn_seconds))]
        return out + [s for h, role, seat, name in t.tokens for s in Store.add_token(t.id, h, role, seat, name)]

    @staticmethod
    def drop_token(token_hash: str) -> list[tuple[str, tuple]]:
        """A token taken back (a bot standing in leaves its seat)."""
        return [("DELETE FROM tokens WHERE hash = ?", (token_hash,))]

    @staticmethod
    def add_token(table_id: str, token_hash: str, role: str, seat: int | None, name: str = "") -> list[tuple[str, tuple]]:
        return [("INSERT INTO tokens (hash, table_id, role, seat, name) VALUES (?, ?, ?, ?, ?)",
                 (token_hash, table_id, role, seat, name))]

    @staticmethod
    def add_move(table_id: str, version: int, seat: int, code: int, idem: str | None,
                 digest: str | None = None, at: float | None = None, chain: str | None = None) -> list[tuple[str, tuple]]:
        """A move, with `chain`: its hash (integrity.link) after the move before it."""
        out: list[tuple[str, tuple]] = [
            ("INSERT INTO moves (table_id, version, seat, code, idem, digest, chain) VALUES (?, ?, ?, ?, ?, ?, ?)",
             (table_id, version, seat, str(code), idem, digest, chain))]
        if at is not None:
            out.append(("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id)))
        return out

    @staticmethod
    def save_snapshot(table_id: str, snapshot: dict[str, Any]) -> list[tuple[str, tuple]]:
        """The table's latest snapshot (it replaces the one before), with its digest."""
        state = json.dumps(snapshot["state"])
        chain = snapshot["chain"]
        digest = I.snapshot_digest(chain, snapshot["version"], snapshot["seq"], state)
        return [("INSERT INTO snapshots (table_id, version, seq, state_json, chain, digest) VALUES (?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, seq = excluded.seq, "
                 "state_json = excluded.state_json, chain = excluded.chain, digest = excluded.digest",
                 (table_id, snapshot["version"], snapshot["seq"], state, chain, digest))]

    @staticmethod
    def finish(table_id: str, scores: list[int], winner: int | None, head: str,
               ended: dict[str, Any] | None = None) -> list[tuple[str, tuple]]:
        """Mark the game over (start-up then leaves it in the store), with its outcome bound to the
        chain head `head`."""
        outcome = json.dumps({"scores": list(scores), "winner": winner})
        ended_json = json.dumps(ended) if ended else None
        return [("UPDATE tables SET finished = 1, outcome_json = ?, ended = ?, end_digest = ? WHERE id = ?",
                 (outcome, ended_json, I.end_digest(head, outcome, ended_json), table_id))]

    @staticmethod
    def keep_record(table_id: str, record: dict[str, Any], head: str) -> list[tuple[str, tuple]]:
        text = json.dumps(record)
        return [("UPDATE tables SET record_json = ?, record_digest = ? WHERE id = ?",
                 (text, I.record_digest(head, text), table_id))]

    @staticmethod
    def add_request(scope: str, key_hash: str, digest: str, salt: str, answer_json: str,
                    now: float) -> list[tuple[str, tuple]]:
        """An idempotent call remembered (idem.py)."""
        return [("INSERT INTO requests (scope, key_hash, digest, salt, answer_json, created) VALUES (?, ?, ?, ?, ?, ?)",
                 (scope, key_hash, digest, salt, answer_json, now))]

    @staticmethod
    def create_tournament(tid: str, config: dict[str, Any], created: float, director_hash: str) -> list[tuple[str, tuple]]:
        text = json.dumps(config)
        return [("INSERT INTO tournaments (id, config_json, created, proof) VALUES (?, ?, ?, ?)",
                 (tid, text, created, I.tournament_proof(tid, text, created))),
                _tip(tid, "rounds", 0), _tip(tid, "audit", 0),
                *Store.add_token(tid, director_hash, "director", None)]

    @staticmethod
    def add_round(tid: str, r: int, seed: str, tables: list[dict[str, Any]]) -> list[tuple[str, tuple]]:
        text = json.dumps(tables)
        return [("INSERT INTO rounds (tournament_id, round, seed, tables_json, proof) VALUES (?, ?, ?, ?, ?)",
                 (tid, r, seed, text, I.round_proof(tid, r, seed, text))), _tip(tid, "rounds", r + 1)]

    @staticmethod
    def add_audit(tid: str, entry: dict[str, Any]) -> list[tuple[str, tuple]]:
        text = json.dumps(entry)
        return [("INSERT INTO audit (tournament_id, seq, entry_json, proof) VALUES (?, ?, ?, ?)",
                 (tid, entry["seq"], text, I.audit_proof(tid, entry["seq"], text))), _tip(tid, "audit", entry["seq"])]

    def load_tournaments(self) -> list[tuple[str, dict, list[tuple[int, str, list]], list[dict], list[str]]]:
        """(id, config, [(round, seed, tables)], audit entries, director token hashes) of every tournament."""
        return _reading(self, self._load_tournaments)

    def _load_tournaments(self, conn) -> list:
        """Every tournament that its proofs prove; one that they do not is left out (and logged): a call for
        it reads it from the store, and is refused as damaged."""
        out = []
        for (tid,) in conn.execute("SELECT id FROM tournaments ORDER BY created").fetchall():
            try:
                found = _tournament(conn, tid)
            except StoreDamaged as e:
                log.error("%s: %s (calls for it answer DATA_LOSS)", self.path, e)
                continue
            if found is None:  # deleted meanwhile
                continue
            config, rounds, audit = found
            tokens = [h for (h,) in conn.execute(
                "SELECT hash FROM tokens WHERE table_id = ? AND role = 'director'", (tid,))]
            out.append((tid, config, rounds, audit, tokens))
        return out

    def load_tournament(self, tid: str) -> tuple[dict, list[tuple[int, str, list]], list[dict]] | None:
        """(config, [(round, seed, tables)], audit entries) of one tournament, or None: what a replica
        reads on each call for a tournament (its state is the store's, whichever replica wrote it)."""
        return _reading(self, lambda conn: _tournament(conn, tid))

    # ---- reads (at start-up, and of what has left memory); each in a reading thread (off_loop)
    def open_tables(self) -> list[tuple[str, str | None, float | None]]:
        """(id, seal, time of its last move or None) of every unfinished table, oldest first; of
        every table when the file predates snapshots (it has not marked finished ones yet)."""
        where = "" if self.upgraded else "WHERE finished = 0"
        return _reading(self, lambda conn: conn.execute(
            f"SELECT id, seal, updated FROM tables {where} ORDER BY created").fetchall())

    def load(self, table_ids: list[str]) -> list[StoredTable]:
        """These tables (those that exist), each with its tokens, its latest snapshot and the moves
        after it. A row that does not read (JSON that does not parse) is reported in `broken`.
        Reads see only committed transactions, so this is safe beside the writer."""
        return _reading(self, lambda conn: [t for tid in table_ids if (t := _load_one(conn, tid)) is not None])

    def moves_of(self, table_id: str) -> list[tuple[int, int, str, str | None]]:
        """Every move of a table, (version, seat, code, chain hash) in order: for its record and old events."""
        return _reading(self, lambda conn: [tuple(m) for m in conn.execute(
            "SELECT version, seat, code, chain FROM moves WHERE table_id = ? ORDER BY version", (table_id,))])

    def server_moves_of(self, table_id: str) -> dict[int, str]:
        """version -> who of the moves the server made for a seat ("bot" or "clock", by their keys): the
        record's annotations."""
        return _reading(self, lambda conn: {v: k.partition(":")[0] for v, k in conn.execute(
            "SELECT version, idem FROM moves WHERE table_id = ? AND (idem LIKE ? OR idem LIKE ?)",
            (table_id, "bot:%", "clock:%"))})

    def tokens_of(self, table_id: str) -> list[tuple[str, str, int | None, str]]:
        """(hash, role, seat, name) of every token of a table."""
        return self._read("SELECT hash, role, seat, name FROM tokens WHERE table_id = ?", (table_id,))

    def find_token(self, token_hash: str) -> tuple[str, str, int | None] | None:
        """(table id, role, seat) of a token by its hash, if the store knows it."""
        return _one(self._read("SELECT table_id, role, seat FROM tokens WHERE hash = ?", (token_hash,)))

    def find_key(self, table_id: str, key: str) -> tuple[int, int, str | None] | None:
        """(version, seat, digest) of the move a table's idempotency key was used for, if it was."""
        return _one(self._read("SELECT version, seat, digest FROM moves WHERE table_id = ? AND idem = ?", (table_id, key)))

    def find_request(self, scope: str, key_hash: str) -> tuple[str, str, str] | None:
        """(digest, salt, answer JSON) of an idempotent call made with this key (idem.py), if one was."""
        return _one(self._read("SELECT digest, salt, answer_json FROM requests WHERE scope = ? AND key_hash = ?",
                               (scope, key_hash)))

    def outcome(self, table_id: str) -> tuple[bool, list[int], int | None] | None:
        """(finished, scores, winner) as stored, proven by its digest; None for no such table.
        Scores are stored only once the game is over. StoreDamaged if the digest does not hold."""
        row = _one(self._read("SELECT finished, outcome_json, ended, end_digest, chain0, (SELECT chain FROM moves m "
                              "WHERE m.table_id = t.id ORDER BY version DESC LIMIT 1) FROM tables t WHERE id = ?",
                              (table_id,)))
        if row is None:
            return None
        finished, outcome, ended, digest, chain0, last = row
        if not finished:
            return False, [], None
        if digest != I.end_digest(last or chain0 or "", outcome or "", ended):
            raise StoreDamaged(table_id, "its stored outcome was changed (its digest does not hold)")
        try:
            done = json.loads(outcome)
            return True, list(done["scores"]), done["winner"]
        except (ValueError, KeyError, TypeError):
            raise StoreDamaged(table_id, "its stored outcome does not read") from None

    def record_of(self, table_id: str, head: str) -> dict[str, Any] | None:
        """A finished table's record, once one has been kept, proven against the chain head `head`
        (the table's, verified as it was read back); StoreDamaged if it does not hold."""
        row = _one(self._read("SELECT record_json, record_digest FROM tables WHERE id = ?", (table_id,)))
        if not row or not row[0]:
            return None
        if row[1] != I.record_digest(head, row[0]):
            raise StoreDamaged(table_id, "its kept record was changed in the store (its digest does not hold)")
        try:
            return json.loads(row[0])
        except ValueError:
            raise StoreDamaged(table_id, "its kept record does not read") from None

    def seat_tokens(self, table_id: str, seat: int) -> int:
        """How many tokens were handed out for a seat (its player's, and any other they asked for)."""
        return self._read("SELECT COUNT(*) FROM tokens WHERE table_id = ? AND role = 'seat' AND seat = ?",
                          (table_id, seat))[0][0]

    def seal_of(self, table_id: str) -> str | None:
        """The seal a table was created under (a duplicate round's), if any."""
        rows = self._read("SELECT seal FROM tables WHERE id = ?", (table_id,))
        return rows[0][0] if rows else None

    def seal_tables(self, seal: str) -> list[str]:
        return [tid for (tid,) in self._read("SELECT id FROM tables WHERE seal = ? ORDER BY created", (seal,))]

    def stale_tables(self, before: float, limit: int) -> list[str]:
        """Unfinished tables with no move (nor creation) since `before`, oldest first."""
        return [tid for (tid,) in self._read(
            "SELECT id FROM tables WHERE finished = 0 AND COALESCE(updated, created) < ? ORDER BY created LIMIT ?",
            (before, limit))]

    def open_in_shards(self, shards: list[int]) -> list[tuple[str, float | None]]:
        """(id, time of its last move or None) of the unfinished tables of these shards, oldest
        first: a replica that takes the shards over."""
        marks = ", ".join("?" * len(shards))
        return _reading(self, lambda conn: [tuple(row) for row in conn.execute(
            f"SELECT id, updated FROM tables WHERE finished = 0 AND shard IN ({marks}) ORDER BY created",
            tuple(shards))])

    def fill_shards(self) -> int:
        """Give tables written before shards their shard (a store that a lone server used before)."""
        def fill(conn) -> int:
            ids = [tid for (tid,) in conn.execute("SELECT id FROM tables WHERE shard IS NULL")]
            for tid in ids:
                conn.execute("UPDATE tables SET shard = ? WHERE id = ?", (shard_of(tid), tid))
            return len(ids)
        return _reading(self, fill)

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        """A point read by key on this thread's connection."""
        return _reading(self, lambda conn: conn.execute(sql, params).fetchall())

    def _chain_legacy(self) -> int:
        """Hash the tables stored before integrity hashes (a store from an older server), once: their
        rows become as provable as new ones. Returns how many."""
        conn = self.backend.connect()
        try:
            ids = [tid for (tid,) in conn.execute("SELECT id FROM tables WHERE chain0 IS NULL")]
            for tid in ids:
                _chain_one(conn, self.backend, tid)
            if ids:
                log.info("%s: %d tables from before integrity hashes were hashed", self.path, len(ids))
            _prove_legacy_rows(conn, self.backend, self.path)
            return len(ids)
        finally:
            _close(conn)


def _prove_legacy_rows(conn, backend, path: str) -> None:
    """Give the club and tournament rows stored before their proofs (clubproof.py, integrity.py) counts and
    proofs, once, in one transaction."""
    from smear_referee.storage import clubproof
    conn.execute(backend.BEGIN)
    try:
        counts = clubproof.legacy(conn) + prove_legacy_tournaments(conn)
        for sql, params in counts:
            conn.execute(sql, params)
        sums = clubproof.legacy_sums(conn)
        for sql, params in sums:
            conn.execute(sql, params)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if counts or sums:
        log.info("%s: club and tournament rows from before their proofs were proven (%d changes)", path,
                 len(counts) + len(sums))


def _reading(store: Store, fn: Callable[[Any], T]) -> T:
    """Run `fn(connection)` on this thread's reading connection: StoreDown if the database cannot
    answer (the connection is opened afresh next time). Counted (and refused under STRICT) when
    made on an event loop's thread, where it would stall every other call."""
    try:
        asyncio.get_running_loop()
        on_loop = True
    except RuntimeError:
        on_loop = False
    if on_loop:
        store.blocking_calls += 1
        if STRICT:
            raise BlockingStoreCall("a store read ran on the event loop's thread (use Store.off_loop)")
    try:
        return fn(store._conn())
    except store.backend.Error as e:
        store._drop_conn()
        raise StoreDown(f"the database did not answer: {str(e).strip().splitlines()[0][:200] if str(e) else e}") \
            from None


def _tip(tid: str, kind: str, n: int) -> tuple[str, tuple]:
    """How many rounds (or audited acts) a tournament has, proven (a deleted one shows)."""
    return ("INSERT INTO tournament_tips (tournament_id, kind, n, proof) VALUES (?, ?, ?, ?) ON CONFLICT "
            "(tournament_id, kind) DO UPDATE SET n = excluded.n, proof = excluded.proof",
            (tid, kind, n, I.tip_proof(tid, kind, n)))


def _tournament(conn, tid: str) -> tuple[dict, list[tuple[int, str, list]], list[dict]] | None:
    """A tournament as stored, every row proven (integrity.py): StoreDamaged naming the first that does not hold."""
    row = conn.execute("SELECT config_json, created, proof FROM tournaments WHERE id = ?", (tid,)).fetchone()
    if row is None:
        return None

    def damaged(why: str) -> StoreDamaged:
        return StoreDamaged(tid, why, "tournament")
    if row[2] != I.tournament_proof(tid, row[0], row[1]):
        raise damaged("its stored settings were changed")
    tips = {kind: (n, proof) for kind, n, proof in conn.execute(
        "SELECT kind, n, proof FROM tournament_tips WHERE tournament_id = ?", (tid,)).fetchall()}
    if any(proof != I.tip_proof(tid, kind, n) for kind, (n, proof) in tips.items()) or set(tips) != {"rounds", "audit"}:
        raise damaged("its stored counts of rounds and acts were changed")
    try:
        rounds, audit = [], []
        for r, seed, tables, proof in conn.execute("SELECT round, seed, tables_json, proof FROM rounds WHERE "
                                                   "tournament_id = ? ORDER BY round", (tid,)).fetchall():
            if proof != I.round_proof(tid, r, seed, tables):
                raise damaged(f"round {r + 1} was changed in the store")
            rounds.append((r, seed, json.loads(tables)))
        for seq, entry, proof in conn.execute("SELECT seq, entry_json, proof FROM audit WHERE tournament_id = ? "
                                              "ORDER BY seq", (tid,)).fetchall():
            if proof != I.audit_proof(tid, seq, entry):
                raise damaged(f"the director's act {seq} was changed in the store")
            audit.append(json.loads(entry))
        config = json.loads(row[0])
    except ValueError:
        raise damaged("a stored row does not read") from None
    if [r for r, _s, _t in rounds] != list(range(tips["rounds"][0])) or \
            [e.get("seq") for e in audit] != list(range(1, tips["audit"][0] + 1)):
        raise damaged("a round or an act was deleted from the store (its count does not hold)")
    return config, rounds, audit


def prove_legacy_tournaments(conn) -> list[tuple[str, tuple]]:
    """Statements giving the tournament rows stored before their proofs (an older server's) proofs and counts,
    once: they become as provable as new ones (what they held then is trusted)."""
    out: list[tuple[str, tuple]] = []
    for tid, text, created in conn.execute("SELECT id, config_json, created FROM tournaments WHERE proof IS NULL"):
        out.append(("UPDATE tournaments SET proof = ? WHERE id = ?", (I.tournament_proof(tid, text, created), tid)))
        rounds = conn.execute("SELECT COALESCE(MAX(round) + 1, 0) FROM rounds WHERE tournament_id = ?", (tid,)).fetchone()[0]
        acts = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM audit WHERE tournament_id = ?", (tid,)).fetchone()[0]
        out += [_tip(tid, "rounds", rounds), _tip(tid, "audit", acts)]
    for tid, r, seed, text in conn.execute("SELECT tournament_id, round, seed, tables_json FROM rounds WHERE proof IS NULL"):
        out.append(("UPDATE rounds SET proof = ? WHERE tournament_id = ? AND round = ?",
                    (I.round_proof(tid, r, seed, text), tid, r)))
    for tid, seq, text in conn.execute("SELECT tournament_id, seq, entry_json FROM audit WHERE proof IS NULL"):
        out.append(("UPDATE audit SET proof = ? WHERE tournament_id = ? AND seq = ?", (I.audit_proof(tid, seq, text), tid, seq)))
    return out


def _load_one(conn, tid: str) -> StoredTable | None:
    """One table as stored; a row that does not read sets `broken` rather than raising."""
    row = conn.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (tid,)).fetchone()
    if row is None:
        return None
    try:
        options = json.loads(row[4])
        if not isinstance(options, dict):
            raise ValueError("not an object")
        broken = None
    except ValueError:
        options, broken = {}, I.Broken(0, "its options do not read (the stored JSON is damaged)")
    st = StoredTable(row[0], row[1], row[2], row[3], options, row[5], row[6], row[7], [], [], bool(row[8]), row[9],
                    row[10], row[11], row[12], chain0=row[13], options_json=row[4], broken=broken,
                    finished=bool(row[14]), outcome_json=row[15], end_digest=row[16], turn_seconds=row[17] or 0)
    st.tokens = [(h, role, seat, name or "") for h, role, seat, name in conn.execute(
        "SELECT hash, role, seat, name FROM tokens WHERE table_id = ?", (tid,))]
    snap = conn.execute("SELECT version, seq, state_json, chain, digest FROM snapshots WHERE table_id = ?",
                        (tid,)).fetchone()
    after = 0
    if snap is not None:
        version, seq, state_json, chain, digest = snap
        after = version
        if st.broken is None and digest != I.snapshot_digest(chain or "", version, seq, state_json):
            st.broken = I.Broken(version, f"its snapshot at version {version} was changed in the store (its digest "
                                "does not hold)")
        try:
            st.snapshot = {"version": version, "seq": seq, "state": json.loads(state_json), "chain": chain}
        except ValueError:
            st.broken = st.broken or I.Broken(version, f"its snapshot at version {version} does not read")
    st.moves = [tuple(m) for m in conn.execute(
        "SELECT version, seat, code, idem, digest, chain FROM moves WHERE table_id = ? AND version > ? "
        "ORDER BY version", (tid, after))]
    return st


def _chain_one(conn, backend, tid: str) -> None:
    """Write the hashes of one table stored before them (in one transaction)."""
    row = conn.execute("SELECT rules_name, rules_text, players, options_json, seed, first_dealer, duplicate, "
                       "hand_limit, seal, finished, outcome_json, ended, record_json FROM tables WHERE id = ?",
                       (tid,)).fetchone()
    (rules_name, rules_text, players, options_json, seed, first, duplicate, hand_limit, seal, finished, outcome,
     ended, record) = row
    root = I.genesis(tid, rules_name, rules_text, players, options_json, seed, first, bool(duplicate), hand_limit, seal)
    moves = conn.execute("SELECT version, seat, code FROM moves WHERE table_id = ? ORDER BY version", (tid,)).fetchall()
    snap = conn.execute("SELECT version, seq, state_json FROM snapshots WHERE table_id = ?", (tid,)).fetchone()
    conn.execute(backend.BEGIN)
    try:
        head, at = root, {0: root}
        for version, seat, code in moves:
            head = I.link(head, version, seat, code)
            at[version] = head
            conn.execute("UPDATE moves SET chain = ? WHERE table_id = ? AND version = ?", (head, tid, version))
        if snap is not None and snap[0] in at:
            chain = at[snap[0]]
            conn.execute("UPDATE snapshots SET chain = ?, digest = ? WHERE table_id = ?",
                         (chain, I.snapshot_digest(chain, snap[0], snap[1], snap[2]), tid))
        end = I.end_digest(head, outcome or "", ended) if finished else None
        kept = I.record_digest(head, record) if record else None
        conn.execute("UPDATE tables SET chain0 = ?, end_digest = ?, record_digest = ? WHERE id = ?",
                     (root, end, kept, tid))
        conn.execute("COMMIT")
    except backend.Error:
        _rollback(conn, backend)
        raise


class BlockingStoreCall(SmearError):
    """A store read was made on an event loop's thread (a bug: it holds up every other call)."""


class StoreDamaged(SmearError):
    """A stored row of a table that its hashes do not prove (changed or corrupted in the store)."""

    def __init__(self, table_id: str, reason: str, what: str = "table"):
        super().__init__(f"{what} {table_id}: {reason}")
        self.table_id, self.reason, self.what = table_id, reason, what


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
