"""A tournament's stored rows are proven too: its settings, each round (its seed and tables), each of the
director's audited acts, and how many there are. Edited or deleted without their proofs, the tournament is
named by `store check`, and a server reading it answers DATA_LOSS (TOURNAMENT_DAMAGED) for it while it
serves every other; put back, it is served again. On SQLite and PostgreSQL."""
from __future__ import annotations

import json

import grpc
from referee_harness import ServerProcess, bearer, fails
from test_club_tampering import _connect, _run, _store_check

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc


def test_every_tournament_row_is_proven(db):
    srv = ServerProcess(db)
    try:
        stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
        made = [stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=[f"p{i}" for i in range(4)], pairing="swiss", rounds=2,
            seed=f"proof{n}", name=f"cup {n}")) for n in range(2)]
        tid, director = made[0].tournament_id, bearer(made[0].director_token)
        stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=director)
        stub.Act(pb.ActRequest(tournament_id=tid, reason="a slip", adjust=pb.Adjust(entrant=1, wins=1)),
                 metadata=director)
    finally:
        srv.stop()
    assert _store_check(db).returncode == 0
    conn = _connect(db)
    try:
        config = _run(conn, "SELECT config_json FROM tournaments WHERE id = ?", (tid,))[0][0]
        tables = _run(conn, "SELECT tables_json FROM rounds WHERE tournament_id = ? AND round = 0", (tid,))[0][0]
        entry = _run(conn, "SELECT entry_json FROM audit WHERE tournament_id = ? AND seq = 1", (tid,))[0][0]
        round_row = _run(conn, "SELECT tournament_id, round, seed, tables_json, proof FROM rounds WHERE "
                               "tournament_id = ? AND round = 0", (tid,))[0]
        audit_row = _run(conn, "SELECT tournament_id, seq, entry_json, proof FROM audit WHERE tournament_id = ? "
                               "AND seq = 1", (tid,))[0]
        tamperings = [
            ("the settings", "UPDATE tournaments SET config_json = ? WHERE id = ?",
             (json.dumps({**json.loads(config), "rounds": 3}), tid),
             "UPDATE tournaments SET config_json = ? WHERE id = ?", (config, tid)),
            ("a round's tables", "UPDATE rounds SET tables_json = ? WHERE tournament_id = ? AND round = 0",
             (json.dumps(json.loads(tables)[::-1] + [{}]), tid),
             "UPDATE rounds SET tables_json = ? WHERE tournament_id = ? AND round = 0", (tables, tid)),
            ("an audited act", "UPDATE audit SET entry_json = ? WHERE tournament_id = ? AND seq = 1",
             (json.dumps({**json.loads(entry), "reason": "nothing happened"}), tid),
             "UPDATE audit SET entry_json = ? WHERE tournament_id = ? AND seq = 1", (entry, tid)),
            ("a round deleted", "DELETE FROM rounds WHERE tournament_id = ? AND round = 0", (tid,),
             "INSERT INTO rounds (tournament_id, round, seed, tables_json, proof) VALUES (?, ?, ?, ?, ?)",
             tuple(round_row)),
            ("an act deleted", "DELETE FROM audit WHERE tournament_id = ? AND seq = 1", (tid,),
             "INSERT INTO audit (tournament_id, seq, entry_json, proof) VALUES (?, ?, ?, ?)", tuple(audit_row)),
        ]
        for what, sql, params, undo, back in tamperings:
            _run(conn, sql, params)
            checked = _store_check(db)
            assert checked.returncode == 1 and f"damaged: tournament {tid}" in checked.stdout, (what, checked.stdout)
            srv = ServerProcess(db)
            try:
                stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
                fails(lambda: stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid)), grpc.StatusCode.DATA_LOSS,
                      "TOURNAMENT_DAMAGED")
                other = made[1].tournament_id  # every other tournament is served
                assert stub.GetStandings(pb.GetStandingsRequest(tournament_id=other)).name == "cup 1"
            finally:
                srv.stop()
            _run(conn, undo, back)
            assert _store_check(db).returncode == 0, what
    finally:
        conn.close()
