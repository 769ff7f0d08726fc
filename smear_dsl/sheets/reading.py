"""Expressions of the rule language read aloud, in the reader's language: AST -> phrase for `explain`.

It knows the names each rule site offers, a few idioms (`trick == 1`, `X where card.trump`,
`highest(played where card.trump)`) and falls back to plain word-for-word reading, so any
valid expression gets a sentence. Every phrase is a whole message template (i18n.py), so a
translation may put the parts in its own order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from smear_dsl import cards as C
from smear_dsl.expr import ast as A
from smear_dsl.i18n import ENGLISH, N_, Tr

RANKS = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8}

# Nouns for numbers and cards, and (positive, negative) clauses for truth values.
NOUNS = {
    "points": N_("its point total"), "bid": N_("the bid"), "high": N_("the highest bid so far"),
    "score": N_("its score"), "previous": N_("its score before the hand"), "delta": N_("its score change this hand"),
    "target": N_("the target"), "tricks": N_("the number of tricks it took"),
    "total_tricks": N_("the number of tricks in the hand"),
    "bidder_tricks": N_("the number of tricks the bidder took personally"),
    "trick": N_("the trick number"), "players": N_("the number of players"), "trump": N_("trump"),
    "lead": N_("the card led"), "card": N_("the card"),
    "play": N_("the card played"), "winning": N_("the card winning the trick so far"),
    # A point's `to:` condition: sides, and the card that took the point's card.
    "winner": N_("the side that wins its trick"), "holder": N_("the holder's side"),
    "player": N_("the side that played it"), "nobody": N_("nobody"), "captured_by": N_("the card that takes its trick"),
}
# Sides a `to:` condition names that scoring formulas read as truth values: a noun only where a side is meant.
SIDE_NOUNS = {"dealer": N_("the dealer's side"), "bidder": N_("the bidding side")}
CLAUSES = {
    "made": (N_("the bid was made"), N_("the bid was not made")),
    "bidder": (N_("it is the bidding side"), N_("it is not the bidding side")),
    "dealer": (N_("it is the dealer's side"), N_("it is not the dealer's side")),
    "is_dealer": (N_("the player is the dealer"), N_("the player is not the dealer")),
    "is_bidder": (N_("the player is the bidder"), N_("the player is not the bidder")),
    "trump_known": (N_("trump is already fixed"), N_("trump is not yet fixed")),
    "wins": (N_("the card would take the trick so far"), N_("the card would not take the trick so far")),
    "can_win": (N_("the player has a card that could take the trick"),
                N_("no card of the player could take the trick")),
}
# Card sets: how "the cards of the set" reads, and where its cards are ("the trumps {where}").
SETS = {
    "hand": N_("in the hand"), "played": N_("played"), "dealt": N_("dealt"), "held": N_("held when play began"),
    "discarded": N_("discarded"), "stock": N_("in the stock"), "kept": N_("kept"), "discard": N_("in the discard"),
    "legal": N_("the player may play under the following rule"), "trick_cards": N_("in the trick so far"),
}
SET_NOUNS = {"hand": N_("the hand"), "stock": N_("the stock"), "discard": N_("the discard")}
COMPARE = {"==": N_("{a} is {b}"), "!=": N_("{a} is not {b}"), "<": N_("{a} is less than {b}"),
           "<=": N_("{a} is at most {b}"), ">": N_("{a} is more than {b}"), ">=": N_("{a} is at least {b}")}
ARITH = {"+": N_("{a} plus {b}"), "-": N_("{a} minus {b}"), "*": N_("{a} times {b}"),
         "//": N_("{a} divided by {b} (rounded down)"), "%": N_("the remainder of {a} divided by {b}")}
# any(SET where ...): what it says about that set ({what} is "a trump", "no card of the suit led"...).
ANY = {"hand": N_("the hand holds {what}"), "discarded": N_("the player discarded {what}"),
       "played": N_("{what} was played"), "dealt": N_("{what} was dealt"),
       "held": N_("{what} was held when play began"), "kept": N_("the player keeps {what}"),
       "discard": N_("the discard holds {what}"), "stock": N_("the stock holds {what}")}
# Simple filters (`card.trump`, `card.suit == lead.suit`...) in the forms a sentence needs:
# (plural, "a ...", "no ...", bare singular as in "the highest ... played").
FILTERS = {
    "trumps": (N_("trumps"), N_("a trump"), N_("no trump"), N_("trump")),
    "jokers": (N_("jokers"), N_("a joker"), N_("no joker"), N_("joker")),
    "non-trump": (N_("non-trump cards"), N_("a non-trump card"), N_("no non-trump card"), N_("non-trump card")),
    "non-joker": (N_("non-joker cards"), N_("a non-joker card"), N_("no non-joker card"), N_("non-joker card")),
    "of": (N_("cards of {suit}"), N_("a card of {suit}"), N_("no card of {suit}"), N_("card of {suit}")),
    # The suit led, said whole: "a card of the suit led" needs its own case in Slovak, its own particle in Tagalog.
    "of led": (N_("cards of the suit led"), N_("a card of the suit led"), N_("no card of the suit led"),
               N_("card of the suit led")),
    "not of led": (N_("cards not of the suit led"), N_("a card not of the suit led"), N_("no card not of the suit led"),
                   N_("card not of the suit led")),
    "not of": (N_("cards not of {suit}"), N_("a card not of {suit}"), N_("no card not of {suit}"),
               N_("card not of {suit}")),
    "trumps not jokers": (N_("trumps other than jokers"), N_("a trump other than a joker"),
                          N_("no trump other than a joker"), N_("trump other than a joker")),
}
PLURAL, A_ONE, NO_ONE, BARE = range(4)


@dataclass
class Reader:
    """Reads expressions of one rule file: knows its options and named bids."""

    bool_options: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)
    bid_names: dict[str, int] = field(default_factory=dict)
    jokers: tuple[str, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)  # a table's option values, read in place of their names
    defined: frozenset[str] = frozenset()  # `define:` names: read by name (explain defines them once)
    point_vars: frozenset[str] = frozenset()  # point names, true in scoring for the side that won the point
    tr: Tr = ENGLISH
    sides: bool = False  # reading a point's `to:`: `dealer` and `bidder` are sides there, not truth values

    def filled(self, e: A.Expr) -> A.Expr:
        """`e` as a table with `values` plays it (itself when there are none)."""
        return A.with_values(e, self.values) if self.values else e

    def defined_name(self, name: str) -> str:
        """A `define:` name as the sheet shows it: emphasised, in the reader's words."""
        label = self.tr.label(name)
        return f"*{label.replace('_', ' ')}*"

    # ---- entry points
    def clause(self, e: A.Expr, negate: bool = False) -> str:
        """A truth-valued expression as a clause ("the bid was made")."""
        t = self.tr.t
        if isinstance(e, A.Not):
            return self.clause(e.x, not negate)
        if isinstance(e, A.Const) and e.type == "bool":
            return t("always") if e.value != negate else t("never")
        if isinstance(e, A.Name):
            if e.name in self.defined:
                return t("not {clause}", clause=self.defined_name(e.name)) if negate else self.defined_name(e.name)
            if e.name in CLAUSES:
                return t(CLAUSES[e.name][negate])
            if e.name in self.bool_options:
                opt = f"`{e.name}`"
                return t("the {option} option is off", option=opt) if negate else t("the {option} option is on", option=opt)
            if e.name in self.point_vars:
                point = self.tr.label(e.name).replace("_", " ")
                return t("it did not win the {point} point", point=point) if negate else \
                    t("it won the {point} point", point=point)
        if isinstance(e, A.Attr) and e.name in ("trump", "joker"):
            x = self.noun(e.obj)
            if e.name == "trump":
                return t("{x} is not a trump", x=x) if negate else t("{x} is a trump", x=x)
            return t("{x} is not a joker", x=x) if negate else t("{x} is a joker", x=x)
        if isinstance(e, A.BoolOp):
            op = e.op
            if negate:  # De Morgan, so negations read as plain clauses
                op = "or" if op == "and" else "and"
            parts = [self._sub_clause(x, op, negate) for x in _flatten(e, e.op)]
            return self.tr.join(parts, op, clauses=True)
        if isinstance(e, A.Compare):
            return self._compare(e, negate)
        if isinstance(e, A.Member):
            return self._member(e, negate ^ e.negate)
        if isinstance(e, A.Call) and e.fn == "any":
            return self._any(e.args[0], negate)
        if isinstance(e, A.IfElse):
            return t("{then} if {cond}, and otherwise {other}", then=self.clause(e.then, negate),
                     cond=self.clause(e.cond), other=self.clause(e.other, negate))
        if isinstance(e, A.Call) and e.fn == "exists":
            x = self.noun(e.args[0])
            return t("{x} does not exist", x=x) if negate else t("{x} exists", x=x)
        text = self.noun(e)
        return t("not ({clause})", clause=text) if negate else text

    def noun(self, e: A.Expr) -> str:
        """A number, card, suit or card set as a noun phrase."""
        t = self.tr.t
        if isinstance(e, A.Const):
            if e.type == "bool":
                return t("true") if e.value else t("false")
            if e.type == "str":
                return f'"{e.value}"'
            return str(e.value)
        if isinstance(e, A.Name):
            return self._name(e.name)
        if isinstance(e, A.Attr):
            if e.name == "suit":
                return t("the suit led") if _is(e.obj, "lead") else t("the suit of {x}", x=self.noun(e.obj))
            if e.name == "rank":
                return t("the rank led") if _is(e.obj, "lead") else t("the rank of {x}", x=self.noun(e.obj))
            if e.name == "value":
                return t("the card value of {x}", x=self.noun(e.obj))
            return self.clause(e)
        if isinstance(e, A.CardOf):
            return self._card_of(e)
        if isinstance(e, A.Where):
            return self._where(e)
        if isinstance(e, A.Call):
            return self._call(e)
        if isinstance(e, A.Neg):
            return t("minus {x}", x=self.noun(e.x))
        if isinstance(e, A.BinOp):
            return t(ARITH[e.op], a=self._operand(e.a), b=self._operand(e.b))
        if isinstance(e, A.IfElse):
            then = self.noun(e.then)
            if isinstance(e.then, A.IfElse):
                then = f"({then})"
            return t("{then} if {cond}, otherwise {other}", then=then, cond=self.clause(e.cond),
                     other=self.noun(e.other))
        if isinstance(e, A.ListLit):
            return self.tr.join([self.noun(x) for x in e.items], "or")
        return self.clause(e)

    # ---- helpers
    def _card_of(self, e: A.CardOf) -> str:
        rank = RANKS.get(e.rank.upper())
        if rank is None and e.rank.isdigit():
            rank = int(e.rank) - 2
        if rank is None:  # a rank given by an expression or an unusual token: read it as written
            return self.tr.t("the {rank} of {suit}", rank=e.rank, suit=self.noun(e.suit))
        if _is(e.suit, "trump"):
            return self.tr.card_of(rank, "", of_trump=True)
        named = isinstance(e.suit, A.Name) and _suit_named(e.suit.name) is not None
        return self.tr.card_of(rank, self.noun(e.suit), phrase=not named)

    def _name(self, n: str) -> str:
        t = self.tr.t
        if n in self.defined:
            return self.defined_name(n)
        if self.sides and n in SIDE_NOUNS:
            return t(SIDE_NOUNS[n])
        if n in NOUNS:
            return t(NOUNS[n])
        if n in SETS:
            return t(SET_NOUNS[n]) if n in SET_NOUNS else t("the cards {where}", where=t(SETS[n]))
        if n in CLAUSES:
            return t(CLAUSES[n][0])
        if n in self.bid_names:
            return f"{self.tr.label(n)} ({self.bid_names[n]})"
        if n in self.options:
            return t("the {option} option", option=f"`{n}`")
        if n == "jick":
            return t("the jick")
        if n in self.jokers:
            return t("the joker {name}", name=self.tr.label(n))
        suit = _suit_named(n)
        if suit is not None:
            return self.tr.suit(suit)
        if n in RANKS:
            return self.tr.rank(RANKS[n])
        return n

    def _sub_clause(self, x: A.Expr, op: str, negate: bool) -> str:
        text = self.clause(x, negate)
        inner = x.x if isinstance(x, A.Not) else x
        if isinstance(inner, A.BoolOp) and _effective_op(inner, negate ^ isinstance(x, A.Not)) != op:
            return f"({text})"
        return text

    def _operand(self, e: A.Expr) -> str:
        text = self.noun(e)
        return f"({text})" if isinstance(e, (A.BinOp, A.IfElse)) else text

    def _compare(self, e: A.Compare, negate: bool) -> str:
        t = self.tr.t
        if e.op == "==" and not negate and _is(e.a, "trick") and isinstance(e.b, A.Const):
            return t("it is the first trick") if e.b.value == 1 else t("it is trick {n}", n=e.b.value)
        names = {getattr(e.a, "name", None), getattr(e.b, "name", None)}
        if e.op in ("==", ">=") and names == {"tricks", "total_tricks"}:
            return t("it did not take every trick") if negate else t("it took every trick")
        if e.op in ("==", ">=") and names == {"bidder_tricks", "total_tricks"}:
            return t("the bidder did not take every trick personally") if negate else \
                t("the bidder took every trick personally")
        op = e.op
        if negate:
            op = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
        return t(COMPARE[op], a=self.noun(e.a), b=self.noun(e.b))

    def _member(self, e: A.Member, negate: bool) -> str:
        t = self.tr.t
        a, b = self.noun(e.a), self.noun(e.b)
        if isinstance(e.b, A.ListLit):
            return t("{a} is not {b}", a=a, b=b) if negate else t("{a} is {b}", a=a, b=b)
        return t("{a} is not among {b}", a=a, b=b) if negate else t("{a} is among {b}", a=a, b=b)

    def _any(self, cards: A.Expr, negate: bool) -> str:
        """`any(discarded where card.suit == lead.suit)` -> "the player discarded a card of the suit led"."""
        if isinstance(cards, A.Where) and isinstance(cards.cards, A.Name) and cards.cards.name in ANY:
            form = self._filter(cards.cond, NO_ONE if negate else A_ONE)
            if form is not None:
                return self.tr.t(ANY[cards.cards.name], what=form)
        x = self.noun(cards)
        return self.tr.t("there is no card among {x}", x=x) if negate else self.tr.t("there is a card among {x}", x=x)

    def _where(self, e: A.Where) -> str:
        t = self.tr.t
        base = e.cards
        where = SETS.get(base.name) if isinstance(base, A.Name) else None
        what = self._filter(e.cond, PLURAL)
        if where is not None and what is not None:
            return t("the {what} {where}", what=what, where=t(where))
        if where is not None:  # a set by its name: "the cards played for which ...", never "the cards of the cards played"
            return t("the cards {where} for which {cond}", where=t(where), cond=self.clause(e.cond))
        inner = self.noun(base)
        if what is not None:
            return t("the {what} among {inner}", what=what, inner=inner)
        return t("the cards of {inner} for which {cond}", inner=inner, cond=self.clause(e.cond))

    def _filter(self, cond: A.Expr, form: int) -> str | None:
        """`card.trump` -> "trumps", `card.suit == lead.suit` -> "cards of the suit led" (in the
        form asked for: plural, "a ...", "no ...", bare singular); None if not simple."""
        kind, suit = self._filter_kind(cond)
        if kind is None:
            return None
        return self.tr.t(FILTERS[kind][form], suit=suit) if suit is not None else self.tr.t(FILTERS[kind][form])

    def _filter_kind(self, cond: A.Expr) -> tuple[str | None, str | None]:
        neg = isinstance(cond, A.Not)
        x = cond.x if isinstance(cond, A.Not) else cond
        if isinstance(x, A.Attr) and _is(x.obj, "card") and x.name in ("trump", "joker"):
            plain = "trumps" if x.name == "trump" else "jokers"
            return ("non-trump" if x.name == "trump" else "non-joker") if neg else plain, None
        if not neg and isinstance(x, A.Compare) and x.op in ("==", "!="):
            for a, b in ((x.a, x.b), (x.b, x.a)):
                if isinstance(a, A.Attr) and _is(a.obj, "card") and a.name == "suit":
                    kind = "not of" if x.op == "!=" else "of"
                    if isinstance(b, A.Attr) and b.name == "suit" and _is(b.obj, "lead"):
                        return kind + " led", None
                    return kind, self.noun(b)
        if not neg and isinstance(cond, A.BoolOp) and cond.op == "and":
            parts = [self._filter_kind(p)[0] for p in (cond.a, cond.b)]
            if parts == ["trumps", "non-joker"]:
                return "trumps not jokers", None
        return None, None

    def _call(self, e: A.Call) -> str:
        t = self.tr.t
        args = e.args
        if e.fn == "count":
            arg = args[0]
            if isinstance(arg, A.Name) and arg.name in SETS:
                return t("the number of cards {where}", where=t(SETS[arg.name]))
            if isinstance(arg, A.Where):
                where = SETS.get(arg.cards.name) if isinstance(arg.cards, A.Name) else None
                what = self._filter(arg.cond, PLURAL)
                if what is not None and where is not None:
                    return t("the number of {what} {where}", what=what, where=t(where))
                if what is not None:
                    return t("the number of {what} among {inner}", what=what, inner=self.noun(arg.cards))
                return t("the number of cards of {inner} for which {cond}", inner=self.noun(arg.cards),
                         cond=self.clause(arg.cond))
            return t("the number of cards among {x}", x=self.noun(arg))
        if e.fn in ("highest", "lowest"):
            arg = args[0]
            if isinstance(arg, A.Where) and isinstance(arg.cards, A.Name) and arg.cards.name in SETS:
                what = self._filter(arg.cond, BARE)
                if what is not None:
                    where = t(SETS[arg.cards.name])
                    return t("the highest {what} {where}", what=what, where=where) if e.fn == "highest" else \
                        t("the lowest {what} {where}", what=what, where=where)
            x = self.noun(arg)
            return t("the highest card of {x}", x=x) if e.fn == "highest" else t("the lowest card of {x}", x=x)
        if e.fn == "total":
            return t("the total card value of {x}", x=self.noun(args[0]))
        if e.fn in ("any", "exists"):
            return self.clause(e)
        if e.fn == "sister":
            return t("the other suit of {x}'s colour", x=self.noun(args[0]))
        if e.fn == "abs":
            return t("the size of {x}", x=self.noun(args[0]))
        if e.fn in ("min", "max"):
            a, b = self.noun(args[0]), self.noun(args[1])
            return t("the smaller of {a} and {b}", a=a, b=b) if e.fn == "min" else t("the larger of {a} and {b}", a=a, b=b)
        return f"{e.fn}({', '.join(self.noun(a) for a in args)})"


def _suit_named(n: str) -> int | None:
    """The suit a name of the language names (`hearts`, `H`), else None."""
    return C.parse_suit(n) if n in C.SUIT_WORDS or n in tuple(C.SUIT_CHARS) else None


def _is(e: A.Expr, name: str) -> bool:
    return isinstance(e, A.Name) and e.name == name


def _flatten(e: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(e, A.BoolOp) and e.op == op:
        return _flatten(e.a, op) + _flatten(e.b, op)
    return [e]


def _effective_op(e: A.BoolOp, negate: bool) -> str:
    return ("or" if e.op == "and" else "and") if negate else e.op
