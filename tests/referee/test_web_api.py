"""The referee over the Connect protocol (what the browser speaks), the lobby calls and the
server's bots: a real server on 127.0.0.1 with its web port, called over real HTTP."""
from __future__ import annotations

import json
import logging
import random
import subprocess
import sys
import urllib.request

import grpc
import pytest
from conftest import ROOT
from referee_harness import ServerThread, connect_call, connect_stream, fails, play_against_bots, wait_for

from smear_dsl.records.verify import verify
from smear_referee.api import referee_pb2 as pb
from smear_referee.limits import Limits
from smear_referee.server.service import HEARTBEAT_SECONDS

FAST_BOTS = Limits(bot_seconds=0.001)


@pytest.fixture
def web(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=FAST_BOTS, web=0)
    yield srv
    srv.stop()


def base(srv) -> str:
    return srv.url.rstrip("/")


def test_the_web_port_serves_the_client_and_its_routes(web):
    for path in ("/", "/t/0123abcd"):
        with urllib.request.urlopen(base(web) + path) as r:
            page = r.read().decode()
        assert '<main id="app">' in page and "/app.js" in page
    with urllib.request.urlopen(base(web) + "/app.js") as r:
        assert r.headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_a_refusal_is_the_same_over_connect_and_grpc(web):
    """One implementation of every check: the same illegal move gets the same code and words both ways."""
    made = web.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="same")
    first = web.client(made.host_token).view(made.table_id).turn
    seat = web.client().join(made.table_id, first)
    view = web.client(seat.token).view(made.table_id)
    assert view.phase == "bidding" and view.legal_moves
    card = view.hand[0]
    err = fails(lambda: web.client(seat.token).submit(made.table_id, pb.Move(play=card), view.version),
                grpc.StatusCode.FAILED_PRECONDITION, "WRONG_PHASE")
    status, body = connect_call(base(web), "SubmitMove", {"tableId": made.table_id, "move": {"play": card},
                                                          "expectedVersion": str(view.version)}, seat.token)
    assert status == 400 and body["code"] == "failed_precondition"
    assert body["message"] == err.details()
    assert [d["debug"]["reason"] for d in body["details"]] == ["WRONG_PHASE"]
    # No token, a wrong token: the gRPC interceptor's answers, over HTTP.
    status, body = connect_call(base(web), "GetView", {"tableId": made.table_id})
    assert status == 401 and body["details"][0]["debug"]["reason"] == "UNAUTHENTICATED"
    status, body = connect_call(base(web), "GetView", {"tableId": made.table_id}, "forged")
    assert status == 401 and body["message"] == "unknown token"
    # A legal move over Connect lands in the same table gRPC sees.
    status, body = connect_call(base(web), "SubmitMove", {"tableId": made.table_id, "move": {"pass": True},
                                                          "expectedVersion": "0"}, seat.token)
    assert status == 200, body
    assert web.client(seat.token).view(made.table_id).version == 1


def test_the_lobby_lists_tables_with_names_and_free_seats(web):
    c = web.client()
    a = c.create_table("four_point_ne_wisconsin", {"widow": 2})
    b = c.create_table("cutthroat_canadian", players=3)
    c.join(a.table_id, 2, name="  Ann   Lee ")
    c.join(a.table_id, None)
    listed = c.list_tables()
    assert [t.table_id for t in listed] == [b.table_id, a.table_id]  # newest first
    info = listed[1]
    assert list(info.seat_names) == ["", "", "Ann Lee", ""] and list(info.seat_taken) == [False, False, True, False]
    assert info.spectators == 1 and info.spectators_allowed and not info.started and not info.house_rules
    assert info.options["widow"] == "2" and info.title.startswith("Four Point")
    assert c.table(b.table_id).players == 3
    # The same list over Connect, as the lobby page reads it.
    status, body = connect_call(base(web), "ListTables", {})
    assert status == 200 and [t["tableId"] for t in body["tables"]] == [b.table_id, a.table_id]
    assert body["tables"][1]["seatNames"][2] == "Ann Lee"
    fails(lambda: c.join(b.table_id, 0, name="x" * 500), grpc.StatusCode.INVALID_ARGUMENT, "BAD_NAME")
    assert len(c.join(b.table_id, 0, name="x" * Limits.player_name_chars).table.seat_names[0]) == \
        Limits.player_name_chars


def test_add_bots_takes_the_host_token_and_fills_only_free_seats(web):
    c = web.client()
    made = c.create_table("four_point_ne_wisconsin", {"widow": 2}, seed="bots")
    me = c.join(made.table_id, 0, name="Me")
    watcher = c.join(made.table_id, None)
    fails(lambda: web.client(watcher.token).add_bots(made.table_id), grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_HOST")
    fails(lambda: web.client(made.host_token).add_bots(made.table_id, "genius"), grpc.StatusCode.INVALID_ARGUMENT,
          "BAD_BOT")
    added = web.client(made.host_token).add_bots(made.table_id)
    assert list(added.seats) == [1, 2, 3] and list(added.table.seat_names) == ["Me"] + ["bot:heuristic"] * 3
    fails(lambda: c.join(made.table_id, 2), grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")
    # A seat's own token hands that seat to a bot (a bot stands in): the whole game then plays itself.
    stand_in = web.client(me.token).add_bots(made.table_id)
    assert list(stand_in.seats) == [0] and stand_in.table.seat_names[0] == "Me"  # the name stays: a bot stands in
    assert stand_in.table.seat_bots[0] == "heuristic"
    assert wait_for(lambda: web.client().table(made.table_id).finished, 120)


def test_a_person_plays_a_whole_game_against_the_servers_bots(web, tmp_path):
    made = web.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="person-vs-bots")
    me = web.client().join(made.table_id, 0, name="Me")
    web.client(made.host_token).add_bots(made.table_id)
    view = play_against_bots(web, made.table_id, me.token, random.Random(3))
    assert view.finished and max(view.scores) >= 11
    record = web.client(me.token).record(made.table_id)[0]
    verdict = verify(record)
    assert verdict["valid"], verdict
    seats = {m["seat"] for h in record["hands"] for m in h["moves"]}
    assert seats == {0, 1, 2, 3}


def test_bots_play_on_after_a_restart(tmp_path):
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerThread(db, limits=FAST_BOTS)
    made = srv.client().create_table("cutthroat_canadian", players=3, seed="restart-bots")
    me = srv.client().join(made.table_id, 0)
    srv.client(made.host_token).add_bots(made.table_id)
    mid = play_against_bots(srv, made.table_id, me.token, random.Random(1), stop_at=20)
    srv.stop()
    srv = ServerThread(db, limits=FAST_BOTS)
    try:
        assert srv.client().table(made.table_id).seat_names[1] == "bot:heuristic"
        view = play_against_bots(srv, made.table_id, me.token, random.Random(2))
        assert view.finished and view.version > mid.version
    finally:
        srv.stop()


def test_a_spectator_stream_over_connect_holds_no_hidden_card(web):
    made = web.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="watch-web")
    me = web.client().join(made.table_id, 0)
    watcher = web.client().join(made.table_id, None)
    web.client(made.host_token).add_bots(made.table_id)
    view = play_against_bots(web, made.table_id, me.token, random.Random(5), stop_at=30)
    events = connect_stream(base(web), "WatchTable", {"tableId": made.table_id}, watcher.token,
                            stop=lambda m: int(m.get("seq", 0)) >= 25)
    assert events[0]["snapshot"]["tableId"] == made.table_id and int(events[-1]["seq"]) >= 25
    played = set()
    for ev in events:
        assert "hand" not in ev.get("snapshot", {}) and "yourCards" not in ev.get("handStarted", {})
        move = ev.get("move", {}).get("move", {})
        assert not move.get("discard", {}).get("cards"), "a spectator saw discarded cards"
        played |= set(ev.get("trickWon", {}).get("cards", []))
        if "move" in ev and "play" in move:
            played.add(move["play"])
    snapshot = events[0]["snapshot"]
    assert "hand" not in snapshot and "discarded" not in snapshot.get("current", {}) and "discard" not in snapshot
    # A seat's stream carries its own cards.
    mine = connect_stream(base(web), "WatchTable", {"tableId": made.table_id}, me.token,
                          stop=lambda m: "handStarted" in m)
    assert mine[-1]["handStarted"]["yourCards"]
    assert view.version >= 30


def test_a_browser_that_leaves_a_stream_frees_it_when_it_goes_not_at_the_next_heartbeat(web, caplog):
    """A closed tab's WatchTable ends on the server when its connection closes: the stream's next message, a
    heartbeat, would come only HEARTBEAT_SECONDS later, and until then the stream held all it holds and
    counted as open. Its going is not an error either."""
    made = web.client().create_table("four_point_ne_wisconsin", seed="leaves")
    watcher = web.client().join(made.table_id, None)
    streams = web.running.tables.metrics.streams
    for _ in range(3):
        events = connect_stream(base(web), "WatchTable", {"tableId": made.table_id}, watcher.token,
                                stop=lambda m: True)  # the first event read, then the connection closed
        assert events[0]["snapshot"]["tableId"] == made.table_id
        wait_for(lambda: streams["watch_table"] == 0, HEARTBEAT_SECONDS / 2)
    assert web.running.tables.metrics.streams_closed >= 3
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    # The table and the API go on as before for the next caller.
    assert connect_call(base(web), "GetView", {"tableId": made.table_id}, watcher.token)[0] == 200


def test_the_generated_code_is_current():
    """smear_referee/api (gRPC and Connect) is what scripts/gen_proto.py makes of the proto now."""
    out = subprocess.run([sys.executable, "scripts/gen_proto.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_replay_positions_follow_the_record(web):
    """ReplayRecord's positions against the record itself: each move's seat and card, cards conserved
    (held + discarded + played + stock = the deck), and the last scores are the verdict's."""
    made = web.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="replay-api", hand_limit=3)
    me = web.client().join(made.table_id, 2)
    fails(lambda: web.client().stub.ReplayRecord(pb.ReplayRecordRequest(table_id=made.table_id)),
          grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_OVER")
    web.client(made.host_token).add_bots(made.table_id)
    play_against_bots(web, made.table_id, me.token, random.Random(8))
    got = web.client().stub.ReplayRecord(pb.ReplayRecordRequest(table_id=made.table_id))
    replay, record = json.loads(got.replay_json), json.loads(got.record_json)
    assert got.valid and record["seed"]
    steps = replay["steps"]
    moves = [(h, m) for h, hand in enumerate(record["hands"]) for m in hand["moves"]]
    assert len(steps) == len(moves) + len(record["hands"])
    deck = len(record["hands"][0]["deal"]["stock"]) + sum(map(len, record["hands"][0]["deal"]["hands"]))
    played: list[str] = []
    it = iter(moves)
    for s in steps:
        if s["move"] is None:
            played = []
            continue
        h, move = next(it)
        assert s["hand"] == h and s["last"] == move
        if move["action"] == "play":
            played.append(move["card"])
        held = sum(map(len, s["hands"])) + sum(map(len, s["discarded"]))
        assert held + len(played) + s["stock"] == deck
        assert not set(played) & {c for hand in s["hands"] for c in hand}
    assert steps[-1]["scores"] == replay["verdict"]["scores"] == record_scores(web, made.table_id)
    # The same from the record sent whole, over Connect as the viewer's file picker does.
    status, body = connect_call(base(web), "ReplayRecord", {"recordJson": got.record_json})
    assert status == 200 and json.loads(body["replayJson"])["steps"] == steps


def record_scores(srv, table_id: str) -> list[int]:
    return list(srv.client().table(table_id).scores)


def test_a_tables_rules_are_explained_with_its_options(web):
    made = web.client().create_table("four_point_ne_wisconsin", {"widow": 2})
    text = web.client().stub.ExplainRules(pb.ExplainRulesRequest(table_id=made.table_id)).text
    assert "The bidder takes 2 cards from the front of the stock." in text and "widow=2" in text
    status, body = connect_call(base(web), "ExplainRules", {"tableId": made.table_id, "format": "html"})
    assert status == 200 and "<html" in body["text"] and "takes 2 cards" in body["text"]


def test_the_web_port_bounds_its_open_connections(tmp_path):
    """Past `web_connections`, a new call is turned away (HTTP 503) instead of queueing without end."""
    import http.client
    import struct
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(web_connections=3), web=0)
    try:
        made = srv.client().create_table("four_point_ne_wisconsin")
        watcher = srv.client().join(made.table_id, None).token
        port = srv.running.web_port
        held = []
        for _ in range(2):  # two browsers watching the table hold two connections; a third is one too many
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            body = json.dumps({"tableId": made.table_id}).encode()
            conn.request("POST", "/smear.referee.v1.Referee/WatchTable", body=struct.pack(">BI", 0, len(body)) + body,
                         headers={"content-type": "application/connect+json", "authorization": f"Bearer {watcher}"})
            assert conn.getresponse().status == 200
            held.append(conn)
        assert connect_call(base(srv), "ListTables", {})[0] == 503
        for conn in held:
            conn.close()
        assert wait_for(lambda: connect_call(base(srv), "ListTables", {})[0] == 200, 10)
    finally:
        srv.stop()


def test_search_bots_the_server_plays_finish_a_game_and_keep_to_the_limits(web):
    """Search bots are seated like any bot (kind search:BUDGET), think off the event loop and finish
    the game with a valid record; a budget over the server's limit, or a misspelt one, is BAD_BOT."""
    c = web.client()
    made = c.create_table("cutthroat_canadian", players=3, seed="search-bots")
    host = web.client(made.host_token)
    fails(lambda: host.add_bots(made.table_id, "search:5s"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_BOT")
    fails(lambda: host.add_bots(made.table_id, "search:fast"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_BOT")
    added = host.add_bots(made.table_id, "search:40")
    assert list(added.table.seat_names) == ["bot:search:40"] * 3
    # While they think, the server still answers at once (the searches run in a worker process).
    assert c.table(made.table_id).table_id == made.table_id
    assert wait_for(lambda: c.table(made.table_id).finished, 240)
    bots = web.running.bots
    assert bots.thinkers.runs > 10 and bots.fallbacks == 0  # every search thought in a worker, none replaced
    watcher = c.join(made.table_id, None)
    record = web.client(watcher.token).record(made.table_id)[0]
    assert verify(record)["valid"]


def test_a_bot_client_hands_its_seat_to_the_referees_search_bot(web):
    """`smear-dsl bot --style search:...` (play_seat with a search style) seats the referee's search
    bot on its own seat token and follows the table to the end."""
    from smear_referee.clients.client import play_seat
    c = web.client()
    made = c.create_table("cutthroat_canadian", players=2, seed="hand-over")
    seat0 = c.join(made.table_id, 0, name="mine")
    web.client(made.host_token).add_bots(made.table_id, "heuristic")
    final = play_seat(web.client(seat0.token), made.table_id, "search:20")
    assert final.finished
    info = c.table(made.table_id)
    assert info.seat_names[0] == "mine" and info.seat_bots[0] == "search:20"  # its name stays; a bot stands in
