"""Type-check an expression against the names a rule site may use.

`check` walks the AST once, a function per kind of node, and returns the expression's type
together with the maker (built from emit.py's makers) that turns the compiled rule tables into a
plain closure `f(env) -> value`. Checking needs no tables, so the validator can run it before
anything is compiled; the closures themselves are emit.py's.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from smear_dsl import cards as C
from smear_dsl.expr import ast as A
from smear_dsl.expr import emit as E
from smear_dsl.expr.emit import Checked, Maker

INT, BOOL, RANK, SUIT, CARD, OPTCARD, CARDS, STR = "int", "bool", "rank", "suit", "card", "card?", "cards", "str"
SIDE = "side"  # a side of the table, or nobody (-1): what a point's `to` names

RANK_CONSTS = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8}
SUIT_CONSTS = {"S": 0, "H": 1, "D": 2, "C": 3, "spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}
CARD_ATTRS = {"suit": SUIT, "rank": RANK, "trump": BOOL, "joker": BOOL, "value": INT}
FUNCTIONS = {
    "count": ((CARDS,), INT, "number of cards in a set"),
    "any": ((CARDS,), BOOL, "true when a set of cards is not empty"),
    "total": ((CARDS,), INT, "sum of the card values (deck.values) of a set"),
    "highest": ((CARDS,), OPTCARD, "the highest card of a set in the current card order"),
    "lowest": ((CARDS,), OPTCARD, "the lowest card of a set in the current card order"),
    "exists": ((OPTCARD,), BOOL, "true when a selected card exists"),
    "sister": ((SUIT,), SUIT, "the other suit of the same colour"),
    "min": ((INT, INT), INT, "the smaller of two numbers"),
    "max": ((INT, INT), INT, "the larger of two numbers"),
    "abs": ((INT,), INT, "absolute value"),
}
KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "where", "of", "true", "false"}


class ExprTypeError(Exception):
    """A name or type error; `offset` is 0-based within the expression."""

    def __init__(self, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.offset, self.hint = message, offset, hint


@dataclass(frozen=True)
class Env:
    """The names an expression may use at one place in a rule file, with their types.

    `vars` are read at run time from the evaluation dict; `consts` are fixed values
    (ranks, suits, jokers, named bids); `statics` are table options and seat counts,
    folded into constants when the rules are compiled for a table.
    """

    vars: dict[str, str] = field(default_factory=dict)
    consts: dict[str, tuple[str, Any]] = field(default_factory=dict)
    statics: dict[str, str] = field(default_factory=dict)
    descr: str = "here"

    def with_vars(self, **more: str) -> Env:
        return Env({**self.vars, **more}, self.consts, self.statics, self.descr)

    def names(self) -> list[str]:
        return sorted(set(self.vars) | set(self.consts) | set(self.statics) | set(RANK_CONSTS) | set(SUIT_CONSTS) | {"jick"})


def _close(word: str, options: Iterable[str]) -> str | None:
    import difflib  # only for a misspelt name
    m = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean `{m[0]}`?" if m else None


def check(e: A.Expr, env: Env, want: str | None = None) -> Checked:
    """Type-check `e`; with `want`, also require (or coerce to) that type."""
    got = _check(e, env)
    if want is None or got.type == want:
        return got
    if want == OPTCARD and got.type == CARD:
        return got
    if want == RANK:
        co = _as_rank(e)
        if co is not None:
            return co
    raise ExprTypeError(f"expected {_tname(want)}, but this is {_tname(got.type)}", e.pos, _type_hint(want))


def _tname(t: str) -> str:
    return {INT: "a number", BOOL: "a condition (true/false)", RANK: "a rank", SUIT: "a suit", CARD: "a card",
            OPTCARD: "a card (or none)", CARDS: "a set of cards", STR: "a text choice",
            SIDE: "a side (or nobody)"}.get(t, t.replace("list:", "a list of "))


def _type_hint(t: str) -> str | None:
    return {BOOL: "a condition compares things, e.g. `points >= bid` or `card.trump`",
            INT: "a number, e.g. `2`, `widow` or `target - 1`",
            CARD: "a card, e.g. `A of trump`, `jick` or `lowest(played where card.trump)`",
            CARDS: "a set of cards, e.g. `hand`, `played` or `hand where card.trump`",
            SUIT: "a suit: S H D C, `trump` or `lead.suit`",
            SIDE: "a side: player, winner, holder, dealer, bidder or nobody, e.g. `if winner != holder then winner else nobody`"}.get(t)


def _as_rank(e: A.Expr) -> Checked | None:
    if isinstance(e, A.Const) and e.type == INT and 2 <= e.value <= 10:
        r = C.parse_rank(str(e.value))
        return Checked(RANK, E.const(r))
    return None


def _check(e: A.Expr, env: Env) -> Checked:
    """The type and closure maker of one node, by its kind (as lark dispatches by rule name)."""
    try:
        node_check = _CHECKS[type(e)]
    except KeyError:  # pragma: no cover - the grammar produces no other node
        raise ExprTypeError("unsupported expression", e.pos) from None
    return node_check(e, env)


def _const_node(e: A.Const, env: Env) -> Checked:
    return Checked(e.type, E.const(e.value))


def _attr(e: A.Attr, env: Env) -> Checked:
    obj = _check(e.obj, env)
    if obj.type == OPTCARD:
        raise ExprTypeError(f"`.{e.name}` of a card that may not exist", e.pos,
                            "test it with exists(...) first, or select from a set that cannot be empty")
    if obj.type != CARD:
        raise ExprTypeError(f"{_tname(obj.type)} has no attribute `{e.name}`", e.pos,
                            "only cards have attributes: " + ", ".join(f"card.{a}" for a in CARD_ATTRS))
    if e.name not in CARD_ATTRS:
        raise ExprTypeError(f"a card has no attribute `{e.name}`", e.pos,
                            _close(e.name, CARD_ATTRS) or "card attributes: " + ", ".join(CARD_ATTRS))
    return Checked(CARD_ATTRS[e.name], E.attr(e.name, obj.make))


def _card_of(e: A.CardOf, env: Env) -> Checked:
    r = C.parse_rank(e.rank)
    if r is None:
        raise ExprTypeError(f"`{e.rank}` is not a rank", e.pos, "ranks are A K Q J T 9 8 7 6 5 4 3 2 (or 10)")
    return Checked(CARD, E.card_of(r, check(e.suit, env, SUIT).make))


def _neg(e: A.Neg, env: Env) -> Checked:
    return Checked(INT, E.neg(check(e.x, env, INT).make))


def _binop(e: A.BinOp, env: Env) -> Checked:
    return Checked(INT, E.binop(e.op, check(e.a, env, INT).make, check(e.b, env, INT).make))


def _boolop(e: A.BoolOp, env: Env) -> Checked:
    return Checked(BOOL, E.boolop(e.op, check(e.a, env, BOOL).make, check(e.b, env, BOOL).make))


def _not(e: A.Not, env: Env) -> Checked:
    return Checked(BOOL, E.not_(check(e.x, env, BOOL).make))


def _ifelse(e: A.IfElse, env: Env) -> Checked:
    c = check(e.cond, env, BOOL)
    a = _check(e.then, env)
    b = check(e.other, env, a.type if a.type != CARD else OPTCARD)
    return Checked(a.type if a.type == b.type else OPTCARD, E.ifelse(c.make, a.make, b.make))


def _where(e: A.Where, env: Env) -> Checked:
    s = check(e.cards, env, CARDS)
    cond = check(e.cond, env.with_vars(card=CARD), BOOL)
    vec = vector(e.cond, env.with_vars(card=CARD))
    return Checked(CARDS, E.where_vector(s.make, vec) if vec is not None else E.where(s.make, cond.make))


def uses(e: A.Expr, name: str) -> bool:
    """Whether `e` reads the name `name` (a `where` binds `card` in its condition: that one is its own)."""
    if isinstance(e, A.Name):
        return e.name == name
    if isinstance(e, A.Where) and name == "card":
        return uses(e.cards, name)
    return any(uses(x, name) for x in A.children(e))


def _of(e: A.Expr, subject: str, attrs: tuple[str, ...]) -> str | None:
    """The attribute of `subject` that `e` is (`card.suit`: "suit"), if it is one of `attrs`."""
    if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name == subject and e.name in attrs:
        return e.name
    return None


def vector(e: A.Expr, env: Env, subject: str = "card", masks: dict[str, str] | None = None) -> Maker | None:
    """A test of one card (named `subject`) as bitset algebra over all cards: a closure giving the set of
    cards it holds for, in a few int operations, or None where it reads the card in another way. Parts
    that do not read the card (`count(hand where card.trump) > 6`) are worked out once, for all cards.
    `masks` names per-card truths the caller gives as a set (a follow rule's `wins`: the env entry holding
    the cards that would win). tests/engine/test_card_sets.py holds every shipped rule to its card-by-card
    answer."""
    masks = masks or {}

    def free(x: A.Expr) -> bool:
        return not uses(x, subject) and not any(uses(x, m) for m in masks)

    if free(e):
        try:
            return E.vec_bool(check(e, env, BOOL).make)  # the same for every card: all of them or none
        except ExprTypeError:
            return None
    if isinstance(e, A.BoolOp) and e.op == "and":
        return _vector_all(_conjuncts(e), env, subject, masks, free)
    if isinstance(e, A.BoolOp):
        a, b = vector(e.a, env, subject, masks), vector(e.b, env, subject, masks)
        if a is None or b is None:
            return None
        return E.vec_or(a, b)  # an `and` chain was taken above
    if isinstance(e, A.Not):
        x = vector(e.x, env, subject, masks)
        return None if x is None else E.vec_not(x)
    if isinstance(e, A.Name) and e.name in masks:
        return E.var(masks[e.name])  # the caller's set of cards, read as it is
    attr = _of(e, subject, ("trump", "joker"))
    if attr is not None:
        return E.vec_trump() if attr == "trump" else E.const(E.JOKERS)
    if isinstance(e, A.Compare) and e.op in ("==", "!="):
        for one, two in ((e.a, e.b), (e.b, e.a)):
            if not free(two):
                continue
            attr = _of(one, subject, ("suit", "rank"))
            if attr is not None:
                other = check(two, env, SUIT if attr == "suit" else RANK).make
                return (E.vec_suit if attr == "suit" else E.vec_rank)(other, e.op == "!=")
            if isinstance(one, A.Name) and one.name == subject:
                return E.vec_card(check(two, env, OPTCARD).make, e.op == "!=")
    if isinstance(e, A.Member) and free(e.b):
        attr = _of(e.a, subject, ("suit", "rank"))
        if attr is not None:
            listed = _check(e.b, env)
            if listed.type == ("list:" + (SUIT if attr == "suit" else RANK)):
                return (E.vec_suit_in if attr == "suit" else E.vec_rank_in)(listed.make, e.negate)
        if isinstance(e.a, A.Name) and e.a.name == subject:
            return E.vec_in(check(e.b, env, CARDS).make, e.negate)
    return None


def guard_of(e: A.Expr, env: Env, never: frozenset[str]) -> tuple[Checked, frozenset[str]] | None:
    """The parts of `e`'s top-level `and`s that read none of `never`, joined by `and` and checked as a
    truth, and the names they read (None: no such part): where it is false so is `e`, whatever `never`
    holds, so an engine may skip working those out (a follow rule's parts that read only the trick)."""
    parts = [x for x in _conjuncts(e) if not A.names_in(x) & never]
    if not parts:
        return None
    joined = parts[0]
    for x in parts[1:]:
        joined = A.BoolOp(x.pos, "and", joined, x)
    try:
        return check(joined, env, BOOL), A.names_in(joined)
    except ExprTypeError:
        return None


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    """The parts of a chain of `and`s, in order (`a and b and c`: a, b, c)."""
    if isinstance(e, A.BoolOp) and e.op == "and":
        return _conjuncts(e.a) + _conjuncts(e.b)
    return [e]


def _vector_all(parts: list[A.Expr], env: Env, subject: str, masks: dict[str, str], free: Callable[[A.Expr], bool]) -> Maker | None:
    """`a and b and ...` as one closure: the parts that do not read the card first, as plain truths
    (one false: no card), then the others' sets intersected until none is left."""
    guards, sets = [], []
    for x in parts:
        if free(x):
            try:
                guards.append(check(x, env, BOOL).make)
            except ExprTypeError:
                return None
        else:
            v = vector(x, env, subject, masks)
            if v is None:
                return None
            sets.append(v)
    return E.vec_all(guards, sets)


def _name(e: A.Name, env: Env) -> Checked:
    n = e.name
    if n in env.vars:
        return Checked(env.vars[n], E.var(n))
    if n in env.consts:
        typ, val = env.consts[n]
        return Checked(typ, E.const(val))
    if n in env.statics:
        return Checked(env.statics[n], E.static(n))
    if n in RANK_CONSTS:
        return Checked(RANK, E.const(RANK_CONSTS[n]))
    if n in SUIT_CONSTS:
        return Checked(SUIT, E.const(SUIT_CONSTS[n]))
    if n == "jick":
        return Checked(CARD, E.jick())
    if n in FUNCTIONS:
        raise ExprTypeError(f"`{n}` is a function", e.pos, f"call it: {n}(...)")
    hint = _close(n, env.names())
    raise ExprTypeError(f"unknown name `{n}` {env.descr}", e.pos,
                        hint or "names usable here: " + ", ".join(sorted(set(env.vars) | set(env.statics))))


def _call(e: A.Call, env: Env) -> Checked:
    if e.fn not in FUNCTIONS:
        raise ExprTypeError(f"unknown function `{e.fn}`", e.pos, _close(e.fn, FUNCTIONS) or "functions: " + ", ".join(FUNCTIONS))
    params, ret, _doc = FUNCTIONS[e.fn]
    if len(e.args) != len(params):
        raise ExprTypeError(f"`{e.fn}` takes {len(params)} argument(s), got {len(e.args)}", e.pos)
    args = [check(a, env, p) for a, p in zip(e.args, params)]
    return Checked(ret, E.call(e.fn, [a.make for a in args]))


def _list(e: A.ListLit, env: Env) -> Checked:
    if not e.items:
        raise ExprTypeError("empty list", e.pos)
    checked = [_check(i, env) for i in e.items]
    types = {c.type for c in checked}
    if RANK in types:
        checked = [check(i, env, RANK) for i in e.items]
        types = {RANK}
    if len(types) != 1 or types & {CARDS, OPTCARD}:
        raise ExprTypeError("list items must all have the same simple type", e.pos)
    typ = types.pop()
    return Checked("list:" + typ, E.list_of([c.make for c in checked]))


def _compare(e: A.Compare, env: Env) -> Checked:
    a, b = _check(e.a, env), _check(e.b, env)
    if a.type == RANK and b.type == INT:
        b = check(e.b, env, RANK)
    elif b.type == RANK and a.type == INT:
        a = check(e.a, env, RANK)
    ta, tb = a.type, b.type
    if {ta, tb} == {CARD, OPTCARD}:
        ta = tb = OPTCARD
    if ta != tb:
        raise ExprTypeError(f"cannot compare {_tname(ta)} with {_tname(tb)}", e.pos)
    if e.op not in ("==", "!=") and ta not in (INT, RANK):
        raise ExprTypeError(f"`{e.op}` compares numbers or ranks, not {_tname(ta)}", e.pos, "use == or != here")
    return Checked(BOOL, E.compare(e.op, a.make, b.make))


def _member(e: A.Member, env: Env) -> Checked:
    b = _check(e.b, env)
    if b.type == CARDS:
        return Checked(BOOL, E.member_cards(check(e.a, env, CARD).make, b.make, e.negate))
    if b.type.startswith("list:"):
        return Checked(BOOL, E.member_list(check(e.a, env, b.type[5:]).make, b.make, e.negate))
    raise ExprTypeError(f"`in` needs a set of cards or a list on its right, not {_tname(b.type)}", e.b.pos)


_CHECKS: dict[type, Callable[[Any, Env], Checked]] = {
    A.Const: _const_node, A.Name: _name, A.Attr: _attr, A.Call: _call, A.ListLit: _list, A.CardOf: _card_of,
    A.Neg: _neg, A.BinOp: _binop, A.Compare: _compare, A.Member: _member, A.BoolOp: _boolop, A.Not: _not,
    A.IfElse: _ifelse, A.Where: _where,
}
