"""Moves as small ints inside the engine; dicts (RECORD_FORMAT.md) at the edges.

play c -> c (0..63); pass -> PASS; bid v -> BID_BASE + v; name trump s -> TRUMP_BASE + s;
discard of the card set m -> DISCARD_FLAG | m; a choice when begging (stand, beg, give, run) ->
CHOOSE_BASE + its index in CHOICES.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smear_dsl import cards as C
from smear_dsl.errors import MoveError, clip
from smear_dsl.marks import N_

PASS = 64
BID_BASE = 128
TRUMP_BASE = 4096
CHOOSE_BASE = TRUMP_BASE + 16
CHOICES = ("stand", "beg", "give", "run")  # the eldest stands or begs; the dealer gives a point or runs the cards
# Each choice as the table says it (a message of the catalogs; a person at a terminal types the first word).
CHOICE_WORDS = {"stand": N_("stand"), "beg": N_("beg"), "give": N_("give a point"), "run": N_("run the cards")}
DISCARD_FLAG = 1 << 64
ACTIONS = ("pass", "bid", "discard", "play", "trump", "choose")
# How a move is said, defined once (message templates of the catalogs): OFFERED as the seat to act
# is offered it (a menu line, a button: "bid 3"), TOLD of a seat that made it (a table's log, a
# replay: "bids 3"). The terminal says moves with `said`; the web client's words are generated
# from these two tables (clients/web/src/gen/moves.js, by scripts/update_catalogs.py).
OFFERED = {"pass": N_("pass"), "bid": N_("bid {n}"), "trump": N_("trump {suit}"), "discard": N_("discard {cards}"),
           "discard_unseen": N_("discard {n} cards"), "play": N_("play {card}"), **CHOICE_WORDS}
TOLD = {"pass": N_("passes"), "bid": N_("bids {n}"), "trump": N_("names {suit} trump"),
        "discard": N_("discards {cards}"), "discard_unseen": N_("discards {n} cards"), "play": N_("plays {card}"),
        "stand": N_("stands"), "beg": N_("begs"), "give": N_("gives a point"), "run": N_("runs the cards")}


def action_of(code: int) -> str:
    """The kind of a move code; a code no move has is refused as BAD_RECORD (not a move at all)."""
    if not isinstance(code, int) or code < 0 or code >= DISCARD_FLAG << 1 or (
            TRUMP_BASE + 4 <= code < DISCARD_FLAG and not CHOOSE_BASE <= code < CHOOSE_BASE + len(CHOICES)):
        raise MoveError("BAD_RECORD", f"{clip(code)} is not a move code")
    if code < 64:
        return "play"
    if code == PASS:
        return "pass"
    if code < TRUMP_BASE:
        return "bid"
    if code < TRUMP_BASE + 4:
        return "trump"
    return "choose" if code < DISCARD_FLAG else "discard"


def to_dict(code: int, seat: int, name_of) -> dict[str, Any]:
    """The record form of a move: {"seat", "action", ...}."""
    a = action_of(code)
    if a == "play":
        return {"seat": seat, "action": "play", "card": name_of(code)}
    if a == "pass":
        return {"seat": seat, "action": "pass"}
    if a == "bid":
        return {"seat": seat, "action": "bid", "value": code - BID_BASE}
    if a == "trump":
        return {"seat": seat, "action": "trump", "suit": C.SUIT_CHARS[code - TRUMP_BASE]}
    if a == "choose":
        return {"seat": seat, "action": "choose", "choice": CHOICES[code - CHOOSE_BASE]}
    return {"seat": seat, "action": "discard", "cards": [name_of(c) for c in C.bits(code ^ DISCARD_FLAG)]}


def from_dict(rules, move: Any) -> tuple[int, str, Any]:
    """(seat, action, payload) of a move in its record form, for `rules` (CompiledRules: their seats and
    cards), or MoveError BAD_RECORD if it is malformed: the payload is a card id, a bid, a suit index,
    a choice index or a discard's card ids."""
    if not isinstance(move, dict):
        raise MoveError("BAD_RECORD", N_("a move is an object"))
    seat = move.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise MoveError("BAD_RECORD", N_("seat must be an integer 0..{last}, not {value}"), last=rules.players - 1,
                        value=clip(seat))
    action = move.get("action")
    if action not in ACTIONS:
        raise MoveError("BAD_RECORD", N_("unknown action {value}"), value=clip(action))
    if action == "pass":
        return seat, action, None
    if action == "bid":
        v = move.get("value")
        if not isinstance(v, int) or isinstance(v, bool):
            raise MoveError("BAD_RECORD", N_("a bid's value must be an integer, not {value}"), value=clip(v))
        return seat, action, v
    if action == "play":
        c = rules.parse_card(move.get("card"))
        if c is None:
            raise MoveError("BAD_RECORD", N_("a play needs a card, not {value}"), value=clip(move.get("card")))
        return seat, action, c
    if action == "trump":
        s = move.get("suit")
        si = C.SUIT_CHARS.find(s) if isinstance(s, str) and len(s) == 1 else -1
        if si < 0:
            raise MoveError("BAD_RECORD", N_("naming trump needs a suit S, H, D or C, not {value}"), value=clip(s))
        return seat, action, si
    if action == "choose":
        choice = move.get("choice")
        if choice not in CHOICES:
            raise MoveError("BAD_RECORD", N_("a choice is one of {choices}, not {value}"), choices=", ".join(CHOICES),
                            value=clip(choice))
        return seat, action, CHOICES.index(choice)
    cards = move.get("cards")
    if not isinstance(cards, list):
        raise MoveError("BAD_RECORD", N_("a discard needs a list of cards"))
    ids = [rules.parse_card(c) for c in cards]
    if None in ids:
        raise MoveError("BAD_RECORD", N_("a discard's cards must be card names, not {value}"), value=clip(cards))
    return seat, action, ids


def describe(code: int, name_of) -> str:
    """A short English text for a move: `bid 3`, `pass`, `play AS`, `discard 7D 8C`."""
    from smear_dsl.i18n import ENGLISH  # only where a move is told: `check` never loads the catalogs' code
    return said(to_dict(code, 0, name_of), ENGLISH)


def said(move: dict[str, Any], tr, card: Callable[[str], str] = str, suit: Callable[[str], str] = str,
         told: bool = False) -> str:
    """A move in its record form (to_dict; a discard others may not see has `count` and no cards)
    as players of `tr`'s language say it (OFFERED, or TOLD of the seat that made it), its cards and
    suits written by `card` and `suit`."""
    words = TOLD if told else OFFERED
    action = move["action"]
    if action == "bid":
        return tr.t(words["bid"], n=move["value"])
    if action == "trump":
        return tr.t(words["trump"], suit=suit(move["suit"]))
    if action == "play":
        return tr.t(words["play"], card=card(move["card"]))
    if action == "discard":
        if move.get("cards"):
            return tr.t(words["discard"], cards=" ".join(map(card, move["cards"])))
        return tr.t(words["discard_unseen"], n=move.get("count", 0))
    if action == "choose":
        return tr.t(words[move["choice"]]) if move["choice"] in words else move["choice"]
    return tr.t(words["pass"])
