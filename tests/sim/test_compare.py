"""`simulate --compare`: paired arms on the same deals, interval arithmetic, and the CLI with --plot."""
from __future__ import annotations

import json
import math
import subprocess
import sys

from conftest import ROOT, rules

from smear_dsl.engine import Game
from smear_dsl.sim.compare import compare, paired_diff_ci, ratio_ci


def test_ratio_interval_is_exact_for_a_constant_ratio_and_widens_with_noise():
    r, lo, hi = ratio_ci([(3.0, 6.0), (1.0, 2.0), (5.0, 10.0)])
    assert r == 0.5 and math.isclose(lo, 0.5) and math.isclose(hi, 0.5)
    r, lo, hi = ratio_ci([(1.0, 1.0), (0.0, 1.0)] * 50)
    assert r == 0.5 and lo < 0.5 < hi
    # 100 Bernoulli(0.5) games: the half-width is about 1.96 * sqrt(.25 / 100) = 0.098.
    assert math.isclose(hi - r, 0.098, abs_tol=0.002)


def test_paired_difference_of_identical_arms_is_exactly_zero():
    pairs = [(1.0, 3.0), (2.0, 3.0), (0.0, 2.0), (4.0, 5.0)]
    assert paired_diff_ci(pairs, pairs) == (0.0, 0.0, 0.0)


def test_both_arms_see_the_same_deals():
    a, b = rules("four_point_ne_wisconsin", 4, widow=0), rules("four_point_ne_wisconsin", 4, widow=3)
    for seed in range(5):
        ga, gb = Game(a, seed=seed), Game(b, seed=seed)
        assert ga.record_hands[0][1] == gb.record_hands[0][1] and ga.first_dealer == gb.first_dealer


def test_an_arm_compared_with_itself_changes_nothing():
    r = rules("setback", 4)
    result = compare(r, r, games=25, seed=3)
    for m in result["metrics"]:
        assert m["diff"][0] in (0.0, None), m
        assert not m["significant"], m


def test_a_widow_helps_the_bidder_and_shortens_games():
    a, b = rules("four_point_ne_wisconsin", 4, widow=0), rules("four_point_ne_wisconsin", 4, widow=3)
    result = compare(a, b, games=120, seed=11)
    by = {m["key"]: m for m in result["metrics"]}
    assert by["bidder_made"]["b"][0] > by["bidder_made"]["a"][0] and by["bidder_made"]["significant"]
    assert by["hands_per_game"]["diff"][0] < 0
    lo, hi = by["win:0"]["a"][1:]
    assert 0 <= lo <= hi <= 1.0001


def test_compare_says_which_side_won_each_point(tmp_path):
    """Low to the trick winner instead of the player of the low: the side that does not bid, which wins
    fewer tricks, takes it less often; and every point goes to the bidder's side, the others or no one."""
    from smear_dsl.compile.compiler import compile_rules
    from smear_dsl.language.load import load_spec
    house = tmp_path / "low_to_winner.yaml"
    house.write_text("extends: four_point_ne_wisconsin\nname: Low to the winner\n"
                     "points:\n  low: {card: 7 of trump, to: winner}\n")
    a = rules("four_point_ne_wisconsin", 4, widow=0)
    b = compile_rules(load_spec(str(house)), 4, {"widow": 0})
    by = {m["key"]: m for m in compare(a, b, games=200, seed=3)["metrics"]}
    low = by["point:low:others"]
    assert low["diff"][0] < 0 and low["significant"], low
    # (The bot reads the points, so who bids, and so where High goes, may change with the house rule.)
    for arm in ("a", "b"):
        for p in ("high", "low", "jack", "game"):
            assert abs(sum(by[f"point:{p}:{w}"][arm][0] for w in ("bidder", "others", "nobody")) - 1) < 1e-4


def test_the_title_names_each_arm_once():
    from smear_dsl.sim.compare import title_of
    same = {"a": {"rules": "r", "players": 4, "options": {"widow": 0}},
            "b": {"rules": "r", "players": 4, "options": {"widow": 3}}}
    assert title_of(same) == "r: A widow=0, B widow=3"
    other = {"a": {"rules": "r", "players": 4, "options": {}}, "b": {"rules": "s", "players": 4, "options": {}}}
    assert title_of(other) == "A: r, B: s"


def test_compare_cli_prints_json_and_draws_the_plot(tmp_path):
    png = tmp_path / "cmp.png"
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "simulate", "--compare", "cutthroat_canadian",
                          "cutthroat_joker", "--players", "3", "--games", "15", "--seed", "2", "--json",
                          "--plot", str(png)], capture_output=True, text=True, cwd=ROOT, check=True)
    result = json.loads(out.stdout)
    assert result["a"]["rules"] == "cutthroat_canadian@1" and result["b"]["rules"] == "cutthroat_joker@2"
    assert result["same_deck"] is False
    assert {"point:joker:bidder", "point:joker:others", "point:joker:nobody"} <= {m["key"] for m in result["metrics"]}
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_compare_cli_refuses_bad_usage_without_a_traceback():
    for argv in (["simulate", "setback", "--plot", "x.png"],
                 ["simulate", "--compare", "setback", "cutthroat_canadian"],
                 ["simulate", "--compare", "setback:nope=1", "setback"]):
        r = subprocess.run([sys.executable, "-m", "smear_dsl", *argv], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.strip(), argv
