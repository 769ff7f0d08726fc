"""How long `smear-dsl check FILE` takes from a cold process: the best and the median of N runs
(the target: under 0.12 s). Start-up is most of it: imports, the rules' checks, the lint pass.

Python caches compiled modules (.pyc) unless PYTHONDONTWRITEBYTECODE is set, as it is on some CI
machines; the runs here allow the cache (after one warm-up run), as a user's installation does,
and `--no-cache` measures without it.
Usage: python benchmarks/bench_startup.py [--runs 20] [--no-cache] [FILE]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="rules/four_point_ne_wisconsin.yaml")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--no-cache", action="store_true", help="run with PYTHONDONTWRITEBYTECODE=1")
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.no_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, "-m", "smear_dsl", "check", args.file]
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)  # warm-up: writes the .pyc files
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    bare = min(_time([sys.executable, "-c", "pass"], env) for _ in range(5))
    print(f"smear-dsl check {args.file}: best {min(times):.3f} s, median {statistics.median(times):.3f} s over "
          f"{args.runs} runs ({'no ' if args.no_cache else ''}bytecode cache; a bare python starts in {bare:.3f} s)")


def _time(cmd, env) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
