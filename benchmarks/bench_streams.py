"""Does a referee give back the memory of streams that close? (Target: RSS after 500 streams opened and
closed within 2 MB of before.)

Starts `smear-dsl serve` on a fresh SQLite file, opens a few tables, warms up with one small round, then
`--rounds` times: opens `--streams` WatchTable streams spread over the tables (each reads its first events),
samples the server's RSS, closes them all, waits for the server to see them go (and trim), samples again.
Prints RSS before, with the streams open (and per stream), and after each round. `--malloc` runs the server
under PYTHONMALLOC=malloc (docs/referee.md: what an operator trades for it); `--web` opens the streams as
browsers do, over the web port (Connect over HTTP/1.1, a connection each).
Usage: python benchmarks/bench_streams.py [--streams 500] [--rounds 3] [--tables 10] [--malloc] [--web]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncGenerator
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import ROOT, start_server  # noqa: E402
from bench_soak import rss_mb  # noqa: E402
from connect_client import stream  # noqa: E402

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as rpc
from smear_referee.server.memory import EVERY_SECONDS  # noqa: E402


async def open_streams(stub, tables: list[tuple[str, list, str]], n: int) -> list:
    """`n` WatchTable calls of spectators, each having read its table's first event (so the server holds it)."""
    calls = [stub.WatchTable(pb.WatchTableRequest(table_id=tables[i % len(tables)][0]), metadata=tables[i % len(tables)][1])
             for i in range(n)]
    await asyncio.gather(*(call.read() for call in calls))
    return calls


async def open_web_streams(port: int, tables: list[tuple[str, list, str]], n: int) -> list[AsyncGenerator]:
    """`n` browsers' WatchTable streams (connect_client.stream: a connection each), each having read its
    table's first event."""
    calls = [stream("127.0.0.1", port, "WatchTable", {"tableId": tables[i % len(tables)][0]}, tables[i % len(tables)][2])
             for i in range(n)]
    try:
        await asyncio.gather(*(anext(call) for call in calls))
    except (ValueError, ConnectionError, StopAsyncIteration) as e:  # an answer that is not a stream of events
        raise SystemExit(f"the web port refused a stream: {e!r}") from None
    return calls


async def close(calls: list) -> None:
    """Every stream closed: a gRPC call cancelled, a browser's connection closed (its generator's end)."""
    for call in calls:
        if isinstance(call, AsyncGenerator):
            await call.aclose()
        else:
            call.cancel()


async def settle(pid: int, seconds: float = 2 * EVERY_SECONDS + 2.0) -> float:
    """The server's RSS once it has had `seconds` to finish closing what was closed and to trim its heaps
    (smear_referee.server.memory: at its next tick after many streams close, and once more for their tail)."""
    await asyncio.sleep(seconds)
    return rss_mb(pid)


async def run(target: str, pid: int, streams: int, rounds: int, n_tables: int, wait: float, warmup: int,
              web: int | None) -> None:
    async with grpc.aio.insecure_channel(target, options=[("grpc.max_concurrent_streams", 0)]) as ch:
        stub = rpc.RefereeStub(ch)
        table_ids = []
        for i in range(n_tables):
            made = await stub.CreateTable(pb.CreateTableRequest(rules_name="four_point_ne_wisconsin", seed=f"streams-{i}"))
            seen = await stub.JoinTable(pb.JoinTableRequest(table_id=made.table_id, spectator=True))
            table_ids.append((made.table_id, [("authorization", f"Bearer {seen.token}")], seen.token))

        def opening(n: int):
            return open_web_streams(web, table_ids, n) if web is not None else open_streams(stub, table_ids, n)
        await close(await opening(warmup))  # warm-up: the code paths and messages a stream uses
        before = await settle(pid)
        allocator = os.environ.get("PYTHONMALLOC", "pymalloc (Python's default)")
        how = "browsers' (the web port, a connection each)" if web is not None else "gRPC (one connection)"
        print(f"{streams} WatchTable streams, {how}, on {n_tables} tables, server under {allocator}; "
              f"RSS before: {before:.1f} MB")
        start = before
        for r in range(rounds):
            t0 = time.perf_counter()
            calls = await opening(streams)
            opened = time.perf_counter() - t0
            held = rss_mb(pid)
            await close(calls)
            del calls
            after = await settle(pid, wait)
            print(f"  round {r + 1}: open {held:.1f} MB ({(held - before) * 1024 / streams:.1f} KB per stream, "
                  f"opened in {opened:.2f} s); closed {after:.1f} MB: {after - before:+.2f} MB from before "
                  f"({after - start:+.2f} from the round's start)")
            start = after


def start_web_server(db: str, connections: int) -> tuple[subprocess.Popen, str]:
    """`serve` with its web port, letting this one address open `connections` at once."""
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db, "--web", "0",
                             "--limit", f"web_connections_per_address={connections + 10}"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    return proc, proc.stdout.readline().strip().rsplit(" ", 1)[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--streams", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--settle", type=float, default=2 * EVERY_SECONDS + 2.0,
                    help="seconds given to the server after the streams close, before its RSS is read")
    ap.add_argument("--malloc", action="store_true", help="run the server under PYTHONMALLOC=malloc")
    ap.add_argument("--web", action="store_true", help="open the streams as browsers do, through the web port")
    args = ap.parse_args()
    if args.malloc:
        os.environ["PYTHONMALLOC"] = "malloc"  # the server's, started below (this process keeps its own)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "streams.db")
        proc, target = start_web_server(db, args.streams + args.warmup) if args.web else start_server(db)
        web = int(proc.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1]) if args.web else None
        try:
            asyncio.run(run(target, proc.pid, args.streams, args.rounds, args.tables, args.settle, args.warmup, web))
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
