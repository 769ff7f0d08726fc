"""A move over the web port (Connect, what a browser sends) beside the same move over gRPC, in one run.

Starts `smear-dsl serve --web` on a fresh SQLite file and plays games of Cutthroat Canadian, every
seat held by this benchmark. Each seat listens for its turn twice, on a gRPC WatchTurns stream and
on a Connect one. Moves alternate between the protocols, back to back; for each it measures the
round trip (SubmitMove sent to its answer) and the notice (SubmitMove sent to the next seat's
stream, of the same protocol, delivering its turn).
Target (issue 29): a move over Connect within 1.5x of the same move over gRPC (p50).
Usage: python benchmarks/bench_web.py [--moves 600]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from google.protobuf.json_format import MessageToDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect_client import Connect, stream  # noqa: E402

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402


def start(db: str, *extra: str) -> tuple[subprocess.Popen, str, int]:
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--web", "0", "--db", db,
                             "--limit", "tables_per_address=100000", *extra], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    target = proc.stdout.readline().split()[-1]
    web = int(proc.stdout.readline().split()[-1].rstrip("/").rsplit(":", 1)[1])
    return proc, target, web


def pct(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))] * 1000 if xs else float("nan")


async def one_game(stub, host: str, web: int, arrivals: dict, out: dict, moves_left: int) -> int:
    made = await stub.CreateTable(pb.CreateTableRequest(rules_name="cutthroat_canadian", players=3))
    tid = made.table_id
    tokens = [(await stub.JoinTable(pb.JoinTableRequest(table_id=tid, seat=s))).token for s in range(3)]
    connects = [Connect(host, web, tok) for tok in tokens]
    streams = []

    async def via_grpc(seat: int) -> None:
        async for v in stub.WatchTurns(pb.WatchTurnsRequest(table_id=tid), metadata=[("authorization",
                                                                                      f"Bearer {tokens[seat]}")]):
            arrivals[("grpc", tid, seat, v.version)] = time.perf_counter()

    async def via_connect(seat: int) -> None:
        async for v in stream(host, web, "WatchTurns", {"tableId": tid}, tokens[seat]):
            arrivals[("connect", tid, seat, int(v.get("version", 0)))] = time.perf_counter()
    for s in range(3):
        streams += [asyncio.ensure_future(via_grpc(s)), asyncio.ensure_future(via_connect(s))]
    await asyncio.sleep(0.3)  # both streams of every seat are open
    made_moves = 0
    view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=[("authorization", f"Bearer {tokens[0]}")])
    seat = view.turn
    view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=[("authorization", f"Bearer {tokens[seat]}")])
    while not view.finished and made_moves < moves_left:
        proto = ("grpc", "connect")[made_moves % 2]
        move = view.legal_moves[0]
        t0 = time.perf_counter()
        if proto == "grpc":
            got = (await stub.SubmitMove(pb.SubmitMoveRequest(table_id=tid, move=move, expected_version=view.version),
                                         metadata=[("authorization", f"Bearer {tokens[seat]}")])).view
        else:
            status, body = await connects[seat].call("SubmitMove", {"tableId": tid, "move": MessageToDict(move),
                                                                    "expectedVersion": str(view.version)})
            assert status == 200, body
            got = None
        t1 = time.perf_counter()
        made_moves += 1
        version = view.version + 1
        if got is None:
            got = await stub.GetView(pb.GetViewRequest(table_id=tid),
                                     metadata=[("authorization", f"Bearer {tokens[seat]}")])
        if got.finished:
            break
        nxt = got.turn
        while (proto, tid, nxt, version) not in arrivals:
            await asyncio.sleep(0.0002)
        out[proto]["ack"].append(t1 - t0)
        out[proto]["notice"].append(arrivals[(proto, tid, nxt, version)] - t0)
        seat = nxt
        view = await stub.GetView(pb.GetViewRequest(table_id=tid), metadata=[("authorization", f"Bearer {tokens[seat]}")])
    for task in streams:
        task.cancel()
    for c in connects:
        c.close()
    return made_moves


async def run(target: str, web: int, moves: int) -> dict:
    out = {p: {"ack": [], "notice": []} for p in ("grpc", "connect")}
    arrivals: dict = {}
    host = target.rsplit(":", 1)[0]
    async with grpc.aio.insecure_channel(target) as ch:
        stub = pb_grpc.RefereeStub(ch)
        done = 0
        while done < moves:
            done += await one_game(stub, host, web, arrivals, out, moves - done)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=600)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, target, web = start(str(Path(tmp) / "bench.sqlite3"))
        try:
            out = asyncio.run(run(target, web, args.moves))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server {target}, web port {web}; {args.moves} moves alternating between the protocols, back to back")
    for p in ("grpc", "connect"):
        a, n = out[p]["ack"], out[p]["notice"]
        print(f"{p:8s} move round trip p50 {pct(a, .5):.2f} ms, p95 {pct(a, .95):.2f} ms; next seat's notice "
              f"p50 {pct(n, .5):.2f} ms, p95 {pct(n, .95):.2f} ms ({len(a)} moves)")
    ratio = pct(out["connect"]["ack"], .5) / pct(out["grpc"]["ack"], .5)
    print(f"target: a move over Connect within 1.5x of gRPC (p50): {ratio:.2f}x ({'met' if ratio <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
