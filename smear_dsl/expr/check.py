"""Type-check an expression against the names a rule site may use, and prepare its closure.

`check` walks the AST once and returns the expression's type together with a `make`
function; `emit` (in emit.py) calls `make` with the compiled rule tables to get a plain
Python closure `f(env) -> value`. Checking needs no tables, so the validator can run it
before anything is compiled.
"""
from __future__ import annotations

import difflib
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .. import cards as C
from . import ast as A

if TYPE_CHECKING:  # emit imports this module
    from .emit import Tables

INT, BOOL, RANK, SUIT, CARD, OPTCARD, CARDS, STR = "int", "bool", "rank", "suit", "card", "card?", "cards", "str"

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

    def with_vars(self, **more: str) -> "Env":
        return Env({**self.vars, **more}, self.consts, self.statics, self.descr)

    def names(self) -> list[str]:
        return sorted(set(self.vars) | set(self.consts) | set(self.statics) | set(RANK_CONSTS) | set(SUIT_CONSTS) | {"jick"})


Maker = Callable[[Any], Callable[[dict], Any]]


@dataclass(frozen=True)
class Checked:
    type: str
    make: Maker


def _k(v: Any) -> Callable[[dict], Any]:
    """A constant closure, marked so that makers can fold it (partial evaluation)."""
    def f(env):
        return v
    f.const = v  # type: ignore[attr-defined]
    return f


def _fold(f: Callable[[dict], Any], *parts: Callable[[dict], Any]) -> Callable[[dict], Any]:
    """`f` itself, or its constant value when every part it reads is constant."""
    if all(hasattr(p, "const") for p in parts):
        return _k(f({}))
    return f


def _var(name: str) -> Callable[[dict], Any]:
    """A closure reading one name, marked so that makers can read the name directly instead of calling it."""
    def f(env):
        return env[name]
    f.var = name  # type: ignore[attr-defined]
    return f


def _const(v: Any) -> Maker:
    return lambda t: _k(v)


def _close(word: str, options) -> str | None:
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
            OPTCARD: "a card (or none)", CARDS: "a set of cards", STR: "a text choice"}.get(t, t.replace("list:", "a list of "))


def _type_hint(t: str) -> str | None:
    return {BOOL: "a condition compares things, e.g. `points >= bid` or `card.trump`",
            INT: "a number, e.g. `2`, `widow` or `target - 1`",
            CARD: "a card, e.g. `A of trump`, `jick` or `lowest(played where card.trump)`",
            CARDS: "a set of cards, e.g. `hand`, `played` or `hand where card.trump`",
            SUIT: "a suit: S H D C, `trump` or `lead.suit`"}.get(t)


def _as_rank(e: A.Expr) -> Checked | None:
    if isinstance(e, A.Const) and e.type == INT and 2 <= e.value <= 10:
        r = C.parse_rank(str(e.value))
        return Checked(RANK, _const(r))
    return None


def _check(e: A.Expr, env: Env) -> Checked:
    if isinstance(e, A.Const):
        return Checked(e.type, _const(e.value))
    if isinstance(e, A.Name):
        return _name(e, env)
    if isinstance(e, A.Attr):
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
        return Checked(CARD_ATTRS[e.name], _attr_maker(e.name, obj.make))
    if isinstance(e, A.Call):
        return _call(e, env)
    if isinstance(e, A.ListLit):
        return _list(e, env)
    if isinstance(e, A.CardOf):
        r = C.parse_rank(e.rank)
        if r is None:
            raise ExprTypeError(f"`{e.rank}` is not a rank", e.pos, "ranks are A K Q J T 9 8 7 6 5 4 3 2 (or 10)")
        s = check(e.suit, env, SUIT)
        return Checked(CARD, _card_of_maker(r, s.make))
    if isinstance(e, A.Neg):
        x = check(e.x, env, INT)
        return Checked(INT, lambda t, m=x.make: _neg(m(t)))
    if isinstance(e, A.BinOp):
        a, b = check(e.a, env, INT), check(e.b, env, INT)
        return Checked(INT, _binop_maker(e.op, a.make, b.make))
    if isinstance(e, A.Compare):
        return _compare(e, env)
    if isinstance(e, A.Member):
        return _member(e, env)
    if isinstance(e, A.BoolOp):
        a, b = check(e.a, env, BOOL), check(e.b, env, BOOL)
        return Checked(BOOL, _boolop_maker(e.op, a.make, b.make))
    if isinstance(e, A.Not):
        x = check(e.x, env, BOOL)
        return Checked(BOOL, lambda t, m=x.make: _not(m(t)))
    if isinstance(e, A.IfElse):
        c = check(e.cond, env, BOOL)
        a = _check(e.then, env)
        b = check(e.other, env, a.type if a.type != CARD else OPTCARD)
        typ = a.type if a.type == b.type else OPTCARD
        def make_if(t):
            fc, fa, fb = c.make(t), a.make(t), b.make(t)
            if hasattr(fc, "const"):
                return fa if fc.const else fb
            vc, va, vb = (getattr(f, "var", None) for f in (fc, fa, fb))
            if vc is not None:  # `if made then points else -bid`: the condition (and a branch) read inline
                if va is not None and vb is not None:
                    return lambda env: env[va] if env[vc] else env[vb]
                if va is not None:
                    return lambda env: env[va] if env[vc] else fb(env)
                if vb is not None:
                    return lambda env: fa(env) if env[vc] else env[vb]
                return lambda env: fa(env) if env[vc] else fb(env)
            return lambda env: fa(env) if fc(env) else fb(env)
        return Checked(typ, make_if)
    if isinstance(e, A.Where):
        s = check(e.cards, env, CARDS)
        cond = check(e.cond, env.with_vars(card=CARD), BOOL)
        vec = _vector(e.cond, env)
        if vec is not None:
            def make_vec(t, fs=s.make, fv=vec):
                f, v = fs(t), fv(t)
                n = getattr(f, "var", None)
                if n is None:
                    return lambda env: f(env) & v(env)

                def of_var(env):
                    return env[n] & v(env)
                of_var.var_and = (n, v)  # type: ignore[attr-defined]  # lets any(...) test it in one step
                return of_var
            return Checked(CARDS, make_vec)
        return Checked(CARDS, _where_maker(s.make, cond.make))
    raise ExprTypeError("unsupported expression", e.pos)  # pragma: no cover - grammar produces no other node


ALL_CARDS = (1 << 64) - 1
JOKERS = ALL_CARDS & ~((1 << C.N_SUITED) - 1)


def _is_card(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.name == "card"


def _free_of_card(e: A.Expr) -> bool:
    if _is_card(e):
        return False
    for v in vars(e).values():
        if isinstance(v, A.Expr) and not _free_of_card(v):
            return False
        if isinstance(v, tuple) and any(isinstance(x, A.Expr) and not _free_of_card(x) for x in v):
            return False
    return True


def _vector(e: A.Expr, env: Env) -> Maker | None:
    """A `where` condition as bitset algebra over all cards, when it is built from card.suit /
    card.trump / card.joker / card.rank tests against card-free values; None otherwise.
    This keeps filters like `hand where card.suit == lead.suit` to a couple of int operations."""
    if isinstance(e, A.BoolOp):
        a, b = _vector(e.a, env), _vector(e.b, env)
        if a is None or b is None:
            return None
        if e.op == "and":
            return lambda t: (lambda fa, fb: (lambda env: fa(env) & fb(env)))(a(t), b(t))
        return lambda t: (lambda fa, fb: (lambda env: fa(env) | fb(env)))(a(t), b(t))
    if isinstance(e, A.Not):
        x = _vector(e.x, env)
        return None if x is None else (lambda t: (lambda fx: (lambda env: ALL_CARDS & ~fx(env)))(x(t)))
    if isinstance(e, A.Attr) and _is_card(e.obj):
        if e.name == "trump":
            return lambda t: (lambda tm: (lambda env: tm[env["trump"] + 1]))(t.trump_mask)
        if e.name == "joker":
            return _const(JOKERS)
        return None
    if isinstance(e, A.Compare) and e.op in ("==", "!="):
        for a, b in ((e.a, e.b), (e.b, e.a)):
            if isinstance(a, A.Attr) and _is_card(a.obj) and a.name in ("suit", "rank") and _free_of_card(b):
                other = check(b, env.with_vars(card=CARD), SUIT if a.name == "suit" else RANK).make
                neg = e.op == "!="
                if a.name == "suit":
                    def make(t, other=other, neg=neg):
                        fo, sm = other(t), t.suit_masks
                        sv = getattr(fo, "suit_of_var", None)
                        if sv is not None:  # `card.suit == lead.suit`: look the lead's suit up inline
                            eff = t.eff_suit

                            def same_suit(env):
                                t1 = env["trump"] + 1
                                return sm[t1][eff[t1][env[sv]] + 1]

                            def other_suit(env):
                                t1 = env["trump"] + 1
                                return ALL_CARDS & ~sm[t1][eff[t1][env[sv]] + 1]
                            return other_suit if neg else same_suit
                        if neg:
                            return lambda env: ALL_CARDS & ~sm[env["trump"] + 1][fo(env) + 1]
                        return lambda env: sm[env["trump"] + 1][fo(env) + 1]
                    return make
                def make_r(t, other=other, neg=neg):
                    fo = other(t)
                    rm = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)) + (JOKERS,)
                    if neg:
                        return lambda env: ALL_CARDS & ~rm[fo(env)]
                    return lambda env: rm[fo(env)]
                return make_r
    return None


def _name(e: A.Name, env: Env) -> Checked:
    n = e.name
    if n in env.vars:
        return Checked(env.vars[n], lambda t, n=n: _var(n))
    if n in env.consts:
        typ, val = env.consts[n]
        return Checked(typ, _const(val))
    if n in env.statics:
        return Checked(env.statics[n], lambda t, n=n: _k(t.static[n]))
    if n in RANK_CONSTS:
        return Checked(RANK, _const(RANK_CONSTS[n]))
    if n in SUIT_CONSTS:
        return Checked(SUIT, _const(SUIT_CONSTS[n]))
    if n == "jick":
        return Checked(CARD, _card_of_maker(9, lambda t: (lambda env: C.SISTER[env["trump"]] if env["trump"] >= 0 else -1)))
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
    return Checked(ret, _call_maker(e.fn, [a.make for a in args]))


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
    makers = [c.make for c in checked]
    return Checked("list:" + typ, lambda t: (lambda fs: (lambda env: [f(env) for f in fs]))([m(t) for m in makers]))


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
    return Checked(BOOL, _compare_maker(e.op, a.make, b.make))


def _member(e: A.Member, env: Env) -> Checked:
    b = _check(e.b, env)
    if b.type == CARDS:
        a = check(e.a, env, CARD)
        mk = lambda t, fa=a.make, fb=b.make, neg=e.negate: (lambda fa, fb: (
            (lambda env: not (fb(env) >> fa(env)) & 1 if fa(env) >= 0 else True) if neg else
            (lambda env: bool((fb(env) >> fa(env)) & 1) if fa(env) >= 0 else False)))(fa(t), fb(t))
        return Checked(BOOL, mk)
    if b.type.startswith("list:"):
        a = check(e.a, env, b.type[5:])
        mk = lambda t, fa=a.make, fb=b.make, neg=e.negate: (lambda fa, fb: (
            (lambda env: fa(env) not in fb(env)) if neg else (lambda env: fa(env) in fb(env))))(fa(t), fb(t))
        return Checked(BOOL, mk)
    raise ExprTypeError(f"`in` needs a set of cards or a list on its right, not {_tname(b.type)}", e.b.pos)


# ---- closure makers (t is the compiled Tables object) ----

def _attr_maker(name: str, obj: Maker) -> Maker:
    def make(t):
        f = obj(t)
        v = getattr(f, "var", None)
        if name == "suit":
            eff = t.eff_suit
            if v is None:
                return lambda env: eff[env["trump"] + 1][f(env)]

            def suit_of_var(env):
                return eff[env["trump"] + 1][env[v]]
            suit_of_var.suit_of_var = v  # type: ignore[attr-defined]
            return suit_of_var
        if name == "rank":
            return lambda env: C.rank_of(f(env))
        if name == "trump":
            tm = t.trump_mask
            return lambda env: bool((tm[env["trump"] + 1] >> f(env)) & 1)
        if name == "joker":
            return lambda env: f(env) >= C.JOKER_BASE
        val = t.value
        return lambda env: val[f(env)]
    return make


def _card_of_maker(rank: int, suit: Maker) -> Maker:
    def make(t):
        f = suit(t)
        return lambda env: (lambda s: s * 13 + rank if s >= 0 else -1)(f(env))
    return make


def _binop_maker(op: str, a: Maker, b: Maker) -> Maker:
    def make(t):
        fa, fb = a(t), b(t)
        if op == "+":
            f = lambda env: fa(env) + fb(env)
        elif op == "-":
            f = lambda env: fa(env) - fb(env)
        elif op == "*":
            f = lambda env: fa(env) * fb(env)
        elif op == "//":
            f = lambda env: (lambda d: fa(env) // d if d else 0)(fb(env))
        else:
            f = lambda env: (lambda d: fa(env) % d if d else 0)(fb(env))
        return _fold(f, fa, fb)
    return make


_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _compare_maker(op: str, a: Maker, b: Maker) -> Maker:
    fn = _CMP[op]

    def make(t):
        fa, fb = a(t), b(t)
        if hasattr(fa, "const") and hasattr(fb, "const"):
            return _k(fn(fa.const, fb.const))
        # Operands that are plain names or constants are read inline: comparisons sit in every
        # lead rule and scoring formula, so they are worth a few specialised shapes.
        va, vb = getattr(fa, "var", None), getattr(fb, "var", None)
        if hasattr(fb, "const"):
            k = fb.const
            return (lambda env: fn(env[va], k)) if va is not None else (lambda env: fn(fa(env), k))
        if hasattr(fa, "const"):
            k = fa.const
            return (lambda env: fn(k, env[vb])) if vb is not None else (lambda env: fn(k, fb(env)))
        if va is not None and vb is not None:
            return lambda env: fn(env[va], env[vb])
        return lambda env: fn(fa(env), fb(env))
    return make


def _boolop_maker(op: str, a: Maker, b: Maker) -> Maker:
    def make(t):
        fa, fb = a(t), b(t)
        stop = op == "or"  # the value of the left side that decides alone
        if hasattr(fa, "const"):
            return _k(stop) if bool(fa.const) == stop else fb
        if hasattr(fb, "const") and bool(fb.const) != stop:
            return fa
        va, vb = getattr(fa, "var", None), getattr(fb, "var", None)
        if op == "and":
            if va is not None:  # `bidder and ...`: a name on the left is read inline
                return (lambda env: env[va] and env[vb]) if vb is not None else (lambda env: env[va] and fb(env))
            return (lambda env: fa(env) and env[vb]) if vb is not None else (lambda env: fa(env) and fb(env))
        if va is not None:
            return (lambda env: env[va] or env[vb]) if vb is not None else (lambda env: env[va] or fb(env))
        return (lambda env: fa(env) or env[vb]) if vb is not None else (lambda env: fa(env) or fb(env))
    return make


def _neg(f: Callable[[dict], Any]) -> Callable[[dict], Any]:
    v = getattr(f, "var", None)
    return _fold(lambda env: -f(env), f) if v is None else (lambda env: -env[v])


def _not(f: Callable[[dict], Any]) -> Callable[[dict], Any]:
    v = getattr(f, "var", None)
    return _fold(lambda env: not f(env), f) if v is None else (lambda env: not env[v])


def _where_maker(cards: Maker, cond: Maker) -> Maker:
    def make(t):
        fs, fc = cards(t), cond(t)

        def where(env):
            m = fs(env)
            out = 0
            saved = env.get("card")
            while m:
                low = m & -m
                env["card"] = low.bit_length() - 1
                if fc(env):
                    out |= low
                m ^= low
            env["card"] = saved
            return out
        return where
    return make


def trump_runs(t: Tables, fn: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """[trump + 1]: every trump as (bit, card), from the one `fn` ("highest" or "lowest") picks
    first to the last, ties by lower card id first as min/max keep the first of equals; the first
    of a run found in a set of trumps is that set's highest (lowest) card."""
    order, tm = t.order_key, t.trump_mask
    sign = -1 if fn == "highest" else 1
    return tuple(tuple((1 << c, c) for c in sorted(C.bits(tm[t1]), key=lambda c, k=order[t1]: (sign * k[c], c)))
                 for t1 in range(len(tm)))


def first_in(run: tuple[tuple[int, int], ...], mask: int) -> int:
    """The card of the first (bit, card) of a trump_runs run whose bit is in `mask` (-1: none)."""
    for bit, c in run:
        if mask & bit:
            return c
    return -1


def _call_maker(fn: str, args: list[Maker]) -> Maker:
    def make(t):
        fs = [m(t) for m in args]
        f0 = fs[0]
        if fn == "count":
            return lambda env: f0(env).bit_count()
        if fn == "any":
            fused = getattr(f0, "var_and", None)
            if fused is not None:  # any(hand where ...): the filter and the test in one closure
                n, v = fused
                return lambda env: (env[n] & v(env)) != 0
            return lambda env: f0(env) != 0
        if fn == "total":
            val = t.value
            return lambda env: sum(val[c] for c in C.bits(f0(env)))
        if fn in ("highest", "lowest"):
            order = t.order_key
            pick = max if fn == "highest" else min
            tm = t.trump_mask
            runs = trump_runs(t, fn)  # a set of trumps only is answered by a short scan

            def sel(env):
                m = f0(env)
                if not m:
                    return -1
                t1 = env["trump"] + 1
                if not m & ~tm[t1]:
                    return first_in(runs[t1], m)
                key = order[t1]
                return pick(C.bits(m), key=key.__getitem__)
            return sel
        if fn == "exists":
            return lambda env: f0(env) >= 0
        if fn == "sister":
            return lambda env: (lambda s: C.SISTER[s] if s >= 0 else -1)(f0(env))
        if fn == "abs":
            return lambda env: abs(f0(env))
        f1 = fs[1]
        if fn == "min":
            return lambda env: min(f0(env), f1(env))
        return lambda env: max(f0(env), f1(env))
    return make
