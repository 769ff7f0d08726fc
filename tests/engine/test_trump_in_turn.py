"""Trump named in turn without bidding: from the dealer's left each player names a suit or passes,
the first to name it sets trump and leads; the dealer, last, must name it (or, `all_pass: redeal`,
the same dealer deals again). Hands played by hand, refusals, views and records."""
from __future__ import annotations

import random

from conftest import ROOT
from hands import check_record, code_of, deal, refused
from test_points_as_won import DON_DEAL

from smear_dsl import moves as M
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import STEP, Game
from smear_dsl.language.load import load_spec, spec_from_text

IN_TURN = ROOT / "tests" / "rules_extra" / "trump_in_turn.yaml"


def _game(text: str | None = None) -> Game:
    spec = load_spec(str(IN_TURN)) if text is None else spec_from_text(text, "redeal.yaml", known_parents_only=True)
    return Game(compile_rules(spec, 4, {}), seed=0, first_dealer=3, auto_deal=False)


def test_each_names_or_passes_the_first_to_name_sets_trump_and_leads():
    g = _game()
    deal(g, DON_DEAL)
    assert g.phase == STEP and g.turn == 0 and g.expected_action() == "trump"
    assert sorted(g.legal_moves()) == [M.PASS] + [M.TRUMP_BASE + s for s in range(4)]
    refused(g, "0:2S", "WRONG_PHASE")          # a card before trump is named
    refused(g, "1:pass", "WRONG_TURN")
    g.apply(0, M.PASS)
    g.apply(1, code_of(g, "H"))               # seat 1 names hearts: seat 2 and the dealer do not speak
    assert g.trump == 1 and g.namer == 1 and g.phase == 2 and g.turn == 1
    v = g.view(3)
    assert v["trump_calls"] == [{"seat": 0, "suit": None}, {"seat": 1, "suit": "H"}] and v["trump"] == "H"
    rng = random.Random(1)
    while not g.hand_over:
        g.apply(g.turn, g.random_move(rng))
    assert g.results[-1].trump == 1 and sum(g.results[-1].delta) == 80
    check_record(g)


def test_the_dealer_named_last_must_name_when_everyone_passed():
    g = _game()
    deal(g, DON_DEAL)
    for seat in (0, 1, 2):
        g.apply(seat, M.PASS)
    assert g.turn == 3 and M.PASS not in g.legal_moves()
    refused(g, "3:pass", "WRONG_PHASE")
    g.apply(3, code_of(g, "C"))
    assert g.trump == 3 and g.turn == 3   # the dealer named clubs and leads


def test_all_pass_redeal_deals_again_with_the_same_dealer():
    g = _game("extends: don@1\nname: Don, trump called or dealt again\nphases:\n"
              "  - name_trump: {who: each, may_pass: true, all_pass: redeal}\nplay: {leader: namer}\n")
    deal(g, DON_DEAL)
    for seat in (0, 1, 2):
        g.apply(seat, M.PASS)
    assert M.PASS in g.legal_moves()
    g.apply(3, M.PASS)
    res = g.results[-1]
    assert res.points is None and res.delta == [0, 0] and g.hand_over and g.dealer == 3
    check_record(g)


def test_random_games_under_trump_in_turn_finish_and_verify():
    rules = compile_rules(load_spec(str(IN_TURN)), 4, {})
    for seed in range(20):
        g, rng = Game(rules, seed=seed), random.Random(seed)
        while not g.finished:
            g.apply(g.turn, g.random_move(rng))
        check_record(g)
