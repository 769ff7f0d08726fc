"""The Club service on a real server process: a director's club, members by their tokens, club tables that
seat members (a guest and bots unrated), ratings after each finished game matching a recomputation from the
export, a restart, leaving, a season closed and the next opened, and the refusals of each call; on SQLite and on PostgreSQL."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
import threading

import grpc
from referee_harness import ServerProcess, bearer, fails
from typed import ladders, plain, standings

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.clients.client import Client, play_seat
from smear_referee.club.export import verify_export
from smear_referee.tournament.archive import verify_archive


def _play(target: str, table_id: str, tokens: list[str]) -> None:
    threads = [threading.Thread(target=play_seat, args=(Client(target, tok), table_id, "heuristic", s), daemon=True)
               for s, tok in enumerate(tokens)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)


def _ladder(clubs, cid: str) -> dict:
    return ladders(clubs.GetClub(pb.GetClubRequest(club_id=cid)))["four_point_ne_wisconsin"]


def test_a_club_season_through_the_referee(db, tmp_path):
    srv = ServerProcess(db)
    try:
        clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
        referee = pb_grpc.RefereeStub(grpc.insecure_channel(srv.target))
        fails(lambda: clubs.CreateClub(pb.CreateClubRequest(name="Tuesday", rule_files=[
            pb.ClubRuleFile(rules_name="no_such_rules")])), grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")
        fails(lambda: clubs.CreateClub(pb.CreateClubRequest(name="Tuesday", settings=pb.RatingSettings(model="Elo"), rule_files=[
            pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")])), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SETTINGS")
        made = clubs.CreateClub(pb.CreateClubRequest(name="Tuesday [b]night[/b]", rule_files=[
            pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]))
        cid, director = made.club_id, bearer(made.director_token)
        fails(lambda: clubs.AddMember(pb.AddMemberRequest(club_id=cid, name="Ann")), grpc.StatusCode.UNAUTHENTICATED,
              "UNAUTHENTICATED")
        members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=n), metadata=director)
                   for n in ("Ann", "Bo", "Cy", "Di", "Ed")]
        assert [m.member_id for m in members] == ["m0001", "m0002", "m0003", "m0004", "m0005"]
        fails(lambda: clubs.AddMember(pb.AddMemberRequest(club_id=cid, name="Fay"),
                                      metadata=bearer(members[0].member_token)),
              grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_DIRECTOR")
        fails(lambda: clubs.AddMember(pb.AddMemberRequest(club_id=cid, name="\u202eevil"), metadata=director),
              grpc.StatusCode.INVALID_ARGUMENT, "BAD_NAME")
        got = clubs.GetClub(pb.GetClubRequest(club_id=cid), metadata=bearer(members[0].member_token))
        assert got.name == "Tuesday [b]night[/b]" and got.me == "m0001" and not got.director
        assert got.rule_files[0].rules == "four_point_ne_wisconsin@1" and [s.season for s in got.seasons] == [1]
        assert _ladder(clubs, cid) == []

        def game(seated: list[int], guest: bool = False) -> str:
            opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=cid, rules="four_point_ne_wisconsin",
                                                                 hand_limit=2, seed=f"g{len(seated)}{guest}"),
                                         metadata=bearer(members[seated[0]].member_token))
            tokens = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=s),
                                          metadata=bearer(members[m].member_token)).token for s, m in enumerate(seated)]
            if guest:
                tokens.append(referee.JoinTable(pb.JoinTableRequest(table_id=opened.table_id, seat=len(seated),
                                                                    name="A guest")).token)
            if seated == [0, 1, 2]:  # refusals while the table is open
                fails(lambda: clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=3),
                                                  metadata=bearer(members[0].member_token)),
                      grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_SEATED")
                fails(lambda: clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=3),
                                                  metadata=director), grpc.StatusCode.PERMISSION_DENIED, "NOT_A_MEMBER")
            _play(srv.target, opened.table_id, tokens)
            return opened.table_id

        first_table = game([0, 1, 2, 3])
        first = _ladder(clubs, cid)
        assert sorted(r["member"] for r in first) == ["m0001", "m0002", "m0003", "m0004"]
        assert all(r["games"] == 1 and r["provisional"] for r in first)
        winners = {r["member"] for r in first if r["wins"]}
        assert winners in ({"m0001", "m0003"}, {"m0002", "m0004"}, set())  # partners sit across
        if winners:
            assert min(r["mu"] for r in first if r["member"] in winners) > max(
                r["mu"] for r in first if r["member"] not in winners)
        game([0, 1, 2], guest=True)  # a guest at the table: the game counts, but moves no member's rating
        second = _ladder(clubs, cid)
        assert second == first and all(r["name"] != "A guest" for r in second)
        assert len(json.loads(clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=bearer(
            members[0].member_token)).export_jsonl.splitlines()[2])["seats"]) == 4
        history = [plain(p) for p in clubs.GetMemberHistory(pb.GetMemberHistoryRequest(club_id=cid, member_id="m0001")).points]
        assert [h["game"] for h in history] == [1]
        assert history[-1]["mu"] == next(r["mu"] for r in second if r["member"] == "m0001") or \
            abs(history[-1]["mu"] - next(r["mu"] for r in second if r["member"] == "m0001")) < 1e-3

        srv.stop()  # the club, its games and ratings come back from the store
        srv = ServerProcess(db)
        clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
        assert _ladder(clubs, cid) == second

        exported = clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=bearer(members[2].member_token))
        lines = [json.loads(x) for x in exported.export_jsonl.splitlines()]
        heads = {s.season: s.head for s in clubs.GetClub(pb.GetClubRequest(club_id=cid)).seasons}
        assert verify_export(lines, heads) == []
        assert lines[1]["seats"] == ["m0001", "m0002", "m0003", "m0004"] and lines[2]["seats"][3] is None
        assert lines[1]["record"]["club"] == {"id": cid, "members": lines[1]["seats"]}
        credited = copy.deepcopy(lines)
        credited[2]["seats"][0] = "m0005"
        found = verify_export(credited, heads)
        assert any("game 2" in p and "not the one its record names" in p for p in found), found
        dropped = [line for i, line in enumerate(lines) if i != 2]
        assert verify_export(dropped, heads)

        clubs.LeaveClub(pb.LeaveClubRequest(club_id=cid), metadata=bearer(members[3].member_token))
        after = clubs.GetClub(pb.GetClubRequest(club_id=cid))
        assert [m.member_id for m in after.members] == ["m0001", "m0002", "m0003", "m0005"]
        shown = str(ladders(after))
        assert "Di" not in shown and "m0004" in shown  # the id stays, the name goes
        seated = pb_grpc.RefereeStub(grpc.insecure_channel(srv.target)).GetTable(
            pb.GetTableRequest(table_id=first_table)).seat_names  # the tables Di played at name her seat by her id
        assert list(seated) == ["Ann", "Bo", "Cy", "m0004"]
        fails(lambda: clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=bearer(members[3].member_token)),
              grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED")

        fails(lambda: clubs.CloseSeason(pb.CloseSeasonRequest(club_id=cid), metadata=bearer(members[0].member_token)),
              grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_DIRECTOR")
        # The season's head covers who the members are: Di's leaving moved it (the games' chain did not move).
        left = {s.season: s.head for s in clubs.GetClub(pb.GetClubRequest(club_id=cid)).seasons}
        assert left[1] != heads[1]
        heads = left
        closed = clubs.CloseSeason(pb.CloseSeasonRequest(club_id=cid), metadata=director)
        assert (closed.closed, closed.opened, closed.head) == (1, 2, heads[1])
        now = clubs.GetClub(pb.GetClubRequest(club_id=cid))
        assert [(s.season, s.closed) for s in now.seasons] == [(1, True), (2, False)]
        carried = ladders(now)["four_point_ne_wisconsin"]  # ratings carried, this season's counts new
        assert {r["member"]: (r["mu"], r["games"]) for r in carried} == {r["member"]: (r["mu"], 0) for r in second}
        lines = [json.loads(x) for x in clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=director)
                 .export_jsonl.splitlines()]
        assert verify_export(lines, {1: heads[1]}) == [] and lines[-1]["season"] == 2
        fails(lambda: clubs.GetClub(pb.GetClubRequest(club_id="nope")), grpc.StatusCode.NOT_FOUND, "NOT_FOUND")

        out = tmp_path / "club.jsonl"  # the command line: the export from the server, checked against its heads
        done = subprocess.run([sys.executable, "-m", "smear_dsl", "club", "export", "--server", srv.target, "--club", cid,
                               f"--token={made.director_token}", "--out", str(out)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        check = done.stdout.splitlines()[-1].split()
        assert check[:3] == ["smear-dsl", "club", "verify"] and "--head" in check
        verified = subprocess.run([sys.executable, "-m", "smear_dsl", *check[1:]], capture_output=True, text=True)
        assert verified.returncode == 0 and verified.stdout.startswith("ok"), verified.stdout + verified.stderr
        ladder = subprocess.run([sys.executable, "-m", "smear_dsl", "club", "ladder", str(out)], capture_output=True,
                                text=True)
        assert "Tuesday [b]night[/b]" in ladder.stdout and "m0004" not in ladder.stdout  # names, as data
        refused = subprocess.run([sys.executable, "-m", "smear_dsl", "club", "export", "--server", srv.target, "--club",
                                  cid, "--token", "wrong", "--out", str(out)], capture_output=True, text=True)
        assert refused.returncode == 2 and "UNAUTHENTICATED" in refused.stderr
        fails(lambda: clubs.CreateClub(pb.CreateClubRequest(name="Deep", settings=pb.RatingSettings(sigma=float("nan")), rule_files=[
            pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")])), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SETTINGS")

        if not db.startswith("postgres"):  # a game's result edited in the store is refused as damaged, never served
            import sqlite3
            conn = sqlite3.connect(db)
            conn.execute("UPDATE club_games SET result_json = replace(result_json, '\"winner\": 0', '\"winner\": 1') "
                         "WHERE club_id = ? AND game = 1", (cid,))
            conn.execute("UPDATE club_games SET seats_json = '[\"m0005\", null, null, null]' WHERE club_id = ? "
                         "AND game = 2", (cid,))
            conn.commit()
            conn.close()
            err = fails(lambda: clubs.GetClub(pb.GetClubRequest(club_id=cid)), grpc.StatusCode.DATA_LOSS, "CLUB_DAMAGED")
            assert f"club {cid}: season 1 game" in err.details()
    finally:
        srv.stop()


def test_a_club_tournament_seats_members_and_the_club_rates_its_games(db):
    """A tournament opened by the club's director seats its members as members (a guest unrated): the records
    name each seat's member id, and a duplicate round's games count in the club only once all its tables end."""
    srv = ServerProcess(db)
    try:
        channel = grpc.insecure_channel(srv.target)
        clubs, tourneys = pb_grpc.ClubStub(channel), pb_grpc.TournamentStub(channel)
        made = clubs.CreateClub(pb.CreateClubRequest(name="Fridays", rule_files=[
            pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]))
        cid, director = made.club_id, bearer(made.director_token)
        members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=f"Player {i}"), metadata=director)
                   for i in range(1, 9)]
        entrants = [m.member_id for m in members[:7]] + ["A guest"]

        def create(metadata=(), **kw):
            fields = dict(club_id=cid, rules_name="four_point_ne_wisconsin", entrants=entrants, pairing="swiss",
                          rounds=1, duplicate=True, hands_per_round=2, seed="club-cup", name="Club cup")
            return tourneys.CreateTournament(pb.CreateTournamentRequest(**{**fields, **kw}), metadata=metadata)
        fails(lambda: create(), grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED")
        fails(lambda: create(bearer(members[0].member_token)), grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_DIRECTOR")
        fails(lambda: create(director, rules_name="setback"), grpc.StatusCode.INVALID_ARGUMENT, "NOT_CLUB_RULES")
        fails(lambda: create(director, teams=True), grpc.StatusCode.INVALID_ARGUMENT, "BAD_TOURNAMENT")
        fails(lambda: create(director, entrants=entrants + ["m0001"]), grpc.StatusCode.INVALID_ARGUMENT, "BAD_TOURNAMENT")
        cup = create(director)
        tid, td = cup.tournament_id, bearer(cup.director_token)
        tourneys.Act(pb.ActRequest(tournament_id=tid, reason="came in his place",
                                   replace=pb.Replace(entrant=6, name="Walk-in")), metadata=td)
        tourneys.Act(pb.ActRequest(tournament_id=tid, reason="a member after all",
                                   replace=pb.Replace(entrant=7, name="m0008")), metadata=td)
        standing = tourneys.GetStandings(pb.GetStandingsRequest(tournament_id=tid))
        assert standing.club_id == cid and standing.rules == "four_point_ne_wisconsin@1"
        assert list(standing.entrant_members) == ["m0001", "m0002", "m0003", "m0004", "m0005", "m0006", "", "m0008"]
        assert list(standing.entrants) == [f"Player {i}" for i in range(1, 7)] + ["Walk-in", "Player 8"]
        assert [t.tournament_id for t in clubs.GetClub(pb.GetClubRequest(club_id=cid)).tournaments] == [tid]

        rnd = tourneys.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=td)
        assert len(rnd.tables) == 2
        open_tables = {t.table_id: list(t.seat_members) for t in clubs.GetClub(pb.GetClubRequest(club_id=cid)).tables}
        for tab in rnd.tables:  # each entrant's seat: a member's as that member, a guest's as nobody's
            assert open_tables[tab.table_id] == [standing.entrant_members[e] for e in tab.seats]
        # A member takes the seat the tournament kept for them with their own token (no slip needed); another
        # member cannot take it.
        tab, seat = next((tab, x) for tab in rnd.tables for x, e in enumerate(tab.seats) if e == 0)
        mine = clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=tab.table_id, seat=seat),
                                   metadata=bearer(members[0].member_token))
        referee = pb_grpc.RefereeStub(channel)
        assert referee.GetView(pb.GetViewRequest(table_id=tab.table_id), metadata=bearer(mine.token)).seat == seat
        other = next(m for m, tb in ((m, tb) for tb in rnd.tables for m in tb.seats) if tb.table_id != tab.table_id
                     and standing.entrant_members[m])
        fails(lambda: clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=tab.table_id, seat=seat),
                                          metadata=bearer(members[int(standing.entrant_members[other][1:]) - 1]
                                                          .member_token)),
              grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")
        _play(srv.target, rnd.tables[0].table_id, list(rnd.tables[0].seat_tokens))
        assert _ladder(clubs, cid) == []  # its twin still plays the same boards: nothing is counted yet
        _play(srv.target, rnd.tables[1].table_id, list(rnd.tables[1].seat_tokens))
        ladder = _ladder(clubs, cid)  # the table with the walk-in (a guest) counts, but rates nobody
        rated = [tab for tab in rnd.tables if all(standing.entrant_members[e] for e in tab.seats)]
        assert len(rated) == 1 and sorted(r["member"] for r in ladder) == sorted(
            standing.entrant_members[e] for e in rated[0].seats)
        assert all(r["games"] == 1 for r in ladder)
        lines = [json.loads(x) for x in clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=director)
                 .export_jsonl.splitlines()]
        heads = {s.season: s.head for s in clubs.GetClub(pb.GetClubRequest(club_id=cid)).seasons}
        assert verify_export(lines, heads) == []
        games = [line for line in lines if "record" in line]
        want = sorted([standing.entrant_members[e] for e in tab.seats] for tab in rnd.tables)  # "" for the guest
        assert sorted([m or "" for m in g["seats"]] for g in games) == want
        assert all(g["record"]["club"] == {"id": cid, "members": g["seats"]} for g in games)
        clubs.LeaveClub(pb.LeaveClubRequest(club_id=cid), metadata=bearer(members[2].member_token))
        after = tourneys.GetStandings(pb.GetStandingsRequest(tournament_id=tid))  # who left shows as their id
        assert list(after.entrants)[2] == "m0003" and "Player 3" not in str(standings(after)) + "".join(after.entrants)
        archive = json.loads(tourneys.ExportTournament(pb.ExportTournamentRequest(tournament_id=tid), metadata=td)
                             .archive_json)
        assert archive["club"] == {"id": cid, "members": [m or None for m in standing.entrant_members]}
        assert "Player 3" not in json.dumps(archive) and verify_archive(archive) == []
    finally:
        srv.stop()


def test_house_rules_in_a_club_are_rated_under_the_clubs_name_for_them(db):
    """Two house rule files of one club: a game under each is rated under the club's name for its file (a
    record names any upload alike), and the export verifies, its games played under files the club has."""
    srv = ServerProcess(db)
    try:
        clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
        made = clubs.CreateClub(pb.CreateClubRequest(name="House", rule_files=[
            pb.ClubRuleFile(rules_name="short", rules_text="extends: four_point_ne_wisconsin@1\nname: Short house\n"),
            pb.ClubRuleFile(rules_name="long", rules_text="extends: four_point_ne_wisconsin@1\nname: Long house\n"
                                                          "end:\n  target: 21\n")]))
        cid, director = made.club_id, bearer(made.director_token)
        got = clubs.GetClub(pb.GetClubRequest(club_id=cid))
        assert [(f.name, f.house_rules) for f in got.rule_files] == [("short", True), ("long", True)]
        members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=n), metadata=director).member_token
                   for n in ("Ann", "Bo", "Cy", "Di")]
        for rules in ("short", "long"):
            opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=cid, rules=rules, hand_limit=1, seed=rules),
                                         metadata=director)
            tokens = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=s),
                                          metadata=bearer(tok)).token for s, tok in enumerate(members)]
            _play(srv.target, opened.table_id, tokens)
        ladder = ladders(clubs.GetClub(pb.GetClubRequest(club_id=cid)))
        assert sorted(ladder) == ["long", "short"]
        assert all(len(ladder[k]) == 4 and all(r["games"] == 1 for r in ladder[k]) for k in ladder)
        lines = [json.loads(x) for x in clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=director)
                 .export_jsonl.splitlines()]
        assert verify_export(lines) == []
        assert sorted(lines[-1]["ratings"]) == ["long", "short"]
        foreign = copy.deepcopy(lines)  # a game's house rules swapped for a file the club does not have
        foreign[0]["rule_files"] = foreign[0]["rule_files"][:1]
        assert any("not one of the club's rule files" in p for p in verify_export(foreign))
    finally:
        srv.stop()
