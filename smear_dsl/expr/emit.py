"""Closures over the compiled rule tables: every expression becomes a plain `f(env) -> value`.

check.py decides types and which maker builds each node; the makers here build the closures,
specialised for the shapes that run most (constants folded, names read inline, `where` filters
as bitset algebra, highest/lowest of trumps as a scan). A maker takes the compiled `Tables` and
returns the closure; `emit` runs the maker of a checked expression. tests/language/test_expr_oracle.py
holds every closure to a plain tree-walking evaluator.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from smear_dsl import cards as C

Env = dict[str, Any]  # the names an expression reads
Maker = Callable[[Any], Callable[[Env], Any]]


@dataclass(frozen=True)
class Checked:
    """An expression's type and the maker that emit runs to get its closure (check.py builds it)."""

    type: str
    make: Maker


@dataclass(frozen=True)
class Tables:
    """What card attributes need at run time, indexed by trump + 1 (0 = no trump yet)."""

    eff_suit: tuple[tuple[int, ...], ...]
    trump_mask: tuple[int, ...]
    order_key: tuple[tuple[int, ...], ...]
    value: tuple[int, ...]
    static: dict[str, Any]
    suit_masks: tuple[tuple[int, ...], ...] = ()  # [trump + 1][suit + 1]: cards of that effective suit (-1: none)


def emit(checked: Checked, tables: Tables) -> Callable[[Env], Any]:
    """The closure `f(env)` for a checked expression."""
    return checked.make(tables)


ALL_CARDS = (1 << 64) - 1
JOKERS = ALL_CARDS & ~((1 << C.N_SUITED) - 1)


def const_fn(v: Any) -> Callable[[Env], Any]:
    """A constant closure, marked so that makers can fold it (partial evaluation)."""
    def f(env: Env) -> Any:
        return v
    f.const = v  # type: ignore[attr-defined]
    return f


def fold(f: Callable[[Env], Any], *parts: Callable[[Env], Any]) -> Callable[[Env], Any]:
    """`f` itself, or its constant value when every part it reads is constant."""
    if all(hasattr(p, "const") for p in parts):
        return const_fn(f({}))
    return f


def var_fn(name: str) -> Callable[[Env], Any]:
    """A closure reading one name, marked so that makers can read the name directly instead of calling it."""
    def f(env: Env) -> Any:
        return env[name]
    f.var = name  # type: ignore[attr-defined]
    return f


def const(v: Any) -> Maker:
    return lambda t: const_fn(v)


def attr(name: str, obj: Maker) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        f = obj(t)
        v = getattr(f, "var", None)
        if name == "suit":
            eff = t.eff_suit
            if v is None:
                return lambda env: eff[env["trump"] + 1][f(env)]

            def suit_of_var(env: Env) -> Any:
                return eff[env["trump"] + 1][env[v]]
            suit_of_var.suit_of_var = v  # type: ignore[attr-defined]
            return suit_of_var
        if name == "rank":
            return lambda env: C.rank_of(f(env))
        if name == "trump":
            tm = t.trump_mask
            if v is not None:  # lead.trump: the name read directly
                return lambda env: (tm[env["trump"] + 1] >> env[v]) & 1 != 0
            return lambda env: bool((tm[env["trump"] + 1] >> f(env)) & 1)
        if name == "joker":
            return lambda env: f(env) >= C.JOKER_BASE
        val = t.value
        return lambda env: val[f(env)]
    return make


def card_of(rank: int, suit: Maker) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        f = suit(t)
        return lambda env: (lambda s: s * 13 + rank if s >= 0 else -1)(f(env))
    return make


def binop(op: str, a: Maker, b: Maker) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
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
        return fold(f, fa, fb)
    return make


_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def compare(op: str, a: Maker, b: Maker) -> Maker:
    fn = _CMP[op]

    def make(t: Tables) -> Callable[[Env], Any]:
        fa, fb = a(t), b(t)
        if hasattr(fa, "const") and hasattr(fb, "const"):
            return const_fn(fn(fa.const, fb.const))
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


def boolop(op: str, a: Maker, b: Maker) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        fa, fb = a(t), b(t)
        stop = op == "or"  # the value of the left side that decides alone
        if hasattr(fa, "const"):
            return const_fn(stop) if bool(fa.const) == stop else fb
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


def negate(f: Callable[[Env], Any]) -> Callable[[Env], Any]:
    v = getattr(f, "var", None)
    return fold(lambda env: -f(env), f) if v is None else (lambda env: -env[v])


def invert(f: Callable[[Env], Any]) -> Callable[[Env], Any]:
    v = getattr(f, "var", None)
    return fold(lambda env: not f(env), f) if v is None else (lambda env: not env[v])


def where(cards: Maker, cond: Maker) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        fs, fc = cards(t), cond(t)

        def where(env: Env) -> Any:
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
    return tuple(tuple((1 << c, c) for c in sorted(C.bits(tm[t1]), key=lambda c: (sign * order[t1][c], c)))
                 for t1 in range(len(tm)))


def first_in(run: tuple[tuple[int, int], ...], mask: int) -> int:
    """The card of the first (bit, card) of a trump_runs run whose bit is in `mask` (-1: none)."""
    for bit, c in run:
        if mask & bit:
            return c
    return -1


def call(fn: str, args: list[Maker]) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        fs = [m(t) for m in args]
        f0 = fs[0]
        if fn == "count":
            fused = getattr(f0, "var_and", None)
            if fused is not None:  # count(hand where ...): the filter and the count in one closure
                n, v = fused
                return lambda env: (env[n] & v(env)).bit_count()
            name = getattr(f0, "var", None)
            if name is not None:  # count(hand): the name read directly
                return lambda env: env[name].bit_count()
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

            def sel(env: Env) -> Any:
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
        for a, b in ((f0, f1), (f1, f0)):  # min(6, x): a bound and a value, compared inline
            if hasattr(a, "const") and not hasattr(b, "const"):
                k = a.const
                if fn == "min":
                    return lambda env: k if (x := b(env)) > k else x
                return lambda env: k if (x := b(env)) < k else x
        if fn == "min":
            return lambda env: min(f0(env), f1(env))
        return lambda env: max(f0(env), f1(env))
    return make


def var(name: str) -> Maker:
    """A name read from the evaluation dict."""
    return lambda t: var_fn(name)


def static(name: str) -> Maker:
    """A table option or seat count: a constant once the rules are compiled for a table."""
    return lambda t: const_fn(t.static[name])


def jick() -> Maker:
    """The jack of the trump's sister suit (none before trump is known)."""
    return card_of(9, lambda t: (lambda env: C.SISTER[env["trump"]] if env["trump"] >= 0 else -1))


def neg(x: Maker) -> Maker:
    return lambda t: negate(x(t))


def not_(x: Maker) -> Maker:
    return lambda t: invert(x(t))


def ifelse(c: Maker, a: Maker, b: Maker) -> Maker:
    """`if c then a else b`; a constant condition picks its branch, names are read inline."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fc, fa, fb = c(t), a(t), b(t)
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
    return make


def where_vector(cards: Maker, vec: Maker) -> Maker:
    """`cards where cond` for a condition that is bitset algebra (`vec`): one AND."""
    def make(t: Tables) -> Callable[[Env], Any]:
        f, v = cards(t), vec(t)
        n = getattr(f, "var", None)
        if n is None:
            return lambda env: f(env) & v(env)

        def of_var(env: Env) -> Any:
            return env[n] & v(env)
        of_var.var_and = (n, v)  # type: ignore[attr-defined]  # lets any(...) test it in one step
        return of_var
    return make


def list_of(items: list[Maker]) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        fs = [m(t) for m in items]
        if all(hasattr(f, "const") for f in fs):  # `[A, J, T, 5, 2]`: one list, made once
            return const_fn(tuple(getattr(f, "const") for f in fs))  # noqa: B009 - a folded closure's value
        return lambda env: [f(env) for f in fs]
    return make


def member_cards(a: Maker, b: Maker, negated: bool) -> Maker:
    """`card in cards` (a card that does not exist is in no set)."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fa, fb = a(t), b(t)
        if negated:
            return lambda env: not (fb(env) >> fa(env)) & 1 if fa(env) >= 0 else True
        return lambda env: bool((fb(env) >> fa(env)) & 1) if fa(env) >= 0 else False
    return make


def member_list(a: Maker, b: Maker, negated: bool) -> Maker:
    def make(t: Tables) -> Callable[[Env], Any]:
        fa, fb = a(t), b(t)
        return (lambda env: fa(env) not in fb(env)) if negated else (lambda env: fa(env) in fb(env))
    return make


# ---- tests of one card as bitset algebra over all cards (see check.vector): `where` conditions,
# a discard's `allowed`, follow rules

def vec_bool(x: Maker) -> Maker:
    """A truth that does not read the card: every card or none."""
    def make(t: Tables) -> Callable[[Env], Any]:
        f = x(t)
        if hasattr(f, "const"):
            return const_fn(ALL_CARDS if f.const else 0)
        return lambda env: ALL_CARDS if f(env) else 0
    return make


def vec_card(other: Maker, negated: bool) -> Maker:
    """The card `other` (none: no card), or every card but it."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fo = other(t)
        if negated:
            return lambda env: ALL_CARDS & ~(1 << c) if (c := fo(env)) >= 0 else ALL_CARDS
        return lambda env: 1 << c if (c := fo(env)) >= 0 else 0
    return make


def vec_in(cards: Maker, negated: bool) -> Maker:
    """The cards of a set (or every card but them)."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fs = cards(t)
        return (lambda env: ALL_CARDS & ~fs(env)) if negated else fs
    return make


def vec_rank_in(ranks: Maker, negated: bool) -> Maker:
    """The cards whose rank is in a list (or is not)."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fl = ranks(t)

        def of(listed: Any) -> int:
            m = 0
            for r in listed:
                m |= RANK_MASKS[r]
            return ALL_CARDS & ~m if negated else m
        if hasattr(fl, "const"):
            return const_fn(of(fl.const))
        return lambda env: of(fl(env))
    return make


def vec_suit_in(suits: Maker, negated: bool) -> Maker:
    """The cards whose effective suit is in a list (or is not)."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fl, sm = suits(t), t.suit_masks

        def of(env: Env) -> int:
            by_suit, m = sm[env["trump"] + 1], 0
            for s in fl(env):
                m |= by_suit[s + 1]
            return ALL_CARDS & ~m if negated else m
        return of
    return make


def vec_all(guards: list[Maker], sets: list[Maker]) -> Maker:
    """A chain of `and`s: the truths that do not read the card (all must hold, or no card does), then
    the sets of the parts that do, intersected; each stops as soon as the answer is no card (as `and`
    stops card by card)."""
    def make(t: Tables) -> Callable[[Env], Any]:
        gs, vs = tuple(g(t) for g in guards), tuple(v(t) for v in sets)
        if len(gs) == 1 and len(vs) == 1:  # the common shape: one guard, one set
            g0, v0 = gs[0], vs[0]
            return lambda env: v0(env) if g0(env) else 0

        def conj(env: Env) -> Any:
            for g in gs:
                if not g(env):
                    return 0
            m = ALL_CARDS
            for v in vs:
                m &= v(env)
                if not m:
                    return 0
            return m
        return conj
    return make


def vec_or(a: Maker, b: Maker) -> Maker:
    return lambda t: (lambda fa, fb: (lambda env: fa(env) | fb(env)))(a(t), b(t))


def vec_not(x: Maker) -> Maker:
    return lambda t: (lambda fx: (lambda env: ALL_CARDS & ~fx(env)))(x(t))


def vec_trump() -> Maker:
    return lambda t: (lambda tm: (lambda env: tm[env["trump"] + 1]))(t.trump_mask)


def vec_suit(other: Maker, negated: bool) -> Maker:
    """The cards whose effective suit is (or is not) `other`."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fo, sm = other(t), t.suit_masks
        sv = getattr(fo, "suit_of_var", None)
        if sv is not None:  # `card.suit == lead.suit`: look the lead's suit up inline
            eff = t.eff_suit

            def same_suit(env: Env) -> Any:
                t1 = env["trump"] + 1
                return sm[t1][eff[t1][env[sv]] + 1]

            def other_suit(env: Env) -> Any:
                t1 = env["trump"] + 1
                return ALL_CARDS & ~sm[t1][eff[t1][env[sv]] + 1]
            return other_suit if negated else same_suit
        if negated:
            return lambda env: ALL_CARDS & ~sm[env["trump"] + 1][fo(env) + 1]
        return lambda env: sm[env["trump"] + 1][fo(env) + 1]
    return make


RANK_MASKS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)) + (JOKERS,)


def vec_rank(other: Maker, negated: bool) -> Maker:
    """The cards whose rank is (or is not) `other`."""
    def make(t: Tables) -> Callable[[Env], Any]:
        fo = other(t)
        if negated:
            return lambda env: ALL_CARDS & ~RANK_MASKS[fo(env)]
        return lambda env: RANK_MASKS[fo(env)]
    return make
