"""The referee under load: N concurrent tables of bots over loopback, with durable writes.

Starts `smear-dsl serve` on a fresh SQLite file (a separate process, so client and server each
get a core), then for `--seconds`:
  1. a trivial RPC (grpc.health.v1 Check) from N concurrent loops: calls per second;
  2. N tables of Four Point, each driven by one loop that asks the seat to move for its view
     and submits a move chosen from its legal moves: moves per second, and the latency of
     SubmitMove (p50 / p99), every move written to SQLite before it is acknowledged.
Target: at N = 100, moves/s at least half the trivial RPC's calls/s, and p99 under 20 ms.
Usage: python benchmarks/bench_referee.py [--tables 100] [--seconds 10]
"""
from __future__ import annotations

import argparse
import asyncio
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

from server.api import referee_pb2 as pb  # noqa: E402
from server.api import referee_pb2_grpc as pb_grpc  # noqa: E402
from server.client import choose  # noqa: E402


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = proc.stdout.readline()
    return proc, line.strip().rsplit(" ", 1)[-1]


async def trivial(target: str, n: int, seconds: float) -> float:
    async with grpc.aio.insecure_channel(target) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        count = 0
        end = time.perf_counter() + seconds

        async def loop():
            nonlocal count
            while time.perf_counter() < end:
                await stub.Check(health_pb2.HealthCheckRequest(service=""))
                count += 1
        t0 = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(n)))
        return count / (time.perf_counter() - t0)


async def tables(target: str, n: int, seconds: float, think: float = 0.0) -> tuple[float, list[float]]:
    async with grpc.aio.insecure_channel(target) as ch:
        stub = pb_grpc.RefereeStub(ch)
        moves = 0
        latencies: list[float] = []

        async def new_table(i: int):
            t = await stub.CreateTable(pb.CreateTableRequest(rules_name="four_point_ne_wisconsin", seed=f"bench-{i}",
                                                             options={"widow": "2"}))
            tokens = []
            for s in range(4):
                j = await stub.JoinTable(pb.JoinTableRequest(table_id=t.table_id, seat=s))
                tokens.append([("authorization", f"Bearer {j.token}")])
            return t.table_id, tokens

        setups = await asyncio.gather(*(new_table(i) for i in range(n)))
        end = time.perf_counter() + seconds

        async def drive(i: int, tid: str, tokens):
            nonlocal moves
            rng = random.Random(i)
            view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=tokens[0])
            while time.perf_counter() < end:
                if view.finished:
                    tid, tokens = await new_table(10_000 + i * 1000 + moves)
                    view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=tokens[0])
                    continue
                seat = view.turn
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=tokens[seat])
                move = choose(view, rng, "heuristic")
                t0 = time.perf_counter()
                resp = await stub.SubmitMove(pb.SubmitMoveRequest(table_id=tid, move=move, expected_version=view.version,
                                                                  idempotency_key=uuid.uuid4().hex),
                                             metadata=tokens[seat])
                latencies.append(time.perf_counter() - t0)
                moves += 1
                view = resp.view
        t0 = time.perf_counter()
        await asyncio.gather(*(drive(i, tid, tok) for i, (tid, tok) in enumerate(setups)))
        return moves / (time.perf_counter() - t0), latencies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think-ms", default="100,250", help="mean bot thinking times (ms) of the paced runs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, target = start_server(str(Path(tmp) / "bench.sqlite3"))
        try:
            rpc = asyncio.run(trivial(target, args.tables, args.seconds))
            mps, lat = asyncio.run(tables(target, args.tables, args.seconds))
            paced = [(ms, *asyncio.run(tables(target, args.tables, args.seconds, ms / 1000)))
                     for ms in (float(x) for x in args.think_ms.split(","))]
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server {target}, {args.tables} concurrent tables, {args.seconds:.0f} s per run, SQLite synchronous=FULL")
    print(f"trivial RPC (health Check), {args.tables} concurrent loops: {rpc:,.0f} calls/s")
    print(f"saturated bots (no thinking): {mps:,.0f} moves/s = {2 * mps:,.0f} RPC/s (GetView + SubmitMove) "
          f"= {2 * mps / rpc:.0%} of the trivial RPC's rate; moves/s alone {mps / rpc:.0%}")
    print(f"  SubmitMove latency: {_pct(lat)}")
    for ms, paced_mps, lat_p in paced:
        print(f"paced bots ({ms:.0f} ms mean thinking): {paced_mps:,.0f} moves/s")
        print(f"  SubmitMove latency: {_pct(lat_p)}")
    print("target: at 100 tables, at least half the trivial RPC's throughput and p99 under 20 ms")


def _pct(lat: list[float]) -> str:
    lat = sorted(lat)
    p50 = statistics.median(lat) * 1000
    p99 = lat[int(0.99 * (len(lat) - 1))] * 1000
    return f"p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(lat):,} moves"


if __name__ == "__main__":
    main()
