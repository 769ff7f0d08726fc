"""A rule file that checks clean never crashes at play: hypothesis writes rule files from the
rule-file schema (rulefile.py) by changing parts of the shipped ones with values the schema
allows (expressions from a pool of those the family uses, for the same type and context), and
every file `check` accepts plays random games to the end, or to a hand limit, without an exception.

SMEAR_GENERATED_RULES=N runs N files (default 150 here; thousands in a long run)."""
from __future__ import annotations

import os
import random
import signal
from collections import defaultdict

import pytest
import yaml
from conftest import ROOT, RULE_FILES, examples, schema_expressions
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.compile.lint import check_all_setups
from smear_dsl.engine import Game
from smear_dsl.errors import RuleError
from smear_dsl.language import rulefile as RF
from smear_dsl.language import schema as S
from smear_dsl.language.load import spec_from_text

EXAMPLES = int(os.environ.get("SMEAR_GENERATED_RULES", examples(150)))
BASES = {name: yaml.safe_load((ROOT / "rules" / f"{name}.yaml").read_text()) for name in RULE_FILES}
EXTRA = [yaml.safe_load(p.read_text()) for p in sorted((ROOT / "tests" / "rules_extra").glob("*.yaml"))]


POOL: dict[tuple[str, str], set[str]] = defaultdict(set)
for _doc in [*BASES.values(), *EXTRA]:
    for _schema, _text in schema_expressions(RF.RULES, _doc, []):
        POOL[(_schema.type, _schema.context)].add(_text)
LITERALS = {"int": ["0", "1", "2", "3", "4", "6", "13", "-1", "players", "players - 1", "widow"],
            "bool": ["true", "false"], "card?": ["A of trump", "2 of trump", "jick", "lowest(played where card.trump)"],
            "str": ['"first"', '"last"'], "any": ["1", "true", "card.trump", "bid + 1"]}


def expressions(type_: str, context: str) -> st.SearchStrategy[str]:
    same = sorted(POOL[(type_, context)])
    typed = sorted({t for (ty, _c), texts in POOL.items() if ty == type_ for t in texts})
    return st.sampled_from(same + typed + LITERALS.get(type_, ["1"]))


KEYS = ["high", "low", "jack", "game", "jick", "joker", "widow", "smudge", "x", "A", "JK", "BJ"]


def values(schema: S.Schema, depth: int = 0) -> st.SearchStrategy:
    """Values the schema allows (and a few it does not: the checker must refuse those cleanly)."""
    if isinstance(schema, S.Expr):
        return expressions(schema.type, schema.context)
    if isinstance(schema, S.Enum):
        return st.sampled_from(list(schema.values))
    if isinstance(schema, S.Int):
        return st.integers(-1 if schema.lo is None else schema.lo - 1, 14 if schema.hi is None else schema.hi + 1)
    if isinstance(schema, S.Bool):
        return st.booleans()
    if isinstance(schema, S.Str):
        return st.sampled_from(["x", "Our house", "A", ""])
    if isinstance(schema, S.Any_):
        return st.one_of(st.integers(-1, 14), st.sampled_from(["A", "K", "T", "2", "JK", "jick", "S"]), st.booleans())
    if depth > 3:
        return st.none()
    if isinstance(schema, S.ListOf):
        return st.lists(values(schema.item, depth + 1), min_size=schema.min_items, max_size=4)
    if isinstance(schema, S.OneOf):
        return st.one_of([values(alt, depth + 1) for _k, alt in schema.alts])
    if isinstance(schema, S.Dict):
        return st.dictionaries(st.sampled_from(KEYS), values(schema.value, depth + 1), max_size=3)
    if isinstance(schema, S.Tagged):
        return st.one_of([st.fixed_dictionaries({k: values(v, depth + 1)}) for k, v in schema.kinds.items()])
    if isinstance(schema, S.Map):
        required = {k: values(f.schema, depth + 1) for k, f in schema.fields.items() if f.required}
        optional = {k: values(f.schema, depth + 1) for k, f in schema.fields.items() if not f.required}
        return st.fixed_dictionaries(required, optional=optional)
    return st.none()


@st.composite
def rule_files(draw) -> str:
    """A shipped rule file with one to three parts replaced: a whole key, or one field inside it."""
    doc = draw(st.sampled_from([dict(BASES[n]) for n in RULE_FILES]))
    for _ in range(draw(st.integers(1, 3))):
        # Begging needs a file built for it (no bidding, a turned-up trump, a gift point): added to any
        # other file it is only refused, so it is changed where the file begs already.
        key = draw(st.sampled_from(sorted(k for k in RF.RULES.fields if k not in ("extends", "name")
                                          and (k != "beg" or "beg" in doc))))
        field = RF.RULES.fields[key].schema
        inner = field if isinstance(field, S.Map) else None
        if inner is not None and isinstance(doc.get(key), dict) and draw(st.booleans()):
            sub = draw(st.sampled_from(sorted(inner.fields)))
            doc[key] = {**doc[key], sub: draw(values(inner.fields[sub].schema))}
        else:
            doc[key] = draw(values(field))
    return yaml.safe_dump(doc, sort_keys=False)


def play_everything(text: str, games: int = 50) -> int:
    """Random games under every seat count with random option values; the moves played."""
    spec = spec_from_text(text, "generated.yaml", known_parents_only=True)
    if check_all_setups(spec):
        return -1
    rng, moves = random.Random(text), 0
    for g in range(games):
        players = spec.players[g % len(spec.players)]
        options = {o.name: rng.choice(o.choices) if o.type == "choice" else rng.random() < 0.5 if o.type == "bool"
                   else rng.randint(o.min, o.max) for o in spec.options}
        game = Game(compile_rules(spec, players, options), seed=g, hand_limit=12)
        while not game.finished and game.moves_played < 3000:
            game.apply(game.turn, game.random_move(rng))
        moves += game.moves_played
    return moves


class TooSlow(Exception):
    """A file whose games take more than SECONDS_PER_FILE: not a crash. (Enumerating the legal
    discards of a large hand is exponential today; issue 16 makes that linear.)"""


SECONDS_PER_FILE = 5.0


def _too_slow(_signum, _frame):
    raise TooSlow


def test_rule_files_that_check_clean_play_without_an_exception():
    clean: list[str] = []
    slow: list[str] = []

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])  # a failure shows its file whole
    @given(rule_files())
    def run(text: str) -> None:
        old = signal.signal(signal.SIGALRM, _too_slow)
        signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_FILE)
        try:
            played = play_everything(text)
        except RuleError:
            return  # refused with located errors: what a bad file must get
        except TooSlow:
            slow.append(text)
            return
        except Exception as e:  # a crash at play after a clean check, or an unlocated refusal
            pytest.fail(f"{type(e).__name__}: {e}\n--- the rule file ---\n{text}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        if played >= 0:
            clean.append(text)

    run()
    assert len(slow) <= EXAMPLES // 20, f"{len(slow)} files were too slow to play, e.g.\n{slow[:1]}"
    assert len(clean) >= EXAMPLES // 8, f"only {len(clean)} of {EXAMPLES} generated files checked clean"
