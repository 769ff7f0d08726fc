"""AST of the expression language: frozen dataclasses, each knowing its offset in the source."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard


@dataclass(frozen=True)
class Expr:
    """Base of every expression node; `pos` is the 0-based offset in the expression text."""

    pos: int


@dataclass(frozen=True)
class Const(Expr):
    value: Any
    type: str  # 'int', 'bool', 'str'


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class CardOf(Expr):
    rank: str
    suit: Expr


@dataclass(frozen=True)
class Neg(Expr):
    x: Expr


@dataclass(frozen=True)
class BinOp(Expr):
    op: str
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Compare(Expr):
    op: str
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Member(Expr):
    a: Expr
    b: Expr
    negate: bool


@dataclass(frozen=True)
class BoolOp(Expr):
    op: str  # 'and' | 'or'
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Not(Expr):
    x: Expr


@dataclass(frozen=True)
class IfElse(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Where(Expr):
    cards: Expr
    cond: Expr


def children(e: Expr) -> list[Expr]:
    """The sub-expressions of a node."""
    out: list[Expr] = []
    for v in vars(e).values():
        if isinstance(v, Expr):
            out.append(v)
        elif isinstance(v, tuple):
            out += [x for x in v if isinstance(x, Expr)]
    return out


def names_in(e: Expr) -> frozenset[str]:
    """Every name and attribute name an expression uses: `mentions(e, n)` is `n in names_in(e)`, one walk
    for a question asked of many names."""
    out: set[str] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Name):
            out.add(x.name)
            continue
        if isinstance(x, Attr):
            out.add(x.name)
        stack += children(x)
    return frozenset(out)


def mentions(e: Expr, name: str) -> bool:
    """Whether an expression uses a name or an attribute called `name`."""
    if isinstance(e, Name):
        return e.name == name
    if isinstance(e, Attr) and e.name == name:
        return True
    return any(mentions(x, name) for x in children(e))


def used_only_as(e: Expr, name: str, attr: str) -> bool:
    """Whether every use of the name `name` in `e` is `name.attr` (e.g. a lead rule that reads only `lead.suit`)."""
    if isinstance(e, Attr) and isinstance(e.obj, Name) and e.obj.name == name:
        return e.name == attr
    if isinstance(e, Name):
        return e.name != name
    return all(used_only_as(x, name, attr) for x in children(e))


def _rebuilt(e: Expr, f: Callable[[Expr], Expr], **fields: Any) -> Expr:
    """`e` with `f` applied to each sub-expression (and `fields` replaced): the one tree rebuild
    behind with_values, expand and _at."""
    kids = {k: f(v) if isinstance(v, Expr) else
            tuple(f(x) if isinstance(x, Expr) else x for x in v) if isinstance(v, tuple) else v
            for k, v in vars(e).items()}
    return type(e)(**{**kids, **fields})


def with_values(e: Expr, values: dict[str, Any]) -> Expr:
    """`e` with the names in `values` (a table's options) replaced by their values and what that
    makes constant folded, so `widow` at a table of widow 2 reads "2", not "the widow option"."""
    if isinstance(e, Name) and e.name in values:
        v = values[e.name]
        return Const(e.pos, v, "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str")
    return _folded(_rebuilt(e, lambda x: with_values(x, values)))


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else None, "%": lambda a, b: a % b if b else None}
_CMP: dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _const(x: Expr) -> TypeGuard[Const]:
    return isinstance(x, Const)


def _folded(e: Expr) -> Expr:
    """One node folded when its operands are constants (or an and/or is decided by one side)."""
    const = _const
    if isinstance(e, BinOp) and const(e.a) and const(e.b) and e.a.type == e.b.type == "int" and e.op in _ARITH:
        v = _ARITH[e.op](e.a.value, e.b.value)
        return e if v is None else Const(e.pos, v, "int")
    if isinstance(e, Neg) and const(e.x) and e.x.type == "int":
        return Const(e.pos, -e.x.value, "int")
    if isinstance(e, Compare) and const(e.a) and const(e.b) and e.a.type == e.b.type and e.op in _CMP:
        return Const(e.pos, _CMP[e.op](e.a.value, e.b.value), "bool")
    if isinstance(e, Not) and const(e.x) and e.x.type == "bool":
        return Const(e.pos, not e.x.value, "bool")
    if isinstance(e, BoolOp):
        for side, other in ((e.a, e.b), (e.b, e.a)):
            if const(side) and side.type == "bool":
                decides = side.value == (e.op == "or")  # True decides an or, False an and
                return side if decides else other
    if isinstance(e, IfElse) and const(e.cond) and e.cond.type == "bool":
        return e.then if e.cond.value else e.other
    return e


def expand(e: Expr, defs: dict[str, Expr], _using: tuple[str, ...] = ()) -> Expr:
    """`e` with each defined name replaced by its definition (itself expanded), every node of a
    definition placed at the name's position, so an error in it points at the use.
    ValueError names a definition that uses itself."""
    if isinstance(e, Name) and e.name in defs:
        if e.name in _using:
            raise ValueError(" -> ".join((*_using, e.name)))
        return _at(expand(defs[e.name], defs, (*_using, e.name)), e.pos)
    return _rebuilt(e, lambda x: expand(x, defs, _using))


def _at(e: Expr, pos: int) -> Expr:
    return _rebuilt(e, lambda x: _at(x, pos), pos=pos)
