"""Honest latency while strangers flood the referee with hostile compiles and 1 MB uploads.

Starts `smear-dsl serve` on a fresh SQLite file (its own process), then runs two phases of
`--seconds` each on the same server:
  1. baseline: `--tables` tables of bots that think (~100 ms a move, on Play streams) and a
     health check every 20 ms;
  2. flood: the same, while `--attackers` loops send, back to back, rule files that take tens of
     seconds to check (CheckRules), records carrying such a file (VerifyRecord), distinct ~1 MB
     uploads seating tables (CreateTable) and ~1 MB rule files of junk (CheckRules). The flood is
     bounded: it stops at the end of the phase or after `--max-calls` calls.
The per-address budgets are raised for the run (`--limit sandbox_per_address=...`), as if every
hostile call came from another address: otherwise most of the flood is refused at once (BUSY)
and the run measures less.
Targets (issue 11): health checks under 100 ms at p95 and moves under 50 ms at p95 during the flood.

Then the web port (issue 29), on a server started with --web: honest web play (a person at a
table of bots, every call over Connect from 127.0.0.1) alone, then during each of three attacks
from 127.0.0.2, each from a process of its own: gzip bombs (256 MB of zeros in 254 KB, 8 at a
time), slow connections (2,000 sending a request line and one header, reopened as they are
closed) and 100 MB bodies (4 at a time). The server's resident memory is sampled every 50 ms.
Targets: honest web play's p95 under 100 ms and the server's RSS under +50 MB during each attack.
Last, search bots (issue 29): 20 tables of search bots (search:200ms in every seat) beside one
table whose view is asked every 20 ms. Target: that GetView's p99 under 50 ms.
Usage: python benchmarks/bench_hostile.py [--tables 20] [--seconds 20] [--attackers 32] [--only grpc|web|search]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import tables  # noqa: E402

from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402
from smear_referee.clients.client import error_reason  # noqa: E402

RAISED = ["sandbox_per_address=1000", "upload_tables_per_address=100000", "tables_per_address=100000"]


def slow_rules(n: int) -> str:
    """A valid rule file whose full check takes tens of seconds (long lead rules x 128 setups)."""
    term = "any(hand where card.suit != lead.suit and card.rank != 3)"
    expr = " and ".join([term] * 30)
    lead = "".join(f"    - forbid: trick == {99 + n} and {expr}\n      code: TRUMP_DISCARDED\n      message: m\n"
                   for _ in range(100))
    opts = "".join(f"  o{i}: {{type: bool, default: false}}\n" for i in range(6))
    return f"extends: four_point_ne_wisconsin\nname: slow\nplayers: [2, 4]\noptions:\n{opts}play:\n  lead_rules:\n{lead}"


def big_upload(n: int) -> str:
    """An honest rule file padded to ~1 MB with comments, different each time (no cache hit)."""
    base = (ROOT / "rules" / "four_point_house.yaml").read_text()
    return base + "".join(f"# {n} {'padding ' * 12}{i}\n" for i in range(9_000))


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    args = [sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db]
    for item in RAISED:
        args += ["--limit", item]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    return proc, proc.stdout.readline().strip().rsplit(" ", 1)[-1]


async def health(target: str, seconds: float) -> list[float]:
    async with grpc.aio.insecure_channel(target) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        out: list[float] = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            await stub.Check(health_pb2.HealthCheckRequest(service=""))
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)
        return out


def payloads(variants: int = 16) -> dict[str, list]:
    """The hostile requests, built once (the attacker's own CPU is spent sending, not formatting)."""
    junk = "k: [" + ", ".join(["1"] * 300_000) + "]\n"
    out: dict[str, list] = {"check": [], "junk": [], "upload": [], "verify": []}
    for n in range(variants):
        slow = slow_rules(n)
        out["check"].append(pb.CheckRulesRequest(text=slow))
        out["junk"].append(pb.CheckRulesRequest(text=junk + f"# {n}\n"))
        out["upload"].append(pb.CreateTableRequest(rules_text=big_upload(n)))
        record = {"format": "smear-record/1", "rules": "x", "rules_text": slow, "players": 4, "options": {},
                  "first_dealer": 0, "hands": []}
        out["verify"].append(pb.VerifyRecordRequest(record_json=json.dumps(record)))
    return out


async def flood(target: str, seconds: float, attackers: int, max_calls: int) -> Counter:
    outcomes: Counter = Counter()
    requests = payloads()
    print("ready", flush=True)
    end = time.perf_counter() + seconds
    calls = 0
    async with grpc.aio.insecure_channel(target, options=[("grpc.max_send_message_length", 8 << 20)]) as ch:
        stub = pb_grpc.RefereeStub(ch)
        send = {"check": stub.CheckRules, "junk": stub.CheckRules, "upload": stub.CreateTable,
                "verify": stub.VerifyRecord}

        async def attacker(a: int) -> None:
            nonlocal calls
            k = 0
            while time.perf_counter() < end and calls < max_calls:
                calls += 1
                k += 1
                kind = ("check", "upload", "verify", "junk")[(a + k) % 4]
                variants = requests[kind]
                try:
                    call = send[kind](variants[(a * 7 + k) % len(variants)])
                    await asyncio.wait_for(call, max(0.1, end - time.perf_counter()) + 15)
                    outcomes[f"{kind}: OK"] += 1
                except grpc.aio.AioRpcError as e:
                    outcomes[f"{kind}: {e.code().name} {error_reason(e) or ''}".rstrip()] += 1
                except TimeoutError:
                    outcomes[f"{kind}: no answer"] += 1
        await asyncio.gather(*(attacker(a) for a in range(attackers)))
    return outcomes


async def phase(target: str, n_tables: int, seconds: float, attackers: int, max_calls: int):
    """Honest bots and health checks here; the flood, if any, from a process of its own (as an
    attacker's would be), so the honest clients' event loop measures the server, not the flood."""
    attack = None
    if attackers:
        attack = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood", target, "--seconds", str(seconds), "--attackers", str(attackers),
            "--max-calls", str(max_calls), stdout=asyncio.subprocess.PIPE)
        await attack.stdout.readline()  # "ready": its requests are built
    (mps, move_lat), health_lat = await asyncio.gather(tables(target, n_tables, seconds, 0.1), health(target, seconds))
    outcomes = Counter(json.loads(await attack.stdout.read())) if attack else Counter()
    if attack:
        await attack.wait()
    return mps, move_lat, health_lat, outcomes


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), its own threads only."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(lat: list[float], q: float) -> float:
    return sorted(lat)[int(q * (len(lat) - 1))] * 1000 if lat else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--attackers", type=int, default=32)
    ap.add_argument("--max-calls", type=int, default=5_000)
    ap.add_argument("--only", choices=("grpc", "web", "search"), default=None)
    ap.add_argument("--flood", metavar="TARGET", help=argparse.SUPPRESS)  # the attacker process
    ap.add_argument("--web-attack", nargs=3, metavar=("KIND", "PORT", "SECONDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.flood:
        print(json.dumps(asyncio.run(flood(args.flood, args.seconds, args.attackers, args.max_calls))))
        return
    if args.web_attack:
        import web_attacks
        kind, port, seconds = args.web_attack
        print(json.dumps(asyncio.run(web_attacks.attack(kind, int(port), float(seconds)))))
        return
    if args.only in (None, "grpc"):
        grpc_flood(args)
    if args.only in (None, "web"):
        import web_attacks
        web_attacks.main(args.seconds)
    if args.only in (None, "search"):
        import web_attacks
        web_attacks.search_main(args.seconds)


def grpc_flood(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, target = start_server(str(Path(tmp) / "bench.sqlite3"))
        try:
            c0 = cpu_seconds(proc.pid)
            base = asyncio.run(phase(target, args.tables, args.seconds, 0, 0))
            c1 = cpu_seconds(proc.pid)
            hostile = asyncio.run(phase(target, args.tables, args.seconds, args.attackers, args.max_calls))
            c2 = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server {target}; {args.tables} tables of bots thinking ~100 ms; {args.seconds:.0f} s per phase; "
          f"limits raised: {', '.join(RAISED)}")
    for name, (mps, mlat, hlat, outcomes), cpu in (("baseline", base, c1 - c0), ("flood", hostile, c2 - c1)):
        print(f"{name}: {mps:,.0f} moves/s; move p50 {pct(mlat, .5):.1f} ms, p95 {pct(mlat, .95):.1f} ms "
              f"({len(mlat):,} moves); health p50 {pct(hlat, .5):.1f} ms, p95 {pct(hlat, .95):.1f} ms "
              f"({len(hlat):,} checks); server process {cpu / args.seconds:.0%} of a core")
        for what, count in sorted(outcomes.items()):
            print(f"  hostile {what}: {count}")
    _, mlat, hlat, _ = hostile
    print(f"target: health p95 under 100 ms during the flood: {pct(hlat, .95):.1f} ms "
          f"({'met' if pct(hlat, .95) < 100 else 'NOT met'})")
    print(f"target: moves p95 under 50 ms during the flood: {pct(mlat, .95):.1f} ms "
          f"({'met' if pct(mlat, .95) < 50 else 'NOT met'})")


if __name__ == "__main__":
    main()
