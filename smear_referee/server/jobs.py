"""The jobs the referee runs in its sandbox workers (smear_referee/server/sandbox.py): plain data in, plain data out.

Each takes what a stranger sent (a rule file's text, a record's JSON) and never a path: an
uploaded rule file may extend only a rule of rules/, and a record must name one or carry
`rules_text`.
"""
from __future__ import annotations

import json
import time
from typing import Any

from smear_dsl.errors import Diagnostic, RecordError, RuleError


def _diagnostics(e: RuleError | list[Diagnostic]) -> list[tuple]:
    """Diagnostics (a RuleError's, or warnings) as plain tuples; a parent file of rules/ is named
    `rules/NAME.yaml`, not by the server's own path."""
    from pathlib import Path

    from smear_dsl.language.paths import rule_dirs
    roots = [str(d.resolve()) + "/" for d in rule_dirs()]

    def shown(path: str) -> str:
        return f"rules/{Path(path).name}" if any(path.startswith(r) for r in roots) else path

    def hint(d) -> str | None:  # a problem the file causes in a parent: the parent's line, named as shown
        if d.inherited is None:
            return d.hint
        where = f"it shows in the parent's rules at {shown(d.inherited.path)}:{d.inherited.line}:{d.inherited.col}"
        return f"{d.hint}; {where}" if d.hint else where
    diags = e.diagnostics if isinstance(e, RuleError) else e
    return [(shown(d.path), d.line, d.col, d.message, hint(d), d.source_line, d.severity) for d in diags]


def _checked(text: str, name: str, warnings: list[Diagnostic] | None = None):
    """The spec of an uploaded rule file, compiled for every setup it allows (RuleError otherwise);
    what only warns (a later language's findings, likely slips) goes into `warnings` if given."""
    from smear_dsl.compile.lint import check_all_setups
    from smear_dsl.language.load import spec_from_text
    spec = spec_from_text(text, name, known_parents_only=True)
    problems = check_all_setups(spec, warnings=warnings)
    if problems:
        raise RuleError(problems)
    return spec


def warm() -> None:
    """Import (and run once) what the jobs use, so a fresh worker's first job is timed on its own work: a
    worker that replaces a killed one would otherwise charge a stranger's next check for the imports."""
    check_rules("name: warm\n", "warm.yaml")
    from smear_dsl.records import verify  # noqa: F401 - imported for its side effect: loaded


def check_rules(text: str, name: str) -> dict[str, Any]:
    """{"info": RuleInfo bytes, "warnings": [...], "seconds"} or {"diagnostics": [...]} or {"error": message}."""
    from smear_referee.tables.convert import rule_info
    t0 = time.perf_counter()
    warnings: list[Diagnostic] = []
    try:
        spec = _checked(text, name, warnings)
    except RuleError as e:
        return {"diagnostics": _diagnostics(e), "seconds": time.perf_counter() - t0}
    except RecursionError:
        return {"error": "the rule file nests too deeply"}
    return {"info": rule_info(spec).SerializeToString(), "warnings": _diagnostics(warnings),
            "seconds": time.perf_counter() - t0}


def explain_rules(text: str, fmt: str, lang: str = "en") -> dict[str, Any]:
    """{"text": the rules sheet} or {"diagnostics": [...]} or {"error": message}."""
    from smear_dsl.sheets.explain import render
    try:
        return {"text": render(_checked(text, "upload.yaml"), fmt, lang=lang)}
    except RuleError as e:
        return {"diagnostics": _diagnostics(e)}
    except RecursionError:
        return {"error": "the rule file nests too deeply"}


def verify_record(record_json: str) -> dict[str, Any]:
    """{"verdict": ...} or {"unreadable": why}: the record's rules are a name of rules/ or its `rules_text`."""
    from smear_dsl.records.verify import verify
    return _on_record(record_json, "verdict", lambda record: verify(record, allow_paths=False))


def replay_record(record_json: str) -> dict[str, Any]:
    """{"replay": every position (smear_dsl/records/replay.py)} or {"unreadable": why}; rules as for verify_record."""
    from smear_dsl.records.replay import replay
    return _on_record(record_json, "replay", lambda record: replay(record, allow_paths=False))


def _on_record(record_json: str, key: str, fn) -> dict[str, Any]:
    try:
        record = json.loads(record_json)
    except (json.JSONDecodeError, RecursionError):
        return {"unreadable": "record_json is not JSON"}
    try:
        return {key: fn(record)}
    except RecordError as e:
        return {"unreadable": str(e)}
    except RecursionError:
        return {"unreadable": "the record nests too deeply"}


def diagnostic(row: tuple) -> Diagnostic:
    """A diagnostic as a job returned it."""
    return Diagnostic(*row)


# ---- a search bot's move, thought in a worker process (house_bots.py)
_RULES: dict[tuple, Any] = {}  # compiled rules kept by this worker: (name, text hash, players, options) -> rules


def _worker_rules(rules_name: str | None, rules_text: str | None, players: int, options: dict[str, Any]):
    import hashlib

    from smear_dsl.compile.compiler import compile_rules
    from smear_dsl.language.pins import stored_spec
    key = (rules_name, hashlib.sha256(rules_text.encode()).hexdigest() if rules_text else None, players,
           tuple(sorted((k, str(v)) for k, v in options.items())))
    rules = _RULES.get(key)
    if rules is None:
        spec = stored_spec(rules_name or "", rules_text)  # as the table stores them (smear_dsl/language/pins.py)
        rules = compile_rules(spec, players, options)
        if len(_RULES) >= 32:
            _RULES.clear()
        _RULES[key] = rules
    return rules


def search_move(table: dict[str, Any], state: dict[str, Any] | None, log: list[tuple[int, int]], seat: int,
                kind: str, seed: int) -> dict[str, Any]:
    """{"code": the move} a search bot of `kind` makes for `seat`, or {"error": why}. The game is
    rebuilt here as the table holds it: its rules, its last hand-boundary snapshot and the moves
    since (`log`), so the serving process only sends plain data and never thinks."""
    import random

    from smear_dsl.compile.duplicate import boards
    from smear_dsl.engine import Game
    from smear_dsl.engine.snapshot import restore
    from smear_dsl.errors import MoveError, RuleError
    from smear_dsl.players.make import make_bot
    try:
        rules = _worker_rules(table["rules_name"], table["rules_text"], table["players"], table["options"])
        args = {"seed": table["seed"], "first_dealer": table["first_dealer"], "hand_limit": table["hand_limit"] or None,
                "deal_source": boards(rules, table["seed"]) if table["duplicate"] else None}
        game = restore(Game, rules, state, **args) if state is not None else Game(rules, **args)
        for s, code in log:
            game.apply(s, code)
        if game.finished or game.turn != seat:
            return {"error": f"seat {seat} is not to move in the game as sent"}
        return {"code": make_bot(kind, random.Random(seed)).choose(game)}
    except (RuleError, MoveError, ValueError, KeyError) as e:
        return {"error": f"{type(e).__name__}: {str(e)[:200]}"}
