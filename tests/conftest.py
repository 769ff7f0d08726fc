"""Shared helpers: where the repo and ../shared are, and compiled rules by name; and the tiers.

Tests mirror the packages' rooms (tests/language, tests/engine, ...). Those in tests/referee and
tests/system start servers, processes, browsers or databases (marked `system`); tests/deep holds
the long sweeps (perft, properties, generated rule files, hidden-information searches, the search
bot: marked `slow`). `make check` runs the rest, for the edit loop; `make test` runs everything.
"""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers (hands.py, referee_harness.py) from any folder

# Every referee the tests start (in this process or as a child) refuses a store read made on its
# event loop's thread, so a test fails where a call would stall every other (smear_referee/storage/store.py).
os.environ.setdefault("SMEAR_STRICT_STORE", "1")

import pytest
from hypothesis import settings as _hypothesis_settings

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.language import schema as S
from smear_dsl.language.load import load_spec

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SMEAR_SHARED", ROOT.parent / "shared"))
CONFORMANCE = SHARED / "conformance"
RULE_FILES = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))

# Hypothesis profiles (HYPOTHESIS_PROFILE): `ci` (the default: `make test`, CI) runs each property
# the examples it names; `dev` (`make check`) a quarter of them, for the edit loop; `deep` (`make
# deep`) ten times as many, with no time limit per example, to hunt what the others miss.
# Each property asks for its examples through `examples(n)`, so a profile scales them all.
_SCALE = {"dev": 0.25, "ci": 1.0, "deep": 10.0}
for _name in _SCALE:
    _hypothesis_settings.register_profile(_name, deadline=None, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in _SCALE:
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}: the profiles are {', '.join(_SCALE)}")
_hypothesis_settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """`n` examples of a property, scaled for the active Hypothesis profile (at least 2)."""
    return max(2, round(n * _SCALE[PROFILE]))


@functools.cache
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


def schema_expressions(schema, value, out: list) -> list:
    """Every expression of a parsed rule file as (its schema Expr, its text), walking the file with
    its schema (rulefile.py): what the generated-rules pool and the parser corpus are made of."""
    if isinstance(schema, S.Expr):
        if value is not None:
            out.append((schema, str(value).lower() if isinstance(value, bool) else str(value)))
    elif isinstance(schema, S.Map) and isinstance(value, dict):
        for k, v in value.items():
            if k in schema.fields:
                schema_expressions(schema.fields[k].schema, v, out)
    elif isinstance(schema, S.Dict) and isinstance(value, dict):
        for v in value.values():
            schema_expressions(schema.value, v, out)
    elif isinstance(schema, S.ListOf) and isinstance(value, list):
        for v in value:
            schema_expressions(schema.item, v, out)
    elif isinstance(schema, S.Tagged) and isinstance(value, dict) and len(value) == 1:
        (k, v), = value.items()
        if k in schema.kinds:
            schema_expressions(schema.kinds[k], v, out)
    elif isinstance(schema, S.OneOf):
        for _kind, alt in schema.alts:
            schema_expressions(alt, value, out)
    return out


PG_ADMIN = "postgresql://127.0.0.1:5432/postgres"  # the machine's PostgreSQL (trust auth); see docs/referee.md


def fresh_pg_database(tag: str):
    """A new, empty PostgreSQL database for one test (its URL and a function that drops it), or
    pytest.skip with one line when no PostgreSQL is reachable at 127.0.0.1:5432."""
    import secrets

    import psycopg
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.Error as e:
        pytest.skip(f"no PostgreSQL reachable at 127.0.0.1:5432 ({str(e).strip().splitlines()[0][:80]})")
    name = f"smear_{tag}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return PG_ADMIN.rsplit("/", 1)[0] + f"/{name}", drop


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """Where a referee keeps its tables: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "referee.sqlite3")
        return
    url, drop = fresh_pg_database("t")
    try:
        yield url
    finally:
        drop()


TIERS = {"referee": "system", "system": "system", "deep": "slow"}


def pytest_collection_modifyitems(config, items):
    """Mark each test by its folder (see the module's docstring); a file may add its own marks."""
    here = Path(__file__).resolve().parent
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(here).parts
        tier = TIERS.get(parts[0]) if len(parts) > 1 else None
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
