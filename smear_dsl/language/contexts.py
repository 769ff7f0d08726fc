"""The contexts an expression can be written in: for each, the names it may use with their
types, and where in a rule file it stands (for messages).

This is the one declaration both sides work from: the checker (language.py) lets an expression
use exactly these names, and the engine supplies them when it evaluates the expression
(tests/language/test_contexts.py plays games under a rule file whose expressions use every name of every
context). Options and `players` are known before the game and folded into the closures at
compile time, so no context lists them and the engine never passes them.
"""
from __future__ import annotations

from smear_dsl.expr.check import BOOL, CARD, CARDS, INT, SIDE, SUIT

_PHASE_VARS = {"hand": CARDS, "stock": CARDS, "is_bidder": BOOL, "is_dealer": BOOL, "bid": INT, "trump": SUIT}
_MADE_VARS = {"bid": INT, "points": INT, "tricks": INT, "total_tricks": INT, "bidder_tricks": INT, "score": INT,
              "target": INT, "dealer": BOOL, "bidder": BOOL}
# context -> (name -> type, where it is written)
CONTEXTS: dict[str, tuple[dict[str, str], str]] = {
    "static": ({}, "in a setting fixed before the game (only options and `players`)"),
    "redeal": ({"hand": CARDS, "trump": SUIT}, "in deal.redeal_if"),
    "bid": ({"bid": INT, "high": INT, "is_dealer": BOOL}, "in bidding.may_match"),
    "phase": (_PHASE_VARS, "in a phase"),
    "discard_card": ({**_PHASE_VARS, "card": CARD}, "in discard.allowed"),
    "discard_set": ({**_PHASE_VARS, "discard": CARDS, "kept": CARDS}, "in discard.valid_if"),
    "lead": ({"lead": CARD, "hand": CARDS, "discarded": CARDS, "trick": INT, "trump": SUIT, "trump_known": BOOL,
              "is_bidder": BOOL, "bid": INT}, "in a lead rule"),
    "follow": ({"play": CARD, "lead": CARD, "winning": CARD, "wins": BOOL, "can_win": BOOL, "legal": CARDS,
                "hand": CARDS, "trick_cards": CARDS, "trick": INT, "trump": SUIT, "is_bidder": BOOL, "bid": INT},
               "in a follow rule"),
    "point": ({"played": CARDS, "dealt": CARDS, "held": CARDS, "trump": SUIT, "bid": INT}, "in a point's card"),
    "point_to": ({"player": SIDE, "winner": SIDE, "holder": SIDE, "dealer": SIDE,
                  "bidder": SIDE, "nobody": SIDE, "card": CARD, "captured_by": CARD, "trick": INT, "trump": SUIT,
                  "bid": INT}, "in a point's `to`"),
    "each_card": ({"card": CARD, "trump": SUIT}, "in a point's `each`"),
    "made": (_MADE_VARS, "in scoring.made"),
    "scoring": ({**_MADE_VARS, "made": BOOL}, "in scoring"),
    "end": ({**_MADE_VARS, "made": BOOL, "previous": INT, "delta": INT}, "in end.win_if"),
}
