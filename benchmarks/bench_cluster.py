"""Replicas on PostgreSQL against one server on SQLite: moves/s, move latency, and failover time.

Runs (each on a fresh database, dropped afterwards; PostgreSQL at 127.0.0.1:5432):
  1. one server on SQLite, 2. one replica on PostgreSQL, 3. three replicas on PostgreSQL:
     N tables of four bots on Play streams, saturated (a move sent the moment a view arrives),
     for --seconds: moves/s, and p50/p99 from sending a move to its durable acceptance;
  4. failover: three replicas under the same load; --kills times, the replica holding the most
     shards is killed (-9) and started again; for each table it held, the time from the kill to
     that table's first accepted move (p50/p99/max), with the lease time it is bounded by.
Usage: python benchmarks/bench_cluster.py [--tables 150] [--seconds 20] [--kills 5] [--lease 2]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cluster_harness import AsyncRoute, Ledger, Replicas, drop_database, new_database, new_table, pg_reachable, play  # noqa: E402

from smear_referee.storage.cluster import shard_of  # noqa: E402


async def load(reps: Replicas, n: int, seconds: float, kills: int = 0, lease: float = 2.0) -> dict:
    """n tables played for `seconds` (and through `kills` failovers): the ledger's figures."""
    route = AsyncRoute(reps.targets)
    made = []
    for i in range(0, n, 50):
        made += await asyncio.gather(*(new_table(route, j, 1000) for j in range(i, min(n, i + 50))))
    ledger = Ledger()

    async def table(i: int, seats) -> None:
        """One table's four seats; a game that ends is followed by a new table, so the load holds."""
        k = 0
        while True:
            await asyncio.gather(*(play(AsyncRoute(reps.targets), s, ledger, random.Random(i * 4 + s.seat))
                                   for s in seats))
            k += 1
            seats = (await new_table(route, 100_000 * k + i, 1000))[2]
    tasks = [asyncio.ensure_future(table(i, seats)) for i, (_tid, _h, seats, _w) in enumerate(made)]
    await asyncio.sleep(2.0)  # warm up
    start_acks, t0 = len(ledger.acks), time.perf_counter()
    lat0 = len(ledger.latencies)
    failovers: list[float] = []
    if kills:
        for _ in range(kills):
            await asyncio.sleep(seconds / kills)
            failovers += await _failover(reps, ledger)
    else:
        await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - t0
    moves = len(ledger.acks) - start_acks
    lat = ledger.latencies[lat0:]
    broken = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if broken:
        print(f"  {len(broken)} seats stopped on an error, e.g. {broken[0]!r}", flush=True)
    await AsyncRoute.close_all()
    return {"moves_s": moves / elapsed, "p50": _pct(lat, 0.5), "p99": _pct(lat, 0.99), "failovers": failovers,
            "reconnects": ledger.reconnects}


async def _failover(reps: Replicas, ledger: Ledger) -> list[float]:
    owners = await asyncio.to_thread(reps.owners)
    victim = max(reps.live, key=lambda r: len(owners.get(r.address, [])))
    shards = {s for s, _e in owners.get(victim.address, [])}
    affected = {tid for tid in {a[0] for a in ledger.acks[-5000:]} if shard_of(tid) in shards}  # tables in play
    seen = len(ledger.acks)
    killed_at = time.time()
    await asyncio.to_thread(reps.replace, victim)
    firsts: dict[str, float] = {}
    deadline = time.monotonic() + 60
    while len(firsts) < len(affected) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        affected -= ledger.finished - set(firsts)  # over before the kill: nothing more to move
        for tid, _v, _s, _k, _r, at in ledger.acks[seen:]:
            if tid in affected and at > killed_at:
                firsts.setdefault(tid, at - killed_at)
        seen = len(ledger.acks)
    if len(firsts) < len(affected):
        print(f"  no move within 60 s of a kill at {sorted(affected - set(firsts))}", flush=True)
    return list(firsts.values()) + [float("inf")] * (len(affected) - len(firsts))


def _pct(values: list[float], q: float) -> float:
    return sorted(values)[int(q * (len(values) - 1))] * 1000 if values else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=150)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--lease", type=float, default=2.0)
    args = ap.parse_args()
    if (why := pg_reachable()) is not None:
        sys.exit(f"bench_cluster needs PostgreSQL at 127.0.0.1:5432: {why}")
    rows = []
    for label, replicas, postgres, kills in (("1 server, SQLite", 1, False, 0), ("1 replica, PostgreSQL", 1, True, 0),
                                             ("3 replicas, PostgreSQL", 3, True, 0),
                                             ("3 replicas, failovers", 3, True, args.kills)):
        with tempfile.TemporaryDirectory() as tmp:
            url = new_database("bench") if postgres else str(Path(tmp) / "bench.sqlite3")
            reps = Replicas(url, replicas, args.lease, Path(tmp))
            try:
                if replicas > 1:
                    reps.spread()
                out = asyncio.run(load(reps, args.tables, args.seconds, kills, args.lease))
            finally:
                reps.close()
                if postgres:
                    drop_database(url)
        rows.append((label, out))
        print(f"{label:24} {out['moves_s']:7,.0f} moves/s  p50 {out['p50']:6.1f} ms  p99 {out['p99']:7.1f} ms  "
              f"(stream reconnects {out['reconnects']:,})", flush=True)
        if kills:
            f = sorted(out["failovers"])
            lost = sum(1 for x in f if x == float("inf"))
            f = [x for x in f if x != float("inf")]
            print(f"failover over {kills} kills, {len(f)} tables: kill to first accepted move p50 "
                  f"{statistics.median(f):.2f} s, p99 {f[int(0.99 * (len(f) - 1))]:.2f} s, max {f[-1]:.2f} s "
                  f"(lease {args.lease:g} s, renewed every {args.lease / 4:g} s){'; ' + str(lost) + ' never moved' if lost else ''}")
    print(f"{args.tables} tables of four saturated bots, {args.seconds:g} s per run, every process on this machine's cores")


if __name__ == "__main__":
    main()
