"""Moves as small ints inside the engine; dicts (RECORD_FORMAT.md) at the edges.

play c -> c (0..63); pass -> PASS; bid v -> BID_BASE + v; name trump s -> TRUMP_BASE + s;
discard of the card set m -> DISCARD_FLAG | m; a choice when begging (stand, beg, give, run) ->
CHOOSE_BASE + its index in CHOICES.
"""
from __future__ import annotations

from typing import Any

from smear_dsl import cards as C
from smear_dsl.errors import MoveError, clip
from smear_dsl.i18n import N_

PASS = 64
BID_BASE = 128
TRUMP_BASE = 4096
CHOOSE_BASE = TRUMP_BASE + 16
CHOICES = ("stand", "beg", "give", "run")  # the eldest stands or begs; the dealer gives a point or runs the cards
# Each choice as the table says it (a message of the catalogs; a person at a terminal types the first word).
CHOICE_WORDS = {"stand": N_("stand"), "beg": N_("beg"), "give": N_("give a point"), "run": N_("run the cards")}
DISCARD_FLAG = 1 << 64
ACTIONS = ("pass", "bid", "discard", "play", "trump", "choose")


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


def describe(code: int, name_of) -> str:
    """A short human text for a move: `bid 3`, `pass`, `play AS`, `discard 7D 8C`."""
    d = to_dict(code, 0, name_of)
    if d["action"] == "bid":
        return f"bid {d['value']}"
    if d["action"] == "play":
        return f"play {d['card']}"
    if d["action"] == "trump":
        return f"trump {d['suit']}"
    if d["action"] == "discard":
        return "discard " + " ".join(d["cards"])
    if d["action"] == "choose":
        return d["choice"]
    return "pass"
