"""Every name the checker lets an expression use is there when the engine evaluates it.

smear_dsl/language/contexts.py declares, per context, the names an expression may use. This test writes a
rule file whose expressions (one or more per context) use every declared name of their context,
each through a tautology, so the rules play like Four Point; then plays random games under it.
A name the checker allows but the engine does not supply fails here with a KeyError."""
from __future__ import annotations

import random

import pytest

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.expr.check import BOOL, CARD, CARDS, INT, SIDE, SUIT
from smear_dsl.language.contexts import CONTEXTS
from smear_dsl.language.load import spec_from_text

USE = {INT: "{n} >= {n}", BOOL: "({n} or not {n})", CARDS: "count({n}) >= 0", CARD: "{n}.suit == {n}.suit",
       SUIT: "{n} == {n}", SIDE: "{n} == {n}"}


def uses(context: str) -> str:
    """A true condition that reads every name of the context."""
    names, _where = CONTEXTS[context]
    return "(" + " and ".join(USE[t].format(n=n) for n, t in sorted(names.items())) + ")"


def every_name_rules() -> str:
    return f"""
extends: four_point_ne_wisconsin
name: Every name
options:
  widow: {{default: 2}}
deal:
  redeal_if: {uses("redeal")} and count(hand) < 0
bidding:
  may_match: {uses("bid")} and is_dealer
phases:
  - take: {{who: bidder, count: "if {uses('phase')} then widow else 0"}}
  - discard:
      who: bidder
      count: "if {uses('phase')} then widow else 0"
      credit: bidder
      allowed: {uses("discard_card")}
      valid_if: {uses("discard_set")}
play:
  lead_rules:
    - forbid: {uses("lead")} and trick == 1 and any(discarded where card.suit == lead.suit) and any(hand where card.suit != lead.suit)
      code: TRUMP_DISCARDED
      message: you discarded a card of this suit
  follow_rules:
    - forbid: not {uses("follow")}
      code: PLAY_FORBIDDEN
points:
  high: {{card: "if {uses('point')} then highest(played where card.trump) else highest(dealt where card.trump)", to: player}}
  jack: {{card: J of trump, to: "if {uses('point_to')} then winner else nobody"}}
  nines: {{each: "{uses('each_card')} and card.rank == 9", to: winner}}
scoring:
  made: {uses("made")} and points >= bid
  bidder: if {uses("scoring")} then (if made then points else -bid) else 0
  others: if {uses("scoring")} then points else 0
  cap:
    when: {uses("scoring")} and defense_cap and not bidder
    at: if {uses("scoring")} then target - 1 else 0
end:
  win_if: {uses("end")} and score >= target
"""


def test_the_rule_file_uses_every_declared_name():
    text = every_name_rules()
    for context, (names, _where) in CONTEXTS.items():
        if context != "static":
            assert all(n in text for n in names), context


@pytest.mark.parametrize("options", [{}, {"defense_cap": True, "widow": 3}])
def test_every_declared_name_is_supplied_at_run_time(options):
    spec = spec_from_text(every_name_rules(), "every_name.yaml", known_parents_only=True)
    rules = compile_rules(spec, 4, options)
    rng = random.Random(1)
    hands = 0
    for seed in range(30):
        game = Game(rules, seed=seed)
        while not game.finished and len(game.results) < 40:
            game.apply(game.turn, game.random_move(rng))
        hands += len(game.results)
    assert hands > 100
