"""Does `tournament run --jobs 2` gain over `--jobs 1`? (issue 36: at least 1.5x on 8 entrants x 2 rounds).

For each bot (`--bots`), whole bot tournaments are run through a local referee with `--jobs 1` and with
`--jobs 2`, taken in turn for `--rounds` rounds (a slow spell of the machine hits both); printed: the moves
per second through the referee of each (the best round; a time-budgeted search bot does not play the same
number of moves each run, so moves per second is compared, not seconds) and their ratio. With `--jobs 2`
the referee runs in a process of its own, and with it the search bots (the referee plays them), so a
tournament of search bots gains the second core; one of heuristic bots takes about a second in all and is
bound by each move's round trip, not by a core.
Usage: python benchmarks/bench_tournament_jobs.py [--bots search:30ms heuristic] [--hands 4] [--rounds 2]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_referee.clients.tournament import run_tournament  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="four_point_ne_wisconsin")
    ap.add_argument("--entrants", type=int, default=8)
    ap.add_argument("--tournament-rounds", type=int, default=2)
    ap.add_argument("--hands", type=int, default=4, help="hands per round (0: whole games)")
    ap.add_argument("--bots", nargs="+", default=["search:30ms", "heuristic"])
    ap.add_argument("--rounds", type=int, default=2, help="turns of jobs 1 and jobs 2")
    args = ap.parse_args()
    print(f"{args.rules}, {args.entrants} entrants x {args.tournament_rounds} rounds, {args.hands or 'whole games'} "
          f"hands per round; best of {args.rounds}:")
    for bot in args.bots:
        best = {1: 0.0, 2: 0.0}
        for _ in range(args.rounds):
            for jobs in (1, 2):
                with tempfile.TemporaryDirectory() as out:
                    stats = run_tournament(args.rules, args.entrants, args.tournament_rounds, out=out, bot=bot,
                                           progress=False, hands_per_round=args.hands, jobs=jobs)["_stats"]
                best[jobs] = max(best[jobs], stats["moves"] / stats["seconds"])
        print(f"  {bot}: --jobs 1 {best[1]:,.0f} moves/s, --jobs 2 {best[2]:,.0f} moves/s: {best[2] / best[1]:.2f}x "
              "(target 1.5x)")


if __name__ == "__main__":
    main()
