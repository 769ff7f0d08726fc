"""Expressions of the rule language read aloud: an AST -> English phrase renderer for `explain`.

It knows the names each rule site offers, a few idioms (`trick == 1`, `X where card.trump`,
`highest(played where card.trump)`) and falls back to plain word-for-word reading, so any
valid expression gets a sentence. `explain` prints the source formula beside it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .expr import ast as A

RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
              "spades": "spades", "hearts": "hearts", "diamonds": "diamonds", "clubs": "clubs"}

# Nouns for numbers and cards, and (positive, negative) clauses for truth values.
NOUNS = {
    "points": "its point total", "bid": "the bid", "high": "the highest bid so far", "score": "its score",
    "previous": "its score before the hand", "delta": "its score change this hand", "target": "the target",
    "tricks": "the number of tricks it took", "total_tricks": "the number of tricks in the hand",
    "bidder_tricks": "the number of tricks the bidder took personally",
    "trick": "the trick number", "players": "the number of players", "trump": "trump",
    "lead": "the card led", "card": "the card",
    "play": "the card played", "winning": "the card winning the trick so far",
}
CLAUSES = {
    "made": ("the bid was made", "the bid was not made"),
    "bidder": ("it is the bidding side", "it is not the bidding side"),
    "dealer": ("it is the dealer's side", "it is not the dealer's side"),
    "is_dealer": ("the player is the dealer", "the player is not the dealer"),
    "is_bidder": ("the player is the bidder", "the player is not the bidder"),
    "trump_known": ("trump is already fixed", "trump is not yet fixed"),
    "wins": ("the card would take the trick so far", "the card would not take the trick so far"),
    "can_win": ("the player has a card that could take the trick", "no card of the player could take the trick"),
}
# Card sets: how "cards of the set" reads, and where its cards are.
SETS = {
    "hand": "in the hand", "played": "played", "dealt": "dealt", "held": "held when play began",
    "discarded": "discarded", "stock": "in the stock", "kept": "kept", "discard": "in the discard",
    "legal": "the player may play under the following rule", "trick_cards": "in the trick so far",
}
OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}


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

    def filled(self, e: A.Expr) -> A.Expr:
        """`e` as a table with `values` plays it (itself when there are none)."""
        return A.with_values(e, self.values) if self.values else e

    # ---- entry points
    def clause(self, e: A.Expr, negate: bool = False) -> str:
        """A truth-valued expression as a clause ("the bid was made")."""
        if isinstance(e, A.Not):
            return self.clause(e.x, not negate)
        if isinstance(e, A.Const) and e.type == "bool":
            return "always" if e.value != negate else "never"
        if isinstance(e, A.Name):
            if e.name in self.defined:
                return f"{'not ' if negate else ''}*{e.name.replace('_', ' ')}*"
            if e.name in CLAUSES:
                return CLAUSES[e.name][negate]
            if e.name in self.bool_options:
                return f"the `{e.name}` option is {'off' if negate else 'on'}"
            if e.name in self.point_vars:
                return f"it {'did not win' if negate else 'won'} the {e.name.replace('_', ' ')} point"
        if isinstance(e, A.Attr) and e.name in ("trump", "joker"):
            what = "a trump" if e.name == "trump" else "a joker"
            return f"{self.noun(e.obj)} is {'not ' if negate else ''}{what}"
        if isinstance(e, A.BoolOp):
            op = e.op
            if negate:  # De Morgan, so negations read as plain clauses
                op = "or" if op == "and" else "and"
            parts = [self._sub_clause(x, op, negate) for x in _flatten(e, e.op)]
            return _join(parts, op)
        if isinstance(e, A.Compare):
            return self._compare(e, negate)
        if isinstance(e, A.Member):
            return self._member(e, negate ^ e.negate)
        if isinstance(e, A.Call) and e.fn == "any":
            return self._any(e.args[0], negate)
        if isinstance(e, A.IfElse):
            return (f"{self.clause(e.then, negate)} if {self.clause(e.cond)}, "
                    f"and otherwise {self.clause(e.other, negate)}")
        if isinstance(e, A.Call) and e.fn == "exists":
            return f"{self.noun(e.args[0])} {'does not exist' if negate else 'exists'}"
        text = self.noun(e)
        return f"not ({text})" if negate else text

    def noun(self, e: A.Expr) -> str:
        """A number, card, suit or card set as a noun phrase."""
        if isinstance(e, A.Const):
            if e.type == "bool":
                return "true" if e.value else "false"
            if e.type == "str":
                return f'"{e.value}"'
            return str(e.value)
        if isinstance(e, A.Name):
            return self._name(e.name)
        if isinstance(e, A.Attr):
            if e.name == "suit":
                return "the suit led" if _is(e.obj, "lead") else f"the suit of {self.noun(e.obj)}"
            if e.name == "rank":
                return "the rank led" if _is(e.obj, "lead") else f"the rank of {self.noun(e.obj)}"
            if e.name == "value":
                return f"the card value of {self.noun(e.obj)}"
            return self.clause(e)
        if isinstance(e, A.CardOf):
            rank = RANK_WORDS.get(e.rank.upper(), e.rank)
            return f"the {rank} of {self.noun(e.suit)}"
        if isinstance(e, A.Where):
            return self._where(e)
        if isinstance(e, A.Call):
            return self._call(e)
        if isinstance(e, A.Neg):
            return f"minus {self.noun(e.x)}"
        if isinstance(e, A.BinOp):
            a, b = self._operand(e.a), self._operand(e.b)
            return {"+": f"{a} plus {b}", "-": f"{a} minus {b}", "*": f"{a} times {b}",
                    "//": f"{a} divided by {b} (rounded down)", "%": f"the remainder of {a} divided by {b}"}[e.op]
        if isinstance(e, A.IfElse):
            then = self.noun(e.then)
            if isinstance(e.then, A.IfElse):
                then = f"({then})"
            return f"{then} if {self.clause(e.cond)}, otherwise {self.noun(e.other)}"
        if isinstance(e, A.ListLit):
            return _join([self.noun(x) for x in e.items], "or")
        return self.clause(e)

    # ---- helpers
    def _name(self, n: str) -> str:
        if n in self.defined:
            return f"*{n.replace('_', ' ')}*"
        if n in NOUNS:
            return NOUNS[n]
        if n in SETS:
            return f"the cards {SETS[n]}" if n not in ("hand", "stock", "discard") else f"the {n}"
        if n in CLAUSES:
            return CLAUSES[n][0]
        if n in self.bid_names:
            return f"{n} ({self.bid_names[n]})"
        if n in self.options:
            return f"the `{n}` option"
        if n == "jick":
            return "the jick"
        if n in self.jokers:
            return f"the joker {n}"
        if n in SUIT_NAMES:
            return SUIT_NAMES[n]
        if n in RANK_WORDS:
            return RANK_WORDS[n]
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
        if e.op == "==" and not negate and _is(e.a, "trick") and isinstance(e.b, A.Const):
            return "it is the first trick" if e.b.value == 1 else f"it is trick {e.b.value}"
        if e.op in ("==", ">=") and {getattr(e.a, "name", None), getattr(e.b, "name", None)} == {"tricks", "total_tricks"}:
            return "it did not take every trick" if negate else "it took every trick"
        if e.op in ("==", ">=") and {getattr(e.a, "name", None), getattr(e.b, "name", None)} == \
                {"bidder_tricks", "total_tricks"}:
            return "the bidder did not take every trick personally" if negate else "the bidder took every trick personally"
        op = e.op
        if negate:
            op = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
        return f"{self.noun(e.a)} {OPS[op]} {self.noun(e.b)}"

    def _member(self, e: A.Member, negate: bool) -> str:
        if isinstance(e.b, A.ListLit):
            return f"{self.noun(e.a)} is {'not ' if negate else ''}{self.noun(e.b)}"
        return f"{self.noun(e.a)} is {'not ' if negate else ''}among {self.noun(e.b)}"

    def _any(self, cards: A.Expr, negate: bool) -> str:
        """`any(discarded where card.suit == lead.suit)` -> "the player discarded a card of the suit led"."""
        if isinstance(cards, A.Where) and isinstance(cards.cards, A.Name) and cards.cards.name in ANY:
            what = self._filter(cards.cond)
            if what is not None:
                return ANY[cards.cards.name].format(("no " if negate else "a ") + _singular(what))
        return f"there is {'no' if negate else 'a'} card among {self.noun(cards)}"

    def _where(self, e: A.Where) -> str:
        base = e.cards
        where = SETS.get(base.name) if isinstance(base, A.Name) else None
        what = self._filter(e.cond)
        if where is not None and what is not None:
            return f"the {what} {where}"
        inner = self.noun(base)
        if what is not None:
            return f"the {what} among {inner}"
        return f"the cards of {inner} for which {self.clause(e.cond)}"

    def _filter(self, cond: A.Expr) -> str | None:
        """`card.trump` -> "trumps", `card.suit == lead.suit` -> "cards of the suit led"; None if not simple."""
        neg = isinstance(cond, A.Not)
        x = cond.x if neg else cond
        if isinstance(x, A.Attr) and _is(x.obj, "card") and x.name in ("trump", "joker"):
            word = "trumps" if x.name == "trump" else "jokers"
            return f"non-{word[:-1]} cards" if neg else word
        if not neg and isinstance(x, A.Compare) and x.op in ("==", "!="):
            for a, b in ((x.a, x.b), (x.b, x.a)):
                if isinstance(a, A.Attr) and _is(a.obj, "card") and a.name == "suit":
                    return f"cards {'not ' if x.op == '!=' else ''}of {self._suit(b)}"
        if not neg and isinstance(cond, A.BoolOp) and cond.op == "and":
            parts = [self._filter(p) for p in (cond.a, cond.b)]
            if parts == ["trumps", "non-joker cards"]:
                return "trumps other than jokers"
        return None

    def _suit(self, e: A.Expr) -> str:
        if isinstance(e, A.Attr) and e.name == "suit" and _is(e.obj, "lead"):
            return "the suit led"
        return self.noun(e)

    def _call(self, e: A.Call) -> str:
        args = e.args
        if e.fn == "count":
            if isinstance(args[0], A.Name) and args[0].name in SETS:
                return f"the number of cards {SETS[args[0].name]}"
            text = self.noun(args[0])
            return f"the number of {text[4:] if text.startswith('the ') else text}"
        if e.fn in ("highest", "lowest"):
            arg = args[0]
            if isinstance(arg, A.Where) and isinstance(arg.cards, A.Name) and arg.cards.name in SETS:
                what = self._filter(arg.cond)
                if what is not None:
                    return f"the {e.fn} {_singular(what)} {SETS[arg.cards.name]}"
            return f"the {e.fn} card of {self.noun(arg)}"
        if e.fn == "total":
            return f"the total card value of {self.noun(args[0])}"
        if e.fn == "any":
            return self.clause(e)
        if e.fn == "exists":
            return self.clause(e)
        if e.fn == "sister":
            return f"the other suit of {self.noun(args[0])}'s colour"
        if e.fn == "abs":
            return f"the size of {self.noun(args[0])}"
        if e.fn in ("min", "max"):
            word = "smaller" if e.fn == "min" else "larger"
            return f"the {word} of {self.noun(args[0])} and {self.noun(args[1])}"
        return f"{e.fn}({', '.join(self.noun(a) for a in args)})"


# any(SET where ...): what it says about that set ({} is "a trump", "a card of the suit led"...).
ANY = {"hand": "the hand holds {}", "discarded": "the player discarded {}", "played": "{} was played",
       "dealt": "{} was dealt", "held": "{} was held when play began", "kept": "the player keeps {}",
       "discard": "the discard holds {}", "stock": "the stock holds {}"}


def _singular(what: str) -> str:
    """ "trumps" -> "trump", "cards of the suit led" -> "card of the suit led" (no article)."""
    return {"trumps": "trump", "jokers": "joker", "non-trump cards": "non-trump card", "non-joker cards": "non-joker card",
            "trumps other than jokers": "trump other than a joker"}.get(what, what.replace("cards", "card", 1))


def _is(e: A.Expr, name: str) -> bool:
    return isinstance(e, A.Name) and e.name == name


def _flatten(e: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(e, A.BoolOp) and e.op == op:
        return _flatten(e.a, op) + _flatten(e.b, op)
    return [e]


def _effective_op(e: A.BoolOp, negate: bool) -> str:
    return ("or" if e.op == "and" else "and") if negate else e.op


def _join(parts: list[str], word: str) -> str:
    if len(parts) <= 2:
        return f" {word} ".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]

