"""How long a member waits to check a whole season: `smear-dsl club verify` on an export of `--games`
club games (default 10,000; the issue's bar: within a minute here).

The export is a sample season (smear_referee/club/sample.py: eight members, bots, a guest every fifth
game) made once and kept at `--export` (the temporary folder by default): made in parallel over
`--jobs` processes, a part each, then joined into one season; --remake makes it anew. Printed: the export's size, the
whole verification's time (every
record re-refereed, every digest chained, every rating recomputed from scratch and compared) and the
ratings' part of it alone.
Usage: python benchmarks/bench_club.py [--games 10000] [--jobs 2] [--export FILE] [--remake]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_referee.club.export import read_export, verify_export, write_export  # noqa: E402


def _part(args: tuple[int, int]) -> list[dict]:
    from smear_referee.club.sample import sample_export
    games, part = args
    return sample_export(games, members=8, seed=f"bench-club/{part}")


def make(path: Path, games: int, jobs: int) -> None:
    """A one-season export of `games` games, made in `jobs` parts (each its own seeds) and rebuilt as one."""
    from smear_referee.club.export import build_export
    from smear_referee.club.ratings import RatingSettings
    sizes = [games // jobs + (1 if i < games % jobs else 0) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_part, [(n, i) for i, n in enumerate(sizes)]))
    header = parts[0][0]
    played = [{"seats": g["seats"], "record": g["record"]} for p in parts for g in p[1:-1]]
    lines = build_export(header["club"], RatingSettings(), header["rule_files"], header["members"],
                         [{"season": 1, "games": played}])
    write_export(str(path), lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--export", default=None, help="where the sample export is kept (default: the system's temporary "
                    "folder: it is large, and made again when missing)")
    ap.add_argument("--remake", action="store_true")
    args = ap.parse_args()
    path = Path(args.export or Path(tempfile.gettempdir()) / f"smear-bench-club-{args.games}.jsonl")
    if args.remake or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        make(path, args.games, args.jobs)
        print(f"made {path} in {time.perf_counter() - t0:.0f} s")
    print(f"export: {args.games:,} games, {path.stat().st_size / 1e6:.0f} MB")
    t0 = time.perf_counter()
    ratings: list = []
    problems = verify_export(read_export(str(path)), ratings_out=ratings)
    whole = time.perf_counter() - t0
    assert not problems, problems[:3]

    from smear_dsl.records.verify import rules_for
    from smear_referee.club.export import rated_game
    from smear_referee.club.ratings import RatingSettings, rate
    settings = RatingSettings()
    games = []
    for line in read_export(str(path)):
        if isinstance(line, dict) and "game" in line:
            games.append(rated_game(settings, line["seats"], line["record"],
                                    {**line["result"], "valid": True, "finished": True, "end": "rules",
                                     "rules": line["record"]["rules"]}, rules_for(line["record"])))
    t0 = time.perf_counter()
    again = rate(settings, [g for g in games if g is not None])
    alone = time.perf_counter() - t0
    assert {m: (s.mu, s.sigma) for m, s in again["four_point_ne_wisconsin"].items()} == \
        {m: (s.mu, s.sigma) for m, s in ratings[0]["four_point_ne_wisconsin"].items()}
    print(f"club verify: {whole:.1f} s in all ({args.games / whole:,.0f} games/s): every record re-refereed, "
          f"every digest chained, every rating recomputed")
    print(f"  of which the ratings alone: {alone:.2f} s ({args.games / alone:,.0f} games/s)")


if __name__ == "__main__":
    main()
