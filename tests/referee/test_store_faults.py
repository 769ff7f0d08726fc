"""The store as a stranger or a failure finds it (issue 29): idempotent seats and tables, every
handler with the database down, records and moves changed by hand, and backups taken under load.
Real servers on 127.0.0.1 port 0, real SQLite files and real PostgreSQL databases."""
from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

import grpc
import pytest
from conftest import ROOT, fresh_pg_database
from referee_harness import ServerProcess, ServerThread, bearer, error_reason, fails

from smear_dsl.records.verify import verify
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.limits import Limits

FAST = Limits(bot_seconds=0.001)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


# ---------------------------------------------------------------- idempotent seats and tables

def test_create_join_and_add_bots_retried_with_their_key_get_the_first_answer(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    srv = ServerThread(db, limits=FAST)
    try:
        stub = srv.client().stub
        ask = pb.CreateTableRequest(rules_name="cutthroat_canadian", players=3, idempotency_key="make-1")
        first = stub.CreateTable(ask)
        again = stub.CreateTable(ask)  # its answer was lost: the same table, the same host token
        assert (again.table_id, again.host_token) == (first.table_id, first.host_token)
        assert len(srv.client().list_tables()) == 1
        other = pb.CreateTableRequest(rules_name="cutthroat_canadian", players=4, idempotency_key="make-1")
        fails(lambda: stub.CreateTable(other), grpc.StatusCode.INVALID_ARGUMENT, "IDEMPOTENCY_KEY_REUSED")
        join = pb.JoinTableRequest(table_id=first.table_id, seat=0, name="Ann", idempotency_key="sit-1")
        seat = stub.JoinTable(join)
        retry = stub.JoinTable(join)  # not SEAT_TAKEN: the seat is this caller's, with the same token
        assert retry.token == seat.token and retry.seat == 0
        fails(lambda: stub.JoinTable(pb.JoinTableRequest(table_id=first.table_id, seat=1, name="Ann",
                                                         idempotency_key="sit-1")),
              grpc.StatusCode.INVALID_ARGUMENT, "IDEMPOTENCY_KEY_REUSED")
        fails(lambda: stub.JoinTable(pb.JoinTableRequest(table_id=first.table_id, seat=0, name="Bob")),
              grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")  # without the key it is another caller
        watch = pb.JoinTableRequest(table_id=first.table_id, spectator=True, idempotency_key="look-1")
        assert stub.JoinTable(watch).token == stub.JoinTable(watch).token
        bots = pb.AddBotsRequest(table_id=first.table_id, idempotency_key="bots-1")
        got = stub.AddBots(bots, metadata=bearer(first.host_token))
        assert list(got.seats) == [1, 2]
        assert list(stub.AddBots(bots, metadata=bearer(first.host_token)).seats) == [1, 2]
        assert srv.client(seat.token).view(first.table_id).seat == 0
    finally:
        srv.stop()
    srv = ServerThread(db, limits=FAST)  # the keys are in the store: a retry after a restart too
    try:
        stub = srv.client().stub
        assert stub.JoinTable(join).token == seat.token
        assert stub.CreateTable(ask).host_token == first.host_token
        assert srv.client(seat.token).view(first.table_id).seat == 0
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:  # the store holds neither the keys nor the tokens, only their hashes
        dump = "\n".join(conn.iterdump())
    assert "sit-1" not in dump and seat.token not in dump and first.host_token not in dump


# ---------------------------------------------------------------- every handler with the database down

def _cut(url: str, allow: bool) -> None:
    """Let the database take connections or not; when not, end the ones it has (the server's)."""
    import psycopg
    from conftest import PG_ADMIN
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"true" if allow else "false"}')
        if not allow:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))


def test_every_handler_answers_store_failed_while_the_database_is_down(tmp_path):
    url, drop = fresh_pg_database("down")
    srv = ServerThread(url, limits=FAST)
    try:
        c = srv.client()
        stub, tstub = c.stub, pb_grpc.TournamentStub(c.channel)
        made = c.create_table("cutthroat_canadian", players=3, seed="down")
        seat = c.join(made.table_id, 0)
        tourney = tstub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="cutthroat_canadian", entrants=["a", "b", "c"], pairing="swiss", rounds=2))
        view = srv.client(seat.token).view(made.table_id)
        _cut(url, allow=False)
        host, me, director = bearer(made.host_token), bearer(seat.token), bearer(tourney.director_token)
        nobody = bearer("x" * 43)
        needs_store = {
            "CreateTable": lambda: stub.CreateTable(pb.CreateTableRequest(rules_name="setback")),
            "JoinTable": lambda: stub.JoinTable(pb.JoinTableRequest(table_id=made.table_id, seat=1)),
            "JoinTable (parked)": lambda: stub.JoinTable(pb.JoinTableRequest(table_id="0" * 16, seat=1)),
            "GetTable": lambda: stub.GetTable(pb.GetTableRequest(table_id="0" * 16)),
            "AddBots": lambda: stub.AddBots(pb.AddBotsRequest(table_id=made.table_id), metadata=host),
            "GetView": lambda: stub.GetView(pb.GetViewRequest(table_id=made.table_id), metadata=nobody),
            "SubmitMove": lambda: stub.SubmitMove(pb.SubmitMoveRequest(
                table_id=made.table_id, move=view.legal_moves[0] if view.legal_moves else pb.Move(**{"pass": True}),
                expected_version=view.version), metadata=me) if view.legal_moves else
            stub.SubmitMove(pb.SubmitMoveRequest(table_id="0" * 16), metadata=nobody),
            "WatchTable": lambda: list(stub.WatchTable(pb.WatchTableRequest(table_id=made.table_id), metadata=nobody)),
            "WatchTurns": lambda: list(stub.WatchTurns(pb.WatchTurnsRequest(table_id=made.table_id), metadata=nobody)),
            "GetRecord": lambda: stub.GetRecord(pb.GetRecordRequest(table_id=made.table_id), metadata=host),
            "ReplayRecord": lambda: stub.ReplayRecord(pb.ReplayRecordRequest(table_id="0" * 16)),
            "CreateTournament": lambda: tstub.CreateTournament(pb.CreateTournamentRequest(
                rules_name="setback", entrants=["a", "b", "c", "d"], pairing="swiss", rounds=1)),
            "StartRound": lambda: tstub.StartRound(pb.StartRoundRequest(tournament_id=tourney.tournament_id),
                                                   metadata=director),
            "Act": lambda: tstub.Act(pb.ActRequest(tournament_id=tourney.tournament_id, reason="late",
                                                   forfeit=pb.Forfeit(entrant=0, round=0)), metadata=director),
        }
        for name, call in needs_store.items():
            with pytest.raises(grpc.RpcError) as e:
                call()
            assert (e.value.code(), error_reason(e.value)) == (grpc.StatusCode.UNAVAILABLE, "STORE_FAILED"), \
                (name, e.value.code(), e.value.details())
        # What needs no store is answered as usual. (A table whose write failed has left memory: on
        # PostgreSQL the commit is in doubt, so the store decides once it is back.)
        assert stub.ListRules(pb.ListRulesRequest()).rules
        stub.ListTables(pb.ListTablesRequest())
        assert tstub.GetStandings(pb.GetStandingsRequest(tournament_id=tourney.tournament_id)).entrants
        assert srv.running.store.blocking_calls == 0  # and no call waited for the store on the event loop
        _cut(url, allow=True)
        deadline = time.monotonic() + 30
        while True:  # the server comes back by itself: new connections once the database takes them
            try:
                stub.CreateTable(pb.CreateTableRequest(rules_name="setback"))
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        assert c.join(made.table_id, 1).seat == 1
    finally:
        _cut(url, allow=True)
        srv.stop()
        drop()


# ---------------------------------------------------------------- integrity

def _finished_table(srv) -> tuple[str, str]:
    """A finished table of bots (its id and host token), its record kept by the server."""
    c = srv.client()
    made = c.create_table("cutthroat_canadian", players=3, seed="proof", hand_limit=2)
    srv.client(made.host_token).add_bots(made.table_id)
    deadline = time.monotonic() + 60
    while not c.table(made.table_id).finished:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    srv.client(made.host_token).record(made.table_id)  # built once and kept in the store
    time.sleep(0.3)  # kept by a write that needs no answer
    return made.table_id, made.host_token


def test_a_record_changed_by_hand_is_refused_as_data_loss_and_store_check_finds_it(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    srv = ServerThread(db, limits=FAST)
    try:
        tid, host = _finished_table(srv)
        good, _complete = srv.client(host).record(tid)
    finally:
        srv.stop()
    assert cli("store", "check", db).returncode == 0
    with sqlite3.connect(db) as conn:  # one card of the kept record, in well-formed JSON
        (text,) = conn.execute("SELECT record_json FROM tables WHERE id = ?", (tid,)).fetchone()
        rec = json.loads(text)
        moves = [m for h in rec["hands"] for m in h["moves"] if m["action"] == "play"]
        swap = next(m for m in moves[1:] if m["card"] != moves[0]["card"])
        moves[0]["card"], swap["card"] = swap["card"], moves[0]["card"]
        conn.execute("UPDATE tables SET record_json = ? WHERE id = ?", (json.dumps(rec), tid))
    srv = ServerThread(db, limits=FAST)
    try:
        e = fails(lambda: srv.client(host).record(tid), grpc.StatusCode.DATA_LOSS, "TABLE_DAMAGED")
        assert tid in e.details() and "record" in e.details()
    finally:
        srv.stop()
    out = cli("store", "check", db)
    assert out.returncode == 1 and f"damaged: table {tid}" in out.stdout and "kept record" in out.stdout
    proc = ServerProcess(db, log=str(tmp_path / "serve.log"))  # start-up's bounded check says so in the log
    try:
        deadline = time.monotonic() + 20
        while "integrity:" not in (log := (tmp_path / "serve.log").read_text()):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(0.2)
        log = (tmp_path / "serve.log").read_text()
        assert "1 damaged" in log and f"table {tid} damaged" in log, log
    finally:
        proc.stop()
    # A move changed by hand in a finished game: the chain breaks there.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET record_json = ? WHERE id = ?", (text, tid))  # the record put back
        conn.execute("UPDATE moves SET code = code + 1 WHERE table_id = ? AND version = 5", (tid,))
    out = cli("store", "check", db)
    assert out.returncode == 1 and "at version 5: move 5 was changed" in out.stdout, out.stdout
    srv = ServerThread(db, limits=FAST)
    try:
        # The kept record is proven by its digest (it was made from the moves as played) and is served
        # as it was; what would be remade from the changed move log is refused.
        assert srv.client(host).record(tid)[0] == good
        fails(lambda: list(srv.client(host).watch(tid, after_seq=0, timeout=20)), grpc.StatusCode.DATA_LOSS,
              "TABLE_DAMAGED")
        assert srv.client().list_rules()  # the server itself serves on
    finally:
        srv.stop()


# ---------------------------------------------------------------- backups

def test_a_backup_taken_under_load_restores_and_every_record_in_it_verifies(tmp_path):
    db = str(tmp_path / "live.sqlite3")
    srv = ServerThread(db, limits=Limits(bot_seconds=0.01))
    stop = threading.Event()
    made = []
    try:
        c = srv.client()
        for i in range(6):
            t = c.create_table("cutthroat_canadian", players=3, seed=f"b{i}")
            srv.client(t.host_token).add_bots(t.table_id)
            made.append(t)
        time.sleep(0.5)  # the bots are playing: the backups are taken while moves are written
        backups = []
        for n in range(3):
            dest = str(tmp_path / f"backup-{n}.sqlite3")
            out = cli("store", "backup", db, dest)
            assert out.returncode == 0 and "all intact" in out.stdout, out.stdout + out.stderr
            backups.append(dest)
            time.sleep(0.3)
        assert cli("store", "backup", db, backups[0]).returncode == 2  # never over an existing file
        with sqlite3.connect(backups[0]) as conn:  # taken mid-game: moves were being written
            playing = conn.execute("SELECT count(*) FROM tables WHERE finished = 0").fetchone()[0]
            moved = conn.execute("SELECT count(*) FROM moves").fetchone()[0]
        assert playing and moved
    finally:
        stop.set()
        srv.stop()
    restored = str(tmp_path / "restored.sqlite3")
    shutil.copy(backups[-1], tmp_path / "old.sqlite3")
    out = cli("store", "restore", backups[-1], restored)
    assert out.returncode == 0, out.stdout + out.stderr
    srv = ServerThread(restored, limits=FAST)
    try:
        c = srv.client()
        verified = 0
        for t in made:
            deadline = time.monotonic() + 60
            while not c.table(t.table_id).finished:  # games cut short by the backup play on to their end
                assert time.monotonic() < deadline
                time.sleep(0.05)
            rec, complete = srv.client(t.host_token).record(t.table_id)
            verdict = verify(rec)
            assert complete and verdict["valid"], verdict  # (a hand limit is not in records yet: issue 30)
            verified += 1
        assert verified == len(made)
    finally:
        srv.stop()
    out = cli("store", "restore", backups[0], restored)  # over a store: the one it replaces is kept
    assert out.returncode == 0 and "kept as" in out.stdout
