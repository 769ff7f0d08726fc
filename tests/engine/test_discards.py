"""Legal discards without trying every combination (engine/discards.py), against oracles that do
try every combination: at each discard of random games under every rule file with a discard, the
plan-based check refuses exactly what a direct reading of the rules refuses, random discards are
legal and cover the legal discards evenly, and the weakest discard is the least of all legal ones."""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from conftest import ROOT

from smear_dsl import cards as C
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import STEP, Game
from smear_dsl.errors import RuleError
from smear_dsl.language.load import load_spec

SETUPS = [("cinch", 4, {}), ("st_paul_schmier", 6, {}), ("ten_point_jack_jick_joker", 4, {}),
          ("four_point_ne_wisconsin", 4, {"widow": 3}), ("pedro@1", 4, {}),
          (str(ROOT / "tests" / "rules_extra" / "no_lead_left.yaml"), 6, {}),
          (str(ROOT / "tests" / "rules_extra" / "named_definitions.yaml"), 4, {"widow": 2}),
          ("all_fours", 4, {"discard_after_run": True}),
          (str(ROOT / "tests" / "rules_extra" / "trumps_from_length.yaml"), 4, {})]


def direct_error(game: Game, seat: int, mask: int) -> bool:
    """Whether the rules refuse discarding `mask`, read straight from the compiled step: size, the
    cards in hand, `allowed` card by card, valid_if on the set, the lead left to the first leader."""
    step = game.rules.play.steps[game.step]
    hand = game.hands[seat]
    env = game.step_env(seat)
    lo, hi = (step.count(env),) * 2 if step.count is not None else (step.min(env), step.max(env))
    if not lo <= mask.bit_count() <= hi or mask & ~hand:
        return True
    for c in C.bits(mask):
        if step.allowed is not None and not step.allowed({**env, "card": c}):
            return True
    if step.valid_if is not None and not step.valid_if({**env, "discard": mask, "kept": hand & ~mask}):
        return True
    return game.lead_error(seat, mask) is not None


def every_legal(game: Game, seat: int) -> list[int]:
    hand = list(C.bits(game.hands[seat]))
    return [m for k in range(len(hand) + 1) for m in map(C.mask_of, itertools.combinations(hand, k))
            if not direct_error(game, seat, m)]


def discard_states(name, players, options, games=6, most=40):
    """Games played at random up to each discard decision whose hand is small enough to enumerate."""
    r = compile_rules(load_spec(name), players, options)
    found = 0
    for seed in range(games * 5):
        g = Game(r, seed=seed, hand_limit=6)
        rng = random.Random(seed)
        while not g.finished and found < most:
            if g.phase == STEP and g.expected_action() == "discard" and g.hands[g.turn].bit_count() <= 12:
                found += 1
                yield g
            g.apply(g.turn, g.random_move(rng))
        if found >= most:
            return


@pytest.mark.parametrize("name,players,options", SETUPS, ids=[s[0].rsplit("/", 1)[-1] for s in SETUPS])
def test_plans_judge_discards_as_the_rules_read_directly(name, players, options):
    seen = 0
    for g in discard_states(name, players, options):
        seat, rng = g.turn, random.Random(seen)
        legal = every_legal(g, seat)
        assert sorted(legal) == sorted(m ^ (1 << 64) for m in g.legal_moves())
        hand = g.hands[seat]
        for _ in range(40):  # random masks, in hand and out, of every size
            mask = sum(1 << c for c in C.bits(hand) if rng.random() < 0.4) | (rng.random() < 0.1) << 63
            assert (g.discard_error(seat, mask) is not None) == direct_error(g, seat, mask), C.bits(mask)
        for mask in legal:
            assert g.discard_error(seat, mask) is None
        if legal:
            weak = {c: rng.random() for c in C.bits(hand)}
            best = g.weakest_discard(seat, weak.__getitem__)
            assert best in legal
            assert math.isclose(sum(map(weak.get, C.bits(best))), min(sum(map(weak.get, C.bits(m))) for m in legal))
        seen += 1
    assert seen >= 10


EVEN = [SETUPS[i] for i in (1, 2, 3, 7)]


@pytest.mark.parametrize("name,players,options", EVEN, ids=[s[0] for s in EVEN])
def test_random_discards_are_legal_and_cover_the_legal_ones_evenly(name, players, options):
    checked = 0
    for g in discard_states(name, players, options, most=25):
        legal = every_legal(g, g.turn)
        if not 2 <= len(legal) <= 100:
            continue
        rng = random.Random(checked)
        draws = Counter(g.sample_discard(g.turn, rng) for _ in range(len(legal) * 200))
        assert set(draws) == set(legal)  # every legal discard drawn, nothing else
        assert max(draws.values()) < 1.8 * min(draws.values()), draws
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_a_discard_of_half_of_a_large_hand_needs_no_enumeration(tmp_path):
    """20 of 26 cards (230,230 combinations, each checked with the lead rules): the view, a random
    move and a bot's move come back at once, and the view lists one legal discard, not all of them."""
    path = tmp_path / "big_widow.yaml"
    path.write_text("extends: four_point_ne_wisconsin\nname: Big widow\n"
                    "options: {widow: {type: int, default: 20, min: 0, max: 20}}\n"
                    "deck: {ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2], values: {A: 4, K: 3, Q: 2, J: 1, T: 10}}\n")
    g = Game(compile_rules(load_spec(str(path)), 4, {"widow": 20}), seed=3)
    rng = random.Random(3)
    while g.expected_action() != "discard":
        g.apply(g.turn, g.random_move(rng))
    assert g.hands[g.turn].bit_count() == 26
    view = g.view(g.turn)
    assert view["discard"]["min"] == view["discard"]["max"] == 20 and len(view["legal"]) == 1
    assert len(view["legal"][0]["cards"]) == 20
    assert g.discard_error(g.turn, g.random_move(rng) ^ (1 << 64)) is None
    from smear_dsl.players.heuristic import HeuristicBot
    g.apply(g.turn, HeuristicBot(rng).choose(g))
    assert g.expected_action() == "play"


@pytest.mark.parametrize("valid_if", ["highest(kept where card.trump) == A of trump", "A of trump in discard",
                                      "count(hand where card in kept) >= 2"])
def test_a_valid_if_that_reads_the_discard_other_than_by_counting_is_refused(valid_if, tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("extends: four_point_ne_wisconsin\nname: x\nphases:\n  - take: {who: bidder, count: widow}\n"
                    f"  - discard: {{who: bidder, count: widow, valid_if: \"{valid_if}\"}}\n")
    with pytest.raises(RuleError) as e:
        load_spec(str(path))
    assert any("only by counting them" in d.message and d.line == 5 for d in e.value.diagnostics), e.value


@pytest.mark.parametrize("rules_name,players,options", SETUPS[:4])
def test_the_bounded_fallback_finds_a_legal_discard_or_says_none_was_found(rules_name, players, options):
    """When the plans' search finds nothing, a bot's move falls back to any_discard: a legal
    discard found within a bounded number of tries, or NO_LEGAL_DISCARD, never every combination."""
    from smear_dsl.errors import MoveError
    rules = compile_rules(load_spec(rules_name), players, options)
    rng = random.Random(11)
    seen = 0
    for k in range(20):
        g = Game(rules, seed=f"fallback-{k}")
        while not g.finished and len(g.results) < 3:
            if g.phase == STEP and g.expected_action() == "discard":
                mask = g.any_discard(g.turn)
                assert not direct_error(g, g.turn, mask)
                with pytest.raises(MoveError) as e:
                    g.any_discard(g.turn, most=0)
                assert e.value.code == "NO_LEGAL_DISCARD"
                seen += 1
            g.apply(g.turn, g.random_move(rng))
    assert seen


def test_counts_and_random_subsets_match_their_plain_readings():
    """The plan counts (shortcuts for one or two kinds and a forced discard) are the product's counts in
    its order, and a random subset takes the cards the walk over the mask takes, with the same draws
    (seeded games, and so the rule versions' fingerprints, depend on both)."""
    from smear_dsl.engine.discards import _counts, _random_subset
    r = random.Random(7)
    for _ in range(3000):
        sizes = [r.randint(0, 9) for _ in range(r.randint(1, 3))]
        kinds = [((1 << n) - 1) << (13 * i) for i, n in enumerate(sizes)]
        lo = r.randint(0, sum(sizes))
        hi = r.randint(lo, sum(sizes) + 2)
        product = [c for c in itertools.product(*(range(min(n, hi) + 1) for n in sizes)) if lo <= sum(c) <= hi]
        assert _counts(kinds, lo, hi) == product, (sizes, lo, hi)
    for _ in range(3000):
        mask = r.getrandbits(54)
        size, k, seed = mask.bit_count(), r.randint(0, mask.bit_count()), r.random()
        walk_rng, out, m_left, left = random.Random(seed), 0, mask, size
        for _ in range(k):  # the plain reading: drop i lowest cards of those left, take the next
            m = m_left
            for _ in range(int(walk_rng.random() * left)):
                m &= m - 1
            out |= m & -m
            m_left ^= m & -m
            left -= 1
        rng = random.Random(seed)
        assert _random_subset(mask, size, k, rng) == out
        assert rng.random() == walk_rng.random()  # as many numbers drawn


@pytest.mark.parametrize("name,players,options", SETUPS, ids=[s[0].rsplit("/", 1)[-1] for s in SETUPS])
def test_remembered_plans_are_the_plans_judged_afresh(name, players, options):
    """A step whose valid_if reads the hand only by the kinds it counts keeps its answers by those
    counts (CompiledStep.plans_memo): at every discard of many random games, the plans it gives are
    the ones valid_if passes when judged again without the memo, and the memo is read (it holds fewer
    answers than there were discards)."""
    r = compile_rules(load_spec(name), players, options)
    memo_steps = [s for s in r.play.steps if s.plan_reads is not None]
    discards = 0
    for seed in range(40):
        g = Game(r, seed=seed, hand_limit=3)
        rng = random.Random(seed)
        while not g.finished:
            step = r.play.steps[g.step] if g.phase == STEP else None
            if step is not None and g.expected_action() == "discard" and step.plan_reads is not None:
                seat = g.turn
                _allowed, lo, hi, kinds, plans = g._plan(seat)
                assert plans == g._valid_plans(seat, kinds, lo, hi), (seed, kinds)
                discards += 1
            g.apply(g.turn, g.random_move(rng))
    if not memo_steps:
        assert discards == 0
        return
    assert discards >= 40
    assert sum(len(s.plans_memo) for s in memo_steps) < discards


@pytest.mark.parametrize("valid_if,reads", [
    ("count(kept where card.trump) == min(6, count(hand where card.trump))", ()),
    ("count(kept where card.trump) >= 6 and bid > 3", ("bid",)),
    ("any(kept where card.trump and card.rank == J) or is_bidder", ("is_bidder",)),
    ("count(discard) <= count(hand) - 2", ()),
    ("count(kept where card.trump where card.rank == J) == count(hand where card.trump where card.rank == J)", ()),
    ("count(kept where card.trump) >= count(hand where card.rank == A)", None),  # the hand by another kind
    ("count(kept where card.trump) >= 2 and hand != 0", None),  # the hand read whole
])
def test_valid_if_is_remembered_by_counts_only_when_it_reads_the_hand_by_them(valid_if, reads):
    from smear_dsl.expr.counted import plan_reads
    from smear_dsl.expr.parse import parse_expr
    assert plan_reads(parse_expr(valid_if)) == reads
