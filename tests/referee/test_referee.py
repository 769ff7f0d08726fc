"""The gRPC referee against a real server on 127.0.0.1 port 0 with a real SQLite file."""
from __future__ import annotations

import json
import threading

import grpc
import pytest
from conftest import ROOT, RULE_FILES
from referee_harness import ServerThread, fails, wait_for

from smear_dsl.language.load import load_spec
from smear_referee.api import referee_pb2 as pb
from smear_referee.clients.client import error_reason, play_seat


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerThread(str(tmp_path_factory.mktemp("referee") / "referee.sqlite3"))
    yield s
    s.stop()


def seated(srv, rules, players=0, options=None, seed="s"):
    c = srv.client()
    t = c.create_table(rules, options or {}, players, seed)
    n = t.table.players
    clients = [srv.client(c.join(t.table_id, s).token) for s in range(n)]
    return t, clients


def test_generated_code_matches_the_proto():
    """The checked-in descriptor equals what protoc makes of proto/ now (regenerate: scripts/gen_proto.py)."""
    import tempfile
    from pathlib import Path

    import grpc_tools
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    from smear_referee.api import referee_pb2

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.pb"
        include = str(Path(grpc_tools.__file__).parent / "_proto")
        assert protoc.main(["protoc", f"-I{ROOT / 'proto'}", f"-I{include}", f"--descriptor_set_out={out}",
                            str(ROOT / "proto/smear/referee/v1/referee.proto")]) == 0
        fresh = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file[0]

    def drop_json_names(messages):  # the Python generator leaves out the derived json names
        for message in messages:
            for f in message.field:
                f.ClearField("json_name")
            drop_json_names(message.nested_type)
    drop_json_names(fresh.message_type)
    checked_in = descriptor_pb2.FileDescriptorProto.FromString(referee_pb2.DESCRIPTOR.serialized_pb)
    assert fresh == checked_in, "smear_referee/api is stale: run python scripts/gen_proto.py"


def test_list_check_and_explain_rules(srv):
    c = srv.client()
    names = {r.name for r in c.list_rules().rules}
    assert set(RULE_FILES) <= names
    ok = c.check_rules((ROOT / "rules" / "setback.yaml").read_text())
    assert ok.ok and ok.rules.title == "Setback, version 2"
    # The lobby offers each rule file at its latest version; a table may name an older one.
    cinch = next(r for r in c.list_rules().rules if r.name == "cinch")
    assert (cinch.title, cinch.version, list(cinch.versions)) == ("Cinch, version 2", 2, [1, 2])
    assert cinch.rules_sha256 == load_spec("cinch").sha256
    for asked, exact in [("cinch", "cinch@2"), ("cinch@1", "cinch@1")]:
        info = c.create_table(asked).table
        assert (info.rules, info.title, info.rules_sha256) == (exact, f"Cinch, version {exact[-1]}",
                                                               load_spec(exact).sha256)
    fails(lambda: c.create_table("cinch@9"), grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")
    bad = c.check_rules("name: x\nplayers: 4\nbiding: {}\n", "mine.yaml")
    assert not bad.ok and any(d.path == "mine.yaml" and d.line == 3 for d in bad.diagnostics)
    text = c.stub.ExplainRules(pb.ExplainRulesRequest(name="setback", format="html")).text
    assert text.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("name", RULE_FILES)
def test_complete_bot_game_of_every_rule_file(srv, name):
    t, clients = seated(srv, name, seed=f"game-{name}")
    finals = {}

    def run(i):
        finals[i] = play_seat(clients[i], t.table_id, "heuristic", seed=i)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert all(v.finished for v in finals.values())
    host = srv.client(t.host_token)
    record, complete = host.record(t.table_id)
    assert complete and record["seed"] == f"game-{name}"
    verdict = srv.client().verify(record)
    assert verdict["valid"] and verdict["finished"] and verdict["scores"] == list(finals[0].scores)


def test_a_file_of_language_1_checks_with_warnings_and_seats_a_table_and_language_2_refuses_it(srv):
    """Bids a hand can never make: a house file naming no language is accepted (ok, a warning saying which
    version refuses it) and seats a table whose record says language 1; with `language: 2` it is refused."""
    c = srv.client()
    text = (ROOT / "tests" / "history" / "houses" / "big_bids.yaml").read_text()
    ok = c.check_rules(text, "big.yaml")
    assert ok.ok and [(d.severity, d.line) for d in ok.diagnostics] == [("warning", 7)]
    assert "can never be made" in ok.diagnostics[0].message and "language 2 refuses" in ok.diagnostics[0].hint
    t = c.create_table(rules_text=text, players=4, seed="big")
    record, _complete = srv.client(c.join(t.table_id, 1).token).record(t.table_id)
    assert record["language"] == 1
    strict = c.check_rules("language: 2\n" + text, "big.yaml")
    assert not strict.ok and [(d.severity, d.line) for d in strict.diagnostics] == [("error", 8)]
    fails(lambda: c.create_table(rules_text="language: 2\n" + text, players=4), grpc.StatusCode.INVALID_ARGUMENT,
          "BAD_RULES")


def test_live_error_codes_come_back_with_their_status(srv):
    t, cl = seated(srv, "four_point_ne_wisconsin", options={"widow": 2}, seed="errors")
    tid = t.table_id
    FP, IA, AB = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.ABORTED
    v = cl[0].view(tid)
    turn = v.turn
    me, other = cl[turn], cl[(turn + 1) % 4]
    ver = v.version
    fails(lambda: other.submit(tid, pb.Move(**{"pass": True}), ver), FP, "WRONG_TURN")
    fails(lambda: me.submit(tid, pb.Move(play="AS"), ver), FP, "WRONG_PHASE")
    fails(lambda: me.submit(tid, pb.Move(bid=9), ver), FP, "BID_OUT_OF_RANGE")
    fails(lambda: me.submit(tid, pb.Move(play="ZZ"), ver), IA, "BAD_RECORD")
    fails(lambda: me.submit(tid, pb.Move(), ver), IA, "BAD_RECORD")
    fails(lambda: me.submit(tid, pb.Move(bid=3), ver + 5), AB, "STALE_VERSION")
    me.submit(tid, pb.Move(bid=3), ver)
    nxt = cl[(turn + 1) % 4]
    fails(lambda: nxt.submit(tid, pb.Move(bid=3), ver + 1), FP, "BID_TOO_LOW")
    for i in range(1, 4):
        cl[(turn + i) % 4].submit(tid, pb.Move(**{"pass": True}), cl[0].view(tid).version)
    # Everyone else passes: the bidder takes the widow and must discard two cards.
    bidder = cl[turn]
    v = bidder.view(tid)
    assert v.phase == "discard" and v.turn == turn
    fails(lambda: bidder.submit(tid, pb.Move(discard=pb.CardList(cards=list(v.hand[:1]))), v.version), FP, "BAD_DISCARD")
    hand = list(v.hand)
    # Discard one card of a suit the bidder holds twice or more, and one card of another suit;
    # then leading the rest of the first suit is refused (8 cards in hand: such a suit exists).
    # Chosen in sorted order so the test does not depend on set iteration (hash seeds).
    suit = next(s for s in sorted({c[-1] for c in hand}) if sum(c[-1] == s for c in hand) >= 2)
    gone = [next(c for c in hand if c[-1] == suit), next(c for c in hand if c[-1] != suit)]
    bidder.submit(tid, pb.Move(discard=pb.CardList(cards=gone)), v.version)
    v = bidder.view(tid)
    leads = [c for c in v.hand if c[-1] == suit]
    assert leads and any(c[-1] != suit for c in v.hand), "this seed's deal must allow the TRUMP_DISCARDED check"
    fails(lambda: bidder.submit(tid, pb.Move(play=leads[0]), v.version), FP, "TRUMP_DISCARDED")
    not_mine = next(c for c in ("AS", "KS", "QS", "AH", "KH", "AD", "AC") if c not in v.hand)
    fails(lambda: bidder.submit(tid, pb.Move(play=not_mine), v.version), FP, "CARD_NOT_IN_HAND")
    lead = next(m.play for m in v.legal_moves)
    bidder.submit(tid, pb.Move(play=lead), v.version)
    # The next seat: find a card that breaks follow-suit, if it has one.
    seat = (turn + 1) % 4
    v = cl[seat].view(tid)
    legal = {m.play for m in v.legal_moves}
    illegal = [c for c in v.hand if c not in legal]
    assert illegal, "this seed's deal must allow the MUST_FOLLOW_SUIT check"
    fails(lambda: cl[seat].submit(tid, pb.Move(play=illegal[0]), v.version), FP, "MUST_FOLLOW_SUIT")


def test_record_only_codes_come_back_in_verify_record_and_game_over_live(srv):
    c = srv.client()
    seen = set()
    for path in sorted((ROOT / "tests" / "conformance").glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = json.loads(path.with_name(path.name.replace(".json", ".expected.json")).read_text())
        if isinstance(expected.get("error"), dict):
            expected["error"].pop("message", None)
        try:
            verdict = c.verify(path.read_text())
        except grpc.RpcError as e:  # an unreadable record: the CLI's exit 2
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and error_reason(e) == "BAD_RECORD"
            continue
        if isinstance(verdict.get("error"), dict):  # compared as check_conformance.py does: all but the message
            verdict["error"].pop("message", None)
        assert verdict == expected, path.name
        if verdict.get("error"):
            seen.add(verdict["error"]["code"])
    # Codes that only a record can produce come back as the verdict of VerifyRecord.
    assert {"BAD_DEAL", "HAND_INCOMPLETE", "HAND_OVER", "GAME_OVER"} <= seen
    t, cl = seated(srv, "cutthroat_canadian", players=2, seed="over")
    threads = [threading.Thread(target=play_seat, args=(cl[i], t.table_id, "heuristic", i)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    v = cl[0].view(t.table_id)
    assert v.finished
    fails(lambda: cl[0].submit(t.table_id, pb.Move(**{"pass": True}), v.version), grpc.StatusCode.FAILED_PRECONDITION,
          "GAME_OVER")
    fails(lambda: c.stub.VerifyRecord(pb.VerifyRecordRequest(record_json="{not json")),
          grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")


def test_auth_tokens_seats_and_spectators(srv):
    t, cl = seated(srv, "setback", seed="auth")
    tid = t.table_id
    anon = srv.client()
    fails(lambda: anon.view(tid), grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED")
    fails(lambda: srv.client("not-a-token").view(tid), grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED")
    other, _ = seated(srv, "setback", seed="other")
    fails(lambda: cl[0].view(other.table_id), grpc.StatusCode.PERMISSION_DENIED, "WRONG_TABLE")
    fails(lambda: anon.join(tid, 0), grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")
    fails(lambda: anon.join(tid, 9), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAT")
    fails(lambda: anon.join("nope", 0), grpc.StatusCode.NOT_FOUND, "NOT_FOUND")
    spectator = srv.client(anon.join(tid).token)
    v = spectator.view(tid)
    assert not v.HasField("seat") and list(v.hand) == [] and list(v.legal_moves) == []
    fails(lambda: spectator.submit(tid, pb.Move(**{"pass": True}), v.version), grpc.StatusCode.PERMISSION_DENIED,
          "NOT_A_SEAT")
    host = srv.client(t.host_token)
    fails(lambda: host.submit(tid, pb.Move(**{"pass": True}), v.version), grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SEAT")
    record, complete = host.record(tid)
    assert not complete and all(h == [] for h in record["hands"][0]["deal"]["hands"]) and "seed" not in record


def test_idempotency_key_applies_once_and_stale_version_is_aborted(srv):
    t, cl = seated(srv, "cutthroat_canadian", players=3, seed="idem")
    tid = t.table_id
    v = cl[0].view(tid)
    me = cl[v.turn]
    first = me.submit(tid, pb.Move(**{"pass": True}), v.version, key="k-1")
    again = me.submit(tid, pb.Move(**{"pass": True}), v.version, key="k-1")
    assert not first.replayed and again.replayed
    assert again.view.version == first.view.version == v.version + 1
    record, _ = srv.client(t.host_token).record(tid)
    assert len(record["hands"][0]["moves"]) == 1
    nxt = cl[(v.turn + 1) % 3]
    fails(lambda: nxt.submit(tid, pb.Move(**{"pass": True}), v.version, key="k-2"), grpc.StatusCode.ABORTED,
          "STALE_VERSION")
    fails(lambda: nxt.submit(tid, pb.Move(**{"pass": True}), v.version + 1, key="k-1"),
          grpc.StatusCode.INVALID_ARGUMENT, "IDEMPOTENCY_KEY_REUSED")


def test_watcher_resumes_without_gaps_or_repeats(srv):
    t, cl = seated(srv, "setback", seed="watch")
    tid = t.table_id
    spectator = srv.client(srv.client().join(tid).token)
    got: list[int] = []
    stream = spectator.watch(tid, after_seq=0)
    first = next(stream)
    assert first.WhichOneof("kind") == "snapshot"
    assert next(stream).WhichOneof("kind") == "seats"  # who sits where, unnumbered
    for ev in stream:  # read the start of the game, then hang up
        got.append(ev.seq)
        if len(got) == 1:
            break
    stream.cancel()
    done = threading.Event()

    def players():
        threads = [threading.Thread(target=play_seat, args=(cl[i], tid, "heuristic", i)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        done.set()
    threading.Thread(target=players).start()
    # Reconnect twice while the game runs, each time after the last event seen.
    for _ in range(2):
        stream = spectator.watch(tid, after_seq=got[-1])
        assert next(stream).WhichOneof("kind") == "snapshot"
        for ev in stream:
            if ev.WhichOneof("kind") in ("heartbeat", "seats"):  # not numbered game events
                continue
            got.append(ev.seq)
            if len(got) % 25 == 0:
                break
        stream.cancel()
    done.wait(60)
    stream = spectator.watch(tid, after_seq=got[-1])
    next(stream)
    for ev in stream:
        if ev.WhichOneof("kind") == "seats":
            continue
        if ev.WhichOneof("kind") == "heartbeat":
            break
        got.append(ev.seq)
        if ev.WhichOneof("kind") == "game_over":
            break
    stream.cancel()
    assert got == list(range(1, len(got) + 1)), "an event was missed or repeated"
    assert len(got) > 30


def test_hostile_uploads_get_clean_errors_and_the_server_keeps_serving(srv):
    c = srv.client()
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(f"{n}: &{n} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
                                                    for n, p in zip("bcdefghij", "abcdefghi"))
    r = c.check_rules(bomb)
    assert not r.ok and r.diagnostics
    r = c.check_rules("a:\n" + "  [" * 5000 + "]" * 5000)
    assert not r.ok
    fails(lambda: c.check_rules("x" * 1_500_000), grpc.StatusCode.RESOURCE_EXHAUSTED, "RULES_TOO_LARGE")
    with pytest.raises(grpc.RpcError) as e:
        c.check_rules("y" * 10_000_000)
    assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    r = c.check_rules("extends: /etc/passwd\nname: x\n")
    assert not r.ok and "no rule file" in r.diagnostics[0].message
    fails(lambda: c.create_table(rules_text="name: x\n"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_RULES")
    fails(lambda: c.create_table("no_such_rules"), grpc.StatusCode.NOT_FOUND, "UNKNOWN_RULES")
    fails(lambda: c.create_table("setback", {"nope": 1}), grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTION")
    fails(lambda: c.create_table("setback", players=7), grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTION")
    # Still serving: an uploaded variant makes a table.
    text = (ROOT / "rules" / "cutthroat_joker.yaml").read_text()
    t = c.create_table(rules_text=text, players=2, seed="upload")
    assert t.table.title == "Cutthroat Smear with a joker, version 2" and t.table.players == 2


def test_a_rematch_is_one_table_for_everyone_and_survives_a_restart(tmp_path):
    """Rematch: only a seat of a finished table may ask; every seat that asks lands at the same new
    table (same rules, options, seat count and hand limit, a new deal), in its own seat under its name,
    the server's bots seated again; the link outlives a restart of the referee."""
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerThread(db)
    try:
        lobby = srv.client()
        made = lobby.create_table("four_point_ne_wisconsin", {"widow": "2"}, 4, seed="rematch", hand_limit=1)
        seats = [srv.client(lobby.join(made.table_id, s, name=f"P{s + 1}").token) for s in range(2)]
        srv.client(made.host_token).add_bots(made.table_id, "random")
        fails(lambda: seats[0].rematch(made.table_id), grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_OVER")
        threads = [threading.Thread(target=play_seat, args=(seats[s], made.table_id, "random", s)) for s in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert lobby.table(made.table_id).finished
        spectator = srv.client(lobby.join(made.table_id).token)
        fails(lambda: spectator.rematch(made.table_id), grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SEAT")
        first, second = seats[1].rematch(made.table_id), seats[0].rematch(made.table_id)
        assert first.table_id == second.table_id != made.table_id
        info = lobby.table(first.table_id)
        assert list(info.seat_names) == ["P1", "P2", "bot:random", "bot:random"] and dict(info.options)["widow"] == "2"
        assert srv.client(second.token).view(first.table_id).seat == 0 and srv.client(first.token).view(first.table_id).seat == 1
        assert seats[0].rematch(made.table_id).token == second.token  # a retry (its answer lost) gets the first answer
    finally:
        srv.stop()
    again = ServerThread(db)
    try:
        assert again.client().table(made.table_id).next_table_id == first.table_id
        assert again.client(seats[1].token).rematch(made.table_id).token == first.token  # after a restart too
    finally:
        again.stop()


def test_a_rematchs_seats_are_kept_for_the_old_tables_players(tmp_path):
    """A stranger who reads `next_table_id` finds every person's seat kept: they may watch, not sit; the players
    claim their seats with their old tokens whenever they come, and a bot that stood in for a person is not
    copied into the person's seat (only the table's own bots are)."""
    srv = ServerThread(str(tmp_path / "referee.sqlite3"))
    try:
        lobby = srv.client()
        made = lobby.create_table("four_point_ne_wisconsin", {}, 4, seed="kept", hand_limit=1)
        seats = [srv.client(lobby.join(made.table_id, s, name=f"P{s + 1}").token) for s in range(3)]
        srv.client(made.host_token).add_bots(made.table_id, "random")  # seat 4: the table's own bot
        seats[2].add_bots(made.table_id, "random")  # P3 lets a bot stand in for them
        threads = [threading.Thread(target=play_seat, args=(seats[s], made.table_id, "random", s)) for s in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        wait_for(lambda: lobby.table(made.table_id).finished)
        nid = seats[0].rematch(made.table_id).table_id
        assert lobby.table(made.table_id).next_table_id == nid
        info = lobby.table(nid)
        assert list(info.seat_taken) == [True] * 4 and list(info.seat_names) == ["P1", "P2", "P3", "bot:random"]
        assert list(info.seat_bots) == ["", "", "", "random"]
        for s in range(4):
            fails(lambda: lobby.join(nid, s, name="Stranger"), grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")
        assert lobby.join(nid).token  # a spectator, as anyone may be
        p3 = seats[2].rematch(made.table_id)
        assert srv.client(p3.token).view(nid).seat == 2
    finally:
        srv.stop()
