"""A store written by an earlier commit (tests/history/stores, made by tests/history/tools/make_store.py
at 20f13a3, before `check` refused rules that cannot work as meant): today's referee restores every
table in it, house-rule tables whose rules language 2 refuses included, the people play on with their
old tokens, and the finished games' records (those two files') verify by VerifyRecord and by `smear-dsl verify`."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

from conftest import ROOT
from referee_harness import ServerProcess
from typed import ladders, standings

from smear_referee.clients.client import choose

STORE = ROOT / "tests" / "history" / "stores" / "20f13a3.sqlite3"


def test_an_old_store_restores_plays_on_and_hands_out_records_that_verify(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(STORE, db)
    tables = json.loads(STORE.with_suffix(".tables.json").read_text())
    server = ServerProcess(str(db), log=str(tmp_path / "server.log"))
    try:
        client = server.client()
        rng = random.Random(59)
        paths = []
        for name, table in tables.items():
            tid = table["table_id"]
            seats = [client.with_token(token) for token in table["tokens"]]
            assert seats[0].view(tid).version == table["moves"], name  # restored where it stood
            if name not in ("big_bids", "pitch_highest"):  # the two whose rules language 2 refuses play to the end
                view = seats[seats[0].view(tid).turn].view(tid)
                seats[view.turn].submit(tid, choose(view, rng, "heuristic"), view.version, key="on")
                continue
            for i in range(3000):
                view = seats[0].view(tid)
                if view.finished:
                    break
                me = seats[view.turn]
                view = me.view(tid)
                me.submit(tid, choose(view, rng, "heuristic"), view.version, key=f"on{i}")
            assert seats[0].view(tid).finished, f"{name}: the game did not end in 3,000 moves"
            record, complete = seats[0].record(tid)
            assert complete and not record.get("redacted"), name
            verdict = client.verify(record)
            assert verdict["valid"] and verdict["finished"], (name, verdict["error"])
            paths.append(tmp_path / f"{name}.json")
            paths[-1].write_text(json.dumps(record))
    finally:
        server.stop()
    assert "refuses" not in (tmp_path / "server.log").read_text()
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", *map(str, paths)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert all(json.loads(line)["valid"] for line in proc.stdout.splitlines())


CLUB_STORE = ROOT / "tests" / "history" / "stores" / "04b0a3e-club.sqlite3"


def test_an_old_club_store_is_proven_once_and_serves_the_same_club(tmp_path):
    """A store with a club made at 04b0a3e, before club rows had proofs: today's referee proves its rows once
    as it opens it, then serves the same ladder and heads, `store check` finds it whole, its export verifies
    against the heads published then, and a row edited after that is refused as damaged."""
    import grpc
    from referee_harness import bearer, fails

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.club.export import verify_export

    db = tmp_path / "club.sqlite3"
    shutil.copy(CLUB_STORE, db)
    then = json.loads(CLUB_STORE.with_suffix(".club.json").read_text())
    cid = then["club_id"]
    server = ServerProcess(str(db))
    try:
        clubs = pb_grpc.ClubStub(grpc.insecure_channel(server.target))
        got = clubs.GetClub(pb.GetClubRequest(club_id=cid))
        assert ladders(got) == json.loads(then["ladder_json"])
        assert {str(s.season): s.head for s in got.seasons if s.closed} == then["heads"]
        lines = [json.loads(x) for x in clubs.ExportClub(pb.ExportClubRequest(club_id=cid), metadata=bearer(
            then["director_token"])).export_jsonl.splitlines()]
        assert verify_export(lines, {int(k): v for k, v in then["heads"].items()}) == []
        checked = subprocess.run([sys.executable, "-m", "smear_dsl", "store", "check", str(db)], capture_output=True,
                                 text=True)
        assert checked.returncode == 0 and "1 clubs" in checked.stdout, checked.stdout
        import sqlite3
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("UPDATE club_members SET name = 'Mallory' WHERE club_id = ? AND member = 2", (cid,))
        conn.close()
        fails(lambda: clubs.GetClub(pb.GetClubRequest(club_id=cid)), grpc.StatusCode.DATA_LOSS, "CLUB_DAMAGED")
    finally:
        server.stop()


def test_an_old_tournament_store_is_proven_once_and_serves_the_same_tournament(tmp_path):
    """A store from `tournament run` at 04b0a3e, before tournament rows had proofs: `store check` says they are
    not yet proven (no traceback: the columns are not there); a server opening it proves them once and serves
    the tournament; `store check` then proves them intact."""
    import grpc

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc

    db = tmp_path / "tournament.sqlite3"
    shutil.copy(ROOT / "tests" / "history" / "stores" / "04b0a3e-tournament.sqlite3", db)
    archive = json.loads((ROOT / "tests" / "history" / "tournaments" / "04b0a3e-store.json").read_text())
    store = [sys.executable, "-m", "smear_dsl", "store", "check", str(db)]
    before = subprocess.run(store, capture_output=True, text=True)
    assert before.returncode == 0 and "from before their proofs, not yet proven" in before.stdout, before.stdout
    server = ServerProcess(str(db))
    try:
        import sqlite3
        tid = sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute("SELECT id FROM tournaments").fetchone()[0]
        got = pb_grpc.TournamentStub(grpc.insecure_channel(server.target)).GetStandings(
            pb.GetStandingsRequest(tournament_id=tid))
        assert got.name == archive["name"] and standings(got) == archive["standings"]
    finally:
        server.stop()
    after = subprocess.run(store, capture_output=True, text=True)
    assert after.returncode == 0 and "1 tournaments checked" in after.stdout and "not yet" not in after.stdout
