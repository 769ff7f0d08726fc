"""Which tables this server may write: all of them (one server on its store), or, for replicas
sharing a PostgreSQL database, the tables of the shards it holds a lease on.

Tables are spread over SHARDS shards by a hash of their id. Each shard has a lease row (owner
replica, its address, an epoch, an expiry by the database's clock). A replica renews its leases
every `lease_seconds / 4`; one whose lease expired (killed, stopped, cut off) can no longer write:
every write transaction first checks, under a row lock, that its shard's lease is still this
replica's at the same epoch (the fencing token), so a takeover, which bumps the epoch, waits for a
write in flight and refuses any after it. A live replica takes over expired shards up to its share
(shards / live replicas) and hands back what is over its share, so replicas that join get work.
"""
from __future__ import annotations

import hashlib
import logging
import math
import secrets
import threading
import time
from dataclasses import dataclass, field

from smear_dsl.errors import SmearError

log = logging.getLogger("smear_dsl.referee")
SHARDS = 64

LEASE_SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (
    shard INTEGER PRIMARY KEY, owner TEXT, address TEXT, epoch BIGINT NOT NULL DEFAULT 0,
    expires TIMESTAMPTZ NOT NULL DEFAULT '-infinity');
CREATE TABLE IF NOT EXISTS replicas (id TEXT PRIMARY KEY, address TEXT NOT NULL, seen TIMESTAMPTZ NOT NULL)
"""
# The fence every write of a table runs first: the lease row is locked (FOR SHARE) until the write
# commits, so a takeover (an UPDATE of that row) happens before it or after it, never across it.
FENCE_SQL = ("SELECT 1 FROM leases WHERE shard = %s AND owner = %s AND epoch = %s AND expires > clock_timestamp() "
             "FOR SHARE")
# And again just before COMMIT: a writer stopped mid-transaction (its lease ran out meanwhile) commits nothing.
STILL_HELD_SQL = "SELECT shard FROM leases WHERE shard = ANY(%s) AND expires > clock_timestamp()"


def shard_of(table_id: str) -> int:
    return int(hashlib.sha256(table_id.encode()).hexdigest()[:8], 16) % SHARDS


class Fenced(SmearError):
    """A write refused by the database: its replica no longer holds the shard at that epoch."""


@dataclass(frozen=True)
class Fence:
    """What a write must still hold when it commits: (shard, owner replica, epoch)."""

    shard: int
    owner: str
    epoch: int


class Solo:
    """One server on its store (SQLite, or PostgreSQL without --advertise): it owns every table."""

    clustered = False
    address = ""

    def owns(self, table_id: str) -> bool:
        return True

    def fence(self, table_id: str) -> Fence | None:
        return None

    def owner_of(self, table_id: str) -> str:
        return ""

    def new_id(self) -> str | None:
        return secrets.token_hex(8)


@dataclass
class Tick:
    """What one renewal round found: the shards still held and those newly taken, each with its epoch,
    how many to hand back, who owns the others, and when the round began (local monotonic time)."""

    kept: dict[int, int]
    gained: dict[int, int]
    excess: int
    owners: dict[int, str]
    began: float


@dataclass
class Leases:
    """This replica's leases, renewed by `tick` (a blocking round trip, run off the event loop).

    `held` maps a shard to (epoch, local deadline): the deadline is the round's start plus the
    lease time, never later than the database's expiry, so the replica stops writing first."""

    url: str
    address: str
    seconds: float = 5.0
    replica: str = field(default_factory=lambda: secrets.token_hex(6))
    held: dict[int, tuple[int, float]] = field(default_factory=dict)
    owners: dict[int, str] = field(default_factory=dict)
    clustered = True

    def __post_init__(self) -> None:
        self._conn = None
        self._guard = threading.Lock()  # one round trip at a time on the lease connection
        self._held_lock = threading.Lock()  # `held` is replaced whole, from the lease thread and the loop
        self.releasing: set[int] = set()  # shards being handed back: not renewed, not held

    # ---- what the tables ask
    def owns(self, table_id: str) -> bool:
        held = self.held.get(shard_of(table_id))
        return held is not None and time.monotonic() < held[1]

    def fence(self, table_id: str) -> Fence | None:
        shard = shard_of(table_id)
        held = self.held.get(shard)
        return Fence(shard, self.replica, held[0] if held else -1)

    def owner_of(self, table_id: str) -> str:
        """The address of the replica that holds the table's shard, as of the last round ('' if none)."""
        return self.owners.get(shard_of(table_id), "")

    def new_id(self) -> str | None:
        """A fresh table id in a shard this replica holds (None when it holds none)."""
        now = time.monotonic()
        mine = {s for s, (_e, until) in self.held.items() if now < until}
        if not mine:
            return None
        while True:  # about SHARDS / len(mine) draws
            tid = secrets.token_hex(8)
            if shard_of(tid) in mine:
                return tid

    # ---- the database side (blocking: call from a worker thread)
    def _db(self):
        if self._conn is None or self._conn.closed:
            import psycopg
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        return self._conn

    def prepare(self) -> None:
        """Create the lease rows (once per database) and register this replica."""
        conn = self._db()
        for sql in filter(str.strip, LEASE_SCHEMA.split(";")):
            conn.execute(sql)
        conn.execute("INSERT INTO leases (shard) SELECT g FROM generate_series(0, %s) g ON CONFLICT DO NOTHING",
                     (SHARDS - 1,))

    def tick(self) -> Tick:
        """Renew, count the live replicas, take expired shards up to this replica's share."""
        with self._guard:
            try:
                return self._tick()
            except Exception:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
                raise

    def _tick(self) -> Tick:
        began = time.monotonic()
        conn = self._db()
        ttl = f"{self.seconds} seconds"
        conn.execute("INSERT INTO replicas (id, address, seen) VALUES (%s, %s, clock_timestamp()) ON CONFLICT (id) "
                     "DO UPDATE SET seen = excluded.seen, address = excluded.address", (self.replica, self.address))
        held = {shard: epoch for shard, (epoch, _until) in self.held.items() if shard not in self.releasing}
        kept = {}
        if held:  # one statement; rows locked in shard order, as the writer's fences lock them (no deadlock)
            # The expiry is tested again once the row is locked (a write holding it may have kept this
            # waiting past the lease): a lease that ran out is not renewed, it is taken again with a new epoch.
            kept = {shard: epoch for shard, epoch, alive in conn.execute(
                "UPDATE leases SET expires = CASE WHEN expires > clock_timestamp() THEN clock_timestamp() + "
                "%s::interval ELSE expires END WHERE shard IN (SELECT shard FROM leases WHERE owner = %s AND "
                "shard = ANY(%s) ORDER BY shard FOR UPDATE) RETURNING shard, epoch, expires > clock_timestamp()",
                (ttl, self.replica, list(held))) if alive and held.get(shard) == epoch}
        live = conn.execute("SELECT count(*) FROM replicas WHERE seen > clock_timestamp() - %s::interval",
                            (ttl,)).fetchone()[0]
        share = math.ceil(SHARDS / max(1, live))
        gained = {}
        if len(kept) < share:
            gained = dict(conn.execute(
                "UPDATE leases SET owner = %s, address = %s, epoch = epoch + 1, expires = clock_timestamp() + "
                "%s::interval WHERE shard IN (SELECT shard FROM leases WHERE owner IS NULL OR expires <= "
                "clock_timestamp() ORDER BY random() LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING shard, epoch",
                (self.replica, self.address, ttl, share - len(kept))).fetchall())
        owners = dict(conn.execute("SELECT shard, address FROM leases WHERE owner IS NOT NULL AND "
                                   "expires > clock_timestamp()").fetchall())
        conn.execute("DELETE FROM replicas WHERE seen < clock_timestamp() - %s::interval", (f"{10 * self.seconds} seconds",))
        owned = len(kept) + len(gained)
        return Tick(kept, gained, owned - share if owned > share + 1 else 0, owners, began)

    def adopt(self, tick: Tick) -> set[int]:
        """Hold what the round renewed or took; the shards lost since the round before are returned."""
        until = tick.began + self.seconds
        with self._held_lock:
            lost = set(self.held) - set(tick.kept) - self.releasing
            self.held = {s: (e, until) for s, e in {**tick.kept, **tick.gained}.items() if s not in self.releasing}
        self.owners = tick.owners
        return lost

    def lapsed(self) -> set[int]:
        """Shards whose lease ran out by the local clock with no renewal (the database is away):
        dropped from `held` and returned."""
        now = time.monotonic()
        with self._held_lock:
            gone = {s for s, (_e, until) in self.held.items() if now >= until}
            self.held = {s: v for s, v in self.held.items() if s not in gone}
        return gone

    def releasing_now(self, shard: int) -> int:
        """Stop writing `shard` (it is about to be handed back): its epoch."""
        with self._held_lock:
            self.releasing.add(shard)
            held = self.held.get(shard)
            self.held = {s: v for s, v in self.held.items() if s != shard}
        return held[0] if held else -1

    def release(self, shard: int, epoch: int) -> None:
        """Hand a shard back (taken out of `held` first, and its tables out of memory): the next
        replica short of its share takes it."""
        with self._guard:
            try:
                self._db().execute("UPDATE leases SET owner = NULL, address = NULL, expires = clock_timestamp() "
                                   "WHERE shard = %s AND owner = %s AND epoch = %s", (shard, self.replica, epoch))
            except Exception:  # noqa: BLE001 - it expires on its own then
                log.warning("could not hand back shard %d; it expires by itself", shard)
            finally:
                self.releasing.discard(shard)

    def leave(self) -> None:
        """At a graceful stop: hand every shard back at once, and stop counting as live."""
        for shard in list(self.held):
            self.release(shard, self.releasing_now(shard))
        with self._guard:
            try:
                self._db().execute("DELETE FROM replicas WHERE id = %s", (self.replica,))
            except Exception:  # noqa: BLE001
                pass
            if self._conn is not None:
                self._conn.close()
                self._conn = None
