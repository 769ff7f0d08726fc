"""The referee against a hostile caller, hole by hole (docs/security.md): no file read through a
record, sealed duplicate rounds, exact idempotency, moves that survive a dropped call, bounded
cost per caller, a compile limit that stops the work, short error messages, and start-up with a
damaged table. Real servers on 127.0.0.1 port 0, real SQLite files, real worker processes."""
from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time

import grpc
import pytest
from conftest import ROOT
from referee_harness import ServerProcess, ServerThread, bearer, fails

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.clients.client import Client, error_reason, play_seat
from smear_referee.limits import Limits
from smear_referee.storage.store import Store
from smear_referee.tables.convert import move_to_proto
from smear_referee.tables.registry import Identity, Tables
from smear_referee.tournament.archive import verify_archive


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerThread(str(tmp_path_factory.mktemp("security") / "referee.sqlite3"))
    yield s
    s.stop()


def hostile_rules(rules: int = 100) -> str:
    """A valid rule file that is slow to check: many long lead rules, checked for 5 seat counts x 64 options."""
    term = "any(hand where card.suit != lead.suit and card.rank != 3)"
    expr = " and ".join([term] * 30)
    lead = "".join(f"    - forbid: trick == 99 and {expr}\n      code: TRUMP_DISCARDED\n      message: m\n"
                   for _ in range(rules))
    opts = "".join(f"  o{i}: {{type: bool, default: false}}\n" for i in range(6))
    return (f"extends: four_point_ne_wisconsin\nname: slow\nplayers: [2, 4]\nteams: 2\noptions:\n{opts}"
            f"play:\n  lead_rules:\n{lead}")


def first_move(view: pb.View) -> pb.Move:
    return view.legal_moves[0]


# ---------------------------------------------------------------- 1. no file is ever read for a caller

def test_verify_record_never_opens_a_path_the_caller_names(srv, tmp_path):
    secret = tmp_path / "secrets.yaml"
    secret.write_text("name: TOP-SECRET-PASSWORD-42\nplayers: 4\n")
    c = srv.client()
    base = {"format": "smear-record/1", "players": 4, "options": {}, "first_dealer": 0, "hands": []}
    messages = []
    for rules in (str(secret), str(tmp_path / "nothere.yaml"), "../../etc/passwd", "secrets"):
        err = fails(lambda: c.verify({**base, "rules": rules}), grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")
        assert "TOP-SECRET" not in err.details()
        messages.append(err.details().replace("nothere", "secrets"))
    # An existing and a missing path get the same answer: nothing can be probed.
    assert messages[0] == messages[1]


def test_records_carry_their_rules_text_and_a_wrong_digest_is_refused(srv):
    import hashlib
    text = (ROOT / "rules" / "four_point_house.yaml").read_text()
    c = srv.client()
    host = c.create_table(rules_text=text, seed="upload")
    seats = [srv.client(c.join(host.table_id, s).token) for s in range(4)]
    threads = [threading.Thread(target=play_seat, args=(cl, host.table_id, "heuristic", s)) for s, cl in enumerate(seats)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    record, complete = srv.client(host.host_token).record(host.table_id)
    assert complete and record["rules_text"] == text
    assert record["rules_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    verdict = c.verify(record)  # self-contained: the server compiles the carried text
    assert verdict["valid"] and verdict["finished"]
    fails(lambda: c.verify({**record, "rules_sha256": "0" * 64}), grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")
    # A carried rule file may extend only a rule of rules/, never a path.
    err = fails(lambda: c.verify({**record, "rules_text": "extends: /etc/hostname\nname: x\n", "rules_sha256": None}),
                grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")
    assert "no rule file" in err.details()


# ---------------------------------------------------------------- 2. a duplicate round stays sealed

def _play(target, table: pb.RoundTable):
    threads = [threading.Thread(target=play_seat, args=(Client(target, tok), table.table_id, "heuristic", s))
               for s, tok in enumerate(table.seat_tokens)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)


def test_a_duplicate_round_reveals_nothing_until_every_table_has_finished(srv):
    stub = pb_grpc.TournamentStub(grpc.insecure_channel(srv.target))
    created = stub.CreateTournament(pb.CreateTournamentRequest(
        rules_name="cutthroat_canadian", entrants=["a", "b", "c", "d", "e", "f"], pairing="swiss", rounds=1,
        duplicate=True, seed="sealed-master", players=3))
    tid = created.tournament_id
    start = stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=bearer(created.director_token))
    first, second = start.tables
    _play(srv.target, first)
    done = Client(srv.target, first.seat_tokens[0])
    assert done.view(first.table_id).finished

    # The finished table's player sees the result, but no seed, no other seat's cards, no stock.
    record, complete = done.record(first.table_id)
    assert not complete and record["sealed"] and "seed" not in record
    for hand in record["hands"]:
        assert [len(h) > 0 for h in hand["deal"]["hands"]] == [True, False, False] and hand["deal"]["stock"] == []
    over = next(e for e in done.watch(first.table_id, timeout=10) if e.WhichOneof("kind") == "game_over")
    assert over.game_over.seed == "" and len(over.game_over.scores) == 3
    # Nobody can watch it, the standings show no result of the round, the export holds nothing of it.
    fails(lambda: Client(srv.target).join(first.table_id), grpc.StatusCode.FAILED_PRECONDITION, "ROUND_SEALED")
    st = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid))
    assert st.rounds[0].seed == "" and st.rounds[0].finished_tables == 1
    assert all(row.games == 0 for row in st.standings)
    export = json.loads(stub.ExportTournament(pb.ExportTournamentRequest(tournament_id=tid),
                                              metadata=bearer(created.director_token)).archive_json)
    assert export["rounds"] == [] and export["duplicate_comparisons"] == []

    _play(srv.target, second)
    record, complete = done.record(first.table_id)
    revealed = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid)).rounds[0].seed
    assert complete and "sealed" not in record and revealed and record["seed"] == revealed
    export = json.loads(stub.ExportTournament(pb.ExportTournamentRequest(tournament_id=tid),
                                              metadata=bearer(created.director_token)).archive_json)
    assert len(export["rounds"]) == 1 and export["duplicate_comparisons"]
    assert verify_archive(export) == []
    assert Client(srv.target).join(first.table_id).token  # the round is over: anyone may watch


# ---------------------------------------------------------------- 3. exact idempotency

def test_an_idempotency_key_reused_with_another_move_is_refused(srv):
    c = srv.client()
    t = c.create_table("four_point_ne_wisconsin", seed="idem")
    seats = [srv.client(c.join(t.table_id, s).token) for s in range(4)]
    view = seats[0].view(t.table_id)
    turn = seats[view.turn]
    legal = list(turn.view(t.table_id).legal_moves)
    assert len(legal) >= 2
    assert not turn.submit(t.table_id, legal[0], 0, "k1").replayed
    assert turn.submit(t.table_id, legal[0], 0, "k1").replayed  # the same move again: replayed
    fails(lambda: turn.submit(t.table_id, legal[1], 1, "k1"), grpc.StatusCode.INVALID_ARGUMENT,
          "IDEMPOTENCY_KEY_REUSED")
    fails(lambda: turn.submit(t.table_id, pb.Move(play="ZZ"), 1, "k1"), grpc.StatusCode.INVALID_ARGUMENT,
          "IDEMPOTENCY_KEY_REUSED")
    assert seats[0].view(t.table_id).version == 1


# ---------------------------------------------------------------- 4. a dropped call loses nothing

def test_a_move_survives_its_call_being_dropped_at_any_point(tmp_path):
    """Cancel a submit after k turns of the event loop, for every k: the move is either not applied
    at all, or applied with its key, its events and the next seat's wake-up, also after a reload."""
    async def one(k: int) -> bool:
        db = str(tmp_path / f"drop{k}.sqlite3")
        store = Store(db)
        tables = Tables(store)
        t, _host = await tables.create("four_point_ne_wisconsin", None, {}, 4, f"drop{k}")
        for s in range(4):
            await tables.join(t.id, s)
        seat = t.game.turn
        nxt: list[int] = []
        move = move_to_proto(t.rules, t.game.legal_moves()[0])
        t.turn_waiters[(seat + 1) % 4].add(lambda: nxt.append(1))  # the next seat's stream, waiting
        task = asyncio.ensure_future(tables.submit(t, Identity(t.id, "seat", seat), move, 0, "key"))
        for _ in range(k):
            await asyncio.sleep(0)
        task.cancel()
        for _ in range(200):  # the store's writer settles within a few ms
            await asyncio.sleep(0.005)
            if t.version and nxt:
                break
        applied = t.version == 1
        if applied:
            assert "key" in t.idem and [e[1] for e in t.events].count("move") == 1 and nxt
        else:
            assert "key" not in t.idem and not nxt
        store.close()
        again = Tables(Store(db))
        await asyncio.to_thread(again.load)
        t2 = again.tables[t.id]
        assert t2.version == t.version and ("key" in t2.idem) == applied
        again.store.close()
        return applied

    outcomes = [asyncio.run(one(k)) for k in range(12)]
    # Cancelled before it ran, nothing happens; from its first step on, the move goes through whole.
    assert outcomes == [False] + [True] * 11


@pytest.mark.parametrize("drop", ["cancel SubmitMove", "cancel Play", "close the connection"])
def test_a_move_whose_call_is_dropped_still_keeps_its_key_events_and_wake_up(tmp_path, drop):
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerThread(db)
    try:
        c = srv.client()
        t = c.create_table("four_point_ne_wisconsin", seed="cancel")
        seats = [srv.client(c.join(t.table_id, s).token) for s in range(4)]
        view = seats[0].view(t.table_id)
        mover, nxt = seats[view.turn], seats[(view.turn + 1) % 4]
        move = mover.view(t.table_id).legal_moves[0]
        turns = nxt.turns(t.table_id, timeout=20)
        blocker = sqlite3.connect(db, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the store's writer must wait: the move is mid-commit
        own = Client(srv.target, mover.token)  # a connection of its own, to close
        if drop == "cancel Play":
            call = own.stub.Play(iter([pb.PlayRequest(table_id=t.table_id, move=move, expected_version=0,
                                                      idempotency_key="drop-me")]), metadata=own._md())
        else:
            call = own.stub.SubmitMove.future(pb.SubmitMoveRequest(table_id=t.table_id, move=move, expected_version=0,
                                                                   idempotency_key="drop-me"), metadata=own._md())
        time.sleep(0.5)
        if drop == "close the connection":
            own.close()
        else:
            call.cancel()
        time.sleep(0.2)
        blocker.execute("COMMIT")
        blocker.close()
        # The retry is answered as the move it was, not as a stale version.
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                assert mover.submit(t.table_id, move, 0, "drop-me").replayed
                break
            except grpc.RpcError as e:
                assert error_reason(e) != "STALE_VERSION", e.details()
                time.sleep(0.05)
        events = []
        for e in seats[0].watch(t.table_id, timeout=3):
            if e.WhichOneof("kind") == "move":
                events.append(e)
                break
        assert events and events[0].move.version == 1
        woken = next(v for v in turns if v.version >= 1)
        assert woken.turn == (view.turn + 1) % 4 and woken.seat == woken.turn
    finally:
        srv.stop()


# ---------------------------------------------------------------- 5. bounded cost without a token

def test_tournaments_and_tables_have_per_address_budgets(tmp_path):
    lim = Limits(tables_per_address=3, upload_tables_per_address=1, tournaments_per_address=1, spectators_per_table=2)
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=lim)
    try:
        c = srv.client()
        stub = pb_grpc.TournamentStub(c.channel)
        fails(lambda: stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=["x" * 4096] * 8, pairing="swiss", rounds=1)),
            grpc.StatusCode.INVALID_ARGUMENT, "BAD_NAME")
        fails(lambda: stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=[f"p{i}" for i in range(1001)], pairing="swiss", rounds=1)),
            grpc.StatusCode.INVALID_ARGUMENT, "BAD_TOURNAMENT")
        stub.CreateTournament(pb.CreateTournamentRequest(rules_name="four_point_ne_wisconsin",
                                                         entrants=[f"p{i}" for i in range(8)], pairing="swiss", rounds=1))
        fails(lambda: stub.CreateTournament(pb.CreateTournamentRequest(
            rules_name="four_point_ne_wisconsin", entrants=[f"p{i}" for i in range(8)], pairing="swiss", rounds=1)),
            grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_TOURNAMENTS")

        text = (ROOT / "rules" / "four_point_house.yaml").read_text()
        up = c.create_table(rules_text=text)
        fails(lambda: c.create_table(rules_text=text), grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_TABLES")
        named = [c.create_table("setback"), c.create_table("setback")]
        fails(lambda: c.create_table("setback"), grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_TABLES")
        for _ in range(2):
            c.join(named[0].table_id)
        fails(lambda: c.join(named[0].table_id), grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_SPECTATORS")
        assert up.table.rules == "upload@1" and len(named) == 2
    finally:
        srv.stop()


def test_tables_with_the_same_uploaded_rules_share_one_compiled_copy(srv):
    text = (ROOT / "rules" / "four_point_house.yaml").read_text() + "\n# " + "padding " * 10_000 + "\n"
    c = srv.client()
    a, b = c.create_table(rules_text=text), c.create_table(rules_text=text + "")
    ta, tb = srv.running.tables.tables[a.table_id], srv.running.tables.tables[b.table_id]
    assert ta.rules is tb.rules and ta.spec is tb.spec and ta.rules_text is tb.rules_text


# ---------------------------------------------------------------- 6. the compile limit stops the work

def test_a_slow_rule_file_is_stopped_not_only_abandoned(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(compile_seconds=1.0, verify_seconds=1.0))
    try:
        c = srv.client()
        sandbox = srv.running.sandbox
        assert c.check_rules("name: tiny\n").diagnostics  # the first job starts the worker
        worker = sandbox._idle[0].proc
        fails(lambda: c.check_rules(hostile_rules()), grpc.StatusCode.RESOURCE_EXHAUSTED, "RULES_TOO_COMPLEX")
        worker.wait(10)  # killed at the deadline: dead within moments (a loaded machine reaps it late)
        assert sandbox.kills == 1  # the worker doing it was killed
        # Honest calls are answered right after, by a fresh worker: a small file, since the worker runs
        # at a low priority and a loaded machine could hold a whole family file's check past this 1 s.
        runs = sandbox.runs
        answer = c.check_rules("name: tiny\n")
        assert not answer.ok and answer.diagnostics and sandbox.runs == runs + 1
        # One setup to compile, not every one as a check does: four times the rules, so it takes
        # several seconds, well past the 1 s deadline on any machine.
        record = {"format": "smear-record/1", "rules": "slow", "rules_text": hostile_rules(400), "players": 4,
                  "options": {}, "first_dealer": 0, "hands": []}
        fails(lambda: c.verify(record), grpc.StatusCode.RESOURCE_EXHAUSTED, "RECORD_TOO_COMPLEX")
        assert sandbox.kills == 2
        fails(lambda: c.create_table(rules_text=hostile_rules()), grpc.StatusCode.RESOURCE_EXHAUSTED,
              "RULES_TOO_COMPLEX")
    finally:
        srv.stop()


def test_a_rule_file_that_checks_slowly_seats_no_table(tmp_path):
    # The check itself may take all it needs (a loaded machine must not turn this into the check's own
    # deadline, another message): the table's 0.05 s is what refuses the seat.
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(table_compile_seconds=0.05, compile_seconds=300))
    try:
        err = fails(lambda: srv.client().create_table(rules_text=hostile_rules(3)), grpc.StatusCode.RESOURCE_EXHAUSTED,
                    "RULES_TOO_COMPLEX")
        assert "must check in" in err.details()
    finally:
        srv.stop()


def test_one_address_cannot_queue_more_than_its_share_of_compiles(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(compile_seconds=2.0, sandbox_per_address=1))
    try:
        c = srv.client()
        slow = c.stub.CheckRules.future(pb.CheckRulesRequest(text=hostile_rules()))
        time.sleep(0.3)
        fails(lambda: c.check_rules("name: x\n"), grpc.StatusCode.RESOURCE_EXHAUSTED, "BUSY")
        with pytest.raises(grpc.RpcError):
            slow.result()
    finally:
        srv.stop()


# ---------------------------------------------------------------- 7. errors quote only a prefix

@pytest.mark.parametrize("what", ["card", "option", "table", "action", "rules"])
def test_a_huge_value_gets_a_typed_refusal_with_a_short_message(srv, what):
    c = srv.client()
    huge = "Q" * 100_000
    if what == "option":
        e = fails(lambda: c.create_table("four_point_ne_wisconsin", {"widow": huge}),
                  grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTION")
    elif what == "table":
        e = fails(lambda: c.join(huge), grpc.StatusCode.NOT_FOUND, "NOT_FOUND")
    elif what == "rules":
        e = fails(lambda: c.create_table(huge), grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")
    else:
        t = c.create_table("four_point_ne_wisconsin", seed="huge")
        seat = srv.client(c.join(t.table_id, 0).token)
        if what == "card":
            e = fails(lambda: seat.submit(t.table_id, pb.Move(play=huge), 0), grpc.StatusCode.INVALID_ARGUMENT,
                      "BAD_RECORD")
        else:
            record = {"format": "smear-record/1", "rules": "four_point_ne_wisconsin", "players": 4, "options": {},
                      "first_dealer": 0, "hands": [{"deal": {}, "moves": [{"seat": 0, "action": huge}]}]}
            e = fails(lambda: c.verify({**record, "format": huge}), grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")
    assert len(e.details()) < 300, len(e.details())


def test_check_rules_answers_a_huge_file_with_clipped_diagnostics(srv):
    text = "name: x\n" + "".join(f"k{i}: {'v' * 5000}\n" for i in range(150))
    out = srv.client().check_rules(text)
    assert not out.ok and len(out.diagnostics) <= 101
    assert all(len(d.source_line) <= 210 for d in out.diagnostics)


# ---------------------------------------------------------------- 8. a damaged table keeps no other down

def test_start_up_with_a_damaged_table_serves_the_others(tmp_path):
    db = str(tmp_path / "referee.sqlite3")
    first = ServerProcess(db)
    try:
        c = first.client()
        good = c.create_table("four_point_ne_wisconsin", seed="good")
        bad = c.create_table("four_point_ne_wisconsin", seed="bad")
        good_seats = [first.client(c.join(good.table_id, s).token) for s in range(4)]
        bad_seat = first.client(c.join(bad.table_id, 0).token)
        for cl in [first.client(c.join(bad.table_id, s).token) for s in range(1, 4)] + [bad_seat]:
            v = cl.view(bad.table_id)
            if v.turn == v.seat:
                cl.submit(bad.table_id, first_move(v), v.version)
                break
    finally:
        first.stop()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE moves SET seat = (seat + 1) % 4 WHERE table_id = ? AND version = 1", (bad.table_id,))
    conn.commit()
    conn.close()
    second = ServerProcess(db)
    try:
        v = Client(second.target, good_seats[0].token).view(good.table_id)
        mover = Client(second.target, good_seats[v.turn].token)
        assert not mover.submit(good.table_id, first_move(mover.view(good.table_id)), 0).replayed
        lost = Client(second.target, bad_seat.token)
        e = fails(lambda: lost.view(bad.table_id), grpc.StatusCode.DATA_LOSS, "TABLE_DAMAGED")
        assert "version 1" in e.details()
    finally:
        second.stop()
    log = second.proc.stderr.read()
    line = next(x for x in log.splitlines() if bad.table_id in x)
    assert db in line and "version 1" in line and "was changed in the store" in line


def _workers() -> int:
    """Live sandbox worker processes started by this process."""
    import os
    from pathlib import Path
    n = 0
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and b"smear_referee.server.sandbox" in (proc / "cmdline").read_bytes() and \
                    int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                n += 1
        except (OSError, ValueError, IndexError):
            continue
    return n


def test_callers_that_give_up_do_not_multiply_the_workers(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(compile_seconds=3.0, sandbox_per_address=10))
    try:
        c = srv.client()
        c.check_rules("name: tiny\n")  # the first job starts the server's worker
        before = _workers()  # this server's one worker, and those of other servers of this test process
        for _ in range(4):  # each gives up once its slow job is under way
            call = c.stub.CheckRules.future(pb.CheckRulesRequest(text=hostile_rules()))
            time.sleep(0.3)
            call.cancel()
        assert _workers() == before  # the first job still holds the only worker; the others never started one
    finally:
        srv.stop()


def test_a_compile_error_quotes_the_upload_not_a_file_of_the_same_name(tmp_path, monkeypatch):
    """Compile errors quote the line from the text that was checked; they never read a file again
    (a file named like the upload in the server's folder stays unread)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "upload.yaml").write_text("\n" * 3 + "TOP-SECRET-LINE-FOUR\n" * 20)
    srv = ServerThread(str(tmp_path / "referee.sqlite3"))
    try:
        text = "extends: four_point_ne_wisconsin\nname: x\n\ndeal:\n  hand_size: 9\n"  # 36 cards from 32: a compile error
        out = srv.client().check_rules(text)
        assert not out.ok and out.diagnostics
        assert all("TOP-SECRET" not in d.source_line for d in out.diagnostics)
        assert any(d.path == "upload.yaml" and d.line == 5 and d.source_line == "  hand_size: 9" for d in out.diagnostics)
        err = fails(lambda: srv.client().create_table(rules_text=text), grpc.StatusCode.INVALID_ARGUMENT, "BAD_RULES")
        assert "TOP-SECRET" not in err.details()
    finally:
        srv.stop()


# ---------------------------------------------------------------- malformed gRPC requests (issue 29)

def test_a_malformed_grpc_request_is_invalid_argument_not_unknown(srv):
    """Bytes that are no message of the method's type: INVALID_ARGUMENT / BAD_REQUEST, on unary, server
    streaming and bidirectional calls alike (grpcio's own answer would be UNKNOWN)."""
    made = srv.client().create_table("cutthroat_canadian", players=3)
    seat = srv.client().join(made.table_id, 0)
    with grpc.insecure_channel(srv.target) as ch:
        garbage = b"\xff" * 30
        for call in (ch.unary_unary("/smear.referee.v1.Referee/ListTables"),
                     ch.unary_unary("/smear.referee.v1.Tournament/GetStandings")):
            with pytest.raises(grpc.RpcError) as e:
                call(garbage, timeout=10)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and error_reason(e.value) == "BAD_REQUEST"
        with pytest.raises(grpc.RpcError) as e:
            list(ch.unary_stream("/smear.referee.v1.Referee/WatchTable")(garbage, timeout=10))
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and error_reason(e.value) == "BAD_REQUEST"
        play = ch.stream_stream("/smear.referee.v1.Referee/Play")
        first = pb.PlayRequest(table_id=made.table_id).SerializeToString()
        with pytest.raises(grpc.RpcError) as e:
            list(play(iter([first, garbage]), metadata=bearer(seat.token), timeout=10))
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and error_reason(e.value) == "BAD_REQUEST"
    assert srv.client().list_tables()  # and the server goes on
