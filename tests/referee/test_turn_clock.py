"""The turn clock and seats handed to bots mid-game, against a real referee (127.0.0.1 port 0, SQLite):
the house bot moves when a seat's time runs out, a bot stands in after repeated misses, the seat's
token takes it back, and the record says which moves the server made."""
from __future__ import annotations

import time

import grpc
import pytest
from referee_harness import ServerThread, fails, wait_for

from smear_referee.limits import Limits

pytestmark = pytest.mark.system
# The clock of the first test's table: short, so the test is quick; what Ann sees after taking her seat
# back is read whether or not a loaded machine lets her time run out again first.
CLOCK = 2


PRESENT = 1.0  # seconds a seat's player counts as present after sitting down or moving


@pytest.fixture()
def srv(tmp_path):
    s = ServerThread(str(tmp_path / "referee.sqlite3"),
                     limits=Limits(turn_seconds_min=1, clock_misses=2, bot_seconds=0.02, present_seconds=PRESENT))
    yield s
    s.stop()


def test_the_clock_moves_for_a_silent_seat_then_a_bot_stands_in_until_taken_back(srv):
    lobby = srv.client()
    fails(lambda: lobby.create_table("four_point_ne_wisconsin", players=4, turn_seconds=1000),
          grpc.StatusCode.INVALID_ARGUMENT, "BAD_CLOCK")
    made = lobby.create_table("four_point_ne_wisconsin", {"widow": "2"}, 4, seed="clock", turn_seconds=CLOCK,
                              hand_limit=2)
    ann = srv.client(lobby.join(made.table_id, 0, name="Ann").token)
    assert ann.view(made.table_id).turn_left == 0  # no clock while seats are free
    srv.client(made.host_token).add_bots(made.table_id, "heuristic")
    first = ann.view(made.table_id)
    assert first.turn_seconds == CLOCK
    # A client may not pass its move off as the server's.
    if first.legal_moves:
        fails(lambda: ann.submit(made.table_id, first.legal_moves[0], first.version, key=f"clock:{first.version}"),
              grpc.StatusCode.INVALID_ARGUMENT, "BAD_RECORD")
    # Ann never moves: her time runs out twice (the house bot moves each time), then a bot stands in.
    info = wait_for(lambda: (i := lobby.table(made.table_id)).seat_bots[0] and i)
    assert info.seat_names[0] == "Ann" and info.seat_bots[0] == "heuristic"  # her name stays on her seat
    rec, _complete = ann.record(made.table_id)
    clocked = [a for a in rec["annotations"] if a["by"] == "clock"]
    assert len(clocked) == 2 and all(a["seat"] == 0 for a in clocked) and rec["turn_seconds"] == CLOCK
    for a in clocked:  # each annotation points at one of Ann's moves in the record
        assert rec["hands"][a["hand"]]["moves"][a["move"]]["seat"] == 0
    assert {a["seat"] for a in rec["annotations"] if a["by"] == "bot"} <= {0, 1, 2, 3}
    # She comes back: the bot leaves, and the table waits for her again (her clock runs).
    back = ann.take_back(made.table_id).table
    assert back.seat_bots[0] == "" and back.seat_names[0] == "Ann"
    fails(lambda: ann.take_back(made.table_id), grpc.StatusCode.FAILED_PRECONDITION, "NO_BOT")

    def her_move() -> bool:
        """Her own move, made on a view that shows her clock running (a busy machine may let the clock
        move for her first: then her next turn shows it); a clock never armed never shows time left."""
        v = ann.view(made.table_id)
        if not (v.legal_moves and v.turn_left > 0):
            return False
        assert v.turn_left <= CLOCK and v.turn_seconds == CLOCK
        try:
            return ann.submit(made.table_id, v.legal_moves[0], v.version).view.version == v.version + 1
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.ABORTED:  # her time ran out as she moved
                return False
            raise
    assert wait_for(her_move)
    # She has just moved: the host may not bench her; she hands her own seat to a bot, and the bots finish
    # the game, whose record verifies.
    fails(lambda: srv.client(made.host_token).add_bots(made.table_id, seat=0), grpc.StatusCode.FAILED_PRECONDITION,
          "PLAYER_HERE")
    ann.add_bots(made.table_id)
    wait_for(lambda: lobby.table(made.table_id).finished)
    rec, complete = ann.record(made.table_id)
    assert complete and len([a for a in rec["annotations"] if a["by"] == "clock"]) >= 2
    assert lobby.verify(rec)["valid"]  # the annotations are informative: a verifier judges the moves


def test_who_may_hand_a_seat_to_a_bot(srv):
    lobby = srv.client()
    made = lobby.create_table("four_point_ne_wisconsin", players=4, seed="hand-over")
    tokens = [lobby.join(made.table_id, s, name=f"P{s + 1}").token for s in range(4)]
    p1, p3 = srv.client(tokens[0]), srv.client(tokens[2])
    spectator = srv.client(lobby.join(made.table_id).token)
    fails(lambda: spectator.add_bots(made.table_id, seat=1), grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_HOST")
    stream = srv.client(tokens[1]).watch(made.table_id)
    next(stream)  # seat 2's player is at the table
    wait_for(lambda: lobby.table(made.table_id).seat_here[1])
    fails(lambda: p1.add_bots(made.table_id, seat=1), grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_HERE")
    stream.cancel()  # ... and leaves
    wait_for(lambda: not lobby.table(made.table_id).seat_here[1])
    # Nobody benches a present player, the host included: seat 4 sat down just now.
    fails(lambda: srv.client(made.host_token).add_bots(made.table_id, seat=3), grpc.StatusCode.FAILED_PRECONDITION,
          "PLAYER_HERE")
    time.sleep(PRESENT)  # nobody has moved or watched since: seats 2 and 4 are away now
    assert list(p1.add_bots(made.table_id, seat=1).seats) == [1]
    assert srv.client(made.host_token).add_bots(made.table_id, seat=3).seats == [3]  # the host: an away seat
    fails(lambda: p3.take_back(made.table_id), grpc.StatusCode.FAILED_PRECONDITION, "NO_BOT")
    info = srv.client(tokens[3]).take_back(made.table_id).table
    assert list(info.seat_bots) == ["", "heuristic", "", ""] and list(info.seat_names) == ["P1", "P2", "P3", "P4"]
