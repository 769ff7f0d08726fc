"""A ladder of the bots on every shipped rule file: random, the first heuristic (heuristic@1), the
heuristic, and the search bot at 10, 60 and 200 playouts a move (budgets in playouts, not time, so
every machine plays the same games), with ratings fitted to the results.

Each pairing plays `--games` games per rule file: bot A in every seat of one side, bot B in the
others, A's side rotating over the sides from game to game; each game is dealt from its own seed.
Ratings are a Bradley–Terry fit (as Plackett–Luce for the winning side: A's side against k - 1
sides of B wins with chance a / (a + (k - 1) b)), printed on the Elo scale with the heuristic at
1500, and 95% intervals from resampling the games. Per rule file the pairings' win rates (95%
Wilson intervals, against the chance rate 1 / sides) are printed as well, among them the issue's
bar: search:60 against the heuristic in every partnership variant.

Finished games are appended to `--out` (JSON lines) as they end; a run with the same `--out` skips
the games already there, so a long run can be stopped and resumed, and `--report-only` prints.
Usage: python benchmarks/bench_ladder.py [--games N] [--pairs A/B ...] [--rules NAME ...] [--jobs N]
       [--out FILE] [--report-only]
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_bots import play, wilson  # noqa: E402

BOTS = ("random", "heuristic@1", "heuristic", "search:10", "search:60", "search:200")
# Each pairing is A/B: A on one side, B on the others. A chain from random up, with the pairings
# the issue asks about (each heuristic against the other, every search budget against the heuristic).
PAIRS = ("heuristic@1/random", "heuristic/random", "heuristic/heuristic@1", "search:10/heuristic",
         "search:60/heuristic", "search:200/heuristic", "search:60/search:10", "search:200/search:60")
ANCHOR = "heuristic"
RESAMPLES = 200


def fit(games: list[tuple[str, str, int, bool]], iterations: int = 200) -> dict[str, float]:
    """Log-strengths by maximum likelihood (minorise–maximise): each game (A, B, sides, A's side won)."""
    bots = sorted({g[0] for g in games} | {g[1] for g in games})
    s = {b: 1.0 for b in bots}
    for _ in range(iterations):
        wins = {b: 0.5 for b in bots}  # a half win and loss each against a virtual equal: finite for a bot that never loses
        denom = {b: 1.0 / s[b] for b in bots}
        for a, b, k, won in games:
            tot = s[a] + (k - 1) * s[b]
            if won:
                wins[a] += 1
            else:
                wins[b] += 1  # one of B's sides won: B's strength takes the win
            denom[a] += 1 / tot
            denom[b] += (k - 1) / tot
        s = {b: wins[b] / denom[b] for b in bots}
        g = math.exp(sum(math.log(v) for v in s.values()) / len(s))
        s = {b: v / g for b, v in s.items()}
    return {b: math.log(v) for b, v in s.items()}


def elo(logs: dict[str, float]) -> dict[str, float]:
    base = logs.get(ANCHOR, 0.0)
    return {b: 1500 + 400 * (v - base) / math.log(10) for b, v in logs.items()}


def ratings(games: list[tuple[str, str, int, bool]], seed: int = 1) -> dict[str, tuple[float, float, float]]:
    """Each bot's Elo-scale rating with a 95% interval from resampling the games."""
    point = elo(fit(games))
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {b: [] for b in point}
    for _ in range(RESAMPLES):
        sample = [games[rng.randrange(len(games))] for _ in games]
        for b, v in elo(fit(sample, 60)).items():
            draws[b].append(v)
    out = {}
    for b, v in point.items():
        xs = sorted(draws[b])
        out[b] = (v, xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]) if xs else (v, v, v)
    return out


def report(rows: list[dict], names: list[str]) -> dict:
    rows = [r for r in rows if r["rules"] in names]
    games = [(r["search"], r["against"], r["sides"], bool(r["won"])) for r in rows if r["finished"]]
    print(f"\n{len(rows)} games ({len(rows) - len(games)} unfinished, left out) on {len(names)} rule files")
    table = ratings(games) if games else {}
    print(f"\n{'bot':14} {'rating':>7} {'95% interval':>15} {'games':>6}")
    for b in sorted(table, key=lambda b: -table[b][0]):
        n = sum(1 for g in games if b in g[:2])
        v, lo, hi = table[b]
        print(f"{b:14} {v:>7.0f} {f'{lo:.0f} to {hi:.0f}':>15} {n:>6}")
    print("\nper rule file: A's side's games won (95% interval) against chance; * a partnership variant")
    pairs = sorted({(r["search"], r["against"]) for r in rows}, key=lambda p: PAIRS.index("/".join(p)) if "/".join(p) in PAIRS else 99)
    verdicts = {}
    for name in names:
        rs = [r for r in rows if r["rules"] == name]
        if not rs:
            continue
        star = "*" if rs[0]["players"] > rs[0]["sides"] else " "
        cells = []
        for a, b in pairs:
            pr = [r for r in rs if r["search"] == a and r["against"] == b]
            if not pr:
                continue
            k, n = sum(r["won"] for r in pr), len(pr)
            lo, hi = wilson(k, n)
            cells.append(f"{a}/{b} {k}/{n} ({lo:.0%}-{hi:.0%})")
            verdicts[(name, a, b)] = {"won": k, "games": n, "interval": [round(lo, 3), round(hi, 3)],
                                      "chance": round(1 / rs[0]["sides"], 3), "partnership": star == "*"}
        print(f"{star}{name:27} " + "; ".join(cells))
    return {"ratings": {b: [round(x) for x in v] for b, v in table.items()},
            "pairs": {f"{k[0]}:{k[1]}/{k[2]}": v for k, v in verdicts.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12, help="games per pairing and rule file")
    ap.add_argument("--pairs", nargs="*", default=list(PAIRS), help="pairings A/B (A on one side, B on the others)")
    ap.add_argument("--rules", nargs="*", default=None,
                    help="rule files, NAME or NAME@SEATS (default: every one in rules/ at its default seats)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_ladder.jsonl"))
    ap.add_argument("--report-only", action="store_true", help="print the table from --out without playing")
    args = ap.parse_args()
    names = args.rules or sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))
    pairs = [tuple(p.split("/")) for p in args.pairs]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out.exists() else []
    done = {(r["rules"], r["game"], r["search"], r["against"]) for r in rows}
    # Cheap pairings first, so a run cut short still rates the lower rungs on every file.
    todo = [(name, i, a, b) for a, b in pairs for i in range(args.games) for name in names
            if (name, i, a, b) not in done]
    if todo and not args.report_only:
        print(f"{len(todo)} games to play on {args.jobs} processes ({len(done)} already in {out})", flush=True)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, mp_context=ctx) as pool, out.open("a") as f:
            futures = [pool.submit(play, name, i, a, b, args.seed) for name, i, a, b in todo]
            for fut in as_completed(futures):
                row = fut.result()
                rows.append(row)
                f.write(json.dumps(row) + "\n")
                f.flush()
    result = report(rows, names)
    (out.with_suffix(".summary.json")).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
