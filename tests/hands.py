"""Hands played by hand in tests: deal these cards, play this script, check that refusal and this score."""
from __future__ import annotations

import json

import pytest
from conftest import rules

from smear_dsl import moves as M
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError
from smear_dsl.records.verify import verify

SUITS = "SHDC"


def new_game(name, players, dealer, options=None):
    return Game(rules(name, players, **(options or {})), seed=0, first_dealer=dealer, auto_deal=False)


def deal(g, hands, stock_front=""):
    """Deal these hands (seat 0 first); the stock is `stock_front` then the rest of the deck in deck order."""
    r = g.rules
    ids = [[r.deck.id_of[c] for c in h.split()] for h in hands]
    front = [r.deck.id_of[c] for c in stock_front.split()]
    used = {c for h in ids for c in h} | set(front)
    assert sum(map(len, ids)) + len(front) == len(used), "a card is dealt twice"
    g.start_hand((ids, front + [c for c in r.deck.cards if c not in used]))


def code_of(g, what):
    """`pass` or digits: a bid; stand, beg, give, run: a choice when begging; one suit letter: naming trump;
    `+`-joined cards or `-`: a discard; else a card."""
    r = g.rules
    if what == "pass":
        return M.PASS
    if what in M.CHOICES:
        return M.CHOOSE_BASE + M.CHOICES.index(what)
    if what.isdigit():
        return M.BID_BASE + int(what)
    if len(what) == 1 and what in SUITS:
        return M.TRUMP_BASE + SUITS.index(what)
    if what == "-" or "+" in what or g.expected_action() == "discard":
        return M.DISCARD_FLAG | (0 if what == "-" else sum(1 << r.deck.id_of[c] for c in what.split("+")))
    return r.deck.id_of[what]


def play(g, script):
    for token in script.split():
        seat, what = token.split(":")
        g.apply(int(seat), code_of(g, what))


def refused(g, token, code):
    """The move is refused with `code` and changes nothing."""
    seat, what = token.split(":")
    before = (list(g.hands), g.turn, g.phase, list(g.trick), len(g.hand_moves))
    with pytest.raises(MoveError) as e:
        g.apply(int(seat), code_of(g, what))
    assert e.value.code == code, e.value
    assert (list(g.hands), g.turn, g.phase, list(g.trick), len(g.hand_moves)) == before


def check_hand(g, points, game_points, made, scores, index=-1):
    res = g.results[index]
    assert res.points == points
    assert res.game_points == game_points
    assert res.made is made
    assert res.scores == scores


def check_record(g):
    """The exported record re-referees to the same hands and scores."""
    verdict = verify(json.loads(json.dumps(g.to_record())))
    assert verdict["valid"], verdict["error"]
    assert verdict["hands"] == [h.to_json() for h in g.results]
    assert verdict["scores"] == g.scores


# ---------------------------------------------------------------- Partnership Pitch
