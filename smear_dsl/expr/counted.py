"""What a discard's `valid_if` counts: the engine finds legal discards without trying every
combination when the condition reads the discard and the kept cards only through `count(...)`
and `any(...)` of them, filtered by conditions on each card (`count(kept where card.trump) >= 6`).
The discard's legality then depends only on how many cards of each kind it takes, so the kinds
(the cards each condition picks out of the hand) and the counts per kind are all there is to search.
"""
from __future__ import annotations

from smear_dsl.expr import ast as A

SETS = ("discard", "kept")
MAX_KINDS = 2  # conditions a valid_if may count by: at most 2**2 kinds of card to search over


class NotCounted(Exception):
    """valid_if reads the discard otherwise than by counting it; `pos` is where."""

    def __init__(self, pos: int):
        super().__init__(pos)
        self.pos = pos


def counted_conditions(e: A.Expr) -> list[A.Expr]:
    """The `where` conditions valid_if counts the discard or the kept cards by, each once (a
    condition of several `where`s is their chain, as an AST over `hand`); NotCounted if it reads
    either set another way."""
    found: dict[str, A.Expr] = {}
    _walk(e, found)
    return list(found.values())


def _walk(e: A.Expr, found: dict[str, A.Expr]) -> None:
    if isinstance(e, A.Call) and e.fn in ("count", "any") and len(e.args) == 1:
        chain = _counted_set(e.args[0])
        if chain is not None:
            if chain:
                probe = _over_hand(e.args[0])
                found.setdefault(repr(_strip_pos(probe)), probe)
            return
    if isinstance(e, A.Name) and e.name in SETS:
        raise NotCounted(e.pos)
    for x in A.children(e):
        _walk(x, found)


def _counted_set(e: A.Expr) -> list[A.Expr] | None:
    """For `discard` / `kept` with `where` filters: the filters (empty: the whole set); None if `e`
    is not such a set. A filter that itself reads the discard is NotCounted."""
    conds: list[A.Expr] = []
    while isinstance(e, A.Where):
        if any(A.mentions(e.cond, s) for s in SETS):
            raise NotCounted(e.cond.pos)
        conds.append(e.cond)
        e = e.cards
    if isinstance(e, A.Name) and e.name in SETS:
        return conds
    return None


def _over_hand(e: A.Expr) -> A.Expr:
    """The same chain of `where`s over the hand: the hand's cards of that kind."""
    if isinstance(e, A.Where):
        return A.Where(e.pos, _over_hand(e.cards), e.cond)
    return A.Name(e.pos, "hand")


def _strip_pos(e: A.Expr) -> A.Expr:
    """The expression with every position 0, to compare conditions written in different places."""
    return A._rebuilt(e, _strip_pos, pos=0)


def plan_reads(e: A.Expr) -> tuple[str, ...] | None:
    """The names `valid_if` reads besides the hand, the discard and the kept cards, when it reads those
    three only by counting them whole or by the kinds it counts the discard by (`count(hand where
    card.trump)` beside `count(kept where card.trump)`): then whether a plan passes depends on those
    names and the counts alone, and the engine remembers its answers by them. None if it reads the
    hand another way (`count(hand where card.rank == A)` with no such count of the discard)."""
    try:
        kinds = {repr(_strip_pos(c)) for c in counted_conditions(e)}
    except NotCounted:
        return None
    names: set[str] = set()
    if not _reads(e, kinds, names):
        return None
    return tuple(sorted(names))


def _reads(e: A.Expr, kinds: set[str], names: set[str]) -> bool:
    """Whether `e` reads the hand, the discard and the kept cards only whole or by `kinds` (a count's
    own `where` conditions are the kinds' masks: not walked); every other name it reads joins `names`."""
    if isinstance(e, A.Call) and e.fn in ("count", "any") and len(e.args) == 1:
        base, arg = e.args[0], e.args[0]
        while isinstance(base, A.Where):
            base = base.cards
        if isinstance(base, A.Name) and base.name in (*SETS, "hand"):
            return arg is base or repr(_strip_pos(_over_hand(arg))) in kinds
    if isinstance(e, A.Name):
        if e.name == "hand":
            return False
        if e.name not in SETS:
            names.add(e.name)
        return True
    return all(_reads(x, kinds, names) for x in A.children(e))
