"""What an operator does to a store: check that every table in it is intact, back it up while the
server runs, and put a backup back (`smear-dsl store check|backup|restore`).

`check` proves each table with its hashes (integrity.py): its settings against its root, every
move against the chain, its snapshot, outcome and kept record against their digests; and each club
by its rows' proofs, counts and chain (club/storecheck.py); `--deep` also replays every game
through the engine (a rule file changed under a stored game shows there) and re-referees every
club game's record.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from smear_dsl.errors import SmearError
from smear_referee.storage import integrity as I
from smear_referee.storage.backends import StoreInUse, _lock, is_postgres


class StoreToolError(SmearError):
    """A store command that cannot be carried out (the message says why)."""


@dataclass
class Report:
    """What a check found: tables and moves looked at, and the damaged ones (id, version, what)."""

    tables: int = 0
    moves: int = 0
    clubs: int = 0
    club_games: int = 0
    tournaments: int = 0
    unproven: int = 0  # clubs and tournaments from before their rows had proofs (a server opening the store proves them)
    unchained: int = 0  # tables from before integrity hashes (a server opening the store hashes them)
    damaged: list[tuple] = field(default_factory=list)  # (id, version, what[, "club"])
    seconds: float = 0.0
    complete: bool = True  # False: a limit stopped it before the last table

    def summary(self) -> str:
        what = f"{self.tables:,} tables, {self.moves:,} moves" + (
            f", {self.clubs:,} clubs ({self.club_games:,} games)" if self.clubs else "") + (
            f", {self.tournaments:,} tournaments" if self.tournaments else "") + f" checked in {self.seconds:.2f} s"
        if self.unchained:
            what += f" ({self.unchained:,} from before integrity hashes, not yet hashed)"
        if self.unproven:
            what += f" ({self.unproven:,} clubs and tournaments from before their proofs, not yet proven)"
        return what + (": all intact" if not self.damaged else f": {len(self.damaged)} damaged")


def connect_read_only(db: str):
    """A connection that can read a store without taking it from the server using it."""
    if is_postgres(db):
        import psycopg

        from smear_referee.storage.backends import _PgConnection
        try:
            return _PgConnection(psycopg.connect(db, autocommit=True, connect_timeout=5))
        except psycopg.Error as e:
            raise StoreToolError(f"cannot reach the database: {str(e).strip().splitlines()[0][:200]}") from None
    if not os.path.isfile(db):
        raise StoreToolError(f"no store {db}")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("SELECT 1 FROM tables LIMIT 1")
    except sqlite3.DatabaseError as e:
        conn.close()
        raise StoreToolError(f"{db} is not a referee's store: {e}") from None
    return conn


def check_table(conn, tid: str, deep: bool = False) -> tuple[int, tuple[int, str] | None, bool]:
    """(moves, (version, what) if damaged, whether it predates hashes) for one table."""
    row = conn.execute("SELECT rules_name, rules_text, players, options_json, seed, first_dealer, duplicate, hand_limit, "
                       "seal, chain0, finished, outcome_json, ended, end_digest, record_json, record_digest "
                       "FROM tables WHERE id = ?", (tid,)).fetchone()
    (rules_name, rules_text, players, options_json, seed, first, duplicate, hand_limit, seal, chain0, finished,
     outcome, ended, end_digest, record, record_digest) = row
    moves = conn.execute("SELECT version, seat, code, chain FROM moves WHERE table_id = ? ORDER BY version",
                         (tid,)).fetchall()
    if chain0 is None:
        return len(moves), None, True
    root = I.genesis(tid, rules_name, rules_text, players, options_json, seed, first, bool(duplicate), hand_limit, seal)
    if chain0 != root:
        return len(moves), (0, "its settings (rules, seats, options or seed) were changed (its root hash does not "
                            "hold)"), False
    try:
        json.loads(options_json)
    except ValueError:
        return len(moves), (0, "its options do not read"), False
    heads = {0: root}
    try:
        head = root
        for i, (version, seat, code, stored) in enumerate(moves):
            head = I.walk(head, [(version, seat, code, stored)], i)
            heads[version] = head
    except I.Broken as e:
        return len(moves), (e.version, e.what), False
    snap = conn.execute("SELECT version, seq, state_json, chain, digest FROM snapshots WHERE table_id = ?",
                        (tid,)).fetchone()
    if snap is not None:
        version, seq, state_json, chain, digest = snap
        if chain != heads.get(version) or digest != I.snapshot_digest(chain or "", version, seq, state_json):
            return len(moves), (version, f"its snapshot at version {version} was changed (its digest does not "
                                "hold)"), False
        try:
            json.loads(state_json)
        except ValueError:
            return len(moves), (version, "its snapshot does not read"), False
    if finished and end_digest != I.end_digest(head, outcome or "", ended):
        return len(moves), (len(moves), "its outcome was changed (its digest does not hold)"), False
    if record is not None:
        if record_digest != I.record_digest(head, record):
            return len(moves), (len(moves), "its kept record was changed (its digest does not hold)"), False
        try:
            json.loads(record)
        except ValueError:
            return len(moves), (len(moves), "its kept record does not read"), False
    if deep:
        problem = _replays(conn, tid)
        if problem is not None:
            return len(moves), problem, False
    return len(moves), None, False


def _replays(conn, tid: str) -> tuple[int, str] | None:
    """Whether the table's stored log replays through the engine: from its snapshot, as the server
    reads it back (restore.rebuild), and whole from the first move, as its record is made."""
    from smear_dsl.errors import MoveError
    from smear_referee.storage.store import _load_one
    from smear_referee.tables.restore import Damaged, rebuild
    try:
        st = _load_one(conn, tid)
        if st is None:
            return None
        t, _behind = rebuild(st)
        moves = conn.execute("SELECT version, seat, code FROM moves WHERE table_id = ? ORDER BY version",
                             (tid,)).fetchall()
        t.full_game(moves)
    except Damaged as e:
        return e.version, e.reason
    except MoveError as e:
        return 0, f"its moves do not replay from the first: {e.code}: {e.message}"
    except Exception as e:  # noqa: BLE001 - a check reports, it does not crash
        return 0, f"does not rebuild: {type(e).__name__}: {str(e)[:200]}"
    return None


def table_ids(conn, recent_first: bool = False) -> Iterator[str]:
    order = "COALESCE(updated, created) DESC" if recent_first else "created"
    for (tid,) in conn.execute(f"SELECT id FROM tables ORDER BY {order}").fetchall():
        yield tid


def scan(conn, deep: bool = False, limit: int | None = None, seconds: float | None = None,
         recent_first: bool = False, each: Callable[[str, Any], None] | None = None) -> Report:
    """Check every table (or the `limit` most recent, or as many as `seconds` allow)."""
    report, t0 = Report(), time.monotonic()
    for tid in table_ids(conn, recent_first):
        if limit is not None and report.tables >= limit or seconds is not None and time.monotonic() - t0 > seconds:
            report.complete = False
            break
        n, problem, unchained = check_table(conn, tid, deep)
        report.tables += 1
        report.moves += n
        report.unchained += unchained
        if problem is not None:
            report.damaged.append((tid, *problem))
        if each is not None:
            each(tid, problem)
    if limit is None and seconds is None and each is None and not _unproven(conn, report):
        from smear_referee.club.storecheck import check_club, club_ids  # the whole store: clubs, tournaments too
        from smear_referee.storage.store import StoreDamaged, _tournament
        for cid in club_ids(conn):
            games, what = check_club(conn, cid, deep)
            report.clubs += 1
            report.club_games += games
            if what is not None:
                report.damaged.append((cid, 0, what, "club"))
        for (tid,) in conn.execute("SELECT id FROM tournaments ORDER BY created").fetchall():
            report.tournaments += 1
            try:
                _tournament(conn, tid)
            except StoreDamaged as e:
                report.damaged.append((tid, 0, e.reason, "tournament"))
    report.seconds = time.monotonic() - t0
    return report


def _unproven(conn, report: Report) -> bool:
    """Whether the store is from before club and tournament rows had proofs (no server has opened it since: one
    that does proves them), counting its clubs and tournaments as such in `report`."""
    try:
        conn.execute("SELECT proof FROM tournaments WHERE 1 = 0").fetchall()
        conn.execute("SELECT proof FROM clubs WHERE 1 = 0").fetchall()
        return False
    except Exception:  # noqa: BLE001 - the column is missing (each driver names that error its own way)
        for table in ("clubs", "tournaments"):
            try:
                report.unproven += conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            except Exception:  # noqa: BLE001 - a store from before clubs: it has none
                pass
        return True


def check(db: str, deep: bool = False) -> Report:
    conn = connect_read_only(db)
    try:
        return scan(conn, deep)
    finally:
        conn.close()


def backup(db: str, dest: str) -> Report:
    """An online copy of an SQLite store (SQLite's backup API: consistent, and safe while a server
    writes it), checked once written. PostgreSQL has pg_dump for this (docs/referee.md)."""
    if is_postgres(db):
        raise StoreToolError("a PostgreSQL store is backed up with pg_dump: pg_dump -Fc -f FILE.dump 'URL' "
                             "(and restored with pg_restore: docs/referee.md, \"Backups\")")
    if os.path.exists(dest):
        raise StoreToolError(f"{dest} exists: give a new file (a backup never overwrites one)")
    src = connect_read_only(db)
    partial = f"{dest}.partial"
    try:
        out = sqlite3.connect(partial)
        try:
            src.backup(out, pages=1024, sleep=0.001)  # a step at a time: the server's writes go on between steps
        finally:
            out.close()
    finally:
        src.close()
    os.replace(partial, dest)
    return check(dest)


def restore(backup_file: str, db: str) -> tuple[Report, str | None]:
    """Put a checked backup in place of `db` (no server may be using it); the file it replaces is
    kept beside it as DB.before-restore-TIME. Returns the backup's check and that file's name."""
    if is_postgres(db):
        raise StoreToolError("a PostgreSQL store is restored with pg_restore: pg_restore --clean --if-exists -d "
                             "'URL' FILE.dump (docs/referee.md, \"Backups\")")
    report = check(backup_file)
    if report.damaged:
        raise StoreToolError(f"the backup {backup_file} is damaged ({len(report.damaged)} tables): not restored")
    try:
        lock = _lock(db)
    except StoreInUse:
        raise StoreToolError(f"{db} is in use by a running server: stop it first") from None
    kept = None
    try:
        if os.path.exists(db):  # kept whole, what its write-ahead log holds included
            kept = f"{db}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
            old, copy = sqlite3.connect(db), sqlite3.connect(kept)
            try:
                old.backup(copy)
            finally:
                old.close()
                copy.close()
        src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
        out = sqlite3.connect(db)
        try:
            src.backup(out)
        finally:
            src.close()
            out.close()
    finally:
        lock.close()
    return report, kept
