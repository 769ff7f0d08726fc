"""The public conformance cases of ../shared/conformance, in-process and through the CLI batch mode."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from smear_dsl.record import verify

from conftest import CONFORMANCE, ROOT

CASES = sorted(p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json"))


def strip(v):
    v = json.loads(json.dumps(v))
    if isinstance(v.get("error"), dict):
        v["error"].pop("message", None)
    return v


def test_cases_are_present():
    assert len(CASES) >= 49, f"expected the public conformance cases in {CONFORMANCE}"


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_verdict_matches(case):
    expected = strip(json.loads(case.with_name(case.stem + ".expected.json").read_text()))
    got = strip(verify(json.loads(case.read_text())))
    for key, value in expected.items():
        assert got[key] == value, f"{case.name}: {key}"
    if not expected["valid"]:
        assert got["error"] is not None


def test_batch_cli_one_line_per_record_and_highest_status():
    cmd = [sys.executable, "-m", "smear_dsl", "verify", *map(str, CASES)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(CASES)
    assert proc.returncode == 1  # some cases hold illegal moves, none is unreadable
    for case, line in zip(CASES, lines):
        expected = strip(json.loads(case.with_name(case.stem + ".expected.json").read_text()))
        assert strip(json.loads(line))["valid"] == expected["valid"]


def test_unreadable_record_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"format": "smear-record/1", "rules": "no_such_rules", "players": 4,
                                   "options": {}, "first_dealer": 0, "hands": []}))
    good = CASES[-1]
    for path in (bad, unknown):
        proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(path)], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 2
        assert proc.stderr.strip() and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(good), str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and len(proc.stdout.splitlines()) == 2


def test_verify_reads_standard_input():
    case = CASES[0]
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", "-"], input=case.read_text(),
                          capture_output=True, text=True, cwd=ROOT)
    assert strip(json.loads(proc.stdout)) == strip(verify(json.loads(case.read_text())))
