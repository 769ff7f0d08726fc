"""`--jobs`: games spread over worker processes give the same results as one process, for the
same seed (each game is played from its own seed alone), and the same records."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, rules

from smear_dsl.sim.compare import compare
from smear_dsl.sim.parallel import run_games
from smear_dsl.sim.simulate import simulate

TIMINGS = ("seconds", "moves_per_second", "games_per_second", "jobs")


def _without_timings(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMINGS}


def test_simulate_gives_the_same_summary_and_records_on_one_or_three_processes(tmp_path):
    r = rules("cinch", 4)
    one = simulate(r, 30, seed=11, bot="heuristic", max_hands=40, record_dir=str(tmp_path / "one"), jobs=1)
    three = simulate(r, 30, seed=11, bot="heuristic", max_hands=40, record_dir=str(tmp_path / "three"), jobs=3)
    assert _without_timings(one) == _without_timings(three) and one["moves"] > 0
    for k in range(30):
        name = f"game-{k:05d}.json"
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "three" / name).read_text()


def test_compare_gives_the_same_metrics_on_one_or_two_processes():
    a, b = rules("four_point_ne_wisconsin", 4, widow=0), rules("four_point_ne_wisconsin", 4, widow=3)
    assert compare(a, b, 24, 5, jobs=1) == compare(a, b, 24, 5, jobs=2)


def test_workers_keep_the_game_order():
    r = rules("setback", 4)
    assert run_games(r, _seat_count_and_index, 50, (7,), jobs=2) == [(4, i + 7) for i in range(50)]


def _seat_count_and_index(r, i, offset):
    return r.players, i + offset


def test_the_cli_takes_jobs_and_refuses_a_negative_number():
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "simulate", "setback", "--games", "6", "--seed", "3",
                          "--jobs", "2", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["jobs"] == 2
    bad = subprocess.run([sys.executable, "-m", "smear_dsl", "simulate", "setback", "--jobs", "-1"], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--jobs" in bad.stderr


@pytest.mark.system  # starts a referee process
def test_a_tournament_with_the_referee_in_its_own_process_gives_the_same_archive(tmp_path):
    from smear_referee.clients.tournament import run_tournament

    def archive(jobs: int) -> dict:
        a = run_tournament("setback", 8, 2, duplicate=True, seed="jobs", out=str(tmp_path / f"j{jobs}"),
                           progress=False, hands_per_round=2, jobs=jobs)
        assert not a.pop("_stats")["problems"]
        for rnd in a["rounds"]:
            for t in rnd["tables"]:
                t.pop("table_id")  # a new table gets a random id
        return a

    one, three = archive(1), archive(3)
    assert one == three and sum(len(r["tables"]) for r in one["rounds"]) == 4
