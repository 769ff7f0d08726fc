"""Everything a club keeps is proven: an attacker who edits or deletes the store's club rows (settings and
rating model, a member's name, a season's head, a game's record, a game, an open table's seat, the club's
name) without rewriting their proofs is caught. The server refuses the club (DATA_LOSS, CLUB_DAMAGED) and
serves it again once the row is put back; `store check` names the club; `store restore` refuses a backup
holding such a row. On SQLite and on PostgreSQL."""
from __future__ import annotations

import json
import subprocess
import sys

import grpc
import pytest
from referee_harness import ServerProcess, bearer, fails
from test_club_service import _play

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc


def _connect(db: str):
    if db.startswith("postgres"):
        import psycopg
        return psycopg.connect(db, autocommit=True)
    import sqlite3
    return sqlite3.connect(db, isolation_level=None)


def _run(conn, sql: str, params: tuple = ()) -> list:
    cur = conn.execute(sql.replace("?", "%s") if type(conn).__module__.startswith("psycopg") else sql, params)
    return cur.fetchall() if cur.description else []


def _store_check(db: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", "store", "check", db], capture_output=True, text=True)


def _club_with_history(srv) -> tuple[str, list, str]:
    """A club with four members, two games in a closed season, one in the next, and an open table with two
    members seated: (club id, members, the open table's id)."""
    clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
    made = clubs.CreateClub(pb.CreateClubRequest(name="Tuesday", rule_files=[
        pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]))
    cid, director = made.club_id, bearer(made.director_token)
    members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=n), metadata=director)
               for n in ("Ann", "Bo", "Cy", "Di")]

    def table(seated: list[int], seed: str) -> tuple[str, list[str]]:
        opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=cid, rules="four_point_ne_wisconsin", hand_limit=1,
                                                             seed=seed), metadata=bearer(members[seated[0]].member_token))
        tokens = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=s),
                                      metadata=bearer(members[m].member_token)).token for s, m in enumerate(seated)]
        return opened.table_id, tokens

    for seed in ("a", "b"):
        _play(srv.target, *table([0, 1, 2, 3], seed))
    clubs.GetClub(pb.GetClubRequest(club_id=cid))  # counts the games
    clubs.CloseSeason(pb.CloseSeasonRequest(club_id=cid), metadata=director)
    _play(srv.target, *table([3, 2, 1, 0], "c"))
    got = clubs.GetClub(pb.GetClubRequest(club_id=cid))
    assert [s.season for s in got.seasons] == [1, 2]
    open_table, _tokens = table([0, 1], "d")
    return cid, members, open_table


def _tamperings(conn, cid: str, open_table: str) -> list[tuple[str, str, tuple, str, tuple]]:
    """(what, the attacker's statement, its parameters, the statement putting the row back, its parameters)."""
    config, name = _run(conn, "SELECT config_json, name FROM clubs WHERE id = ?", (cid,))[0]
    beta = json.loads(config)
    beta["settings"]["beta"] = 9.0
    head = _run(conn, "SELECT head FROM club_seasons WHERE club_id = ? AND season = 1", (cid,))[0][0]
    record = _run(conn, "SELECT record_json FROM club_games WHERE club_id = ? AND season = 1 AND game = 2", (cid,))[0][0]
    game = _run(conn, "SELECT club_id, season, game, table_id, seats_json, result_json, record_json, digest, row_hash, "
                      "record_sha, proof FROM club_games WHERE club_id = ? AND season = 2 AND game = 1", (cid,))[0]
    put_game = ("INSERT INTO club_games (club_id, season, game, table_id, seats_json, result_json, record_json, digest, "
                "row_hash, record_sha, proof) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    flipped = chr(ord(name[0]) ^ 1) + name[1:]
    return [
        ("the rating model's beta", "UPDATE clubs SET config_json = ? WHERE id = ?", (json.dumps(beta), cid),
         "UPDATE clubs SET config_json = ? WHERE id = ?", (config, cid)),
        ("a member renamed", "UPDATE club_members SET name = 'Mallory' WHERE club_id = ? AND member = 2", (cid,),
         "UPDATE club_members SET name = 'Bo' WHERE club_id = ? AND member = 2", (cid,)),
        ("a season's head zeroed", "UPDATE club_seasons SET head = ? WHERE club_id = ? AND season = 1", ("0" * 32, cid),
         "UPDATE club_seasons SET head = ? WHERE club_id = ? AND season = 1", (head, cid)),
        ("a game's record edited", "UPDATE club_games SET record_json = ? WHERE club_id = ? AND season = 1 AND game = 2",
         (record.replace('"players":4', '"players":4,"note":"x"'), cid),
         "UPDATE club_games SET record_json = ? WHERE club_id = ? AND season = 1 AND game = 2", (record, cid)),
        ("a game deleted", "DELETE FROM club_games WHERE club_id = ? AND season = 2 AND game = 1", (cid,),
         put_game, tuple(game)),
        ("an open table's seat given to another member", "UPDATE club_seats SET member = 1 WHERE table_id = ? AND seat = 1",
         (open_table,), "UPDATE club_seats SET member = 2 WHERE table_id = ? AND seat = 1", (open_table,)),
        ("a bit flipped in the club's name", "UPDATE clubs SET name = ? WHERE id = ?", (flipped, cid),
         "UPDATE clubs SET name = ? WHERE id = ?", (name, cid)),
    ]


def test_every_club_row_is_proven_where_it_is_read_and_by_store_check(db):
    srv = ServerProcess(db)
    conn = None
    try:
        cid, members, open_table = _club_with_history(srv)
        clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
        member = bearer(members[0].member_token)
        assert _store_check(db).returncode == 0
        conn = _connect(db)
        for what, sql, params, undo, back in _tamperings(conn, cid, open_table):
            _run(conn, sql, params)
            if what == "a game's record edited":  # records are read by the export (and the chain by store check)
                fails(lambda: clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=member),
                      grpc.StatusCode.DATA_LOSS, "CLUB_DAMAGED")
            else:
                err = fails(lambda: clubs.GetClub(pb.GetClubRequest(club_id=cid)), grpc.StatusCode.DATA_LOSS,
                            "CLUB_DAMAGED")
                assert f"club {cid}" in err.details(), what
            checked = _store_check(db)
            assert checked.returncode == 1 and f"damaged: club {cid}" in checked.stdout, (what, checked.stdout)
            _run(conn, undo, back)
            assert clubs.GetClub(pb.GetClubRequest(club_id=cid)).name == "Tuesday", what
            assert _store_check(db).returncode == 0, what
        clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=member)
    finally:
        if conn is not None:
            conn.close()
        srv.stop()


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_store_restore_refuses_a_backup_with_a_club_row_changed(db, tmp_path):
    srv = ServerProcess(db)
    try:
        cid, _members, open_table = _club_with_history(srv)
    finally:
        srv.stop()
    good = tmp_path / "good.sqlite3"
    done = subprocess.run([sys.executable, "-m", "smear_dsl", "store", "backup", db, str(good)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    for i, (what, sql, params, _undo, _back) in enumerate(_tamperings(_connect(str(good)), cid, open_table)):
        bad = tmp_path / f"bad{i}.sqlite3"
        bad.write_bytes(good.read_bytes())
        conn = _connect(str(bad))
        _run(conn, sql, params)
        conn.close()
        target = tmp_path / f"restored{i}.sqlite3"
        refused = subprocess.run([sys.executable, "-m", "smear_dsl", "store", "restore", str(bad), str(target)],
                                 capture_output=True, text=True)
        assert refused.returncode != 0 and "damaged" in refused.stdout + refused.stderr, what
        assert not target.exists(), what
    restored = tmp_path / "restored.sqlite3"
    done = subprocess.run([sys.executable, "-m", "smear_dsl", "store", "restore", str(good), str(restored)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
