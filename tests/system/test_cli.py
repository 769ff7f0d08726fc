"""The command line: simulate (text and JSON), check, and friendly errors."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", *args], capture_output=True, text=True, cwd=ROOT)


def test_simulate_json_summary_and_records(tmp_path):
    p = run("simulate", "four_point_ne_wisconsin", "--games", "3", "--seed", "4", "--option", "widow=1",
            "--bot", "heuristic", "--json", "--record-dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["games"] == 3 and s["hands"] > 0 and s["moves"] > s["hands"] and s["seconds"] > 0
    assert s["options"]["widow"] == 1
    assert set(s["point_award_rate"]) == {"high", "low", "jack", "game"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    v = run("verify", *map(str, files))
    assert v.returncode == 0
    assert all(json.loads(line)["valid"] for line in v.stdout.splitlines())


def test_simulate_text_and_path_rules():
    p = run("simulate", str(ROOT / "rules" / "cutthroat_canadian.yaml"), "--players", "2", "--games", "2", "--seed", "1")
    assert p.returncode == 0, p.stderr
    assert "moves/s" in p.stdout and "bidder makes it" in p.stdout


def test_bad_option_and_players_are_clean_errors():
    for args in (["--option", "widow=9"], ["--option", "nonsense=1"], ["--players", "5"], ["--option", "widow"]):
        p = run("simulate", "four_point_ne_wisconsin", "--games", "1", *args)
        assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.startswith("smear-dsl:")


def test_unknown_rules_name_suggests():
    p = run("simulate", "four_point", "--games", "1")
    assert p.returncode == 2 and "did you mean" in p.stderr


def test_check_ok_and_exit_codes():
    assert run("check", "four_point_ne_wisconsin").returncode == 0
    assert run("check", "tests/broken/unknown_name.yaml").returncode == 1


def test_no_variant_is_named_in_the_engine():
    """Variants live in rules/ only: no rule file's name appears anywhere in smear_dsl/ (as a word: `don`
    is a variant, "abandoned" is not)."""
    import re
    names = {p.stem for p in (ROOT / "rules").glob("*.yaml")}
    words = names | {"wisconsin", "cutthroat", "canadian", "schmier", "st paul", "auction", "trinidad"}
    for path in (ROOT / "smear_dsl").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".lark"):
            text = path.read_text().lower()
            for w in words:
                assert not re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z'])", text), \
                    f"{path.relative_to(ROOT)} names the variant `{w}`"


def test_demo_plays_the_named_games(tmp_path):
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "demo", "--game", "setback", "--game",
                          "five_point_jick:partners=true@4", "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "setback.json").exists() and (tmp_path / "five_point_jick.json").exists()
    assert " ".join(out.stdout.split()).count("matches the game") == 2
    bad = subprocess.run([sys.executable, "-m", "smear_dsl", "demo"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "--game" in bad.stderr
