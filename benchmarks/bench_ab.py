"""The engine now against the engine at another commit, on a machine whose speed drifts.

bench_engine.py prints absolute speeds, which on a shared machine swing by tens of percent from
one minute to the next. This compares two versions of the engine by alternating short rounds of
each (every round a fresh process, so both pay the same start-up), many times, and reports for
each seed setup the median of the per-pair ratios (this checkout / REV) with its spread: a drift
that slows a pair of rounds slows both.

With --instructions GAMES it instead counts the CPU instructions (valgrind's callgrind) of a
fixed set of GAMES seeded random games in each version, less those of starting up: the same
count on every run whatever else the machine is doing, so small differences are visible.

Usage: python benchmarks/bench_ab.py REV [--pairs 10] [--seconds 1.5] [--rules NAME] [--players N]
       python benchmarks/bench_ab.py REV --instructions 40
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETUPS = [("four_point_ne_wisconsin", 4, {"widow": 0}), ("four_point_ne_wisconsin", 4, {"widow": 2}),
          ("cutthroat_canadian", 2, {}), ("cutthroat_canadian", 3, {})]
ROUND = """
import json, random, sys, time
try:
    from smear_dsl import Game, compile_rules, load_spec
except ImportError:  # a tree from before the facade (bench_ab compares two commits)
    from smear_dsl.compiler import compile_rules
    from smear_dsl.engine import Game
    from smear_dsl.language import load_spec
name, players, options, seconds = json.loads(sys.argv[1])
rules = compile_rules(load_spec(name), players, options)
rng, moves, seed = random.Random(1), 0, 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < seconds:
    game = Game(rules, seed=seed, hand_limit=200)
    apply, random_move = game.apply, game.random_move
    while not game.finished:
        apply(game.turn, random_move(rng))
    moves += game.moves_played
    seed += 1
print(moves / (time.perf_counter() - t0))
"""


COUNT = """
import json, random, sys
try:
    from smear_dsl import Game, compile_rules, load_spec
except ImportError:  # a tree from before the facade (bench_ab compares two commits)
    from smear_dsl.compiler import compile_rules
    from smear_dsl.engine import Game
    from smear_dsl.language import load_spec
name, players, options, games = json.loads(sys.argv[1])
rules = compile_rules(load_spec(name), players, options)
rng, moves = random.Random(1), 0
for seed in range(games):
    game = Game(rules, seed=seed, hand_limit=30)
    apply, random_move = game.apply, game.random_move
    while not game.finished:
        apply(game.turn, random_move(rng))
    moves += game.moves_played
print(moves)
"""


def instructions(tree: Path, setup: tuple, games: int) -> tuple[int, int]:
    """(instructions, moves) of `games` games under callgrind (hash seed fixed: the same count each run)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                          COUNT, json.dumps([*setup, games])], cwd=tree, env=env, capture_output=True, text=True,
                         check=True)
    collected = [line for line in out.stderr.splitlines() if "Collected :" in line]
    return int(collected[-1].rsplit(":", 1)[1]), int(out.stdout)


def count_instructions(trees: tuple[Path, Path], setups: list, games: int, rev: str) -> None:
    print(f"this checkout vs {rev}: CPU instructions per move over {games} seeded games (30 hands at most), "
          "start-up subtracted; speed ratio = REV's instructions / this checkout's")
    for setup in setups:
        per_move = []
        for tree in trees:
            base, _ = instructions(tree, setup, 0)
            total, moves = instructions(tree, setup, games)
            per_move.append((total - base) / moves)
        opts = ",".join(f"{k}={v}" for k, v in setup[2].items()) or "-"
        print(f"{setup[0]:<26}{setup[1]:>3}{opts:>10}  {per_move[0]:,.0f} vs {per_move[1]:,.0f} instructions/move: "
              f"speed ratio {per_move[1] / per_move[0]:.3f}")


def one_round(tree: Path, setup: tuple, seconds: float) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", ROUND, json.dumps([*setup, seconds])], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rev", help="the commit to compare with (e.g. the last one before a refactor)")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.5, help="time per round")
    ap.add_argument("--players", type=int, default=None, help="only the setups with this many players")
    ap.add_argument("--rules", default=None, help="only the setups of this rule file")
    ap.add_argument("--instructions", type=int, metavar="GAMES", default=0,
                    help="count instructions (callgrind) over GAMES games instead of timing")
    args = ap.parse_args()
    setups = [s for s in SETUPS if (args.players is None or s[1] == args.players) and args.rules in (None, s[0])]
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(other), args.rev], cwd=ROOT, check=True)
        try:
            if args.instructions:
                count_instructions((ROOT, other), setups, args.instructions, args.rev)
                return
            print(f"this checkout / {args.rev}: moves per second, median of {args.pairs} alternating pairs of "
                  f"{args.seconds:g} s rounds")
            for setup in setups:
                ratios, mine = [], []
                for i in range(args.pairs):
                    order = (ROOT, other) if i % 2 == 0 else (other, ROOT)  # who goes first alternates too
                    speed = {tree: one_round(tree, setup, args.seconds) for tree in order}
                    ratios.append(speed[ROOT] / speed[other])
                    mine.append(speed[ROOT])
                q = statistics.quantiles(ratios, n=4)
                opts = ",".join(f"{k}={v}" for k, v in setup[2].items()) or "-"
                print(f"{setup[0]:<26}{setup[1]:>3}{opts:>10}  ratio {statistics.median(ratios):.3f} "
                      f"(middle half {q[0]:.3f}..{q[2]:.3f}); this checkout {statistics.median(mine):,.0f} moves/s")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
