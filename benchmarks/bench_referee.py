"""The referee under load: N concurrent tables of bots over loopback, with durable writes.

Starts `smear-dsl serve` on a fresh SQLite file (a separate process, so client and server each
get a core), then for `--seconds`:
  1. a trivial RPC (grpc.health.v1 Check) from N concurrent loops: calls per second;
  2. N tables of Four Point (widow 2), four bots each: every seat watches its turns (WatchTurns)
     and answers each view with one SubmitMove chosen from its legal moves: moves per second,
     and the latency of SubmitMove (p50 / p99), every move written to SQLite before it is
     acknowledged. Then the same with bots that think (paced runs).
Target: at N = 100, moves/s at least half the trivial RPC's calls/s (saturated bots), and p99
under 20 ms (bots that think; saturated, every table has a move in flight all the time, so the
p99 there measures the queue, and is printed too).
Usage: python benchmarks/bench_referee.py [--tables 100] [--seconds 10]
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402
from smear_referee.clients.client import choose  # noqa: E402


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = proc.stdout.readline()
    return proc, line.strip().rsplit(" ", 1)[-1]


async def trivial(target: str, n: int, seconds: float) -> tuple[float, list[float]]:
    async with grpc.aio.insecure_channel(target) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        latencies: list[float] = []
        end = time.perf_counter() + seconds

        async def loop():
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                await stub.Check(health_pb2.HealthCheckRequest(service=""))
                latencies.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(n)))
        return len(latencies) / (time.perf_counter() - t0), latencies


async def tables(target: str, n: int, seconds: float, think: float = 0.0,
                 api: str = "play") -> tuple[float, list[float]]:
    """N tables of four heuristic bots. With api "play" each seat keeps one Play stream: it receives
    its view when it must act and sends its move on the same stream. With api "unary" each seat
    waits on WatchTurns and answers each view with a SubmitMove call. Latency: from sending a move
    to its (durable) acceptance."""
    # A channel is one HTTP/2 connection, and the server takes 1000 streams on one: a channel per
    # TABLES_PER_CHANNEL tables' seats.
    channels = [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(-(-n // TABLES_PER_CHANNEL))]  # a local pool: a connection of its own each
    stubs = [pb_grpc.RefereeStub(ch) for ch in channels]
    try:
        return await _tables(stubs, n, seconds, think, api)
    finally:
        for ch in channels:
            await ch.close()


TABLES_PER_CHANNEL = 200


async def _tables(stubs: list, n: int, seconds: float, think: float, api: str) -> tuple[float, list[float]]:
    moves = 0
    latencies: list[float] = []

    async def new_table(i: int):
        stub = stubs[i % len(stubs)]
        t = await stub.CreateTable(pb.CreateTableRequest(rules_name="four_point_ne_wisconsin", seed=f"bench-{i}",
                                                         options={"widow": "2"}))
        tokens = []
        for s in range(4):
            j = await stub.JoinTable(pb.JoinTableRequest(table_id=t.table_id, seat=s))
            tokens.append((stub, [("authorization", f"Bearer {j.token}")]))
        return t.table_id, tokens

    setups = await asyncio.gather(*(new_table(i) for i in range(n)))
    end = time.perf_counter() + seconds

    async def play_stream(tid: str, seat, rng: random.Random) -> None:
        nonlocal moves
        stub, token = seat
        call = stub.Play(metadata=token)
        try:
            await call.write(pb.PlayRequest(table_id=tid))
            sent_at = 0.0
            while True:
                ev = await call.read()
                if ev is grpc.aio.EOF:
                    return
                if ev.WhichOneof("kind") == "result":
                    if not ev.result.accepted:
                        raise RuntimeError(f"move refused: {ev.result.reason} {ev.result.message}")
                    latencies.append(time.perf_counter() - sent_at)
                    moves += 1
                    continue
                view = ev.turn
                if view.finished or time.perf_counter() >= end:
                    return
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                move = choose(view, rng, "heuristic")
                sent_at = time.perf_counter()
                await call.write(pb.PlayRequest(move=move, expected_version=view.version,
                                                idempotency_key=uuid.uuid4().hex))
        finally:
            call.cancel()

    async def unary_calls(tid: str, seat, rng: random.Random) -> None:
        nonlocal moves
        stub, token = seat
        call = stub.WatchTurns(pb.WatchTurnsRequest(table_id=tid), metadata=token)
        try:
            async for view in call:
                if view.finished or time.perf_counter() >= end:
                    return
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                move = choose(view, rng, "heuristic")
                t0 = time.perf_counter()
                await stub.SubmitMove(pb.SubmitMoveRequest(table_id=tid, move=move, expected_version=view.version,
                                                           idempotency_key=uuid.uuid4().hex), metadata=token)
                latencies.append(time.perf_counter() - t0)
                moves += 1
        finally:
            call.cancel()

    seat = play_stream if api == "play" else unary_calls

    async def drive(i: int, tid: str, tokens) -> None:
        rng = random.Random(i)
        k = 0
        while time.perf_counter() < end:
            tasks = [asyncio.ensure_future(seat(tid, tokens[s], rng)) for s in range(4)]
            await asyncio.wait(tasks, timeout=max(0.0, end - time.perf_counter()) + 0.5)
            for task in tasks:  # time is up: the seats still waiting for a turn stop here
                task.cancel()
            for r in await asyncio.gather(*tasks, return_exceptions=True):
                if isinstance(r, RuntimeError):
                    raise r
            k += 1
            tid, tokens = await new_table(10_000 * (k + 1) + i)
    t0 = time.perf_counter()
    await asyncio.gather(*(drive(i, tid, tok) for i, (tid, tok) in enumerate(setups)))
    return moves / (time.perf_counter() - t0), latencies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think-ms", default="50,100,250", help="mean bot thinking times (ms) of the paced runs")
    ap.add_argument("--postgres", metavar="URL", nargs="?", const="postgresql://127.0.0.1:5432/postgres",
                    help="keep the tables in a fresh database (made and dropped here) of this PostgreSQL server")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, _database(args.postgres, tmp) as db:
        proc, target = start_server(db)
        try:
            rpc, rpc_lat = asyncio.run(trivial(target, args.tables, args.seconds))
            mps, lat = asyncio.run(tables(target, args.tables, args.seconds))
            u_mps, u_lat = asyncio.run(tables(target, args.tables, args.seconds, api="unary"))
            paced = [(ms, *asyncio.run(tables(target, args.tables, args.seconds, ms / 1000)))
                     for ms in (float(x) for x in args.think_ms.split(","))]
        finally:
            proc.terminate()
            proc.wait(10)
    store = "PostgreSQL (synchronous_commit on)" if args.postgres else "SQLite synchronous=FULL"
    print(f"server {target}, {args.tables} concurrent tables, {args.seconds:.0f} s per run, {store}")
    print(f"trivial RPC (health Check), {args.tables} concurrent loops: {rpc:,.0f} calls/s")
    print(f"  latency: {_pct(rpc_lat, 'calls')}")
    print(f"saturated bots on Play streams: {mps:,.0f} moves/s = {mps / rpc:.0%} of the trivial RPC's rate")
    print(f"  move accepted after: {_pct(lat)}")
    print(f"saturated bots on unary calls (WatchTurns + SubmitMove): {u_mps:,.0f} moves/s = {u_mps / rpc:.0%}")
    print(f"  SubmitMove latency: {_pct(u_lat)}")
    for ms, paced_mps, lat_p in paced:
        print(f"paced bots on Play streams ({ms:.0f} ms mean thinking): {paced_mps:,.0f} moves/s")
        print(f"  move accepted after: {_pct(lat_p)}")
    print(f"target, throughput: moves/s at least half the trivial RPC's calls/s: {mps / rpc:.0%} with Play bots "
          f"({'met' if mps >= rpc / 2 else 'NOT met'})")
    for ms, _m, lat_p in paced:
        p99 = _p99(lat_p)
        print(f"target, latency: p99 under 20 ms with bots thinking {ms:.0f} ms: {p99:.1f} ms "
              f"({'met' if p99 < 20 else 'not met'})")
    print(f"  (saturated, each table always has a move in flight, so p99 is queueing: {_p99(lat):.0f} ms; "
          f"the trivial RPC's own p99 with {args.tables} loops in flight: {_p99(rpc_lat):.0f} ms)")


@contextlib.contextmanager
def _database(postgres: str | None, tmp: str):
    """An SQLite file in `tmp`, or a new database on the `postgres` server, dropped afterwards."""
    if postgres is None:
        yield str(Path(tmp) / "bench.sqlite3")
        return
    import psycopg
    name = f"smear_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield postgres.rsplit("/", 1)[0] + f"/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _p99(lat: list[float]) -> float:
    return sorted(lat)[int(0.99 * (len(lat) - 1))] * 1000


def _pct(lat: list[float], what: str = "moves") -> str:
    p50 = statistics.median(lat) * 1000
    return f"p50 {p50:.1f} ms, p99 {_p99(lat):.1f} ms over {len(lat):,} {what}"


if __name__ == "__main__":
    main()
