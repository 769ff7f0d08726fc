"""Restart time and memory of the referee on a store holding a long history.

Builds (once, cached under the temp dir) a SQLite store as the server writes it: `--moves`
moves in all, `--live` unfinished tables each `--live-moves` into its game, the rest in finished
games; every row made by the referee's own Table code (snapshots at hand boundaries included).
Then, each in a fresh process, reads the tables back as `smear-dsl serve` does at start-up:
  - this checkout (unfinished tables from their snapshots; finished ones stay in the store);
  - with --baseline REV, the same file read by that revision (a git worktree), e.g. the design
    before snapshots, which replays every move ever stored.
Prints wall time and peak RSS of each. Target: 2 million moves, 300 live: under 3 s, 200 MB.
Usage: python benchmarks/bench_restart.py [--moves 2000000] [--live 300] [--baseline ca5422b]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

READ_BACK = """
import resource, sys, time
t0 = time.perf_counter()
from smear_referee.storage.store import Store
from smear_referee.tables.registry import Tables
tables = Tables(Store(sys.argv[1]))
tables.load()
live = sum(1 for t in tables.tables.values() if not t.game.finished)
print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, live, len(tables.tables))
"""


def build(path: str, moves: int, live: int, live_moves: int, hands: int) -> None:
    """Write the store: tables played with random legal moves through the referee's Table."""
    from smear_referee.storage.store import Store, StoredTable
    from smear_referee.tables.rulesets import compiled, known_spec
    from smear_referee.tables.table import Table
    from smear_referee.tables.tokens import token_hash

    store = Store(path)
    store.close()
    spec = known_spec("four_point_ne_wisconsin")
    rules = compiled(spec, 4, {})
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    rng = random.Random(1)
    made, k, now = 0, 0, time.time()
    while made < moves:
        k += 1
        playing = k <= live
        t = Table(f"t{k:07d}", spec.stem, None, spec, rules, dict(rules.options), f"seed-{k}", k % 4, now - 3600,
                  hand_limit=0 if playing else hands)
        tokens = [(token_hash(f"tok-{k}-{s}"), "seat", s, f"p{s}") for s in range(4)]
        rows: list[tuple[str, tuple]] = []
        snap = None
        while not t.game.finished and (not playing or t.version < live_moves) and made < moves:
            seat = t.game.turn
            code = t.game.random_move(rng)
            snap = t.replay_move(seat, code) or snap
            rows += Store.add_move(t.id, t.version, seat, code, f"k{t.version}", None, now - 60, t.chain)
            made += 1
        rows = Store.create_table(StoredTable(t.id, t.rules_name, None, 4, t.options, t.seed, t.first_dealer, t.created,
                                              tokens, [], False, t.hand_limit)) + rows
        if t.snapshot is not None:
            rows += Store.save_snapshot(t.id, t.snapshot)
        if t.game.finished:
            rows += Store.finish(t.id, t.game.scores, t.game.winner, t.chain)
        with conn:
            for sql, params in rows:
                conn.execute(sql, params)
    conn.close()


def read_back(path: str, pythonpath: str) -> tuple[float, float, int, int]:
    """(seconds, peak RSS in MB, live tables, tables in memory) of reading the store in a fresh process."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    out = subprocess.run([sys.executable, "-c", READ_BACK, path], capture_output=True, text=True, env=env,
                         cwd=pythonpath, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), int(out[3])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=2_000_000)
    ap.add_argument("--live", type=int, default=300)
    ap.add_argument("--live-moves", type=int, default=500, help="moves into its game of each live table")
    ap.add_argument("--hands", type=int, default=40, help="hands of each finished game")
    ap.add_argument("--baseline", help="a git revision to compare with (read in a worktree)")
    args = ap.parse_args()
    cache = Path(tempfile.gettempdir()) / f"smear-restart-{args.moves}-{args.live}-{args.live_moves}-{args.hands}.sqlite3"
    if not cache.exists():
        t0 = time.perf_counter()
        tmp = str(cache) + ".part"
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(tmp + suffix).unlink(missing_ok=True)
        build(tmp, args.moves, args.live, args.live_moves, args.hands)
        os.replace(tmp, cache)
        print(f"built {cache} in {time.perf_counter() - t0:.0f} s")
    conn = sqlite3.connect(cache)
    n_moves, n_tables, n_open = conn.execute("SELECT (SELECT COUNT(*) FROM moves), (SELECT COUNT(*) FROM tables), "
                                             "(SELECT COUNT(*) FROM tables WHERE finished = 0)").fetchone()
    conn.close()
    print(f"store: {n_moves:,} moves at {n_tables:,} tables, {n_open} of them unfinished "
          f"({cache.stat().st_size / 1e6:.0f} MB)")
    runs = [("this checkout", str(ROOT))]
    work = None
    if args.baseline:
        work = tempfile.mkdtemp(prefix="smear-baseline-")
        subprocess.run(["git", "worktree", "add", "--detach", work, args.baseline], cwd=ROOT, check=True,
                       capture_output=True)
        runs.append((f"revision {args.baseline}", work))
    try:
        for label, where in runs:
            copy = str(cache) + ".run"  # each reader gets its own copy: an older reader may write to it
            subprocess.run(["cp", str(cache), copy], check=True)
            with sqlite3.connect(copy) as c:  # played a minute ago, as after a restart (not idle: not parked)
                c.execute("UPDATE tables SET updated = ? WHERE finished = 0", (time.time() - 60,))
            seconds, rss, live, held = read_back(copy, where)
            print(json.dumps({"reader": label, "seconds": round(seconds, 2), "peak_rss_mb": round(rss),
                              "live_tables": live, "tables_in_memory": held}))
            for suffix in ("", "-wal", "-shm", ".lock"):
                Path(copy + suffix).unlink(missing_ok=True)
    finally:
        if work:
            subprocess.run(["git", "worktree", "remove", "--force", work], cwd=ROOT, capture_output=True)
    print("target: ready in under 3 s and under 200 MB with 2M moves stored, 300 tables live")


if __name__ == "__main__":
    main()
