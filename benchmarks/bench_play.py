"""The referee's Play stream against its ceiling, in one run: the same driver (bench_referee's saturated
tables of four heuristic bots, one Play stream per seat) plays `--tables` tables on the real referee
(`smear-dsl serve`, SQLite) and on echo_referee.py (the same service with nothing behind it: no game,
no checks, no views built, no store), in alternating rounds. Prints moves/s and the p99 of a move's
answer for each, and their ratio. Target: the referee at least 0.35 of the echo's moves/s, p99 under 100 ms.
Usage: python benchmarks/bench_play.py [--tables 100] [--seconds 8] [--rounds 3]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_referee import _p99, start_server, tables  # noqa: E402


def start_echo() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "echo_referee.py")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    return proc, proc.stdout.readline().strip().rsplit(" ", 1)[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"echo": [], "referee": []}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {"echo": start_echo(), "referee": start_server(str(Path(tmp) / "play.sqlite3"))}
        try:
            for r in range(args.rounds):
                for name, (_proc, target) in servers.items():
                    mps, lat = asyncio.run(tables(target, args.tables, args.seconds))
                    results[name].append((mps, _p99(lat)))
                    print(f"round {r + 1}, {name}: {mps:,.0f} moves/s, p99 {_p99(lat):.0f} ms", flush=True)
        finally:
            for proc, _target in servers.values():
                proc.terminate()
                proc.wait(10)
    echo = statistics.median(m for m, _ in results["echo"])
    ref = statistics.median(m for m, _ in results["referee"])
    p99 = statistics.median(p for _, p in results["referee"])
    print(f"{args.tables} saturated tables, Play streams, {args.rounds} rounds of {args.seconds:g} s (medians):")
    print(f"  echo referee: {echo:,.0f} moves/s, p99 {statistics.median(p for _, p in results['echo']):.0f} ms")
    print(f"  referee:      {ref:,.0f} moves/s, p99 {p99:.0f} ms")
    print(f"target: at least 0.35 of the echo's moves/s: {ref / echo:.2f} ({'met' if ref >= 0.35 * echo else 'NOT met'}); "
          f"p99 under 100 ms: {p99:.0f} ms ({'met' if p99 < 100 else 'NOT met'})")


if __name__ == "__main__":
    main()
