"""smear-dsl: the rule language, compiler, engine and records of the Smear family.

One game, from a rule name to a verified record::

    import random
    from smear_dsl import load_spec, compile_rules, Game, verify
    rules = compile_rules(load_spec(name), players=4)   # name: a rule name in rules/, or a path
    game = Game(rules, seed=1)
    rng = random.Random(1)
    while not game.finished:
        game.apply(game.turn, game.random_move(rng))
    assert verify(game.to_record())["valid"]

The package is roomed by stage: language/ (rule file -> RuleSpec), expr/ (expressions),
compile/ (RuleSpec -> CompiledRules), engine/ (the game), records/ (verify, replay), players/
(bots), sheets/ (the rules read aloud), sim/ (simulations); cards, moves, errors, i18n and cli
are the ground floor (docs/architecture.md). The names below are loaded when first used, so
importing a ground-floor module stays cheap.
"""
from __future__ import annotations

from importlib import import_module

# name -> the module that defines it
_FACADE = {
    "load_spec": "smear_dsl.language.load", "spec_from_text": "smear_dsl.language.load",
    "RuleSpec": "smear_dsl.language.spec",
    "compile_rules": "smear_dsl.compile.compiler", "CompiledRules": "smear_dsl.compile.compiled",
    "check_all_setups": "smear_dsl.compile.lint",
    "Game": "smear_dsl.engine.game",
    "verify": "smear_dsl.records.verify",
    "make_bot": "smear_dsl.players.make",
    "SmearError": "smear_dsl.errors", "RuleError": "smear_dsl.errors", "OptionError": "smear_dsl.errors",
    "MoveError": "smear_dsl.errors", "RecordError": "smear_dsl.errors", "Diagnostic": "smear_dsl.errors",
}
__all__ = sorted(_FACADE)


def __getattr__(name: str) -> object:
    """`from smear_dsl import Game` and the like: the facade's names, imported on first use."""
    module = _FACADE.get(name)
    if module is None:
        raise AttributeError(f"module 'smear_dsl' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACADE))
