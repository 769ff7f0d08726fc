"""Conformance: the project's own corpus (tests/conformance, written by scripts/gen_conformance.py,
every error code covered) in-process and through the CLI batch mode; and the public cases of
../shared/conformance when they are there (one skip, saying so, when they are not)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import CONFORMANCE, ROOT

from smear_dsl.errors import ERROR_CODES
from smear_dsl.records.verify import verify

OWN = ROOT / "tests" / "conformance"
CASES = sorted(p for p in OWN.glob("*.json") if not p.name.endswith(".expected.json"))


def strip(v):
    v = json.loads(json.dumps(v))
    if isinstance(v.get("error"), dict):
        v["error"].pop("message", None)
    return v


def expected(case):
    return strip(json.loads(case.with_name(case.stem + ".expected.json").read_text()))


def test_the_own_corpus_covers_every_error_code_and_valid_games():
    codes = {(expected(c)["error"] or {}).get("code") for c in CASES}
    assert codes >= set(ERROR_CODES) | {None}, sorted(set(ERROR_CODES) - codes)
    names = {json.loads(c.read_text())["rules"].split("@")[0] for c in CASES}  # `name@V` since rules have versions
    assert {p.stem for p in (ROOT / "rules").glob("*.yaml")} <= names  # a game of every shipped rule file


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_verdict_matches(case):
    got = strip(verify(json.loads(case.read_text())))
    assert got == expected(case), case.name


def _agrees(want, got) -> bool:
    """`got` says everything `want` says, as the shared checker compares: a verdict may add fields
    (`points_won`, when each point fell), never change or drop one."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _agrees(v, got[k]) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_agrees, want, got))
    return type(want) is type(got) and want == got


def test_shared_public_corpus():
    """The 49+ public cases beside the repository (CI has them; a user's clone does not)."""
    shared = sorted(p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json"))
    if not shared:
        pytest.skip(f"no public conformance cases at {CONFORMANCE} (they come with ../shared; the own corpus ran)")
    wrong = []
    for case in shared:
        want, got = expected(case), strip(verify(json.loads(case.read_text())))
        if not _agrees(want, got):
            wrong.append(case.name)
    assert not wrong, wrong


def test_batch_cli_one_line_per_record_and_highest_status():
    cmd = [sys.executable, "-m", "smear_dsl", "verify", "--format", "json", *map(str, CASES)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(CASES)
    assert proc.returncode == 1  # some cases hold illegal moves, none is unreadable
    for case, line in zip(CASES, lines):
        got = json.loads(line)
        assert got["file"] == str(case)
        assert got["valid"] == expected(case)["valid"]


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
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", "--format", "json", str(good), str(bad)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and len(proc.stdout.splitlines()) == 2


def test_verify_reads_standard_input():
    case = CASES[0]
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", "-"], input=case.read_text(),
                          capture_output=True, text=True, cwd=ROOT)
    assert strip(json.loads(proc.stdout)) == strip(verify(json.loads(case.read_text())))
