"""benchmarks/bench_ladder.py's rating fit, against games drawn from strengths we chose: it must
recover them (an oracle independent of the fit: the games are simulated from the model's own
definition), anchored at the heuristic's 1500, with intervals that hold the truth."""
from __future__ import annotations

import math
import random
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_ladder  # noqa: E402


def simulated(truth: dict[str, float], pairs: list[tuple[str, str, int]], games: int, seed: int) -> list:
    """(A, B, sides, A's side won) for `games` games of each pairing: A's side beats k - 1 sides of B
    with chance a / (a + (k - 1) b), strengths a, b = 10 ** (rating / 400)."""
    rng = random.Random(seed)
    out = []
    for a, b, k in pairs:
        sa, sb = 10 ** (truth[a] / 400), 10 ** (truth[b] / 400)
        for _ in range(games):
            out.append((a, b, k, rng.random() < sa / (sa + (k - 1) * sb)))
    return out


def test_the_fit_recovers_chosen_ratings(monkeypatch):
    monkeypatch.setattr(bench_ladder, "RESAMPLES", 60)  # enough for a 95% interval here, a quarter of the time
    truth = {"random": 1000, "heuristic@1": 1350, "heuristic": 1500, "search:60": 1800}
    pairs = [("heuristic@1", "random", 2), ("heuristic", "random", 2), ("heuristic", "heuristic@1", 2),
             ("search:60", "heuristic", 2), ("search:60", "heuristic", 3)]
    got = bench_ladder.ratings(simulated(truth, pairs, 400, seed=5))
    assert got["heuristic"] == (1500, 1500, 1500)  # the anchor
    for bot, rating in truth.items():
        point, lo, hi = got[bot]
        assert abs(point - rating) < 60, (bot, point, rating)
        assert lo <= rating <= hi or abs(point - rating) < 25, (bot, lo, hi, rating)
    # the order is the truth's order
    assert sorted(got, key=lambda b: got[b][0]) == sorted(truth, key=truth.get)


def test_a_bot_that_never_loses_gets_a_finite_rating():
    games = [("search:60", "heuristic", 2, True)] * 30
    logs = bench_ladder.fit(games)
    assert all(math.isfinite(v) for v in logs.values())
    assert bench_ladder.elo(logs)["search:60"] > 1700
