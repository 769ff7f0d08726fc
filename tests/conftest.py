"""Shared helpers: where the repo and ../shared are, and compiled rules by name."""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from smear_dsl.compiler import compile_rules
from smear_dsl.language import load_spec

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SMEAR_SHARED", ROOT.parent / "shared"))
CONFORMANCE = SHARED / "conformance"
RULE_FILES = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))


@functools.lru_cache(maxsize=None)
def rules(name: str, players: int | None = None, **options):
    return compile_rules(load_spec(name), players, options)


def table_setups():
    """(rule name, players) for every rule file and every seat count it allows."""
    out = []
    for name in RULE_FILES:
        for n in load_spec(name).players:
            out.append((name, n))
    return out


@pytest.fixture
def in_root(monkeypatch):
    monkeypatch.chdir(ROOT)
    return ROOT


def engine_perft(game, depth: int) -> int:
    """Leaf count of the engine's move tree to `depth` (each legal move applied to a copy)."""
    if depth == 0 or game.hand_over:
        return 1
    total = 0
    for code in game.legal_moves():
        g = game.clone()
        g.apply(g.turn, code)
        total += engine_perft(g, depth - 1)
    return total


def ref_perft(state, depth: int) -> int:
    """Leaf count of a reference enumerator's tree (any state with `done`, `moves()` and `play(move)`)."""
    if depth == 0 or state.done:
        return 1
    return sum(ref_perft(state.play(m), depth - 1) for m in state.moves())
