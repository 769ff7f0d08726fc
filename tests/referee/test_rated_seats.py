"""Rated seats belong to their players (docs/clubs.md, "Whose seat is it"): at a club's table nobody else
hands a present member's seat to a bot, the host included; once the turn clock has found a member away,
someone else may hand the seat only to the house bot; a member may hand their own seat to any bot; moves
the server makes for a seat are marked in the record, and a game the server played most of a member's seat
in moves nobody's rating."""
from __future__ import annotations

import time

import grpc
import pytest
from referee_harness import ServerThread, bearer, fails, wait_for
from typed import ladders

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.limits import Limits

PRESENT = 0.5


@pytest.fixture()
def srv(tmp_path):
    s = ServerThread(str(tmp_path / "referee.sqlite3"),
                     limits=Limits(turn_seconds_min=1, clock_misses=50, bot_seconds=0.01, present_seconds=PRESENT))
    yield s
    s.stop()


def test_a_members_seat_is_theirs_until_the_clock_finds_them_away(srv):
    channel = grpc.insecure_channel(srv.target)
    clubs = pb_grpc.ClubStub(channel)
    made = clubs.CreateClub(pb.CreateClubRequest(name="Rated", rule_files=[
        pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]))
    cid, director = made.club_id, bearer(made.director_token)
    members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=n), metadata=director) for n in "ABCD"]
    opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=cid, rules="four_point_ne_wisconsin", hand_limit=1,
                                                         seed="rated", turn_seconds=1),
                                 metadata=bearer(members[0].member_token))
    tid = opened.table_id
    tokens = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=tid, seat=s), metadata=bearer(m.member_token)).token
              for s, m in enumerate(members)]
    host, seat = srv.client(opened.host_token), [srv.client(t) for t in tokens]
    turn = seat[0].view(tid).turn
    other = (turn + 1) % 4  # a seat that is not to act yet: its clock has not run
    fails(lambda: host.add_bots(tid, seat=turn), grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_HERE")  # just sat down
    time.sleep(PRESENT)
    # Not seen for a while, but the clock has not found them away: at a rated table that is not enough.
    fails(lambda: host.add_bots(tid, seat=other), grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_HERE")
    fails(lambda: seat[other].add_bots(tid, seat=turn), grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_HERE")
    # The seat to act lets its time run out: the house bot moves for it, and now it is away.
    wait_for(lambda: seat[0].view(tid).turn != turn, 30)
    fails(lambda: host.add_bots(tid, seat=turn, kind="random"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_BOT")
    assert list(host.add_bots(tid, seat=turn, kind="heuristic").seats) == [turn]
    # Every other member lets a bot of their own choosing play their own seat: always theirs to do.
    for s in range(4):
        if s != turn:
            assert list(seat[s].add_bots(tid, kind="random").seats) == [s]
    wait_for(lambda: seat[0].view(tid).finished, 120)
    record, complete = seat[0].record(tid)
    assert complete
    marked = {(a["seat"], a["by"]) for a in record["annotations"]}
    assert (turn, "clock") in marked and all((s, "bot") in marked for s in range(4))
    club = clubs.GetClub(pb.GetClubRequest(club_id=cid))
    assert [s.games for s in club.seasons] == [1]  # the game counts in the club's season...
    assert ladders(club)["four_point_ne_wisconsin"] == []  # ...but the bots played it: nobody is rated
