"""Game.compact_history (the referee calls it as hands end) changes no value, only containers."""
from __future__ import annotations

import gc
import json
import random

from conftest import rules

from smear_dsl.engine import Game


def test_compacting_keeps_records_results_and_play_the_same():
    r = rules("four_point_ne_wisconsin", 4, widow=2)
    a, b = Game(r, seed=11, hand_limit=6), Game(r, seed=11, hand_limit=6)
    ra, rb = random.Random(2), random.Random(2)
    while not a.finished:
        a.apply(a.turn, a.random_move(ra))
        b.apply(b.turn, b.random_move(rb))
        if a.hand_over or len(a.hand_moves) == 1:
            b.compact_history()  # between hands and in the middle of one
    assert json.dumps(a.to_record()) == json.dumps(b.to_record())
    assert [x.to_json() for x in a.results] == [x.to_json() for x in b.results]
    b.compact_history()
    for _ in range(4):  # a pass untracks a tuple once the tuples inside it are untracked
        gc.collect()
    # The finished hands' records are now plain tuples of ints, which the collector no longer tracks.
    assert all(not gc.is_tracked(h) for h in b.record_hands[:-1])
