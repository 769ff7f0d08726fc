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
