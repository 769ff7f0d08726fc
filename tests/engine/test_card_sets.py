"""A follow rule's `forbid` and a discard's `allowed`, run as sets of cards (check.vector), say for every
card what they say card by card: every shipped rule file and the extra ones, over random games, rule by
rule and card by card, and the legal plays and discards the engine offers from them."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT

from smear_dsl import cards as C
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.engine.constants import PLAY, STEP
from smear_dsl.language.load import load_spec
from smear_dsl.language.paths import shipped_dir

FILES = sorted([*shipped_dir().glob("*.yaml"), *(ROOT / "tests" / "rules_extra").glob("*.yaml")])


def _card_by_card_follow(game: Game, seat: int, base: int) -> int:
    env, beats = game._follow_env(seat, base)
    out = 0
    for c in C.bits(base):
        env["play"], env["wins"] = c, beats(c)
        if not any(chk.forbid(env) for chk in game.rules.play.follow_checks):
            out |= 1 << c
    return out or base


def _check_follow(game: Game) -> int:
    seat = game.turn
    hand = game.hands[seat]
    base = hand & game.follow_ok if hand & game.led_mask else hand
    env, beats = game._follow_env(seat, base)
    for chk in game.rules.play.follow_checks:
        as_set = chk.forbid_cards(env)
        for c in C.bits(base):
            env["play"], env["wins"] = c, beats(c)
            assert bool(chk.forbid(env)) == bool((as_set >> c) & 1), (chk.code, C.name(c) if hasattr(C, "name") else c)
    assert game._follow_mask(seat, base) == _card_by_card_follow(game, seat, base)
    return 1


def _check_discard(game: Game) -> int:
    seat = game.turn
    step = game.rules.play.steps[game.step]
    if step.kind != "discard" or step.allowed is None:
        return 0
    env = game.step_env(seat)
    as_set = step.allowed_cards(env)
    for c in C.bits(game.hands[seat]):
        env["card"] = c
        assert bool(step.allowed(env)) == bool((as_set >> c) & 1), c
    return 1


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_card_sets_say_what_the_card_by_card_tests_say(path: Path):
    spec = load_spec(str(path))
    rng = random.Random(path.stem)
    checked = 0
    for players in spec.players:
        rules = compile_rules(spec, players, {})
        follows = rules.play.follow_checks and all(chk.forbid_cards is not None for chk in rules.play.follow_checks)
        discards = any(st.allowed_cards is not None for st in rules.play.steps)
        if not (follows or discards):
            continue
        for seed in range(6):
            game = Game(rules, seed=seed, hand_limit=12)
            while not game.finished:
                if follows and game.phase == PLAY and game.trick:
                    checked += _check_follow(game)
                if discards and game.phase == STEP:
                    checked += _check_discard(game)
                game.apply(game.turn, game.random_move(rng))
    first = compile_rules(spec, spec.players[0], {})
    if any(chk.forbid_cards is not None for chk in first.play.follow_checks) or \
            any(st.allowed_cards is not None for st in first.play.steps):
        assert checked > 20, checked


def test_the_family_files_that_test_cards_do_it_as_sets():
    """Every shipped follow rule and discard `allowed` is bitset algebra (the engine's one fast path)."""
    for path in shipped_dir().glob("*.yaml"):
        spec = load_spec(str(path))
        rules = compile_rules(spec, spec.players[0], {})
        for chk in rules.play.follow_checks:
            assert chk.forbid_cards is not None, (path.stem, chk.code)
        for st in rules.play.steps:
            if st.kind == "discard" and st.allowed is not None:
                assert st.allowed_cards is not None, path.stem


@pytest.mark.parametrize("path", [shipped_dir() / "all_fours_trinidad.yaml", ROOT / "tests" / "rules_extra" / "trick_guards.yaml"],
                         ids=lambda p: p.stem)
def test_a_follow_skips_the_hand_only_when_no_rule_can_forbid(path: Path):
    """Where every follow rule has parts that read only the trick (check.guard_of), the engine decides a
    follow from those when they are all false; then each rule, run in full on the trick and the hand,
    forbids nothing. Both answers come up, and a remembered answer is the one worked out afresh."""
    spec = load_spec(str(path))
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for players in spec.players:
        rules = compile_rules(spec, players, {})
        guard = rules.play.follow_guard
        assert guard is not None
        for seed in range(8):
            game = Game(rules, seed=seed, hand_limit=10)
            while not game.finished:
                if game.phase == PLAY and game.trick:
                    seat = game.turn
                    hand = game.hands[seat]
                    base = hand & game.follow_ok if hand & game.led_mask else hand
                    off = game._guards_off(seat, guard)
                    guard[4].clear()
                    assert game._guards_off(seat, guard) == off  # worked out afresh
                    env, beats = game._follow_env(seat, base)
                    if off:
                        for chk in rules.play.follow_checks:
                            assert chk.forbid_cards(env) == 0, chk.message
                            for c in C.bits(base):
                                env["play"], env["wins"] = c, beats(c)
                                assert not chk.forbid(env)
                    seen[off] += 1
                game.apply(game.turn, game.random_move(rng))
    assert seen[True] > 20 and seen[False] > 20, seen
