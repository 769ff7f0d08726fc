"""AST of the expression language: frozen dataclasses, each knowing its offset in the source."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
