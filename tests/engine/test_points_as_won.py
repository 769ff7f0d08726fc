"""Points pegged as their tricks are won (Don), a point whose `to:` is a condition (Trinidad's hang
jack), and counting out in the order the points fell: hands played by hand, and random games checked
against an oracle written apart from the engine."""
from __future__ import annotations

import random

import pytest
from conftest import rules
from hands import check_record, deal, new_game, play

from smear_dsl.engine import Game

# ---------------------------------------------------------------- Don

# Seat 0 leads 2S: spades are trump. Seat 1 must follow with AS and takes the trick, with seat 2's 5H:
# 4 (Ace of trumps) + 5 (a plain five) to side 1 in the first trick. Seat 1 leads a heart, seat 0
# trumps, and from then on seat 0 holds every trump left: side 0 takes the other 71 points.
DON_DEAL = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AC",
            "AS 2H 3H 4H 6H 7H 8H 9H TH JH QH KH AH",
            "5H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"]


def _don_hand(scores, options=None):
    g = new_game("don", 4, dealer=3, options=options)
    g.scores = list(scores)
    deal(g, DON_DEAL)
    play(g, "0:2S 1:AS 2:5H 3:2C")
    v = g.view(2)
    assert v["hand_points"] == [0, 9]
    assert [(p["point"], p["side"], p["value"], p["card"], p["trick"]) for p in v["points_won"]] == \
        [("ace", 1, 4, "AS", 0), ("fives", 1, 5, "5H", 0)]
    play(g, "1:2H 2:2D 3:3C 0:3S")
    assert g.view(None)["hand_points"] == [0, 9]   # no point fell in the second trick
    while g.phase == 2:
        g.apply(g.turn, g.legal_moves()[0])
    return g


def test_don_pegs_each_card_as_its_trick_is_won_and_counts_out_by_when_points_fell():
    # Side 1 needs 8 and pegs 9 in the first trick; side 0 needs 10 and ends on 141. Side 1 went out
    # first, so it wins though side 0 ends far higher.
    g = _don_hand([70, 72])
    res = g.results[-1]
    assert res.delta == [71, 9] and res.scores == [141, 81]
    assert res.points["nines"] == [27, 0] and res.points["fives"] == [10, 5] and res.points["big_don"] == 0
    fell = res.to_json()["points_won"]
    assert [p["point"] for p in fell[:2]] == ["ace", "fives"] and fell[0]["trick"] == 0
    assert [p["trick"] for p in fell] == sorted(p["trick"] for p in fell)   # in the order they fell
    assert sum(p["value"] for p in fell) == 80
    assert g.finished and g.winner == 1   # (scores set by hand: a record of this hand alone would start at 0)


def test_don_the_side_that_reaches_the_target_first_in_the_play_wins():
    # Side 1 at 60 pegs only 9: not out. Side 0 reaches 80 in the second trick.
    g = _don_hand([75, 60])
    assert g.results[-1].scores == [146, 69] and g.winner == 0


def _don_oracle(g: Game) -> list[int]:
    """Each side's points of a Don hand from its tricks, by the published values (not the engine's tables)."""
    r, t = g.rules, g.trump
    suit = "SHDC"[t]
    worth = {f"A{suit}": 4, f"K{suit}": 3, f"Q{suit}": 2, f"J{suit}": 1, f"9{suit}": 18, f"5{suit}": 10}
    for s in "SHDC":
        if s != suit:
            worth[f"9{s}"], worth[f"5{s}"] = 9, 5
    out = [0] * r.n_sides
    for _l, w, cards in g.tricks:
        out[r.side_of[w]] += sum(worth.get(r.card_name(c), 0) for c in cards)
    return out


def test_don_random_hands_match_the_published_values_and_the_first_to_80_wins():
    r = rules("don", 4)
    rng = random.Random(7)
    games = 0
    for seed in range(40):
        g = Game(r, seed=seed, auto_deal=False)
        running = [0, 0]
        first_out = None
        while not g.finished:
            g.start_hand()
            while not g.hand_over:
                g.apply(g.turn, g.random_move(rng))
            res = g.results[-1]
            # The oracle reads the tricks of the hand just played (kept until the next deal).
            assert res.delta == _don_oracle(g) and sum(res.delta) == 80
            for p in res.to_json()["points_won"]:
                running[p["side"]] += p["value"]
                if first_out is None and running[p["side"]] >= 80:
                    first_out = p["side"]
        assert g.winner == first_out, seed
        check_record(g)
        games += 1
    assert games == 40


# ---------------------------------------------------------------- Trinidad

TT_DEAL = ["AH JH 9S 8S 7S 6S", "QH 2H 3C 4C 5C 6C"]
TT_PLAY = "0:stand 0:JH 1:QH 1:3C 0:9S 1:4C 0:8S 1:5C 0:7S 1:6C 0:6S 1:2H 0:AH"


@pytest.mark.parametrize("before,after,winner", [
    ([12, 11], [14, 15], 1),   # high takes side 0 to 13, low side 1 to 12, hang jack (3) side 1 to 15: out
    ([13, 11], [15, 15], 0),   # high puts side 0 on 14 first
])
def test_trinidad_hang_jack_scores_three_to_the_capturer_and_counts_out_before_game(before, after, winner):
    # Hearts turned (3H): no kick. Seat 1's QH captures seat 0's JH: hang jack, 3 to side 1. High
    # (AH) and Game (4 to 3) to side 0, Low (2H, dealt to seat 1) to side 1.
    g = new_game("all_fours_trinidad", 2, dealer=1)
    g.scores = list(before)
    deal(g, TT_DEAL, stock_front="3H")
    play(g, TT_PLAY)
    res = g.results[-1]
    assert res.points == {"kick_ace": None, "kick_six": None, "kick_jack": None, "gift": None, "high": 0,
                          "low": 1, "jack": None, "hang_jack": 1, "game": 0}
    assert res.scores == after and g.winner == winner


def test_trinidad_a_jack_won_by_its_own_side_is_one_point_and_a_kicked_six_two_for_the_dealer():
    # 6H is turned: hearts are trump and the dealer (seat 1) kicks 2. Seat 0 leads JH and it holds:
    # the Jack stays with its holder's side, 1 point, no hang jack.
    g = new_game("all_fours_trinidad", 2, dealer=1)
    deal(g, ["JH AH 9S 8S 7S 6S", "2H 3C 4C 5C 6C 7C"], stock_front="6H")
    play(g, "0:stand 0:JH 1:2H 0:AH 1:3C 0:9S 1:4C 0:8S 1:5C 0:7S 1:6C 0:6S 1:7C")
    res = g.results[-1]
    assert res.points == {"kick_ace": None, "kick_six": 1, "kick_jack": None, "gift": None, "high": 0,
                          "low": 1, "jack": 0, "hang_jack": None, "game": 0}
    assert res.scores == [3, 3]   # high, jack, game; kick six 2 and low
    fell = [(p["point"], p["at"]) for p in res.to_json()["points_won"]]
    assert fell == [("kick_six", "deal"), ("jack", "trick"), ("high", "end"), ("low", "end"), ("game", "end")]
    check_record(g)
