"""A game's copy (Game.clone, what every search playout starts from) shares no list or dict with its
original: it copies the attributes named in worlds._COPIED, and every attribute the engine assigns is
either named there or known to hold only values that are replaced, never changed in place."""
from __future__ import annotations

import ast
import inspect
import json
import random
import textwrap

import pytest
from conftest import rules, table_setups

from smear_dsl.engine import Game
from smear_dsl.engine import worlds as game_module
from smear_dsl.engine.game import ExtrasFollowGame

# Attributes that hold ints, bools, None, strings, tuples, the compiled rules, a generator or a
# function: a copy may share them because the engine only ever replaces them.
SHARED = {"rules", "deal_source", "hand_limit", "n", "seed", "rng", "first_dealer", "dealer", "finished", "winner",
          "ended_by", "auto_deal", "high", "bidder", "namer", "spoken", "trump", "lead_free", "trick_no", "played",
          "_lead_memo", "_follow_memo", "_plan_memo", "_lead_memo_plans", "_sampled", "_compacted",
          "_compacted_results", "trick_leader", "led", "led_mask", "follow_ok", "trick_key", "step", "phase", "turn",
          "turn_card", "gift_side", "public_hand", "keep_boundary"}


def _assigned(cls: type) -> set[str]:
    """Every attribute a method of `cls` assigns on `self` (or on a copy `g` it makes)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    names = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id in ("self", "g"):
                    names.add(el.attr)
    return names


def test_every_attribute_the_engine_assigns_is_copied_or_known_to_be_replaced():
    assigned = set()
    for cls in ExtrasFollowGame.__mro__:
        if cls.__module__.startswith("smear_dsl.engine"):
            assigned |= _assigned(cls)
    assigned.discard("__dict__")
    copied = set(game_module._COPIED)
    assert assigned - copied - SHARED == set(), "add each to worlds._COPIED (a list or dict) or to SHARED here"
    assert copied & SHARED == set()
    assert copied - assigned == set(), "worlds._COPIED names an attribute nothing assigns"


def _shared_lists(a: Game, b: Game) -> list[str]:
    return [k for k, v in a.__dict__.items() if isinstance(v, (list, dict)) and b.__dict__.get(k) is v]


def _state(g: Game) -> str:
    return json.dumps({k: v for k, v in g.__dict__.items() if k not in ("rng", "rules", "trick_key")}, default=repr)


@pytest.mark.parametrize("name,players", table_setups())
def test_a_copy_shares_no_list_and_playing_it_leaves_the_original_as_it_was(name, players):
    r = rules(name, players)
    for seed in (1, 2):
        game, rng = Game(r, seed=seed), random.Random(seed)
        while not game.finished and len(game.results) < 2:
            seat, legal = game.turn, game.legal_moves()
            for copy in (game.clone(), game.clone(deals=False)):
                assert _shared_lists(game, copy) == []
                before = _state(game)
                hands = len(copy.results)
                copy.apply(seat, rng.choice(legal))
                while not copy.finished and not copy.hand_over and len(copy.results) == hands:  # the hand out
                    copy.apply(copy.turn, rng.choice(copy.legal_moves()))
                assert _state(game) == before
            game.apply(seat, rng.choice(legal))
