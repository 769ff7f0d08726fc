"""The Tournament service on a real server process: director token, rounds with commitments,
automatic results, standings, audited director actions, a restart mid-round, and an export that
verify-tournament accepts."""
from __future__ import annotations

import hashlib
import json
import threading
import time

import grpc
import pytest
from referee_harness import ServerProcess, bearer
from typed import standings

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.clients.client import Client, error_reason, play_seat
from smear_referee.tournament.archive import verify_archive


def _play_round(target, start: pb.StartRoundResponse, seats: tuple[int, ...] | None = None):
    """Bots for the round's seats (all, or only `seats`, so that the tables stall mid-hand)."""
    threads = []
    for tab in start.tables:
        for seat, tok in enumerate(tab.seat_tokens):
            if seats is not None and seat not in seats:
                continue
            th = threading.Thread(target=_seat, args=(target, tab.table_id, tok, seat), daemon=True)
            th.start()
            threads.append(th)
    if seats is None:
        for th in threads:
            th.join(300)


def _seat(target, table_id, token, seat):
    try:
        play_seat(Client(target, token), table_id, "heuristic", seed=seat)
    except grpc.RpcError:
        pass  # the server went away (the restart test)


def test_tournament_service_end_to_end_with_restart(tmp_path):
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerProcess(db)
    try:
        stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
        created = stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=[f"p{i}" for i in range(8)], pairing="swiss", rounds=2,
            duplicate=True, seed="master", name="club night"))
        director = bearer(created.director_token)
        tid = created.tournament_id
        with pytest.raises(grpc.RpcError) as e:
            stub.StartRound(pb.StartRoundRequest(tournament_id=tid))
        assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
        r0 = stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=director)
        assert len(r0.tables) == 2 and all(len(t.seat_tokens) == 4 for t in r0.tables)
        with pytest.raises(grpc.RpcError) as e:
            stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=bearer(r0.tables[0].seat_tokens[0]))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED and error_reason(e.value) == "NOT_THE_DIRECTOR"
        with pytest.raises(grpc.RpcError) as e:
            stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=director)
        assert error_reason(e.value) == "ROUND_IN_PROGRESS"
        state = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid)).rounds[0]
        assert state.commitment == r0.commitment and state.seed == ""  # committed, not revealed
        _play_round(srv.target, r0)
        state = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid)).rounds[0]
        assert state.finished_tables == 2 and hashlib.sha256(state.seed.encode()).hexdigest() == r0.commitment
        # A director adjustment shows in the standings and the audit log.
        before = {row["entrant"]: row for row in standings(stub.GetStandings(
            pb.GetStandingsRequest(tournament_id=tid)))}
        with pytest.raises(grpc.RpcError) as e:
            stub.Act(pb.ActRequest(tournament_id=tid, adjust=pb.Adjust(entrant=5, wins=1)), metadata=director)
        assert error_reason(e.value) == "NO_REASON"
        stub.Act(pb.ActRequest(tournament_id=tid, reason="scoring slip at table 1", adjust=pb.Adjust(entrant=5, wins=1,
                                                                                                     points=2)),
                 metadata=director)
        got = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid))
        after = {row["entrant"]: row for row in standings(got)}
        assert after[5]["wins"] == before[5]["wins"] + 1 and after[5]["points_for"] == before[5]["points_for"] + 2
        assert json.loads(got.audit_json[0])["reason"] == "scoring slip at table 1"
        # Round 2 starts; the server is stopped in the middle of it and restarted on the same file.
        r1 = stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=director)
        _play_round(srv.target, r1, seats=(0, 1))  # two seats of four: the round cannot finish
        time.sleep(1.0)
        srv.kill9()
    finally:
        srv.stop()
    srv = ServerProcess(db)
    try:
        stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
        mid = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid)).rounds
        assert len(mid) == 2 and mid[1].seed == ""
        _play_round(srv.target, r1)  # the same seat tokens still work
        final = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid))
        assert final.rounds[1].finished_tables == 2 and final.rounds[1].seed
        archive = json.loads(stub.ExportTournament(pb.ExportTournamentRequest(tournament_id=tid),
                                                   metadata=director).archive_json)
        assert verify_archive(archive) == []
        assert archive["standings"] == standings(final)
        assert [e["action"] for e in archive["audit"]] == ["adjust"]
        assert archive["duplicate_comparisons"] and {len(c["tables"]) for c in archive["duplicate_comparisons"]} == {2}
    finally:
        srv.stop()


def test_round_robin_of_teams_over_a_number_of_hands(tmp_path):
    from referee_harness import ServerThread
    srv = ServerThread(str(tmp_path / "db.sqlite3"))
    try:
        stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
        created = stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="setback", entrants=["north-south", "east-west", "club", "visitors"], teams=True,
            pairing="round_robin", rounds=3, hands_per_round=2, seed="teams"))
        director = bearer(created.director_token)
        for _r in range(3):
            start = stub.StartRound(pb.StartRoundRequest(tournament_id=created.tournament_id), metadata=director)
            assert len(start.tables) == 2 and all(len(set(t.seats)) == 2 for t in start.tables)
            _play_round(srv.target, start)
        archive = json.loads(stub.ExportTournament(pb.ExportTournamentRequest(tournament_id=created.tournament_id),
                                                   metadata=director).archive_json)
        assert verify_archive(archive) == []
        assert all(len(t["record"]["hands"]) == 2 for rnd in archive["rounds"] for t in rnd["tables"])
        met = {frozenset(t["units"]) for rnd in archive["rounds"] for t in rnd["tables"]}
        assert len(met) == 6
        with pytest.raises(grpc.RpcError) as e:
            stub.StartRound(pb.StartRoundRequest(tournament_id=created.tournament_id), metadata=director)
        assert error_reason(e.value) == "TOURNAMENT_OVER"
    finally:
        srv.stop()
