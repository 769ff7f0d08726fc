"""The most points one hand can award, for the sheet's "N in all": points that cannot fall together
(two kick points for one turned card, a Jack that goes one way or the other) are not added up.
Where the rules leave it open (tricks per hand that draws and refills change) it is a bound, said so."""
from __future__ import annotations

import itertools

from smear_dsl.compile.compiled import (
    POINT_BY_TRUMP,
    POINT_EACH,
    POINT_EXPR,
    POINT_GIFT,
    POINT_MOST,
    POINT_SCAN_DEALT,
    POINT_SCAN_PLAYED,
    POINT_TRICKS,
    POINT_TURNED,
    TO_EXPR,
    CompiledRules,
    Fn,
)
from smear_dsl.compile.pointkinds import UnknownKind
from smear_dsl.expr import ast as A
from smear_dsl.language.contexts import CONTEXTS
from smear_dsl.language.spec import PointSpec

# How the count reads each kind of point (compile/pointkinds.py; tests/engine/test_point_kinds.py holds this
# complete): the most a hand can award by it.
READS = {
    POINT_MOST: "its value: one side wins it",
    POINT_BY_TRUMP: "its value, or with a `to:` condition the most its card can carry (_one_card)",
    POINT_SCAN_PLAYED: "its value: one card carries it",
    POINT_SCAN_DEALT: "its value: one card carries it",
    POINT_EXPR: "its value: one card carries it",
    POINT_EACH: "its value for every card of the trump's mask in the deck",
    POINT_TRICKS: "its value for every trick of a hand (a bound when draws change the count)",
    POINT_GIFT: "its value: the gift is given once",
    POINT_TURNED: "the most of the points one turned card carries",
}


def most_awarded(r: CompiledRules) -> tuple[int, bool]:
    """(the most one hand awards, whether it is exact rather than a bound)."""
    best, exact = 0, True
    for trump in range(4):
        total, sure = _under(r, trump)
        if total > best:
            best = total
        exact = exact and sure
    return best, exact


def _under(r: CompiledRules, trump: int) -> tuple[int, bool]:
    """The most awarded with `trump` trump, and whether that figure is exact."""
    values, plan = r.points.values, r.points.plan
    total, exact = 0, True
    turned: dict[int, int] = {}  # a turned-up card -> its points: only one card is turned up
    by_card: dict[int, list[int]] = {}  # a card named by trump alone -> the points it carries by a condition
    for i, (kind, _card, extra, to, _tie, _to_fn) in enumerate(plan):
        v = values[i]
        if kind == POINT_TURNED:
            c = extra[trump] if extra is not None else -1
            turned[c] = turned.get(c, 0) + v
        elif kind == POINT_EACH:
            total += v * (extra[trump] & r.deck.mask).bit_count()
        elif kind == POINT_TRICKS:
            tricks = r.deal.hand_size
            if r.deal.draws_stock:  # draws and refills change how many tricks a hand has: a bound
                tricks, exact = len(r.deck.cards) // r.players, False
            total += v * tricks
        elif kind == POINT_BY_TRUMP and to == TO_EXPR and extra[trump] is not None and extra[trump] >= 0:
            by_card.setdefault(extra[trump], []).append(i)
        elif kind in READS:
            total += v
        else:
            raise UnknownKind(kind, "the sheet's count of a hand's points")
    if turned:
        total += max(turned.values())
    for c, points in by_card.items():
        most, sure = _one_card(r, trump, c, points)
        total += most
        exact = exact and sure
    return total, exact


# What _one_card tries every value of; a condition reading anything else (the card, the trick, the bid)
# makes its figure a bound.
SIDES = frozenset({"player", "winner", "holder", "dealer", "bidder", "nobody"})


def _one_card(r: CompiledRules, trump: int, card: int, points: list[int]) -> tuple[int, bool]:
    """The most the points one card carries by `to:` conditions can bring together: every way its
    trick can go (sides of its player, winner, dealer and bidder; taken by itself or by another card),
    the most that fall at once. Exact when the conditions read only sides."""
    ns = r.n_sides
    others = [c for c in r.deck.cards if c != card][:1]
    best = 0
    sides = range(ns)
    to_fns = {i: _to_fn(r, i) for i in points}
    for player, winner, dealer, bidder in itertools.product(sides, sides, sides, [-1, *sides]):
        for captured in [card, *others]:
            env = {"player": player, "winner": winner, "holder": player, "dealer": dealer, "bidder": bidder,
                   "nobody": -1, "card": card, "captured_by": captured, "trick": 1, "trump": trump, "bid": 0}
            got = 0
            for i in points:
                if to_fns[i](env) >= 0:
                    got += r.points.values[i]
            best = max(best, got)
    spec = {p.name: p for p in r.spec.points}
    more = set(CONTEXTS["point_to"][0]) - SIDES  # the card, what took it, the trick, trump, the bid
    return best, not any(A.mentions(_to_ast(spec[r.points.names[i]]), v) for i in points for v in more)


def _to_fn(r: CompiledRules, i: int) -> Fn:
    """Point `i`'s `to:` condition (the points _one_card sums are those given by one)."""
    fn = r.points.plan[i][5]
    assert fn is not None, "a point given by a condition has its closure"
    return fn


def _to_ast(p: PointSpec) -> A.Expr:
    assert p.to_expr is not None, "a point given by a condition has its expression"
    return p.to_expr.ast
