"""Duplicate deals and commitments: the same boards at every table, re-derivable from the seed."""
from __future__ import annotations

import hashlib
import random
import threading

import pytest
from conftest import rules
from referee_harness import ServerThread

from smear_dsl.compile.duplicate import board, boards, commitment, table_seed
from smear_dsl.compile.shuffle import keyed_shuffle
from smear_dsl.engine import Game
from smear_referee.clients.client import play_seat


def test_board_is_the_documented_shuffle_dealt_from_seat_zero():
    r = rules("four_point_ne_wisconsin", 4)
    hands, stock = board(r, "round-7", 3)
    order = list(keyed_shuffle(random.Random("round-7/board/3"), r.deck.cards))
    assert hands[0][:3] == order[0:3] and hands[1][:3] == order[3:6] and hands[3][:3] == order[9:12]
    assert hands[0][3:] == order[12:15] and stock == order[24:]
    assert sorted(sum(hands, []) + stock) == sorted(r.deck.cards)


def test_commitment_and_table_seeds():
    assert commitment("s3cret") == hashlib.sha256(b"s3cret").hexdigest()
    assert table_seed("s", 0) != table_seed("s", 1) and table_seed("s", 1) == table_seed("s", 1)


def test_games_on_boards_get_the_same_cards_seat_by_seat_whatever_is_played():
    r = rules("setback", 4)
    a = Game(r, seed="x", deal_source=boards(r, "round"))
    b = Game(r, seed="x", deal_source=boards(r, "round"))
    ra, rb = random.Random(1), random.Random(2)
    while len(a.record_hands) < 5 or len(b.record_hands) < 5:
        if len(a.record_hands) < 5:
            a.apply(a.turn, a.random_move(ra))
        if len(b.record_hands) < 5:
            b.apply(b.turn, b.random_move(rb))
    for k in range(5):
        assert a.record_hands[k][1] == b.record_hands[k][1] == board(r, "round", k)[0]


@pytest.mark.system  # starts a referee
def test_duplicate_tables_through_the_referee(tmp_path):
    srv = ServerThread(str(tmp_path / "db.sqlite3"))
    try:
        c = srv.client()
        records = []
        for mixed in (False, True):  # the same boards, played differently at the two tables
            t = c.create_table("four_point_ne_wisconsin", players=4, seed="dup-round", duplicate=True)
            seats = [srv.client(c.join(t.table_id, s).token) for s in range(4)]
            styles = ["heuristic", "random" if mixed else "heuristic"] * 2
            threads = [threading.Thread(target=play_seat, args=(seats[s], t.table_id, styles[s], s)) for s in range(4)]
            for th in threads:
                th.start()
            for th in threads:
                th.join(120)
            record, complete = srv.client(t.host_token).record(t.table_id)
            assert complete and record["seed"] == "dup-round"
            assert c.verify(record)["valid"]
            records.append(record)
        common = min(len(records[0]["hands"]), len(records[1]["hands"]))
        assert common >= 3 and records[0]["hands"][0]["moves"] != records[1]["hands"][0]["moves"]
        for k in range(common):
            assert records[0]["hands"][k]["deal"] == records[1]["hands"][k]["deal"]
    finally:
        srv.stop()
