"""Hidden information over gRPC: for every seat and the spectator, no view, event, record or error
they receive holds a card they may not see at that moment (hypothesis over rule files and seeds).

The test keeps a twin of the game (same rules, seed and first dealer, same moves) to know where
every card really is; a card is hidden from a seat while it is in another seat's hand, in another
seat's discards, or in the stock, and from a spectator until it is played.
"""
from __future__ import annotations

import json
import queue
import random
import re
import uuid

import grpc
from conftest import examples, rules
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_harness import ServerThread

from smear_dsl import cards as C
from smear_dsl.compile.duplicate import first_dealer
from smear_dsl.engine import Game
from smear_referee.api import referee_pb2 as pb
from smear_referee.clients.client import choose

SETUPS = [("four_point_ne_wisconsin", 4, {"widow": 2}), ("st_paul_schmier", 6, {}), ("cutthroat_joker", 3, {}),
          ("ten_point_jack_jick_joker", 4, {}), ("five_point_jick", 4, {"partners": True}), ("auction_pitch", 5, {})]


def strings(x, out: set[str]) -> set[str]:
    """Every string inside a proto message or JSON value (JSON text fields are parsed)."""
    if isinstance(x, Message):
        for field, value in x.ListFields():
            if field.name.endswith("_json"):
                strings(json.loads(value), out)
            elif hasattr(value, "items"):  # a map
                for k, v in value.items():
                    out.add(str(k))
                    strings(v, out)
            elif isinstance(value, (str, bytes, int, float, bool, Message)):
                strings(value, out)
            else:  # a repeated field
                for v in value:
                    strings(v, out)
    elif isinstance(x, dict):
        for k, v in x.items():
            out.add(str(k))
            strings(v, out)
    elif isinstance(x, list):
        for v in x:
            strings(v, out)
    elif isinstance(x, str):
        out.add(x)
        out.update(re.findall(r"\b[A-Z0-9]{2,3}\b", x))
    return out


class Twin:
    """Where every card is, hand by hand, from the same seed and moves as the server."""

    def __init__(self, name, players, options, seed):
        r = rules(name, players, **options)
        first = first_dealer(seed, r.players)
        self.g = Game(r, seed=seed, first_dealer=first)
        self.r = r

    def hidden_from(self, seat: int | None) -> set[str]:
        g = self.g
        if g.hand_over:
            return set()
        cards = C.mask_of(g.stock)
        for s in range(g.n):
            if s != seat:
                cards |= g.hands[s] | g.discarded[s]
        return {self.r.card_name(c) for c in C.bits(cards)}


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_no_message_shows_a_hidden_card(tmp_path_factory, setup, seed):
    name, players, options = setup
    srv = ServerThread(str(tmp_path_factory.mktemp("hidden") / "db.sqlite3"))
    try:
        c = srv.client()
        t = c.create_table(name, options, players, seed=str(seed))
        tid = t.table_id
        seats = [srv.client(c.join(tid, s).token) for s in range(players)]
        watchers = {s: seats[s] for s in range(players)}
        watchers[None] = srv.client(c.join(tid).token)
        twin = Twin(name, players, options, str(seed))
        rng = random.Random(seed)
        last_seq = {who: 0 for who in watchers}
        for _step in range(70):
            before_hand = len(twin.g.record_hands)
            hidden_before = {who: twin.hidden_from(who) for who in watchers}
            view = seats[0].view(tid)
            if view.finished:
                break
            seat = view.turn
            v = seats[seat].view(tid)
            move = choose(v, rng, "heuristic")
            # An illegal attempt by the seat to move: its error may not reveal others' cards either.
            wrong = next((m for m in (pb.Move(play=x) for x in twin.hidden_from(seat)) if m.play), None)
            if wrong is not None:
                try:
                    seats[seat].submit(tid, wrong, v.version, key=uuid.uuid4().hex)
                    raise AssertionError("a card of another seat was playable")
                except grpc.RpcError as e:
                    leaked = strings(e.details() or "", set()) & hidden_before[seat] - {wrong.play}
                    assert not leaked, (e.details(), leaked)
                # ... nor its refusal on a Play stream, nor the view WatchTurns sends the seat now.
                out = queue.Queue()
                out.put(pb.PlayRequest(table_id=tid, move=wrong, expected_version=v.version))
                play = seats[seat].stub.Play(iter(out.get, None), metadata=seats[seat]._md(), timeout=10)
                events = [next(play), next(play)]  # the seat's view (its turn) and the refusal, in some order
                out.put(None)
                assert any(e.WhichOneof("kind") == "result" and not e.result.accepted for e in events)
                leaked = strings(events, set()) & hidden_before[seat] - {wrong.play}
                assert not leaked, ("Play", leaked)
                play.cancel()
            turns = seats[seat].turns(tid, timeout=10)
            leaked = strings(next(turns), set()) & hidden_before[seat]
            assert not leaked, ("WatchTurns", leaked)
            turns.cancel()
            resp = seats[seat].submit(tid, move, v.version, key=uuid.uuid4().hex)
            twin.g.apply(seat, resp_code(twin, seat, move))
            leaked = strings(resp, set()) & twin.hidden_from(seat)
            assert not leaked, (seat, "SubmitMove response", leaked)
            new_hand = len(twin.g.record_hands) > before_hand
            played_now = {move.play} if move.WhichOneof("action") == "play" else set()
            for who, client in watchers.items():
                hidden_now = twin.hidden_from(who)
                seen = strings(client.view(tid), set())
                assert not seen & hidden_now, (who, "view", seen & hidden_now)
                stream = client.watch(tid, after_seq=last_seq[who])
                snap = next(stream)
                assert not strings(snap, set()) & hidden_now
                while last_seq[who] < snap.seq:
                    ev = next(stream)
                    if ev.WhichOneof("kind") == "seats":  # names and seats: public, unnumbered
                        assert not strings(ev, set()) & hidden_now
                        continue
                    last_seq[who] = ev.seq
                    # Events of a hand that just ended are judged against that hand's cards.
                    bad = hidden_now if ev.WhichOneof("kind") == "hand_started" or not new_hand \
                        else hidden_before[who] - played_now
                    leaked = strings(ev, set()) & bad
                    assert not leaked, (who, ev, leaked)
                stream.cancel()
                record, complete = client.record(tid)
                if not complete:
                    current = record["hands"][-1]
                    leaked = strings(current, set()) & hidden_now
                    assert not leaked, (who, "record", leaked)
                    assert "seed" not in json.dumps(record)
    finally:
        srv.stop()


def resp_code(twin: Twin, seat: int, move: pb.Move) -> int:
    """The engine code of a proto move, for the twin."""
    from smear_dsl import moves as M
    from smear_referee.tables.convert import move_from_proto
    action, payload = move_from_proto(twin.r, seat, move)
    if action == "pass":
        return M.PASS
    if action == "bid":
        return M.BID_BASE + payload
    if action == "trump":
        return M.TRUMP_BASE + payload
    if action == "discard":
        return M.DISCARD_FLAG | C.mask_of(payload)
    return payload
