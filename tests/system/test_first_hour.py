"""What a stranger meets first, through the real command: defaults, refusals and messages a person reads."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from referee_harness import ServerProcess

from smear_referee.clients.client import target

OWN = ROOT / "tests" / "conformance"


def smear(*args: str, cwd=None, env=None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=env, timeout=timeout)


def serve(port: int, db: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", "serve", "--port", str(port), "--db", db],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


# ---------------------------------------------------------------- defaults

def test_simulate_plays_heuristic_bots_by_default_and_says_so():
    p = smear("simulate", "four_point_ne_wisconsin", "--games", "20", "--seed", "1")
    assert p.returncode == 0, p.stderr
    assert "heuristic bots" in p.stdout.splitlines()[0] and "warning" not in p.stdout
    assert json.loads(smear("simulate", "four_point_ne_wisconsin", "--games", "5", "--seed", "1", "--json").stdout)[
        "bot"] == "heuristic"


def test_figures_from_mostly_unfinished_games_carry_a_warning():
    p = smear("simulate", "four_point_ne_wisconsin", "--games", "10", "--seed", "1", "--bot", "random",
              "--max-hands", "3")
    assert p.returncode == 0, p.stderr
    warning = [x for x in p.stdout.splitlines() if "warning" in x]
    assert warning and "10 of 10 games did not finish within 3 hands" in warning[0]


# ---------------------------------------------------------------- one server per port, one per database

def test_a_second_server_on_a_busy_port_exits_with_one_line(tmp_path):
    first = ServerProcess(str(tmp_path / "a.sqlite3"))
    try:
        p = serve(first.port, str(tmp_path / "b.sqlite3"))
        assert p.returncode == 1
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and f"{first.port}" in lines[0] and "in use" in lines[0], p.stderr
        assert "listening" not in p.stdout
    finally:
        first.stop()


def test_a_second_server_on_a_database_in_use_exits_with_one_line(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    first = ServerProcess(db)
    try:
        p = serve(0, db)
        assert p.returncode == 1
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and db in lines[0] and "in use" in lines[0], p.stderr
    finally:
        first.stop()
    again = ServerProcess(db)  # the lock goes with the server that held it
    again.stop()


# ---------------------------------------------------------------- messages a person reads

def test_verify_of_several_files_names_each_one():
    cases = sorted(p for p in OWN.glob("*.json") if not p.name.endswith(".expected.json"))[:3]
    bad = next(p for p in sorted(OWN.glob("*must_follow_suit*.json")) if not p.name.endswith(".expected.json"))
    files = [*map(str, cases), str(bad)]
    lines = smear("verify", *files).stdout.splitlines()  # not a terminal: JSON Lines
    assert [json.loads(x)["file"] for x in lines] == files
    text = smear("verify", "--format", "text", *files)
    assert text.returncode == 1
    out = text.stdout.splitlines()
    assert len(out) == 4 and all(line.startswith(f"{f}: ") for line, f in zip(out, files))
    assert "valid" in out[0] and "INVALID (four_point_ne_wisconsin@1) at hand" in out[3] and "MUST_FOLLOW_SUIT" in out[3]


def test_a_mistyped_rule_name_in_a_record_gets_did_you_mean(tmp_path):
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps({"format": "smear-record/1", "rules": "four_point_ne_wisconsn", "players": 4,
                               "options": {}, "first_dealer": 0, "hands": []}))
    p = smear("verify", str(rec))
    assert p.returncode == 2 and "did you mean `four_point_ne_wisconsin`" in p.stderr


@pytest.mark.parametrize("argv,usage,hint", [
    (["simulate", "four_point_ne_wisconsin", "--gmaes", "10"], "smear-dsl simulate", "did you mean --games?"),
    (["simulat", "four_point_ne_wisconsin"], "smear-dsl", "did you mean `simulate`?"),
    (["verify", "x.json", "--formt", "text"], "smear-dsl verify", "did you mean --format?"),
])
def test_a_mistyped_command_or_option_gets_a_suggestion(argv, usage, hint):
    p = smear(*argv)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"usage: {usage}") and hint in p.stderr, p.stderr


def test_bot_uses_the_referees_default_port_and_says_when_it_is_not_there():
    assert target("localhost") == "localhost:50051" and target("10.0.0.2:7000") == "10.0.0.2:7000"
    assert target("::1") == "[::1]:50051" and target("[::1]:9") == "[::1]:9"
    p = smear("bot", "--server", "127.0.0.1:1", "--table", "t", "--seat", "0", "--token", "x")
    assert p.returncode == 2
    assert "cannot reach the referee at 127.0.0.1:1 (is `smear-dsl serve` running there?)" in p.stderr
    assert "UNAVAILABLE" not in p.stderr


def test_progress_bars_say_what_their_times_are():
    from rich.console import Console

    from smear_dsl.sim.simulate import progress_bar
    bar, task = progress_bar("games", 10)
    bar.advance(task, 3)
    console = Console(record=True, width=120, force_terminal=False)
    console.print(bar.make_tasks_table(bar.tasks))
    bar.stop()
    line = console.export_text()
    assert "games" in line and "3/10" in line and "elapsed" in line and "remaining" in line


def test_rule_names_from_a_clubs_folder(tmp_path):
    club = tmp_path / "club"
    club.mkdir()
    (club / "thursday.yaml").write_text("extends: four_point_ne_wisconsin\nname: Thursday\noptions:\n"
                                        "  widow: {default: 2}\n")
    env = dict(os.environ, SMEAR_DSL_RULES=str(club))
    p = smear("check", "thursday", "four_point_ne_wisconsin", env=env, cwd=tmp_path)
    assert p.returncode == 0 and "thursday: ok (Thursday;" in p.stdout, p.stderr
    assert smear("check", "thursday", cwd=tmp_path).returncode == 1  # unknown without the folder
