"""Every kind of point, declared once: how scoring decides it, whether it is settled before the play or
scored many times a hand, and what the rules sheet says it is won by. The compiler gives each point of a
rule file its kind here (`kind_of`); the engine's scoring, the bots' worth of a hand (players/worth.py) and
the sheet's count of what a hand awards (sheets/most.py) each read every kind, and tests/engine/
test_point_kinds.py fails when one of them does not know a kind listed here (docs/architecture.md,
"Adding a point kind").

A kind is a small int (points.plan's first field, read on scoring's hot path); their order matters in
one way only, checked below: the kinds settled before the play come last (scoring asks `kind >= GIFT`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from smear_dsl.marks import N_


class CompiledPoint(Protocol):
    """What kind_of reads of a compiled point (compile/compiled.py's CompiledPoint, frozen)."""

    @property
    def most(self) -> bool: ...
    @property
    def gift(self) -> bool: ...
    @property
    def per_trick(self) -> bool: ...
    @property
    def each(self) -> Any: ...
    @property
    def to(self) -> str | None: ...
    @property
    def by_trump(self) -> Any: ...
    @property
    def scan(self) -> Any: ...


@dataclass(frozen=True)
class PointKind:
    """One way a point is decided."""

    code: int
    name: str
    decided: str  # how scoring decides it (for readers of the code)
    won_by: str  # what the rules sheet says it is for (a message template; "" where the point's card is read)
    before_play: bool = False  # settled before the play (the dealer's gift, a card turned up for trump)
    per: str | None = None  # "card" or "trick": scored many times a hand, a value per side


KINDS: tuple[PointKind, ...] = (
    PointKind(0, "most", "the side with the most card value in its tricks (Game); a tie as the rule says",
              N_("the most card value in the tricks (and credited discards) a side took")),
    PointKind(1, "by_trump", "a card named by trump alone (the Jack of trump), looked up per trump", ""),
    PointKind(2, "scan_played", "the first card of a list held when play began (the lowest trump out)", ""),
    PointKind(3, "scan_dealt", "the first card of a list dealt (the lowest trump dealt)", ""),
    PointKind(4, "expr", "the card an expression names (any other card point)", ""),
    PointKind(5, "each", "every card for which a condition holds, to the side that takes it",
              N_("every card for which {cond}"), per="card"),
    PointKind(6, "tricks", "every trick, to the side that wins it", N_("every trick"), per="trick"),
    PointKind(7, "gift", "the dealer's gift to a beg, to the eldest hand's side",
              N_("the dealer's gift to a beg"), before_play=True),
    PointKind(8, "turned", "a card turned up for trump, to the dealer's side", "", before_play=True),
)
BY_NAME = {k.name: k for k in KINDS}
MOST, BY_TRUMP, SCAN_PLAYED, SCAN_DEALT, EXPR, EACH, TRICKS, GIFT, TURNED = (k.code for k in KINDS)
assert [k.code for k in KINDS] == list(range(len(KINDS))), "kinds are numbered 0, 1, 2, ... in this order"
assert all(k.before_play == (k.code >= GIFT) for k in KINDS), "the kinds settled before the play come last"


def kind_of(p: CompiledPoint) -> int:
    """The kind of one compiled point, from what its rule file says of it."""
    if p.most:
        return MOST
    if p.gift:
        return GIFT
    if p.per_trick:
        return TRICKS
    if p.each is not None:
        return EACH
    if p.to == "dealer_if_turned":
        return TURNED
    if p.by_trump is not None:
        return BY_TRUMP
    if p.scan is not None:
        return SCAN_DEALT if p.scan[0] == "dealt" else SCAN_PLAYED
    return EXPR


class UnknownKind(AssertionError):
    """A point kind a reader of points.plan was not taught (tests/engine/test_point_kinds.py catches it first)."""

    def __init__(self, kind: int, reader: str):
        super().__init__(f"point kind {kind} is not known to {reader}: teach it every kind of compile/pointkinds.py")
