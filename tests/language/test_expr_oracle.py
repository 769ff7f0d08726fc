"""The expression closures against a plain tree-walking evaluator, on random well-typed expressions.

The checker builds closures specialised for common shapes (constant folding, names read inline,
`where` filters as bitset algebra, trump-only highest/lowest as a scan). `evaluate` below is an
independent reading of docs/rule-language.md's semantics, written as simply as possible: it walks
the AST, and every closure must agree with it on every random expression and situation."""
from __future__ import annotations

import dataclasses
import random

from conftest import ROOT, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear_dsl import cards as C
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.expr import ast as A
from smear_dsl.expr.check import BOOL, CARD, CARDS, INT, SUIT, Env, ExprTypeError, check
from smear_dsl.expr.emit import emit
from smear_dsl.expr.parse import ExprSyntaxError, parse_expr
from smear_dsl.language.load import load_spec

RULES = compile_rules(load_spec(str(ROOT / "tests" / "rules_extra" / "ten_point_sketch.yaml")), 4, {})  # jick, jokers
STATIC = {"widow": 2}
T = dataclasses.replace(RULES.tables, static={**RULES.tables.static, **STATIC})
ENV = Env({"lead": CARD, "hand": CARDS, "discarded": CARDS, "trick": INT, "trump": SUIT, "is_bidder": BOOL,
           "bid": INT}, {}, {"widow": INT}, "in this test")
RANKS = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8}
SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


# ---------------------------------------------------------------- the plain evaluator

def rank_value(e: A.Expr, env: dict) -> int:
    """A rank: `card.rank`, a rank name, or a number 2..10 written where a rank is meant."""
    if isinstance(e, A.Const):
        return C.parse_rank(str(e.value))
    return evaluate(e, env)


def is_rank(e: A.Expr) -> bool:
    return (isinstance(e, A.Attr) and e.name == "rank") or (isinstance(e, A.Name) and e.name in RANKS)


def evaluate(e: A.Expr, env: dict):
    t1 = env["trump"] + 1
    if isinstance(e, A.Const):
        return e.value
    if isinstance(e, A.Name):
        n = e.name
        if n in env:
            return env[n]
        if n in STATIC:
            return STATIC[n]
        if n in RANKS:
            return RANKS[n]
        if n in SUITS:
            return SUITS[n]
        assert n == "jick"
        return C.SISTER[env["trump"]] * 13 + 9 if env["trump"] >= 0 else -1
    if isinstance(e, A.Attr):
        c = evaluate(e.obj, env)
        return {"suit": lambda: T.eff_suit[t1][c], "rank": lambda: C.rank_of(c),
                "trump": lambda: bool(T.trump_mask[t1] >> c & 1), "joker": lambda: c >= C.JOKER_BASE,
                "value": lambda: T.value[c]}[e.name]()
    if isinstance(e, A.CardOf):
        s = evaluate(e.suit, env)
        return s * 13 + C.parse_rank(e.rank) if s >= 0 else -1
    if isinstance(e, A.Neg):
        return -evaluate(e.x, env)
    if isinstance(e, A.BinOp):
        a, b = evaluate(e.a, env), evaluate(e.b, env)
        if e.op in ("//", "%") and b == 0:
            return 0
        return {"+": a + b, "-": a - b, "*": a * b}.get(e.op) if e.op in "+-*" else (a // b if e.op == "//" else a % b)
    if isinstance(e, A.Compare):
        if is_rank(e.a) or is_rank(e.b):
            a, b = rank_value(e.a, env), rank_value(e.b, env)
        else:
            a, b = evaluate(e.a, env), evaluate(e.b, env)
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
    if isinstance(e, A.Member):
        c, s = evaluate(e.a, env), evaluate(e.b, env)
        inside = c >= 0 and bool(s >> c & 1)
        return not inside if e.negate else inside
    if isinstance(e, A.BoolOp):
        a = evaluate(e.a, env)
        if e.op == "and":
            return evaluate(e.b, env) if a else a
        return a if a else evaluate(e.b, env)
    if isinstance(e, A.Not):
        return not evaluate(e.x, env)
    if isinstance(e, A.IfElse):
        return evaluate(e.then, env) if evaluate(e.cond, env) else evaluate(e.other, env)
    if isinstance(e, A.Where):
        return sum(1 << c for c in C.bits(evaluate(e.cards, env)) if evaluate(e.cond, {**env, "card": c}))
    assert isinstance(e, A.Call)
    args = [evaluate(a, env) for a in e.args]
    if e.fn in ("highest", "lowest"):
        cards = sorted(C.bits(args[0]))
        if not cards:
            return -1
        key = T.order_key[t1]
        best = max(key[c] for c in cards) if e.fn == "highest" else min(key[c] for c in cards)
        return next(c for c in cards if key[c] == best)  # of equals, the lowest card id
    return {"count": lambda: args[0].bit_count(), "any": lambda: args[0] != 0,
            "total": lambda: sum(T.value[c] for c in C.bits(args[0])), "exists": lambda: args[0] >= 0,
            "sister": lambda: C.SISTER[args[0]] if args[0] >= 0 else -1, "abs": lambda: abs(args[0]),
            "min": lambda: min(args), "max": lambda: max(args)}[e.fn]()


# ---------------------------------------------------------------- random expressions

def texts(card_bound: bool):
    """Strategies for expression texts of each type; `card_bound`: inside a `where`, `card` exists."""
    leaf_card = ["lead", "A of trump", "7 of S", "J of sister(trump)", "jick", "Q of H"] + (["card"] if card_bound else [])
    leaf_suit = ["trump", "lead.suit", "S", "H", "diamonds"] + (["card.suit"] if card_bound else [])
    leaf_int = ["0", "1", "2", "7", "trick", "bid", "widow"] + (["card.value"] if card_bound else [])
    leaf_bool = ["true", "false", "is_bidder", "lead.trump", "lead.joker"] + (["card.trump", "card.joker"] if card_bound else [])
    leaf_cards = ["hand", "discarded"]
    rank_side = st.sampled_from(["lead.rank", "A", "T", "7", "2", "10"] + (["card.rank"] if card_bound else []))

    def build(kids):
        # Operands are often plain leaves: the closures specialise exactly those shapes (a name
        # against a constant, two names, ...), so they must come up often.
        ints = st.one_of(st.sampled_from(leaf_int), kids["int"])
        bools = st.one_of(st.sampled_from(leaf_bool), kids["bool"])
        cards, suits = kids["cards"], st.one_of(st.sampled_from(leaf_suit), kids["suit"])
        card = st.one_of(st.sampled_from(leaf_card), kids["card"])
        optcard = st.builds(lambda f, s: f"{f}({s})", st.sampled_from(["highest", "lowest"]), cards)
        return {
            "int": st.one_of(st.sampled_from(leaf_int),
                             st.builds(lambda a, op, b: f"({a} {op} {b})", ints, st.sampled_from(["+", "-", "*", "//", "%"]), ints),
                             st.builds(lambda a: f"-{a}", ints),
                             st.builds(lambda f, s: f"{f}({s})", st.sampled_from(["count", "total"]), cards),
                             st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["min", "max"]), ints, ints),
                             st.builds(lambda a: f"abs({a})", ints),
                             st.builds(lambda c, a, b: f"(if {c} then {a} else {b})", bools, ints, ints)),
            "bool": st.one_of(st.sampled_from(leaf_bool),
                              st.builds(lambda a, op, b: f"{a} {op} {b}", ints, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints),
                              st.builds(lambda a, op, b: f"{a} {op} {b}", rank_side, st.sampled_from(["==", "!=", "<", ">="]), rank_side),
                              st.builds(lambda a, op, b: f"{a} {op} {b}", suits, st.sampled_from(["==", "!="]), suits),
                              st.builds(lambda c, neg, s: f"{c} {'not in' if neg else 'in'} {s}", card, st.booleans(), cards),
                              st.builds(lambda s: f"any({s})", cards),
                              st.builds(lambda s: f"exists({s})", optcard),
                              st.builds(lambda a: f"not ({a})", bools),
                              st.builds(lambda a, op, b: f"({a} {op} {b})", bools, st.sampled_from(["and", "or"]), bools)),
            "cards": st.one_of(st.sampled_from(leaf_cards),
                               st.builds(lambda s, c: f"({s} where {c})", cards, kids["cond"])),
            "suit": st.one_of(st.sampled_from(leaf_suit), st.builds(lambda s: f"sister({s})", suits)),
            "card": st.one_of(st.sampled_from(leaf_card),
                              st.builds(lambda r, s: f"{r} of {s}", st.sampled_from(["A", "K", "9", "J"]), suits)),
            "cond": kids["cond"],
        }
    return build


def typed(depth: int, card_bound: bool = False) -> dict:
    """Strategies by type, nested up to `depth`."""
    base = {"int": st.sampled_from(["1", "trick", "bid"]), "bool": st.sampled_from(["true", "is_bidder"]),
            "cards": st.sampled_from(["hand", "discarded"]), "suit": st.sampled_from(["trump", "S"]),
            "card": st.sampled_from(["lead", "jick"]), "cond": st.sampled_from(["card.trump", "card.suit == lead.suit"])}
    level = base
    for _ in range(depth):
        inner = dict(level)
        inner["cond"] = st.one_of(level["cond"], texts(True)(dict(typed_cond_kids(level)))["bool"])
        level = texts(card_bound)(inner)
    return level


def typed_cond_kids(level: dict) -> dict:
    """The same strategies, seen from inside a `where` (conditions may read `card`)."""
    return {**level, "card": st.one_of(level["card"], st.just("card")),
            "suit": st.one_of(level["suit"], st.just("card.suit")), "bool": st.one_of(level["bool"], st.just("card.trump"))}


STRATEGIES = typed(2)


def situations(rng: random.Random, n: int) -> list[dict]:
    deck = list(RULES.deck.cards)
    out = []
    for _ in range(n):
        hand = rng.sample(deck, rng.randint(0, 9))
        rest = [c for c in deck if c not in hand]
        out.append({"hand": C.mask_of(hand), "discarded": C.mask_of(rng.sample(rest, rng.randint(0, 3))),
                    "lead": rng.choice(deck), "trick": rng.randint(1, 6), "trump": rng.randint(-1, 3),
                    "is_bidder": rng.random() < 0.5, "bid": rng.randint(0, 6)})
    return out


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(kind=st.sampled_from(["int", "bool", "cards", "suit", "card"]), data=st.data(), seed=st.integers(0, 2**32))
def test_every_closure_agrees_with_the_plain_evaluator(kind, data, seed):
    text = data.draw(STRATEGIES[kind])
    try:
        ast = parse_expr(text)
        checked = check(ast, ENV)
    except (ExprSyntaxError, ExprTypeError):
        return  # a combination the language refuses (rare: the generator follows the types)
    f = emit(checked, T)
    for env in situations(random.Random(seed), 8):
        want = evaluate(ast, dict(env))
        got = f(dict(env))
        assert got == want, f"{text!r} at {env}: closure {got!r}, evaluator {want!r}"
