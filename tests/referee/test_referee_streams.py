"""The seat streams of the referee (WatchTurns and Play) against a real server on 127.0.0.1 port 0."""
from __future__ import annotations

import asyncio
import queue
import threading
import uuid

import grpc
import pytest
from referee_harness import ServerThread

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.language.load import load_spec
from smear_referee.api import referee_pb2 as pb
from smear_referee.clients.client import choose, error_reason


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerThread(str(tmp_path_factory.mktemp("streams") / "referee.sqlite3"))
    yield s
    s.stop()


def seated(srv, rules="four_point_ne_wisconsin", seed="streams", hand_limit=0):
    c = srv.client()
    t = c.create_table(rules, {}, 0, seed, hand_limit=hand_limit)
    return t, [srv.client(c.join(t.table_id, s).token) for s in range(t.table.players)], c


class Stream:
    """One Play stream driven step by step: send a request, read the next event."""

    def __init__(self, client, table_id: str, after_version: int | None = None):
        self.q: queue.Queue = queue.Queue()
        first = pb.PlayRequest(table_id=table_id)
        if after_version is not None:
            first.after_version = after_version
        self.q.put(first)
        self.events = client.stub.Play(iter(self.q.get, None), metadata=client._md(), timeout=60)

    def send(self, move: pb.Move, version: int, key: str | None = None) -> None:
        self.q.put(pb.PlayRequest(move=move, expected_version=version, idempotency_key=key or uuid.uuid4().hex))

    def next(self) -> pb.PlayEvent:
        return next(self.events)

    def close(self) -> None:
        self.q.put(None)


def expected_hands(seed: str, rules: str = "four_point_ne_wisconsin", hand_limit: int | None = None):
    """The engine's own game for the table's seed: what each seat really holds."""
    from smear_dsl.compile.duplicate import first_dealer
    r = compile_rules(load_spec(rules), None, {})
    return Game(r, seed=seed, first_dealer=first_dealer(seed, r.players), hand_limit=hand_limit)


def test_watch_turns_sends_a_seat_its_view_exactly_when_it_must_act(srv):
    t, seats, _host = seated(srv, seed="turns-1")
    game = expected_hands("turns-1")
    first = game.turn
    streams = [s.turns(t.table_id, timeout=30) for s in seats]
    view = next(streams[first])
    assert view.turn == first == view.seat and view.version == 0
    assert sorted(view.hand) == sorted(game.rules.card_name(c) for c in game.record_hands[0][1][first])
    # Three passes: after each, the next seat (and only it) gets a view of the new version.
    for version in range(3):
        seats[view.seat].submit(t.table_id, pb.Move(**{"pass": True}), view.version, uuid.uuid4().hex)
        nxt = (view.seat + 1) % 4
        view = next(streams[nxt])
        assert view.seat == nxt and view.turn == nxt and view.version == version + 1
    for s in streams:
        s.cancel()
    # Resuming after the last version seen sends nothing old: the next view is a later one.
    resumed = seats[view.seat].turns(t.table_id, after_version=view.version - 1, timeout=30)
    assert next(resumed).version == view.version
    resumed.cancel()


def test_only_seats_watch_turns_or_play(srv):
    t, seats, anyone = seated(srv, seed="turns-2")
    host = srv.client(t.host_token)
    spectator = srv.client(anyone.join(t.table_id, None).token)
    for who in (host, spectator):
        with pytest.raises(grpc.RpcError) as e:
            next(who.turns(t.table_id, timeout=10))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED and error_reason(e.value) == "NOT_A_SEAT"
        with pytest.raises(grpc.RpcError) as e:
            Stream(who, t.table_id).next()
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED and error_reason(e.value) == "NOT_A_SEAT"
    with pytest.raises(grpc.RpcError) as e:
        Stream(srv.client(), t.table_id).next()
    assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    other, _seats, _h = seated(srv, seed="turns-3")
    with pytest.raises(grpc.RpcError) as e:
        Stream(seats[0], other.table_id).next()
    assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED and error_reason(e.value) == "WRONG_TABLE"


def test_play_stream_answers_every_move_in_band_and_keeps_going(srv):
    t, seats, _host = seated(srv, seed="play-1")
    game = expected_hands("play-1")
    seat = game.turn
    s = Stream(seats[seat], t.table_id)
    view = s.next().turn
    assert view.seat == seat == view.turn and view.version == 0
    # A bid out of range is refused with its code and status; the stream stays open.
    s.send(pb.Move(bid=9), 0)
    r = s.next().result
    assert (r.accepted, r.status, r.reason, r.version) == (False, "FAILED_PRECONDITION", "BID_OUT_OF_RANGE", 0)
    # A stale version is refused as SubmitMove would (ABORTED).
    s.send(pb.Move(bid=2), 5)
    r = s.next().result
    assert (r.accepted, r.status, r.reason) == (False, "ABORTED", "STALE_VERSION")
    # A malformed move is INVALID_ARGUMENT.
    s.send(pb.Move(), 0)
    r = s.next().result
    assert (r.accepted, r.status) == (False, "INVALID_ARGUMENT")
    # A legal move is accepted; the same idempotency key again is replayed, not applied twice.
    s.send(pb.Move(bid=2), 0, key="k1")
    r = s.next().result
    assert (r.accepted, r.replayed, r.version) == (True, False, 1)
    s.send(pb.Move(bid=2), 1, key="k1")
    r = s.next().result
    assert (r.accepted, r.replayed, r.version) == (True, True, 1)
    # It is no longer this seat's turn: playing now is refused with WRONG_TURN.
    s.send(pb.Move(**{"pass": True}), 1)
    r = s.next().result
    assert (r.accepted, r.reason) == (False, "WRONG_TURN")
    s.close()
    # The next seat's own stream starts with its view at version 1.
    nxt = Stream(seats[(seat + 1) % 4], t.table_id)
    v = nxt.next().turn
    assert v.version == 1 and v.turn == v.seat == (seat + 1) % 4
    nxt.close()


def test_play_streams_carry_a_whole_game_and_only_each_seats_own_cards(srv):
    import random
    t, seats, _host = seated(srv, "cutthroat_canadian", seed="play-2", hand_limit=12)
    n = len(seats)
    streams = [Stream(seats[i], t.table_id) for i in range(n)]
    game = expected_hands("play-2", "cutthroat_canadian", hand_limit=12)
    rng = random.Random(5)
    early: dict[int, pb.View] = {}  # a view that came before the answer to the seat's own move
    seat = game.turn
    while True:
        view = early.pop(seat) if seat in early else streams[seat].next().turn
        if game.finished:
            assert view.finished and view.winner == game.winner and view.version == game.moves_played
            break
        assert view.seat == seat == view.turn and view.version == game.moves_played
        # Exactly this seat's cards, as the engine holds them.
        assert sorted(view.hand) == sorted(game.rules.card_name(c) for c in _bits(game.hands[seat]))
        move = choose(view, rng)
        streams[seat].send(move, view.version)
        ev = streams[seat].next()
        if ev.WhichOneof("kind") == "turn":  # this seat acts again (or the game ended): its view came first
            early[seat] = ev.turn
            ev = streams[seat].next()
        assert ev.result.accepted and ev.result.version == view.version + 1
        _apply(game, seat, move)
        if not game.finished:
            seat = game.turn
    for s in streams:
        s.close()
    record, complete = seats[0].record(t.table_id)
    assert complete and seats[0].verify(record)["valid"]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _apply(game: Game, seat: int, move: pb.Move) -> None:
    """Mirror an accepted move in the local engine."""
    from smear_referee.tables.convert import move_from_proto
    action, payload = move_from_proto(game.rules, seat, move)
    game.apply_action(seat, action, payload)


def test_finished_tables_beyond_the_limit_leave_memory_and_come_back_from_the_store(tmp_path, monkeypatch):
    """A long-running server keeps only the newest finished games in memory; an older one is
    rebuilt from its log when asked for, with the same record, view and refusals."""
    from smear_referee.clients.client import play_seat
    from smear_referee.tables.index import TableIndex

    monkeypatch.setattr(TableIndex, "KEEP_FINISHED", 1)
    srv = ServerThread(str(tmp_path / "db.sqlite3"))
    try:
        ids, seat0 = [], []
        for k in range(2):
            t, seats, _host = seated(srv, "cutthroat_canadian", seed=f"retire-{k}", hand_limit=2)
            finals = [None] * len(seats)

            def bot(i, s=seats, tid=t.table_id, out=finals):
                out[i] = play_seat(s[i], tid, "heuristic", seed=i)
            threads = [threading.Thread(target=bot, args=(i,)) for i in range(len(seats))]
            for th in threads:
                th.start()
            for th in threads:
                th.join(60)
            assert all(f is not None and f.finished for f in finals)
            ids.append(t.table_id)
            seat0.append(seats[0])
        tables = srv.running.tables
        assert ids[0] not in tables.tables and ids[1] in tables.tables
        finished, scores, winner = asyncio.run_coroutine_threadsafe(tables.outcome(ids[0]), srv.loop).result(10)
        assert finished and ids[0] not in tables.tables  # answered without rebuilding
        record, complete = seat0[0].record(ids[0])  # its token and record read from the store
        assert complete and record["seed"] == "retire-0"
        verdict = seat0[0].verify(record)
        assert verdict["valid"] and verdict["scores"] == scores
        assert ids[0] in tables.tables and ids[1] not in tables.tables  # now the other one made way
        view = seat0[0].view(ids[0])
        assert view.finished and list(view.scores) == scores
        with pytest.raises(grpc.RpcError) as e:
            seat0[0].submit(ids[0], pb.Move(**{"pass": True}), view.version, "late")
        assert error_reason(e.value) == "GAME_OVER"
    finally:
        srv.stop()


def test_a_play_client_that_sends_without_reading_gets_every_answer_in_order(srv):
    """Many more moves than the backlog the server holds for an unread stream (past it, the server
    reads no further until the client reads): every answer still comes, in order."""
    from smear_referee.server.service import PLAY_BACKLOG
    t, seats, _host = seated(srv, seed="backlog")
    seat = expected_hands("backlog").turn
    s = Stream(seats[seat], t.table_id)
    n = PLAY_BACKLOG * 3
    for i in range(n):
        s.send(pb.Move(bid=9), 0, key=f"b{i}")  # out of range: refused, so the state never changes
    assert s.next().turn.version == 0
    answers = [s.next().result for _ in range(n)]
    assert all(not a.accepted and a.reason == "BID_OUT_OF_RANGE" for a in answers)
    s.send(pb.Move(bid=2), 0)
    assert s.next().result.accepted
    s.close()
