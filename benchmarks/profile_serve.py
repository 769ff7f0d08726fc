"""Where a saturated referee's time goes: `smear-dsl serve` (SQLite) under bench_referee's 100 tables of
heuristic bots on Play streams, sampled by py-spy for `--seconds`, every thread. Prints the share of
samples in each part of the move path (the metrics among them: target under 3%) and the functions
where most samples end. py-spy is in the dev extras (`make venv` installs it).
Usage: python benchmarks/profile_serve.py [--tables 100] [--seconds 10] [--raw FILE]
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_referee import start_server, tables  # noqa: E402

# A sample counts for the first part (in this order) one of its frames belongs to, among the frames of the
# callback or thread it was taken in (below asyncio's Handle._run or threading's run: the frames above
# them, the serve command's, are in every sample).
PARTS = (
    ("metrics", ("prometheus_client", "smear_referee/metrics.py", "_count (smear_referee/tables/registry.py",
                 "metrics_port")),
    ("store commit (writer thread)", ("Store._commit", "Store._writer")),
    ("views built", ("view_to_proto", "Table.view")),
    ("engine (check and apply)", ("Table.check_and_apply", "smear_dsl/engine/")),
    ("records and snapshots", ("smear_dsl/records/", "snapshot", "integrity.py")),
    ("streams and events", ("smear_referee/tables/streams.py", "Table.news", "Referee.Play")),
    ("the referee's other Python", ("smear_referee/", "smear_dsl/")),
)


def py_spy() -> str | None:
    found = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--raw", default=None, help="keep py-spy's raw samples here")
    args = ap.parse_args()
    spy = py_spy()
    if spy is None:
        sys.exit("py-spy is not installed: pip install py-spy (it is in the dev extras)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = args.raw or str(Path(tmp) / "samples.txt")
        proc, target = start_server(str(Path(tmp) / "profile.sqlite3"))
        try:
            async def run():
                async def record():
                    await asyncio.sleep(2.0)  # the tables are made and playing
                    return await asyncio.to_thread(subprocess.run, [
                        spy, "record", "-p", str(proc.pid), "-d", str(int(args.seconds)), "-r", "200", "-f", "raw",
                        "-o", raw, "--nonblocking"], capture_output=True)
                recording = asyncio.ensure_future(record())
                moves, _lat = await tables(target, args.tables, args.seconds + 4.0)
                return moves, await recording
            mps, done = asyncio.run(run())
        finally:
            proc.terminate()
            proc.wait(10)
        if done.returncode != 0:
            sys.exit(f"py-spy failed: {done.stderr.decode(errors='replace').strip()[:300]}")
        report(Path(raw).read_text(), mps)


def report(text: str, mps: float) -> None:
    total = 0
    parts: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        total += int(n)
        frames = stack.split(";")
        start = max((i + 1 for i, f in enumerate(frames) if f.startswith(("Handle._run ", "Thread.run "))), default=0)
        inner = ";".join(frames[start:])
        part = next((name for name, marks in PARTS if any(m in inner for m in marks)), "gRPC, asyncio and the rest")
        parts[part] += int(n)
        leaves[re.sub(r":\d+\)$", ")", stack.split(";")[-1])] += int(n)
    print(f"{total:,} samples of a saturated referee at {mps:,.0f} moves/s (every thread):")
    for name, n in parts.most_common():
        print(f"  {n / total:6.1%}  {name}")
    print("where samples end (the top 12):")
    for name, n in leaves.most_common(12):
        print(f"  {n / total:6.1%}  {name}")
    share = parts["metrics"] / total if total else 0.0
    print(f"target: the metrics under 3% of the referee's time: {share:.1%} ({'met' if share < 0.03 else 'NOT met'})")


if __name__ == "__main__":
    main()
