"""A kind of point is one declaration (smear_dsl/compile/pointkinds.py) that every reader of points
knows: the engine's scoring, the bots' worth of a hand, the sheet's count of a hand's points and the
rules sheet's words. A kind one of them lacks fails here, and at run time raises UnknownKind rather
than being read as another kind."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT

from smear_dsl import Game, compile_rules, load_spec, make_bot
from smear_dsl.compile import pointkinds
from smear_dsl.engine import scoring
from smear_dsl.language.paths import shipped_dir
from smear_dsl.players import worth
from smear_dsl.sheets import explain, most
from smear_dsl.sheets.explain import render
from smear_dsl.sheets.most import most_awarded

READERS = {"engine/scoring.py": scoring.READS, "players/worth.py": worth.READS, "sheets/most.py": most.READS,
           "sheets/explain.py": explain.READS}
FILES = sorted([*shipped_dir().glob("*.yaml"), *(ROOT / "tests" / "rules_extra").glob("*.yaml")])


def _kinds_in(path: Path) -> set[int]:
    try:
        rules = compile_rules(load_spec(str(path)))
    except Exception:  # noqa: BLE001 - a file written to be refused (lint_warnings.yaml) names no kind here
        return set()
    return {kind for kind, *_ in rules.points.plan}


def test_every_reader_knows_every_kind():
    every = {k.code for k in pointkinds.KINDS}
    for reader, reads in READERS.items():
        assert set(reads) == every, f"{reader} does not read kinds {sorted(every - set(reads))}"
        assert all(isinstance(how, str) and how for how in reads.values()), reader


def test_the_kinds_are_numbered_in_order_with_those_before_the_play_last():
    codes = [k.code for k in pointkinds.KINDS]
    assert codes == sorted(codes) == list(range(len(codes)))
    first = min(k.code for k in pointkinds.KINDS if k.before_play)
    assert all(k.before_play == (k.code >= first) for k in pointkinds.KINDS)
    assert {k.name for k in pointkinds.KINDS if k.per} == {"each", "tricks"}


def test_every_kind_is_played_by_some_rule_file():
    """So each kind below meets the engine, a bot and the sheet: a new kind comes with a file that uses it."""
    found = set().union(*(_kinds_in(p) for p in FILES))
    assert found == {k.code for k in pointkinds.KINDS}, sorted({k.code for k in pointkinds.KINDS} - found)


@pytest.mark.parametrize("kind", pointkinds.KINDS, ids=lambda k: k.name)
def test_a_point_of_each_kind_is_scored_valued_and_explained(kind):
    path = next(p for p in FILES if kind.code in _kinds_in(p))
    spec = load_spec(str(path))
    rules = compile_rules(spec)
    game, rng = Game(rules, seed=f"kind-{kind.name}"), random.Random(7)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(rules.players)]  # bids by worth.py
    while not game.finished and len(game.results) < 3:
        game.apply(game.turn, bots[game.turn].choose(game) if rng.random() < 0.9 else game.random_move(rng))
    assert game.results, "a hand was scored"
    assert any(r.points is not None for r in game.results)
    total, _exact = most_awarded(rules)
    assert total >= sum(v for (k, *_), v in zip(rules.points.plan, rules.points.values) if k == kind.code) > 0 \
        or kind.code == pointkinds.TURNED  # a turned card's points: the most one card carries
    sheet = render(spec, "md")
    for name in (p.name for p, (k, *_) in zip(spec.points, rules.points.plan) if k == kind.code):
        assert f"| {name} |" in sheet or name in sheet
