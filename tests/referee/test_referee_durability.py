"""Restarts of the referee: kill -9 mid-hand loses nothing acknowledged and the game finishes; clients reach it again."""
from __future__ import annotations

import random
import threading
import time
import uuid

import grpc
import pytest
from referee_harness import ServerProcess, ServerThread

from smear_referee.clients.client import Client, choose, play_seat


def _moves(record):
    return [(m["seat"], m["action"]) for h in record["hands"] for m in h["moves"]]


def test_kill_9_loses_no_acknowledged_move(db):
    srv = ServerProcess(db)
    try:
        c = srv.client()
        t = c.create_table("four_point_ne_wisconsin", {"widow": 2}, seed="kill-9")
        tid = t.table_id
        tokens = [c.join(tid, s).token for s in range(4)]
        clients = [srv.client(tok) for tok in tokens]
        acked: list[tuple[int, int, str]] = []
        rng = random.Random(1)

        def driver():
            while True:
                try:
                    seat = clients[0].view(tid).turn
                    v = clients[seat].view(tid)
                    move = choose(v, rng)
                    resp = clients[seat].submit(tid, move, v.version, key=uuid.uuid4().hex)
                    acked.append((resp.view.version, seat, move.WhichOneof("action")))
                except grpc.RpcError:
                    return
        th = threading.Thread(target=driver)
        th.start()
        deadline = time.time() + 30
        while len(acked) < 37 and time.time() < deadline:
            time.sleep(0.001)
        srv.kill9()  # while the driver keeps submitting
        th.join(10)
        assert len(acked) >= 37
    finally:
        srv.stop()

    srv = ServerProcess(db)  # restart on the same file
    try:
        host = srv.client(t.host_token)
        record, complete = host.record(tid)
        assert not complete
        got = _moves(record)
        assert len(got) >= len(acked), "an acknowledged move was lost"
        assert got[:len(acked)] == [(seat, action) for _v, seat, action in acked]
        clients = [srv.client(tok) for tok in tokens]  # the same tokens still work
        assert clients[1].view(tid).version == len(got)
        finals = {}

        def run(i):
            finals[i] = play_seat(clients[i], tid, "heuristic", seed=i)
        threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert finals[0].finished
        record, complete = host.record(tid)
        verdict = srv.client().verify(record)
        assert complete and verdict["valid"] and verdict["finished"] and verdict["scores"] == list(finals[0].scores)
    finally:
        srv.stop()


def test_sigterm_stops_gracefully_and_keeps_the_tables(tmp_path):
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerProcess(db)
    c = srv.client()
    t = c.create_table("setback", seed="graceful")
    srv.proc.terminate()  # SIGTERM: stop accepting, finish in-flight calls, close the store
    assert srv.proc.wait(15) == 0
    srv = ServerProcess(db)
    try:
        assert len(srv.client().list_rules().rules) >= 12  # serving again
        host = srv.client(t.host_token)
        record, complete = host.record(t.table_id)
        assert not complete and record["rules"] == "setback@2"
    finally:
        srv.stop()


def test_a_new_client_reaches_a_referee_restarted_on_the_same_port_while_an_old_one_is_open(tmp_path):
    """A process that keeps an old Client (a lobby, a watcher) and makes a new one after the referee came back
    on its port: the new Client's first call is answered. In gRPC's shared pool of connections the new
    channel took over the old one's failed connection and its first call failed at once with UNAVAILABLE."""
    for i in range(3):
        first = ServerThread(str(tmp_path / f"r{i}.db"))
        old = Client(first.target)
        old.create_table("four_point_ne_wisconsin", seed=f"old-{i}")
        first.stop()
        with pytest.raises(grpc.RpcError):
            old.create_table("four_point_ne_wisconsin", seed=f"gone-{i}")  # the old Client saw it go
        again = ServerThread(str(tmp_path / f"r{i}.db"), port=first.port)
        try:
            made = Client(again.target).create_table("four_point_ne_wisconsin", seed=f"new-{i}")
            assert made.table_id
        finally:
            old.close()
            again.stop()
