"""Health checks while the referee is saturated with moves.

Starts `smear-dsl serve --health-port 0`, plays `--tables` tables of Four Point bots answering at once (bench_referee.py's
driver), and meanwhile two separate processes (so the bots' own event loop adds nothing) call
grpc.health.v1 Check every `--interval` seconds: one on the health port (threads of its own,
smear_referee/server/health.py), one on the main port (answered on the event loop, behind the moves).
Prints the checks' latency and the moves/s.
Target: 1000 tables saturated, health p99 under 50 ms while moves keep flowing.
Usage: python benchmarks/bench_health.py [--tables 1000] [--seconds 60]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import ROOT, _pct, tables  # noqa: E402

PROBE = """
import json, sys, time, grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
target, seconds, interval, warmup = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(target))
time.sleep(warmup)
out, end = [], time.perf_counter() + seconds
while time.perf_counter() < end:
    t0 = time.perf_counter()
    stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=30)
    out.append(time.perf_counter() - t0)
    time.sleep(interval)
print(json.dumps(out))
"""


def start_server(db: str) -> tuple[subprocess.Popen, str, str]:
    """The server, its gRPC target and its health port's target."""
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--health-port", "0",
                             "--limit", "tables_per_address=1000000",
                             "--db", db], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    target = proc.stdout.readline().strip().rsplit(" ", 1)[-1]
    health = proc.stdout.readline().strip().rsplit(" ", 1)[-1]
    return proc, target, health


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--interval", type=float, default=0.05)
    ap.add_argument("--warmup", type=float, default=30.0, help="seconds (setting up the tables, then play) before the checks")
    ap.add_argument("--probe-seconds", type=float, default=30.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, target, side = start_server(str(Path(tmp) / "health.sqlite3"))
        try:
            probes = [subprocess.Popen([sys.executable, "-c", PROBE, where, str(args.probe_seconds),
                                        str(args.interval), str(args.warmup)], stdout=subprocess.PIPE, text=True)
                      for where in (side, target)]
            mps, _lat = asyncio.run(tables(target, args.tables, args.seconds))
            checks = [json.loads(p.communicate(timeout=300)[0]) for p in probes]
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"{args.tables} tables saturated for {args.seconds:.0f} s: {mps:,.0f} moves/s")
    for label, got in zip(("the health port", "the main port"), checks):
        print(f"health Check on {label}, from another process every {args.interval * 1000:.0f} ms: {_pct(got, 'checks')}")
    p99 = sorted(checks[0])[int(0.99 * (len(checks[0]) - 1))] * 1000
    print(f"target: health p99 under 50 ms while moves flow: {p99:.1f} ms on the health port "
          f"({'met' if p99 < 50 else 'NOT met'})")


if __name__ == "__main__":
    main()
