"""The search bot against the heuristic bot, and against itself at a smaller budget, on every rule file.

For each rule file (its default seats and options) it plays `--games` games: the search bot in
every seat of one side, the heuristic bot (or the smaller search) in the others, the search side
rotating over the sides from game to game so no side's seats favour it. Each game is dealt from
its own seed, so the same command deals the same boards.

Printed per rule file: games won by the search side with a 95% Wilson interval, against the
share a side wins by chance (1 / sides), and its points per hand less the others' average (the
mean over games of each game's per-hand figure, with a 95% t interval). The issue's target: at
least 60% of games against the heuristic in every partnership variant at 200 ms a move, and never
significantly worse (the interval wholly under chance) in any variant.

Every finished game is appended to `--out` (JSON lines) as it ends, and a run with the same
`--out` skips the games already there, so a long run can be stopped and resumed.
With `--playouts N` it measures the search instead, on one core: from the same positions every time
(seeded heuristic games of each rule file, a search decision every few moves), the search bot decides
with a budget of N playouts; printed are playouts per second per file and in all, and a digest of the
moves chosen, so two commits compare speed at the same choices (the digests must match).
Usage: python benchmarks/bench_bots.py [--games N] [--search search:200ms] [--against heuristic]
       [--rules NAME ...] [--jobs N] [--out FILE] [--report-only]
       python benchmarks/bench_bots.py --playouts 200 [--positions 40] [--rules NAME ...]
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.compile.compiler import compile_rules  # noqa: E402
from smear_dsl.engine import Game  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.players.make import make_bot  # noqa: E402

MAX_HANDS = 200
Z = 1.96


def play(name: str, i: int, search: str, against: str, seed: int) -> dict:
    """Game `i` of `name` (a rule file, `@N` for N seats): the search side is side i % sides; its
    outcome and per-hand points."""
    stem, _, seats = name.partition("@")
    rules = compile_rules(load_spec(str(ROOT / "rules" / f"{stem}.yaml")), int(seats) if seats else None)
    side = i % rules.n_sides
    g = Game(rules, seed=seed + i)
    bots = [make_bot(search if rules.side_of[s] == side else against, random.Random(f"{seed}:{i}:{s}"))
            for s in range(rules.players)]
    t0 = time.perf_counter()
    moves = 0
    while not g.finished and len(g.results) < MAX_HANDS:
        seat = g.turn
        if rules.side_of[seat] == side:
            moves += 1
        g.apply(seat, bots[seat].choose(g))
    per_hand = [r.delta[side] - sum(d for k, d in enumerate(r.delta) if k != side) / (rules.n_sides - 1)
                for r in g.results if r.points is not None]
    return {"rules": name, "game": i, "search": search, "against": against, "sides": rules.n_sides,
            "players": rules.players, "side": side, "finished": g.finished, "won": g.finished and g.winner == side,
            "hands": len(g.results), "points_per_hand": sum(per_hand) / len(per_hand) if per_hand else 0.0,
            "search_moves": moves, "seconds": round(time.perf_counter() - t0, 2)}


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def mean_interval(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), float("inf")
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, Z * sd / math.sqrt(n)


def report(rows: list[dict], search: str, against: str) -> list[dict]:
    """One line per rule file, printed and returned."""
    out = []
    print(f"\n{search} (its side) against {against}: games won with a 95% interval; points per hand over the others")
    print(f"{'rules':28} {'sides':>5} {'games':>5} {'won':>5} {'rate':>6} {'95% interval':>15} {'chance':>6} "
          f"{'pts/hand':>9} {'±':>5} {'s/game':>7}  verdict")
    for name in sorted({r["rules"] for r in rows}):
        rs = [r for r in rows if r["rules"] == name and r["search"] == search and r["against"] == against]
        if not rs:
            continue
        n, k = len(rs), sum(r["won"] for r in rs)
        lo, hi = wilson(k, n)
        chance = 1 / rs[0]["sides"]
        m, pm = mean_interval([r["points_per_hand"] for r in rs])
        partnership = rs[0]["players"] > rs[0]["sides"]
        verdict = ("worse" if hi < chance else "better" if lo > chance else "no clear difference")
        if partnership and against == "heuristic":
            verdict += ", target 60% " + ("met" if k / n >= 0.6 else "NOT met")
        line = {"rules": name, "sides": rs[0]["sides"], "partnership": partnership, "games": n, "won": k,
                "rate": round(k / n, 3), "interval": [round(lo, 3), round(hi, 3)], "chance": round(chance, 3),
                "points_per_hand": round(m, 3), "points_interval": round(pm, 3),
                "seconds_per_game": round(sum(r["seconds"] for r in rs) / n, 1), "verdict": verdict}
        out.append(line)
        print(f"{name:28} {line['sides']:>5} {n:>5} {k:>5} {k / n:>6.1%} {f'{lo:.0%} to {hi:.0%}':>15} {chance:>6.0%} "
              f"{m:>+9.2f} {pm:>5.2f} {line['seconds_per_game']:>7}  {verdict}")
    return out


def positions(name: str, n: int, seed: int) -> list[Game]:
    """`n` positions of seeded heuristic games of `name`, every seventh move (one with a single legal move
    costs no playout)."""
    spec = load_spec(name)
    rules = compile_rules(spec, spec.players[0], {})
    out: list[Game] = []
    game_no = 0
    while len(out) < n and game_no < 50:
        game = Game(rules, seed=f"{seed}/{name}/{game_no}", hand_limit=MAX_HANDS)
        bots = [make_bot("heuristic", random.Random(f"{seed}/{game_no}/{s}")) for s in range(rules.players)]
        k = 0
        while not game.finished and len(out) < n:
            if k % 7 == 3:
                out.append(game.clone())
            game.apply(game.turn, bots[game.turn].choose(game))
            k += 1
        game_no += 1
    return out


def playouts(names: list[str], budget: int, n: int, seed: int) -> None:
    """Playouts per second of the search bot at `budget` playouts a move, from the same positions each run."""
    import hashlib

    from smear_dsl.players.botspec import Budget
    from smear_dsl.players.search import SearchBot
    digest = hashlib.sha256()
    total_p = total_t = 0.0
    print(f"search bot, {budget} playouts a move, {n} positions per rule file, one core:")
    for name in names:
        games = positions(name, n, seed)
        done = 0
        t0 = time.perf_counter()
        for i, game in enumerate(games):
            bot = SearchBot(random.Random(f"{seed}/{i}"), Budget(playouts=budget))
            digest.update(f"{name}/{i}/{bot.choose(game)};".encode())
            done += bot.last_playouts
        dt = time.perf_counter() - t0
        total_p, total_t = total_p + done, total_t + dt
        print(f"  {name:<32}{done / dt:>9,.0f} playouts/s ({done:,} in {dt:.1f} s)", flush=True)
    print(f"in all: {total_p / total_t:,.0f} playouts/s; choices digest {digest.hexdigest()[:16]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24, help="games per rule file")
    ap.add_argument("--search", default="search:200ms")
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--rules", nargs="*", default=None,
                    help="rule files, NAME or NAME@SEATS (default: every one in rules/ at its default seats)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_bots.jsonl"))
    ap.add_argument("--report-only", action="store_true", help="print the table from --out without playing")
    ap.add_argument("--playouts", type=int, default=None, metavar="N",
                    help="measure playouts per second at N playouts a move instead (see above)")
    ap.add_argument("--positions", type=int, default=40, help="with --playouts: positions per rule file")
    args = ap.parse_args()
    names = args.rules or sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))
    if args.playouts is not None:
        playouts(names, args.playouts, args.positions, args.seed)
        return
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out.exists() else []
    done = {(r["rules"], r["game"], r["search"], r["against"]) for r in rows}
    todo = [(name, i) for i in range(args.games) for name in names if (name, i, args.search, args.against) not in done]
    if todo and not args.report_only:
        print(f"{len(todo)} games to play on {args.jobs} processes ({len(done)} already in {out})", flush=True)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, mp_context=ctx) as pool, out.open("a") as f:
            futures = [pool.submit(play, name, i, args.search, args.against, args.seed) for name, i in todo]
            for fut in as_completed(futures):
                row = fut.result()
                rows.append(row)
                f.write(json.dumps(row) + "\n")
                f.flush()
    report([r for r in rows if r["rules"] in names], args.search, args.against)


if __name__ == "__main__":
    main()
