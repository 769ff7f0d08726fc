"""Referee replicas on one PostgreSQL database, and bots and spectators that play through them on
asyncio, following NOT_OWNER and recording every acknowledgement and every event they receive:
for tests/system/test_cluster.py and benchmarks/bench_cluster.py.
"""
from __future__ import annotations

import asyncio
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402
from smear_referee.clients.client import RECONNECT, choose, error_info  # noqa: E402
from smear_referee.tables import seen  # noqa: E402

PG_SERVER = "postgresql://postgres@127.0.0.1:5432"


def pg_reachable() -> str | None:
    """None when PostgreSQL answers at 127.0.0.1:5432, else why not (one line)."""
    import psycopg
    try:
        psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3).close()
        return None
    except psycopg.Error as e:
        return str(e).strip().splitlines()[0][:100]


def new_database(tag: str) -> str:
    import psycopg
    name = f"smear_{tag}_{secrets.token_hex(4)}"
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return f"{PG_SERVER}/{name}"


def drop_database(url: str) -> None:
    import psycopg
    name = url.rsplit("/", 1)[1]
    for _ in range(30):  # PostgreSQL may still be coming back from a restart
        try:
            with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=3) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg.Error:
            time.sleep(1)


@dataclass
class Replica:
    proc: subprocess.Popen
    address: str
    log: Path


class Replicas:
    """`n` `smear-dsl serve --advertise` processes on free ports of 127.0.0.1, each logging to a file
    (one plain `serve` when `url` is an SQLite file)."""

    def __init__(self, url: str, n: int, lease: float, logs: Path, limits: tuple[str, ...] = ()):
        self.url, self.lease, self.logs, self.limits = url, lease, logs, limits
        self.all: list[Replica] = []  # every process started, killed ones included
        self.live: list[Replica] = [self.start() for _ in range(n)]

    def start(self, port: int = 0, wait: bool = True) -> Replica:
        log = self.logs / f"replica-{len(self.all)}.log"
        cmd = [sys.executable, "-m", "smear_dsl", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", self.url,
               "--limit", "tables_per_address=100000", "--limit", "idle_seconds=3600"]
        if self.url.startswith("postgresql://"):  # a replica; an SQLite file has one lone server
            cmd += ["--advertise", "127.0.0.1", "--limit", f"lease_seconds={self.lease}"]
        for item in self.limits:
            cmd += ["--limit", item]
        with open(log, "w") as err:
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True,
                                    env=dict(os.environ, PYTHONUNBUFFERED="1"))
        if not wait:  # it comes up at the port it is given while the caller goes on (it reads its own output)
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            r = Replica(proc, f"127.0.0.1:{port}", log)
            self.all.append(r)
            return r
        line = proc.stdout.readline()
        if "listening on" not in line:
            proc.kill()
            raise RuntimeError(f"a replica did not start: {log.read_text()[-500:]}")
        r = Replica(proc, line.split()[-1], log)
        self.all.append(r)
        return r

    @property
    def targets(self) -> str:
        return ",".join(r.address for r in self.live)

    def kill(self, r: Replica) -> None:
        r.proc.send_signal(signal.SIGKILL)
        r.proc.wait(10)
        self.live.remove(r)

    def replace(self, r: Replica) -> Replica:
        """kill -9 `r` and start a new replica in its place, on its port (a machine that died and came
        back at the address its clients were given)."""
        self.kill(r)
        new = self.start(int(r.address.rsplit(":", 1)[1]), wait=False)
        self.live.append(new)
        return new

    def close(self) -> None:
        for r in self.all:
            if r.proc.poll() is None:
                r.proc.send_signal(signal.SIGCONT)
                r.proc.kill()
                r.proc.wait(10)

    def held(self) -> dict[int, set[int]]:
        """The shards each live replica holds unexpired leases on, by its own replica id (an address
        may still have leases of the process killed there a moment ago): {index in live: shards}."""
        import psycopg
        with psycopg.connect(self.url, connect_timeout=3) as conn:
            rows = conn.execute("SELECT owner, shard FROM leases WHERE owner IS NOT NULL AND "
                                "expires > clock_timestamp()").fetchall()
        out = {}
        for i, r in enumerate(self.live):
            ids = [line.split()[1] for line in (r.log.read_text().splitlines() if r.log.exists() else ())
                   if line.startswith("replica ")]
            out[i] = {shard for owner, shard in rows if ids and owner == ids[0]}
        return out

    def spread(self, seconds: float = 30.0) -> None:
        """Wait (up to `seconds`) until the shards have settled: every shard held, every live replica holding
        some, none more than its share and one (past that a replica hands shards back, and a shard handed back
        has no owner until another replica's next round takes it)."""
        from smear_referee.storage.cluster import SHARDS
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            held = [len(shards) for shards in self.owners().values()]
            share = -(-SHARDS // max(1, len(self.live)))
            if len(held) >= len(self.live) and sum(held) == SHARDS and max(held) <= share + 1:
                return
            time.sleep(0.2)

    def owners(self) -> dict[str, list[tuple[int, int]]]:
        """address -> [(shard, epoch)] of the unexpired leases, by the database's clock."""
        import psycopg
        out: dict[str, list[tuple[int, int]]] = {}
        with psycopg.connect(self.url, connect_timeout=3) as conn:
            for shard, address, epoch in conn.execute(
                    "SELECT shard, address, epoch FROM leases WHERE owner IS NOT NULL AND expires > clock_timestamp()"):
                out.setdefault(address, []).append((shard, epoch))
        return out


class AsyncRoute:
    """The asyncio side of smear_referee.clients.client.Route: NOT_OWNER followed, a replica that does not
    answer passed over. Routes share CHANNELS connections per address (one HTTP/2 connection
    takes 1000 streams at the server)."""

    _pool: dict[str, list[grpc.aio.Channel]] = {}
    CHANNELS = 8

    def __init__(self, targets: str):
        self.targets = targets.split(",")
        self.current = random.choice(self.targets)
        self.slot = random.randrange(self.CHANNELS)

    def stub(self) -> pb_grpc.RefereeStub:
        pool = self._pool.get(self.current)
        if pool is None:
            pool = self._pool[self.current] = [grpc.aio.insecure_channel(
                self.current, options=list(RECONNECT))  # RECONNECT: its own connections
                for _ in range(self.CHANNELS)]
        return pb_grpc.RefereeStub(pool[self.slot])

    def follow(self, err: grpc.RpcError) -> float:
        """Where to go after a failed call, and how long to wait first."""
        reason, meta = error_info(err)
        if reason == "NOT_OWNER" and meta.get("owner"):
            self.current = meta["owner"]
            return 0.0
        if reason in ("TABLE_RELOADED", "STORE_FAILED"):
            return 0.05
        self.current = random.choice([t for t in self.targets if t != self.current] or self.targets)
        return 0.1

    async def call(self, method: str, request, metadata=None, tries: int = 400):
        for _ in range(tries):
            try:
                return await getattr(self.stub(), method)(request, metadata=metadata, timeout=10)
            except grpc.aio.AioRpcError as e:
                if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                await asyncio.sleep(self.follow(e))
        raise RuntimeError(f"{method}: no replica answered")

    @classmethod
    async def close_all(cls) -> None:
        for pool in cls._pool.values():
            for ch in pool:
                await ch.close()
        cls._pool.clear()


@dataclass
class Ledger:
    """What the clients were told: every acknowledged move and every event each watcher received."""

    acks: list[tuple[str, int, int, str, str, float]] = field(default_factory=list)  # table, version, seat, key, replica, time
    replays: list[tuple[str, int, int, str]] = field(default_factory=list)  # acks of a key already used
    events: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)  # table -> [(seq, event bytes)]
    reconnects: int = 0
    finished: set[str] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)


@dataclass
class Seat:
    table_id: str
    seat: int
    token: str


async def new_table(route: AsyncRoute, i: int, hands: int, rules: str = "four_point_ne_wisconsin") -> tuple[str, str, list[Seat], str]:
    """A table with four seats and a spectator: (id, host token, seats, spectator token)."""
    made = await route.call("CreateTable", pb.CreateTableRequest(rules_name=rules, seed=f"cluster-{i}",
                                                                 hand_limit=hands))
    tid = made.table_id
    seats = []
    for s in range(4):
        j = await route.call("JoinTable", pb.JoinTableRequest(table_id=tid, seat=s))
        seats.append(Seat(tid, s, j.token))
    watcher = await route.call("JoinTable", pb.JoinTableRequest(table_id=tid, spectator=True))
    return tid, made.host_token, seats, watcher.token


async def play(route: AsyncRoute, seat: Seat, ledger: Ledger, rng: random.Random, think: float = 0.0) -> None:
    """One seat on Play streams until its game is over, reconnecting (and following the owner)
    whenever a stream breaks; every accepted move goes into the ledger with the version it made."""
    md = [("authorization", f"Bearer {seat.token}")]
    seen = 0
    while True:
        call = route.stub().Play(metadata=md)
        pending: list[tuple[str, float]] = []
        try:
            first = pb.PlayRequest(table_id=seat.table_id)
            if seen:
                first.after_version = seen - 1
            await call.write(first)
            while True:
                ev = await call.read()
                if ev is grpc.aio.EOF:
                    raise ConnectionError("the stream ended")
                if ev.WhichOneof("kind") == "result":
                    key, sent_at = pending.pop(0)
                    r = ev.result
                    if r.accepted and not r.replayed:
                        ledger.acks.append((seat.table_id, r.version, seat.seat, key, route.current, time.time()))
                        ledger.latencies.append(time.perf_counter() - sent_at)
                    elif r.accepted:
                        ledger.replays.append((seat.table_id, r.version, seat.seat, key))
                    elif r.status == "UNAVAILABLE":
                        raise ConnectionError(r.reason)
                    elif r.reason != "STALE_VERSION":
                        raise AssertionError(f"move refused: {r.reason} {r.message}")
                    continue
                view = ev.turn
                seen = view.version
                if view.finished:
                    ledger.finished.add(seat.table_id)
                    return
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                key = uuid.uuid4().hex
                pending.append((key, time.perf_counter()))
                await call.write(pb.PlayRequest(move=choose(view, rng, "heuristic"), expected_version=view.version,
                                                idempotency_key=key))
        except grpc.aio.AioRpcError as e:
            ledger.reconnects += 1
            await asyncio.sleep(route.follow(e))
        except (ConnectionError, grpc.aio.UsageError):
            ledger.reconnects += 1
            await asyncio.sleep(0.05)
        finally:
            call.cancel()


async def watch(route: AsyncRoute, table_id: str, token: str, ledger: Ledger) -> None:
    """A spectator: WatchTable resumed after the last event received, across replicas, to game over."""
    md = [("authorization", f"Bearer {token}")]
    got = ledger.events.setdefault(table_id, [])
    while True:
        after = got[-1][0] if got else 0
        call = route.stub().WatchTable(pb.WatchTableRequest(table_id=table_id, after_seq=after), metadata=md)
        try:
            async for ev in call:
                if ev.WhichOneof("kind") in ("snapshot", "heartbeat", "seats"):
                    continue
                got.append((ev.seq, ev.SerializeToString(deterministic=True)))
                if ev.WhichOneof("kind") == "game_over":
                    return
            ledger.reconnects += 1
        except grpc.aio.AioRpcError as e:
            ledger.reconnects += 1
            await asyncio.sleep(route.follow(e))
        finally:
            call.cancel()


def check_ledger(url: str, ledger: Ledger, tables: dict[str, str]) -> dict[str, int]:
    """Everything the issue's Done means asks of the final database against what clients were told;
    AssertionError on the first breach. Returns counts."""
    import psycopg

    from smear_referee.storage.store import Store
    from smear_referee.tables.registry import Tables
    rows: dict[tuple[str, int], tuple[int, str]] = {}
    with psycopg.connect(url) as conn:
        for tid, version, seat, idem in conn.execute("SELECT table_id, version, seat, idem FROM moves"):
            rows[(tid, version)] = (seat, idem)
    by_version: dict[tuple[str, int], str] = {}
    for tid, version, seat, key, _replica, _at in ledger.acks:
        assert by_version.setdefault((tid, version), key) == key, f"two acks name {tid} v{version} with different moves"
        assert rows.get((tid, version)) == (seat, key), f"acked move {tid} v{version} is {rows.get((tid, version))}"
    for tid, version, seat, key in ledger.replays:
        assert rows.get((tid, version)) == (seat, key), f"replayed ack {tid} v{version} is not stored as told"
    per_table: dict[str, list[int]] = {}
    keys: dict[tuple[str, str], int] = {}
    for (tid, version), (_seat, idem) in rows.items():
        per_table.setdefault(tid, []).append(version)
        if idem:
            keys[(tid, idem)] = keys.get((tid, idem), 0) + 1
    for tid, versions in per_table.items():
        assert sorted(versions) == list(range(1, len(versions) + 1)), f"table {tid}'s log has a gap"
    assert all(n == 1 for n in keys.values()), "an idempotency key was applied twice"
    return {"moves": len(rows), "acks": len(ledger.acks), "tables": len(per_table)} | \
        _check_offline(url, ledger, tables, Store, Tables)


def _check_offline(url: str, ledger: Ledger, tables: dict[str, str], Store, Tables) -> dict[str, int]:
    """Each finished record verifies, and each watcher's events are exactly those an offline replay
    of the final log gives, numbered 1, 2, 3 ... (run with every replica stopped)."""
    from smear_dsl.records.verify import verify as verify_record
    from smear_referee.tables.table import Identity

    async def run() -> dict[str, int]:
        store = Store(url)
        try:
            offline = Tables(store)
            records = events = 0
            for tid in tables:
                t = await offline.table_for(tid, None)
                if t.game.finished:
                    rec, _ = await offline.record(t, Identity(tid, "host", None))
                    verdict = verify_record(rec)
                    assert verdict["valid"], f"table {tid}'s record does not verify: {verdict}"
                    records += 1
                got = ledger.events.get(tid, [])
                assert [s for s, _ in got] == list(range(1, len(got) + 1)), f"watcher of {tid}: seqs {got[:3]}..."
                if got:
                    remade = await offline.old_events(t, 0, got[-1][0])
                    who = Identity(tid, "spectator", None)
                    want = [(ev[0], seen.render(t, ev, who).SerializeToString(deterministic=True)) for ev in remade]
                    assert got == want, f"watcher of {tid} saw events the final log does not give"
                    events += len(got)
            return {"records": records, "watched_events": events}
        finally:
            store.close()
    return asyncio.run(run())
