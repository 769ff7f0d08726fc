"""How every shipped rule file is bid by the bots: the average winning bid, how often the bidder
makes it, the hands nobody bid and the games unfinished, beside the band a player would recognise
for that member of the family (tests/players/bid_bands.py says which band and why).

Usage: python benchmarks/bench_bids.py [--games N] [--seed S] [--bots heuristic heuristic@1 random] [--jobs N]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "players"))

from bid_bands import BANDS  # noqa: E402

from smear_dsl.compile.compiler import compile_rules  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.sim.simulate import simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bots", nargs="*", default=["heuristic", "heuristic@1", "random"])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"{args.games} games per rule file and bot, seeds from {args.seed}; band: the heuristic's, * outside it")
    print(f"{'rules':27} {'bot':12} {'avg bid':>8} {'made':>6} {'no bid':>7} {'unfinished':>10}   band (bid; made)")
    for path in sorted((ROOT / "rules").glob("*.yaml")):
        rules = compile_rules(load_spec(str(path)), None)
        band = BANDS[path.stem]
        for bot in args.bots:
            s = simulate(rules, args.games, args.seed, bot, jobs=args.jobs)
            bid, made = s["average_bid"] or 0.0, s["bidder_made_rate"] or 0.0
            off = ""
            if bot == "heuristic" and band.bid is not None:
                off = "" if band.bid[0] <= bid <= band.bid[1] and band.made[0] <= made <= band.made[1] else " *"
            shown = f"{band.bid[0]}-{band.bid[1]}; {band.made[0]:.0%}-{band.made[1]:.0%}" if band.bid else "no bidding"
            print(f"{path.stem:27} {bot:12} {bid:>8.2f} {made:>6.0%} {s['void_hands'] / max(1, s['hands']):>7.0%} "
                  f"{s['unfinished_games']:>10}   {shown if bot == 'heuristic' else ''}{off}", flush=True)


if __name__ == "__main__":
    main()
