"""Rules that never change under a game: every released version of the family plays as recorded,
a change of play without a new version is caught, a pinned house file keeps its rules when a new
version ships (in a copy of the package, as an upgrade would bring it), records name and keep their
version, and Cinch version 2 lets a player trump while holding the suit led (Foster)."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, RULE_FILES, rules
from hands import deal, new_game, play, refused

from smear_dsl.engine import Game
from smear_dsl.errors import RecordError, RuleError
from smear_dsl.language.load import load_spec, spec_from_text
from smear_dsl.language.pins import stored_spec, table_rules_name
from smear_dsl.language.versions import legacy_ref, registry, versions_of
from smear_dsl.records.verify import verify
from smear_dsl.sim.fingerprint import fingerprint

sys.path.insert(0, str(ROOT / "scripts"))
from gen_rule_versions import problems  # noqa: E402

FAMILY = ROOT / "smear_dsl" / "rules"


@pytest.mark.slow  # fingerprints every released version
def test_every_released_version_plays_as_it_was_released():
    """The registry (history/versions.json) holds every version of every shipped file, each still
    plays as its fingerprint says, and no frozen version's text has changed."""
    assert problems() == []
    versions = registry()["versions"]
    for name in RULE_FILES:
        have = versions_of(name)
        assert have == list(range(1, len(have) + 1)) and all(f"{name}@{v}" in versions for v in have), name
        assert load_spec(name).version == have[-1]


def test_the_history_the_issue_names_is_there():
    """Versions rebuilt from git where play changed; the family's corrections are new versions."""
    for name, newest in [("auction_pitch", 2), ("ten_point_jack_jick_joker", 2), ("six_point_ne_wisconsin", 2),
                         ("cutthroat_joker", 2), ("st_paul_schmier", 2), ("cinch", 2), ("pedro", 2), ("shasta_sam", 2),
                         ("four_point_ne_wisconsin", 1), ("cutthroat_canadian", 1)]:
        assert versions_of(name)[-1] == newest, name
    assert legacy_ref("cinch") == "cinch@1" and legacy_ref("auction_pitch") == "auction_pitch@2"


@pytest.fixture
def family_copy(tmp_path):
    """A copy of the shipped rules folder, history and registry included."""
    shutil.copytree(FAMILY, tmp_path / "rules")
    return tmp_path / "rules"


def test_a_change_of_play_without_a_new_version_is_caught(family_copy):
    path = family_copy / "cinch.yaml"
    path.write_text(path.read_text().replace("target: 51", "target: 52"))
    found = problems(family_copy, only={"cinch"})
    assert found and found[0].startswith("cinch@2: plays differently"), found
    # A comment is not play: the same version, its new text to be recorded.
    path.write_text(path.read_text().replace("target: 52", "target: 51").replace("# Cinch (", "# Cinch, or ("))
    assert problems(family_copy, only={"cinch"}) == ["cinch@2: its text changed (the same play): run "
                                                      "scripts/gen_rule_versions.py"]


def test_a_frozen_version_may_not_change_at_all(family_copy):
    path = family_copy / "history" / "auction_pitch@1.yaml"
    path.write_text(path.read_text() + "# a comment\n")
    assert problems(family_copy, only={"auction_pitch"}) == ["auction_pitch@1: a released version is frozen, but its "
                                                              "text changed"]
    path.write_text(path.read_text().replace("all_pass: dealer_bids", "all_pass: redeal"))
    assert "auction_pitch@1: plays differently" in problems(family_copy, only={"auction_pitch"})[0]
    path.unlink()
    assert "auction_pitch@1: released, but no longer here" in " ".join(problems(family_copy, only={"auction_pitch"}))


def test_the_fingerprint_sees_small_changes_of_play():
    """Each edit changes only a corner of the game (one point's value, a tie-break's order, the
    target by one, a default): the fingerprint still tells them apart."""
    for name, old, new in [("cinch", "target: 51", "target: 52"),
                           ("cinch", "right_pedro: {card: 5 of trump, to: winner, value: 5}",
                            "right_pedro: {card: 5 of trump, to: winner, value: 4}"),
                           ("auction_pitch", "tie_break: [bidder, count_out, highest]",
                            "tie_break: [bidder, highest, count_out]"),
                           ("four_point_ne_wisconsin", "    default: 0", "    default: 1")]:
        text = (FAMILY / f"{name}.yaml").read_text()
        assert old in text
        edited = spec_from_text(text.replace(old, new, 1), str(FAMILY / f"{name}.yaml"))
        assert fingerprint(edited) != fingerprint(load_spec(name)), (name, new)


def _upgraded(site: Path, name: str, version: int, old: str, new: str) -> Path:
    """A copy of the package in `site` where `name` has a new version (its play: `old` -> `new`),
    made as a maintainer makes one: today's file frozen in history/, the current file edited."""
    shutil.copytree(ROOT / "smear_dsl", site / "smear_dsl", ignore=shutil.ignore_patterns("__pycache__"))
    current = site / "smear_dsl" / "rules" / f"{name}.yaml"
    shutil.copy(current, current.parent / "history" / f"{name}@{version}.yaml")
    text = current.read_text()
    assert f"version: {version}" in text and old in text
    current.write_text(text.replace(f"version: {version}", f"version: {version + 1}").replace(old, new))
    return site


def _run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})


PRINT_FINGERPRINT = ("import sys, smear_dsl; from smear_dsl.sim.fingerprint import fingerprint; "
                     "from smear_dsl.language.load import load_spec; assert smear_dsl.__file__.startswith(sys.argv[2]), "
                     "smear_dsl.__file__; print(fingerprint(load_spec(sys.argv[1])))")


@pytest.mark.slow  # fingerprints a house file twice
def test_a_pinned_house_file_plays_the_same_after_a_new_version_ships(tmp_path):
    """A club's file pinned to auction_pitch@2 (and one to @1), then a new version of auction_pitch in
    an upgraded package (the all-pass rule changed back to sticking the dealer): the pinned files
    check and play move for move as before; the unpinned one checks and `check` names the new
    version; a record made before the upgrade verifies after it, its parents' versions kept."""
    club = tmp_path / "club"
    club.mkdir()
    for name, parent in [("pinned", "auction_pitch@2"), ("old", "auction_pitch@1"), ("unpinned", "auction_pitch")]:
        (club / f"{name}.yaml").write_text(f"extends: {parent}\nname: Friday {name}\nend: {{target: 9}}\n")
    before = {n: fingerprint(load_spec(str(club / f"{n}.yaml"))) for n in ("pinned", "old", "unpinned")}
    house = load_spec(str(club / "unpinned.yaml"))
    game = Game(rules_of(house), seed=5)
    rng = random.Random(5)
    while len(game.results) < 3:
        game.apply(game.turn, game.random_move(rng))
    record = json.loads(json.dumps(game.to_record()))
    assert record["rules_parents"] == ["auction_pitch@2"] and "rules_text" in record

    site = _upgraded(tmp_path / "site", "auction_pitch", 2, "all_pass: eldest_pitches", "all_pass: dealer_bids")
    after = {n: _run(site, "-c", PRINT_FINGERPRINT, str(club / f"{n}.yaml"), str(site), cwd=club).stdout.strip()
             for n in before}
    assert after["pinned"] == before["pinned"] and after["old"] == before["old"]
    assert after["unpinned"] != before["unpinned"]  # it follows the family: the new all-pass rule
    pinned = _run(site, "-m", "smear_dsl", "check", "pinned.yaml", "old.yaml", cwd=club)
    assert pinned.returncode == 0 and "note:" not in pinned.stdout, pinned.stdout + pinned.stderr
    unpinned = _run(site, "-m", "smear_dsl", "check", "unpinned.yaml", cwd=club)
    assert unpinned.returncode == 0 and "`extends: auction_pitch` means auction_pitch@3" in unpinned.stdout
    assert "changed since version 1 (`smear-dsl explain auction_pitch@1 --diff auction_pitch@3`" in unpinned.stdout
    (club / "record.json").write_text(json.dumps(record))
    verdict = _run(site, "-m", "smear_dsl", "verify", "record.json", cwd=club)
    assert verdict.returncode == 0 and json.loads(verdict.stdout)["hands"] == verify(record)["hands"]


def rules_of(spec, players=None):
    from smear_dsl.compile.compiler import compile_rules
    return compile_rules(spec, players, {})


def _cinch_to_the_first_lead(name: str) -> Game:
    """Hearts are trump; after the discards and refills seat 1 holds two spades and three trumps."""
    g = new_game(name, 4, dealer=3)
    deal(g, ["AH KH QH 2S 3S 4S 5S 6S 7S", "JH TH 9H 2C 3C 4C 5C 6C 7C", "8H 7H 6H 2D 3D 4D 6D 7D 8D",
             "5H 4H 3H 2H 5D AS KS QS JS"], stock_front="TS 9D AC 9S 8S KC QD JD TD")
    play(g, "0:1 1:pass 2:pass 3:pass 0:H 0:2S+3S+4S+5S+6S+7S 1:2C+3C+4C+5C+6C+7C 2:2D+3D+4D+6D+7D+8D")
    g.apply(3, g.legal_moves()[0])  # the dealer robs the pack and keeps its trumps
    play(g, "0:TS")  # the bidder leads a plain spade
    return g


def test_cinch_2_lets_a_player_trump_while_holding_the_suit_led():
    g = _cinch_to_the_first_lead("cinch@1")
    refused(g, "1:JH", "MUST_FOLLOW_SUIT")  # version 1: holding spades, seat 1 must play one
    g = _cinch_to_the_first_lead("cinch@2")
    play(g, "1:JH")  # version 2 (Foster): it may trump instead
    assert g.trick[-1] == g.rules.deck.id_of["JH"]
    play(g, "2:QD")  # void in spades: any card
    while not g.hand_over:
        g.apply(g.turn, g.legal_moves()[0])
    record = json.loads(json.dumps(g.to_record()))
    assert record["rules"] == "cinch@2" and verify(record)["valid"]
    old = dict(record, rules="cinch@1")
    old.pop("rules_sha256")
    v = verify(old)  # the same moves under version 1: the trump is refused where it was played
    assert not v["valid"] and v["error"]["code"] == "MUST_FOLLOW_SUIT" and v["rules"] == "cinch@1"


def test_a_record_made_under_cinch_1_verifies_after_cinch_2_ships():
    g = Game(rules("cinch@1", 4), seed=11)
    rng = random.Random(11)
    while len(g.results) < 4:
        g.apply(g.turn, g.random_move(rng))
    record = json.loads(json.dumps(g.to_record()))
    assert record["rules"] == "cinch@1" and len(record["rules_sha256"]) == 64 and "rules_text" not in record
    v = verify(record)
    assert v["valid"] and v["rules"] == "cinch@1" and v["scores"] == g.scores
    bare = {k: x for k, x in record.items() if k not in ("rules", "rules_sha256")}
    assert verify(dict(bare, rules="cinch"))["rules"] == "cinch@1"  # before versions: the version it had then
    assert verify(dict(bare, rules="cinch", rules_sha256=record["rules_sha256"]))["rules"] == "cinch@1"  # by its text
    with pytest.raises(RecordError, match="no version 9 of cinch"):
        verify(dict(bare, rules="cinch@9"))
    with pytest.raises(RecordError, match="not the hash of cinch@1"):
        verify(dict(record, rules_sha256="0" * 64))


def test_verify_names_an_unknown_version_and_exits_2(tmp_path):
    record = {"format": "smear-record/1", "rules": "cinch@9", "players": 4, "first_dealer": 0, "hands": []}
    (tmp_path / "r.json").write_text(json.dumps(record))
    p = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(tmp_path / "r.json")], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2 and "no version 9 of cinch (it has 1, 2)" in p.stderr
    assert json.loads(p.stdout)["error"]["code"] == "BAD_RECORD"


def test_a_hand_limit_and_an_abandonment_are_in_the_record():
    g = Game(rules("four_point_ne_wisconsin", 4), seed=3, hand_limit=2)
    rng = random.Random(3)
    while not g.finished:
        g.apply(g.turn, g.random_move(rng))
    record = json.loads(json.dumps(g.to_record()))
    assert record["hand_limit"] == 2
    v = verify(record)
    top = max(g.scores)
    assert v["finished"] and v["end"] == "hand_limit" and v["winner"] == g.winner
    assert v["winner"] == (g.scores.index(top) if g.scores.count(top) == 1 else None)
    assert not verify(dict(record, hand_limit=None))["finished"]  # without it, the game is still in progress
    cut = dict(record, hands=record["hands"][:1])
    cut.pop("hand_limit")
    abandoned = verify(dict(cut, ended={"reason": "abandoned"}))
    assert abandoned["finished"] and abandoned["winner"] is None and abandoned["end"] == "abandoned"
    for bad in (0, -1, "2", True):
        with pytest.raises(RecordError, match="hand_limit"):
            verify(dict(record, hand_limit=bad))


def test_a_table_stores_the_exact_rules_it_plays():
    shipped = load_spec("cinch")
    assert table_rules_name(shipped, False) == "cinch@2"
    upload = spec_from_text("extends: cinch\nname: Ours\n", "upload.yaml", known_parents_only=True)
    stored = table_rules_name(upload, True)
    assert stored == "upload < cinch@2"
    assert stored_spec(stored, upload.text).extends == ("cinch@2",)
    assert stored_spec("upload < cinch@1", upload.text).extends == ("cinch@1",)  # a table created before cinch@2
    assert stored_spec("upload", upload.text).extends == ("cinch@1",)  # stored before versions: cinch as it was
    assert stored_spec("cinch", None).ref == "cinch@1" and stored_spec("cinch@2", None).ref == "cinch@2"
    with pytest.raises(RuleError):
        stored_spec("cinch@9", None)


@pytest.mark.system  # starts two referees on one store
def test_a_table_keeps_its_version_when_the_server_is_upgraded(tmp_path):
    """Tables created under cinch@2 (one named, one uploaded with `extends: cinch`), then the server
    restarted on a package where Cinch has a version 3: both tables still play version 2, and a new
    table gets version 3."""
    from referee_harness import ServerProcess

    from smear_referee.api import referee_pb2 as pb
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerProcess(db)
    try:
        c = srv.client()
        named = c.create_table("cinch", seed="upgrade").table_id
        uploaded = c.create_table(rules_text="extends: cinch\nname: Our Cinch\n", seed="upgrade").table_id
        assert c.table(named).rules == "cinch@2"
    finally:
        srv.stop()
    site = _upgraded(tmp_path / "site", "cinch", 2, "follow: suit_or_trump", "follow: suit")
    srv = ServerProcess(db, site=str(site))
    try:
        c = srv.client()

        def sheet(table_id):
            return c.stub.ExplainRules(pb.ExplainRulesRequest(table_id=table_id)).text
        assert c.table(named).rules == "cinch@2" and "or may trump instead" in sheet(named)
        assert "a variant of `cinch@2`" in sheet(uploaded) and "or may trump instead" in sheet(uploaded)
        fresh = c.create_table("cinch").table_id
        assert c.table(fresh).rules == "cinch@3" and "or may trump instead" not in sheet(fresh)
        again = c.create_table(rules_text="extends: cinch\nname: Our Cinch\n").table_id
        assert "a variant of `cinch@3`" in sheet(again)
    finally:
        srv.stop()


@pytest.mark.parametrize("name", ["cinch@²", "cinch@١", "cinch@" + "9" * 5000, "cinch@", "cinch@-1", "cinch@1@2"])
def test_a_strange_version_is_refused_with_a_reason(name):
    record = {"format": "smear-record/1", "rules": name, "players": 4, "first_dealer": 0, "hands": []}
    with pytest.raises(RecordError):
        verify(record, allow_paths=False)
    with pytest.raises(RuleError):
        load_spec(name)


def test_demo_games_may_name_a_version():
    from smear_referee.clients.demo import parse_game
    assert parse_game("cutthroat_canadian@3") == ("cutthroat_canadian", 3, {})  # no version 3: three players
    assert parse_game("cinch@1") == ("cinch@1", None, {})
    assert parse_game("cinch@1@4") == ("cinch@1", 4, {})
    assert parse_game("four_point_ne_wisconsin@1:widow=2@4") == ("four_point_ne_wisconsin@1", 4, {"widow": "2"})
