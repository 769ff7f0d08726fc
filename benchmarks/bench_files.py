"""Every shipped rule file's moves per second against Four Point's, with random bots and with the
heuristic, on one core. Target: every file at least 0.5 of Four Point's (no file pays for another's
features). Each file plays seeded games (capped at 200 hands) for `--seconds`, in `--rounds` rounds
taken in turn with Four Point's own, so a slow spell of the machine hits both; the best round counts.
Usage: python benchmarks/bench_files.py [--seconds 1.5] [--rounds 3] [--bots random,heuristic] [NAME ...]
"""
from __future__ import annotations

import argparse
import random
import time

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.language.load import load_spec
from smear_dsl.language.paths import shipped_dir
from smear_dsl.players.make import make_bot

YARDSTICK = "four_point_ne_wisconsin"


def moves_per_second(name: str, bot: str, seconds: float) -> float:
    spec = load_spec(name)
    rules = compile_rules(spec, spec.players[0], {})
    rng = random.Random(1)
    bots = [make_bot(bot, random.Random(s)) for s in range(rules.players)] if bot != "random" else None
    moves, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        game = Game(rules, seed=seed, hand_limit=200)
        while not game.finished:
            seat = game.turn
            game.apply(seat, game.random_move(rng) if bots is None else bots[seat].choose(game))
        moves += game.moves_played
        seed += 1
    return moves / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*", help="rule names (default: every shipped file)")
    ap.add_argument("--seconds", type=float, default=1.5, help="per file, bot and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bots", default="random,heuristic")
    args = ap.parse_args()
    names = args.names or sorted(p.stem for p in shipped_dir().glob("*.yaml"))
    for bot in args.bots.split(","):
        print(f"{bot} bots, moves/s (best of {args.rounds} rounds of {args.seconds:g} s) and the ratio to {YARDSTICK}:")
        worst = (1.0, "")
        for name in names:
            best, base = 0.0, 0.0
            for _ in range(args.rounds):
                base = max(base, moves_per_second(YARDSTICK, bot, args.seconds))
                best = max(best, moves_per_second(name, bot, args.seconds))
            ratio = best / base
            worst = min(worst, (ratio, name))
            print(f"  {name:<34}{best:>10,.0f}{ratio:>7.2f}{'' if ratio >= 0.5 else '  below 0.5'}")
        print(f"  lowest: {worst[1]} {worst[0]:.2f} (target at least 0.5)")


if __name__ == "__main__":
    main()
