"""Do tournament bots finish their games? `tournament run` over many seeds, every archive verified.

For each size (entrants x rounds) and each of `--seeds` seeds, a whole bot tournament is run
through a local referee (as `smear-dsl tournament run --rules RULES --entrants E --rounds R
--seed SEED` would), and its archive is verified from scratch. Printed per size: how many
archives verified, how many games ended by the rules / by the server's 1,000-hand limit / were
abandoned, the hands per game (median and most), and the time. The issue's target (issue 30):
Four Point, 4 x 1 and 8 x 3, 20 seeds each: verify-tournament ok every time, no game ended by a
limit (tournament personas once kept a table going set for 1,000 hands).
Usage: python benchmarks/bench_tournament_ends.py [--rules NAME] [--seeds N] [--sizes 4x1 8x3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.records.verify import verify  # noqa: E402
from smear_referee.clients.tournament import run_tournament  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="four_point_ne_wisconsin")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--sizes", nargs="+", default=["4x1", "8x3"])
    args = ap.parse_args()
    failed = False
    for size in args.sizes:
        entrants, rounds = map(int, size.split("x"))
        ok, ends, hands = 0, Counter(), []
        t0 = time.perf_counter()
        for k in range(args.seeds):
            with tempfile.TemporaryDirectory() as out:
                archive = run_tournament(args.rules, entrants, rounds, seed=f"ends-{k}", out=out, progress=False)
            ok += not archive["_stats"]["problems"]
            for rnd in archive["rounds"]:
                for table in rnd["tables"]:
                    v = verify(table["record"])
                    ends[v["end"] or "unfinished"] += 1
                    hands.append(len(v["hands"]))
        seconds = time.perf_counter() - t0
        failed |= ok < args.seeds or set(ends) != {"rules"}
        print(f"{args.rules} {entrants} entrants x {rounds} rounds, {args.seeds} seeds: verify-tournament ok "
              f"{ok}/{args.seeds}; games {sum(ends.values())}: " + ", ".join(f"{n} ended by {e}" for e, n in ends.items())
              + f"; hands per game median {statistics.median(hands)}, most {max(hands)}; {seconds:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
