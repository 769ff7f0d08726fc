"""The referee over a long run: does its memory level off?

Starts `smear-dsl serve` on a fresh SQLite file and plays `--tables` tables of Four Point bots
on Play streams (bench_referee.py's driver: a finished game is replaced by a new table) for
`--minutes`, sampling the server's RSS every `--every` seconds. Two runs, each on a fresh
server: bots thinking `--think` seconds on average (paced), then bots answering at once
(saturated). Prints the RSS series, moves made, and the growth over the last half of each run.
Target: 300 tables, 10 minutes each: the last 5 minutes grow RSS by less than 5%.
Usage: python benchmarks/bench_soak.py [--tables 300] [--minutes 10] [--think 1.0] [--runs paced,saturated]
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import start_server, tables  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def soak(target: str, pid: int, n: int, seconds: float, think: float, every: float):
    """Play for `seconds` while sampling the server's RSS: (moves/s, [(t, MB)])."""
    samples: list[tuple[float, float]] = []
    t0 = time.perf_counter()

    async def sample() -> None:
        while True:
            samples.append((time.perf_counter() - t0, rss_mb(pid)))
            await asyncio.sleep(every)
    sampler = asyncio.ensure_future(sample())
    try:
        mps, _lat = await tables(target, n, seconds, think)
    finally:
        sampler.cancel()
    return mps, samples


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--think", type=float, default=1.0, help="mean thinking time (s) of the paced run's bots")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between RSS samples")
    ap.add_argument("--runs", default="paced,saturated")
    args = ap.parse_args()
    seconds = args.minutes * 60
    for run in args.runs.split(","):
        think = args.think if run == "paced" else 0.0
        with tempfile.TemporaryDirectory() as tmp:
            proc, target = start_server(str(Path(tmp) / "soak.sqlite3"))
            try:
                mps, samples = asyncio.run(soak(target, proc.pid, args.tables, seconds, think, args.every))
            finally:
                proc.terminate()
                proc.wait(10)
        half = [mb for t, mb in samples if t >= seconds / 2]
        growth = (half[-1] - half[0]) / half[0] if half else 0.0
        print(f"{run}: {args.tables} tables for {args.minutes:g} min"
              + (f", bots thinking {think:g} s" if think else ", bots answering at once")
              + f": {mps:,.0f} moves/s, {mps * seconds:,.0f} moves")
        print("  RSS (MB) by minute: " + ", ".join(f"{t / 60:.1f}: {mb:.0f}" for t, mb in samples))
        print(f"  last half: {half[0]:.0f} -> {half[-1]:.0f} MB, growth {growth:+.1%} "
              f"(target under 5%: {'met' if growth < 0.05 else 'NOT met'})", flush=True)


if __name__ == "__main__":
    main()
