"""How long a cold `smear-dsl` takes against a bare `python -c pass`, in the same run: `check FILE` (an
editor runs it on every keystroke; target under 5x the bare start) and `--help` (under 3x).

The three commands take turns, round after round, so a noisy machine slows them alike; each line gives
the best and the median over the rounds and the best's ratio to the bare start. Python caches compiled
modules (.pyc) unless PYTHONDONTWRITEBYTECODE is set, as it is on some CI machines; the runs here allow
the cache (after one warm-up run each), as a user's installation does, and `--no-cache` measures without.
Usage: python benchmarks/bench_startup.py [--runs 30] [--no-cache] [FILE]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"check": 5.0, "--help": 3.0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="rules/four_point_ne_wisconsin.yaml")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--no-cache", action="store_true", help="run with PYTHONDONTWRITEBYTECODE=1")
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.no_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    # The installed command, as a person types it (its script imports smear_dsl.cli and calls main).
    script = shutil.which("smear-dsl", path=str(Path(sys.executable).parent)) or shutil.which("smear-dsl")
    smear = [sys.executable, script] if script else [sys.executable, "-m", "smear_dsl"]
    cmds = {"python -c pass": [sys.executable, "-c", "pass"],
            f"smear-dsl check {args.file}": [*smear, "check", args.file],
            "smear-dsl --help": [*smear, "--help"]}
    for cmd in cmds.values():  # warm-up: writes the .pyc files
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(args.runs):
        for name, cmd in cmds.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
            times[name].append(time.perf_counter() - t0)
    bare = min(times["python -c pass"])
    print(f"{args.runs} rounds ({'no ' if args.no_cache else ''}bytecode cache):")
    for name, ts in times.items():
        target = next((f" (target under {x:g}x)" for key, x in TARGETS.items() if name.split()[1:2] == [key]), "")
        print(f"  {name}: best {min(ts) * 1000:.1f} ms, median {statistics.median(ts) * 1000:.1f} ms, "
              f"{min(ts) / bare:.2f}x the bare start{target}")


if __name__ == "__main__":
    main()
