"""Bot tournaments through a local referee: pairing, duplicate rounds, commitments, archives that
`verify-tournament` checks from scratch and whose tampering it pinpoints."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter, defaultdict

import pytest
from conftest import ROOT

from smear_dsl.compile.duplicate import commitment
from smear_referee.clients.tournament import run_tournament
from smear_referee.tournament import standings as S
from smear_referee.tournament.archive import verify_archive
from smear_referee.tournament.pairing import circle_round, pair_round


@pytest.fixture(scope="module")
def duplicate_archive(tmp_path_factory):
    out = tmp_path_factory.mktemp("dup")
    return run_tournament("four_point_ne_wisconsin", 8, 2, "swiss", duplicate=True, seed="t-dup", out=str(out),
                          progress=False), out


def test_round_robin_pairs_meet_exactly_once():
    entrants = list(range(6))
    met = Counter(frozenset(p) for r in range(5) for p in circle_round(entrants, r))
    assert len(met) == 15 and set(met.values()) == {1}


def test_pairing_rotates_seats_and_spreads_opponents():
    met, held = Counter(), defaultdict(Counter)
    for r in range(4):
        pair_round("swiss", list(range(8)), 4, r, "s", list(range(8)), met, held)
    assert all(sum(c.values()) == 4 for c in held.values())
    assert all(max(c.values()) <= 2 for c in held.values()), "someone kept the same seat"


def test_duplicate_tournament_deals_commitments_and_standings(duplicate_archive):
    archive, out = duplicate_archive
    assert archive["_stats"]["problems"] == []
    for rnd in archive["rounds"]:
        assert commitment(rnd["seed"]) == rnd["commitment"]
        deals = [[h["deal"] for h in t["record"]["hands"]] for t in rnd["tables"]]
        common = min(map(len, deals))
        assert common >= 2 and all(d[:common] == deals[0][:common] for d in deals)
    games = [{"seats": t["seats"], "scores": t["result"]["scores"], "winner": t["result"]["winner"]}
             for rnd in archive["rounds"] for t in rnd["tables"]]
    names = [e["name"] for e in archive["entrants"]]
    assert S.compute(names, games, []) == archive["standings"]
    assert archive["duplicate_comparisons"]
    report = (out / "standings.html").read_text()
    assert report.startswith("<!DOCTYPE html>") and "The same deals across tables" in report


def test_duplicate_tables_are_played_by_distinct_players(duplicate_archive):
    """Each entrant's bot has its own seed, boldness and noise: the same boards are played
    differently at the tables of a round, and partners are not the same pair every round."""
    archive, _out = duplicate_archive
    for rnd in archive["rounds"]:
        plays = [[m for h in t["record"]["hands"] for m in h["moves"]] for t in rnd["tables"]]
        assert len({json.dumps(p) for p in plays}) == len(plays), "two tables played the same boards identically"
    assert len({e["bot"] for e in archive["entrants"]}) > 1
    partners = [{frozenset((t["seats"][k], t["seats"][k + 2])) for t in rnd["tables"] for k in range(2)}
                for rnd in archive["rounds"]]
    assert partners[0] != partners[1], partners  # not the same pairs every round
    partners = Counter()
    for rnd in archive["rounds"]:
        for t in rnd["tables"]:
            seats = t["seats"]
            for i in range(len(seats)):
                for j in range(i + 1, len(seats)):
                    if i % 2 == j % 2:
                        partners[frozenset((seats[i], seats[j]))] += 1
    assert max(partners.values()) == 1, "a pair partnered twice while others never did"


def test_the_standings_report_a_club_pins_on_the_wall(duplicate_archive):
    archive, out = duplicate_archive
    report = (out / "standings.html").read_text()
    assert "Four Point Northeastern Wisconsin Smear" in report and "widow = 0" in report
    for rnd in archive["rounds"]:
        assert f"<h3>Round {rnd['round'] + 1}" in report
        for t in rnd["tables"]:
            names = [archive["entrants"][u]["name"] for u in t["seats"]]
            assert f"{names[0]} &amp; {names[2]}" in report and f"{names[1]} &amp; {names[3]}" in report
    assert all(r["points_against"] >= 0 for r in archive["standings"])
    folded = report[report.index("<details>"):]
    assert "<summary>Verification</summary>" in folded and all(r["seed"] in folded and r["commitment"] in folded
                                                               for r in archive["rounds"])
    assert all(r["seed"] not in report[:report.index("<details>")] for r in archive["rounds"])


def test_the_standings_report_in_the_clubs_language(duplicate_archive):
    """`tournament run --lang fr` writes the same report in French: the rules' French name, the
    headings, the verdicts; names, scores and seeds as they are."""
    from smear_referee.tournament.report import standings_html
    archive, _out = duplicate_archive
    fr = standings_html(archive, "fr")
    assert fr.startswith("<!DOCTYPE html><html lang='fr'>")
    assert "<b>Smear à quatre points du nord-est du Wisconsin, version 1</b>" in fr and "widow = 0" in fr
    assert "<h2>Classement</h2>" in fr and "<th>participant</th>" in fr and "<summary>Vérification</summary>" in fr
    assert "<h3>Manche 1 (duplicate : les mêmes donnes à chaque table)" in fr and ("gagnée par" in fr or "pas de gagnant" in fr)
    assert all(r["seed"] in fr for r in archive["rounds"]) and archive["standings"][0]["name"] in fr
    th = standings_html(archive, "th")
    assert "<h2>อันดับ</h2>" in th and "Standings" not in th


def test_points_against_count_from_zero():
    rows = {r["entrant"]: r for r in S.compute(["a", "b"], [{"seats": [0, 1], "scores": [15, -6], "winner": 0}], [])}
    assert (rows[0]["points_for"], rows[0]["points_against"]) == (15, 0)
    assert (rows[1]["points_for"], rows[1]["points_against"]) == (-6, 15)


def _load(out):
    return json.loads((out / "archive.json").read_text())


def test_verify_tournament_pinpoints_tampering(duplicate_archive):
    _archive, out = duplicate_archive
    clean = _load(out)
    assert verify_archive(clean) == []
    # One changed card: swap a card between two seats of the first deal.
    a = copy.deepcopy(clean)
    deal = a["rounds"][0]["tables"][1]["record"]["hands"][0]["deal"]["hands"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    problems = verify_archive(a)
    assert any("round 1 table 2 hand 1: seat 1 holds" in p for p in problems), problems
    # One changed score in the standings.
    b = copy.deepcopy(clean)
    b["standings"][0]["wins"] += 1
    problems = verify_archive(b)
    assert any(p.startswith("standings rank 1:") and "wins" in p for p in problems), problems
    # A swapped seed.
    c = copy.deepcopy(clean)
    c["rounds"][1]["seed"] = c["rounds"][0]["seed"]
    problems = verify_archive(c)
    assert any("round 2: the revealed seed does not match the commitment" in p for p in problems), problems
    # A changed result of one table.
    d = copy.deepcopy(clean)
    d["rounds"][0]["tables"][0]["result"]["scores"][0] += 3
    assert any("round 1 table 1: the recorded result" in p for p in verify_archive(d))


def test_round_robin_team_tournament_and_cli(tmp_path):
    out = tmp_path / "rr"
    r = subprocess.run([sys.executable, "-m", "smear_dsl", "tournament", "run", "--rules", "setback", "--entrants", "4",
                        "--rounds", "3", "--pairing", "round_robin", "--teams", "--out", str(out), "--seed", "rr"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "checks out" in r.stdout
    archive = _load(out)
    met = Counter(frozenset(t["units"]) for rnd in archive["rounds"] for t in rnd["tables"])
    assert len(met) == 6 and set(met.values()) == {1}  # four teams, three rounds: everyone met everyone once
    v = subprocess.run([sys.executable, "-m", "smear_dsl", "verify-tournament", str(out / "archive.json")],
                       capture_output=True, text=True, cwd=ROOT)
    assert v.returncode == 0 and v.stdout.startswith("ok")


def test_rounds_of_a_fixed_number_of_hands(tmp_path):
    archive = run_tournament("cutthroat_canadian", 6, 2, "swiss", seed="hands", out=str(tmp_path), progress=False,
                             hands_per_round=3)
    assert archive["_stats"]["problems"] == []
    for rnd in archive["rounds"]:
        for t in rnd["tables"]:
            assert len(t["record"]["hands"]) <= 3
            scores = t["result"]["scores"]
            if len(t["record"]["hands"]) == 3 and not t["result"]["finished"]:
                top = max(scores)
                assert t["result"]["winner"] == (scores.index(top) if scores.count(top) == 1 else None)
    assert sum(row["games"] for row in archive["standings"]) == 6 * 2


def test_standings_rules_and_director_actions():
    names = ["a", "b", "c", "d"]
    games = [{"round": 0, "seats": [0, 1, 2, 3], "scores": [11, 4], "winner": 0},   # a+c beat b+d 11-4
             {"round": 1, "seats": [0, 2, 1, 3], "scores": [7, 12], "winner": 1}]   # a+b lose to c+d 7-12
    rows = {r["entrant"]: r for r in S.compute(names, games, [])}
    assert (rows[2]["wins"], rows[2]["points_for"], rows[2]["points_against"]) == (2, 23, 11)
    assert (rows[0]["wins"], rows[0]["points_for"], rows[0]["points_against"]) == (1, 18, 16)
    assert [r["entrant"] for r in S.compute(names, games, [])][:1] == [2]
    audit = [{"action": "forfeit", "entrant": 2, "round": 1, "reason": "left early"},
             {"action": "adjust", "entrant": 1, "wins": 2, "points": 5, "reason": "misscored"},
             {"action": "forfeit", "entrant": 3, "round": 2, "reason": "absent"}]
    rows = {r["entrant"]: r for r in S.compute(names, games, audit)}
    assert (rows[2]["wins"], rows[2]["points_for"]) == (1, 11)        # round 1's win and points are gone
    assert (rows[1]["wins"], rows[1]["points_for"]) == (2, 16)        # 0 + 2 wins; 4 + 7 + 5 points
    assert rows[3]["games"] == 3                                       # a lost game charged for round 2
    replaced = ["a", "b", "c", "d"]
    replaced[1] = "b2"
    assert {r["name"] for r in S.compute(replaced, games, audit)} == {"a", "b2", "c", "d"}


def test_a_duplicate_tournament_of_search_bots(tmp_path):
    """`--bot search:N`: the runner hands every seat to the referee's search bot; the archive checks
    out from scratch, and the tables of a duplicate round (the same boards) are not played alike,
    since each table's bots draw from their own generators."""
    archive = run_tournament("four_point_ne_wisconsin", 8, 1, "swiss", duplicate=True, seed="t-search",
                             out=str(tmp_path), bot="search:12", progress=False, hands_per_round=2)
    assert archive["_stats"]["problems"] == []
    assert verify_archive(json.loads((tmp_path / "archive.json").read_text())) == []
    tables = archive["rounds"][0]["tables"]
    assert len(tables) == 2
    plays = [json.dumps([m for h in t["record"]["hands"] for m in h["moves"]]) for t in tables]
    assert plays[0] != plays[1]
    assert {e["bot"] for e in archive["entrants"]} == {"search:12"}


def test_a_tournament_pins_one_version_and_every_record_names_it(tmp_path):
    archive = run_tournament("cinch", 4, 1, seed="pin", out=str(tmp_path / "a"), progress=False)
    from smear_dsl.language.load import load_spec
    spec = load_spec("cinch")
    assert (archive["rules"], archive["rules_sha256"]) == ("cinch@2", spec.sha256)
    records = [t["record"] for rnd in archive["rounds"] for t in rnd["tables"]]
    assert records and all((r["rules"], r["rules_sha256"]) == ("cinch@2", spec.sha256) for r in records)
    assert archive["_stats"]["problems"] == [] and archive["_stats"]["findings"] == []
    clean = json.loads((tmp_path / "a" / "archive.json").read_text())
    swapped = copy.deepcopy(clean)
    swapped["rounds"][0]["tables"][0]["record"]["rules"] = "cinch@1"  # a game under another version
    swapped["rounds"][0]["tables"][0]["record"].pop("rules_sha256")
    assert any("played under cinch@1, not the tournament's cinch@2" in p for p in verify_archive(swapped))
    older = run_tournament("cinch@1", 4, 1, seed="pin", out=str(tmp_path / "b"), progress=False)
    assert older["rules"] == "cinch@1" and older["_stats"]["problems"] == []
    assert "Cinch, version 1" in (tmp_path / "b" / "standings.html").read_text()


def test_a_house_rule_tournament_keeps_its_parents_versions(tmp_path):
    house = tmp_path / "friday.yaml"
    house.write_text("extends: cinch\nname: Friday Cinch\nend: {target: 31}\n")
    archive = run_tournament(str(house), 4, 1, seed="house", out=str(tmp_path / "out"), progress=False)
    assert archive["rules_parents"] == ["cinch@2"] and archive["rules_text"] == house.read_text()
    assert all(t["record"]["rules_parents"] == ["cinch@2"] for rnd in archive["rounds"] for t in rnd["tables"])
    assert archive["_stats"]["problems"] == []


def test_a_game_cut_by_the_servers_hand_limit_ends_the_same_everywhere(tmp_path):
    """The server plays at most 2 hands a game: the records say so (`hand_limit`), so the verdict,
    the archive's result, the standings and verify-tournament agree on who won, and the run reports
    every such game as a finding (it did not end by its rules)."""
    import grpc
    from referee_harness import ServerThread

    from smear_dsl.records.verify import verify
    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.clients.client import Client, bearer, play_seat
    from smear_referee.limits import Limits
    from smear_referee.tournament.archive import findings
    srv = ServerThread(str(tmp_path / "db.sqlite3"), limits=Limits(hands_per_game=2))
    try:
        stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
        created = stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=[f"p{i}" for i in range(4)], rounds=1, seed="cap",
            pairing="swiss"))
        director = bearer(created.director_token)
        start = stub.StartRound(pb.StartRoundRequest(tournament_id=created.tournament_id), metadata=director)
        import threading
        threads = [threading.Thread(target=play_seat, args=(Client(srv.target, tok), tab.table_id, "heuristic"),
                                    kwargs={"seed": x}) for tab in start.tables for x, tok in enumerate(tab.seat_tokens)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        archive = json.loads(stub.ExportTournament(pb.ExportTournamentRequest(tournament_id=created.tournament_id),
                                                   metadata=director).archive_json)
    finally:
        srv.stop()
    assert verify_archive(archive) == []
    table = archive["rounds"][0]["tables"][0]
    record = table["record"]
    assert record["hand_limit"] == 2 and len(record["hands"]) == 2
    v = verify(record)
    scores = v["scores"]
    top = max(scores)
    winner = scores.index(top) if scores.count(top) == 1 else None
    assert v["finished"] and v["end"] == "hand_limit" and v["winner"] == winner == table["result"]["winner"]
    wins = {row["entrant"]: row["wins"] for row in archive["standings"]}
    assert sum(wins.values()) == (2 if winner is not None else 0)
    assert all(wins[table["seats"][x]] == (1 if winner == x % 2 else 0) for x in range(4))
    assert findings(archive) == [f"round 1 table 1 reached the server's limit of 2 hands before the rules ended it "
                                 f"(scores {scores[0]}, {scores[1]})"]


@pytest.mark.parametrize("entrants,rounds,seed", [(4, 1, "smear"), (4, 1, "end-1")])
def test_tournament_bots_finish_their_games(tmp_path, entrants, rounds, seed):
    """Four Point tournaments end by the rules, not by the server's hand limit (a persona bold enough
    to keep going set once made both sides play 1,000 hands): benchmarks/bench_tournament_ends.py
    runs 20 seeds of each size."""
    archive = run_tournament("four_point_ne_wisconsin", entrants, rounds, seed=seed, out=str(tmp_path),
                             progress=False)
    assert archive["_stats"]["problems"] == [] and archive["_stats"]["findings"] == []
    assert all(t["result"]["finished"] for rnd in archive["rounds"] for t in rnd["tables"])
