"""bench_hostile.py's web-port phases: honest web play beside gzip bombs, slow connections and
100 MB bodies, with the server's memory sampled; and serving latency beside busy search bots."""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from connect_client import Connect, read_answer  # noqa: E402

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402

ATTACKER = "127.0.0.2"  # loopback, another address: the per-address limits see a stranger
MB = 1024 * 1024


def start(db: str, *extra: str) -> tuple[subprocess.Popen, str, int]:
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--web", "0", "--db", db,
                             "--limit", "tables_per_address=100000", "--limit", "bot_seconds=0.05", *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    target = proc.stdout.readline().split()[-1]
    web = int(proc.stdout.readline().split()[-1].rstrip("/").rsplit(":", 1)[1])
    return proc, target, web


def rss(pid: int) -> int:
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) * 1024


def pct(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))] * 1000 if xs else float("nan")


# ---- the attacks (each in a process of its own: bench_hostile.py --web-attack KIND PORT SECONDS)
async def attack(kind: str, port: int, seconds: float) -> dict:
    end = time.perf_counter() + seconds
    counts: dict[str, int] = {}

    def note(what: str) -> None:
        counts[what] = counts.get(what, 0) + 1

    async def dial():
        return await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))

    if kind == "bomb":
        body = gzip.compress(b"\0" * (256 * MB), compresslevel=9)
        head = (f"POST /smear.referee.v1.Referee/CreateTable HTTP/1.1\r\nhost: x\r\ncontent-type: application/json"
                f"\r\ncontent-encoding: gzip\r\ncontent-length: {len(body)}\r\n\r\n").encode()

        async def one() -> None:
            while time.perf_counter() < end:
                try:
                    r, w = await dial()
                    w.write(head + body)
                    await w.drain()
                    status, _h, _b = await asyncio.wait_for(read_answer(r), 30)
                    note(f"HTTP {status}")
                    w.close()
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as e:
                    note(type(e).__name__)
        await asyncio.gather(*(one() for _ in range(8)))
    elif kind == "slow":
        async def one() -> None:
            while time.perf_counter() < end:
                try:
                    r, w = await dial()
                    w.write(b"POST /smear.referee.v1.Referee/ListTables HTTP/1.1\r\nhost: x\r\n")
                    await w.drain()
                    data = await asyncio.wait_for(r.read(), max(0.1, end - time.perf_counter()))
                    note("503 at once" if data.startswith(b"HTTP/1.1 503") else "closed by the server")
                    w.close()
                except TimeoutError:
                    note("still open at the end")
                except OSError as e:
                    note(type(e).__name__)
                    await asyncio.sleep(0.05)
        await asyncio.gather(*(one() for _ in range(2000)))
    elif kind == "big":
        head = (b"POST /smear.referee.v1.Referee/CheckRules HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                b"content-length: " + str(100 * MB).encode() + b"\r\n\r\n")
        chunk = b" " * MB

        async def one() -> None:
            while time.perf_counter() < end:
                try:
                    r, w = await dial()
                    w.write(head)
                    sent = 0
                    while sent < 100 and not r.at_eof():
                        w.write(chunk)
                        await w.drain()
                        sent += 1
                    note(f"{sent} MB sent before the close")
                    w.close()
                except (OSError, asyncio.IncompleteReadError) as e:
                    note(type(e).__name__)
        await asyncio.gather(*(one() for _ in range(4)))
    return counts


# ---- honest web play
async def honest(target: str, web: int, seconds: float, lat: list[float]) -> int:
    """A person at a table of bots, every call over Connect: GetView, and SubmitMove at their turn."""
    host = target.rsplit(":", 1)[0]
    games = 0
    end = time.perf_counter() + seconds
    async with grpc.aio.insecure_channel(target) as ch:
        stub = pb_grpc.RefereeStub(ch)
        while time.perf_counter() < end:
            made = await stub.CreateTable(pb.CreateTableRequest(rules_name="cutthroat_canadian", players=3))
            seat = await stub.JoinTable(pb.JoinTableRequest(table_id=made.table_id, seat=0))
            await stub.AddBots(pb.AddBotsRequest(table_id=made.table_id),
                               metadata=[("authorization", f"Bearer {made.host_token}")])
            me = Connect(host, web, seat.token)
            games += 1
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                status, view = await me.call("GetView", {"tableId": made.table_id})
                lat.append(time.perf_counter() - t0)
                assert status == 200, view
                if view.get("finished"):
                    break
                if view.get("legalMoves") and view.get("turn", 0) == 0:
                    t0 = time.perf_counter()
                    status, _ = await me.call("SubmitMove", {"tableId": made.table_id, "move": view["legalMoves"][0],
                                                             "expectedVersion": view.get("version", "0")})
                    lat.append(time.perf_counter() - t0)
                await asyncio.sleep(0.02)
            me.close()
    return games


async def _phase(proc: subprocess.Popen, target: str, web: int, kind: str | None, seconds: float):
    lat: list[float] = []
    base = rss(proc.pid)
    peak = [base]
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss(proc.pid))
            await asyncio.sleep(0.05)
    sampler = asyncio.ensure_future(sample())
    attacker = None
    if kind:
        attacker = await asyncio.create_subprocess_exec(sys.executable, str(Path(__file__).parent / "bench_hostile.py"),
                                                        "--web-attack", kind, str(web), str(seconds),
                                                        stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(1.0)  # the attack is under way before the honest play is measured
    await honest(target, web, seconds, lat)
    outcomes = json.loads(await attacker.stdout.read()) if attacker else {}
    if attacker:
        await attacker.wait()
    stop.set()
    await sampler
    return lat, peak[0] - base, outcomes


def main(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, target, web = start(str(Path(tmp) / "web.sqlite3"))
        try:
            rows = [(kind or "alone", asyncio.run(_phase(proc, target, web, kind, seconds)))
                    for kind in (None, "bomb", "slow", "big")]
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"web port {web}; honest web play from 127.0.0.1, attacks from {ATTACKER}; {seconds:.0f} s a phase")
    names = {"alone": "no attack", "bomb": "gzip bombs (256 MB in 254 KB, 8 at a time)",
             "slow": "2,000 slow connections", "big": "100 MB bodies (4 at a time)"}
    for kind, (lat, grew, outcomes) in rows:
        met = pct(lat, .95) < 100 and grew < 50 * MB
        print(f"{names[kind]}: honest calls p50 {pct(lat, .5):.1f} ms, p95 {pct(lat, .95):.1f} ms ({len(lat)} calls); "
              f"server RSS +{grew / MB:.1f} MB" + ("" if kind == "alone" else f" ({'met' if met else 'NOT met'})"))
        for what, n in sorted(outcomes.items()):
            print(f"  attacker: {what}: {n}")


# ---- search bots beside serving
async def _search(target: str, seconds: float, tables: int) -> list[float]:
    async with grpc.aio.insecure_channel(target) as ch:
        stub = pb_grpc.RefereeStub(ch)
        for _ in range(tables):
            made = await stub.CreateTable(pb.CreateTableRequest(rules_name="cutthroat_canadian", players=3))
            await stub.AddBots(pb.AddBotsRequest(table_id=made.table_id, kind="search:200ms"),
                               metadata=[("authorization", f"Bearer {made.host_token}")])
        mine = await stub.CreateTable(pb.CreateTableRequest(rules_name="cutthroat_canadian", players=3))
        seat = await stub.JoinTable(pb.JoinTableRequest(table_id=mine.table_id, seat=0))
        md = [("authorization", f"Bearer {seat.token}")]
        await asyncio.sleep(2.0)  # the searches are under way
        lat: list[float] = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            await stub.GetView(pb.GetViewRequest(table_id=mine.table_id), metadata=md)
            lat.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)
        return lat


def search_main(seconds: float, tables: int = 20) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, target, _web = start(str(Path(tmp) / "search.sqlite3"))
        try:
            lat = asyncio.run(_search(target, seconds, tables))
        finally:
            proc.terminate()
            proc.wait(10)
    p99 = pct(lat, .99)
    print(f"{tables} tables of search bots (search:200ms in every seat) busy: another table's GetView p50 "
          f"{pct(lat, .5):.2f} ms, p99 {p99:.2f} ms ({len(lat)} calls); target p99 under 50 ms: "
          f"{'met' if p99 < 50 else 'NOT met'}")
