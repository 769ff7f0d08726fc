"""What the referee's metrics cost: saturated Play-stream moves/s of this checkout's server (with
`--metrics-port`, scraped every second, as an impatient Prometheus would) against the server of
another commit (REV, from before the metrics), in alternating rounds on a machine whose speed
drifts; the median of the per-pair ratios with its spread. Target: the metrics cost under 3%.

Usage: python benchmarks/bench_metrics.py REV [--pairs 6] [--seconds 6] [--tables 100]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_referee import tables  # noqa: E402


def start(tree: Path, db: str, metrics: bool) -> tuple[subprocess.Popen, str, str | None]:
    """`serve` from `tree` on a fresh SQLite file: (process, gRPC target, metrics URL or None)."""
    cmd = [sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db]
    if metrics:
        cmd += ["--metrics-port", "0"]
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(tree)))
    target = proc.stdout.readline().strip().rsplit(" ", 1)[-1]
    url = proc.stdout.readline().split()[-1] if metrics else None
    return proc, target, url


def one_round(tree: Path, metrics: bool, n: int, seconds: float) -> tuple[float, int]:
    """Saturated moves/s of one fresh server from `tree`, and how many scrapes were answered meanwhile."""
    with tempfile.TemporaryDirectory() as tmp:
        proc, target, url = start(tree, str(Path(tmp) / "bench.sqlite3"), metrics)
        scrapes, stop = [0], threading.Event()

        def scrape() -> None:
            while not stop.wait(1.0):
                with urllib.request.urlopen(url, timeout=10) as r:
                    r.read()
                scrapes[0] += 1
        scraper = threading.Thread(target=scrape, daemon=True) if url else None
        try:
            if scraper:
                scraper.start()
            mps, _lat = asyncio.run(tables(target, n, seconds))
        finally:
            stop.set()
            proc.terminate()
            proc.wait(10)
        return mps, scrapes[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rev", help="a commit from before the metrics (git rev)")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--tables", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.rev], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        ratios, new_all, old_all, scraped = [], [], [], 0
        for i in range(args.pairs):
            order = [(ROOT, True), (old, False)] if i % 2 == 0 else [(old, False), (ROOT, True)]
            got = {}
            for tree, metrics in order:
                got[metrics] = one_round(tree, metrics, args.tables, args.seconds)
            (new, n_scrapes), (before, _) = got[True], got[False]
            scraped += n_scrapes
            ratios.append(new / before)
            new_all.append(new)
            old_all.append(before)
            print(f"pair {i + 1}: with metrics {new:,.0f} moves/s ({n_scrapes} scrapes), "
                  f"{args.rev} {before:,.0f} moves/s: {new / before:.3f}", flush=True)
    med = statistics.median(ratios)
    spread = (min(ratios), max(ratios))
    print(f"{args.tables} saturated tables on Play streams, {args.seconds:.0f} s rounds, {args.pairs} pairs, "
          f"{scraped} scrapes answered")
    print(f"moves/s with metrics / {args.rev}: median {med:.3f} (spread {spread[0]:.3f} to {spread[1]:.3f}); "
          f"medians {statistics.median(new_all):,.0f} and {statistics.median(old_all):,.0f} moves/s")
    print(f"target: the metrics cost under 3% of moves/s: {1 - med:+.1%} "
          f"({'met' if med > 0.97 else 'NOT met'})")


if __name__ == "__main__":
    main()
