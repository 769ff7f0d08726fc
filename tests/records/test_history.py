"""The history corpus (tests/history, its README says which commit made what): records, tournament
archives and club exports written by earlier commits of this repository. What the referee once
accepted stays valid: every record verifies today with the verdict it had when it was made (rules
that a later language version refuses included), every archive and every export checks out."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from smear_dsl.records.verify import verify

HISTORY = ROOT / "tests" / "history"
RECORDS = sorted(p for p in (HISTORY / "records").rglob("*.json") if not p.name.endswith(".verdict.json"))
ARCHIVES = sorted((HISTORY / "tournaments").glob("*.json"))
EXPORTS = sorted((HISTORY / "clubs").glob("*.jsonl"))
# Fields of a verdict a record's meaning rests on; later releases added others (rules, points_won, end).
SAME = ("valid", "finished", "winner", "scores")


def _name(p: Path) -> str:
    return str(p.relative_to(HISTORY))


def test_the_corpus_is_there():
    """Records of five commits, house files among them (one that language 2 refuses), archives, exports."""
    assert len({p.parent.name for p in RECORDS}) >= 5 and len(RECORDS) >= 30
    carried = [json.loads(p.read_text()).get("rules_text") for p in RECORDS]
    assert sum(t is not None for t in carried) >= 10
    assert any("max: 10" in (t or "") for t in carried)
    assert ARCHIVES and EXPORTS


@pytest.mark.parametrize("path", RECORDS, ids=_name)
def test_an_old_record_verifies_as_it_did_when_made(path: Path):
    """A record that names its rules bare, from before versions, may have been made under an earlier
    version than the one the name means for such records (the file was corrected in between, which
    the version registry cannot tell from the record): the verdict then says so in `also_read_as`,
    and one of the readings is the verdict as made."""
    then = json.loads(path.with_name(path.stem + ".verdict.json").read_text())
    record = json.loads(path.read_text())
    now = verify(record)
    assert now["valid"], now["error"]
    readings = [r for r in [now, *now.get("also_read_as", ())] if _same(r, then)]
    assert readings, "no reading of the record is the verdict it had when made"
    if readings[0] is not now:
        assert "@" not in record["rules"] and "rules_sha256" not in record and "rules_text" not in record


def _same(now: dict, then: dict) -> bool:
    """The same outcome, and every hand as the verdict then gave it (fields added since aside)."""
    return {k: now[k] for k in SAME} == {k: then[k] for k in SAME} and len(now["hands"]) == len(then["hands"]) \
        and all({k: a.get(k) for k in b} == b for a, b in zip(now["hands"], then["hands"]))


def test_the_cli_verifies_every_old_record_in_one_run():
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", *map(str, RECORDS)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    verdicts = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(verdicts) == len(RECORDS) and all(v["valid"] for v in verdicts)


@pytest.mark.parametrize("path", ARCHIVES, ids=_name)
def test_an_old_tournament_archive_checks_out(path: Path):
    from smear_referee.tournament.archive import verify_archive
    assert verify_archive(json.loads(path.read_text())) == []


@pytest.mark.parametrize("path", EXPORTS, ids=_name)
def test_an_old_club_export_checks_out(path: Path):
    from smear_referee.club.export import read_export, verify_export
    assert verify_export(read_export(str(path))) == []


def test_a_record_under_rules_language_2_refuses_is_refused_only_when_it_says_language_2():
    """The same old record of a house file whose bids can never be made: valid as written (language 1,
    it names none), refused once its text says `language: 2`, and refused when the record claims a
    language its text does not declare or one newer than this installation reads."""
    from smear_dsl.errors import RecordError
    path = HISTORY / "records" / "20f13a3" / "big_bids-0.json"
    record = json.loads(path.read_text())
    assert verify(record)["valid"]
    strict = dict(record, rules_text="language: 2\n" + record["rules_text"])
    strict.pop("rules_sha256")
    with pytest.raises(RecordError, match="can never be made"):
        verify(strict)
    with pytest.raises(RecordError, match="written in language 1"):
        verify(dict(record, language=2))
    with pytest.raises(RecordError, match="a newer smear-dsl"):
        verify(dict(record, language=99))
    assert verify(dict(record, language=1))["valid"]
