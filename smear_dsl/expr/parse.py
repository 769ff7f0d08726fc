"""Parse expression text with the lark grammar and turn the tree into our own AST."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from smear_dsl.expr import ast as A

# The parser generated from grammar.lark by scripts/gen_parser.py (lark's standalone tool): importing
# it neither imports lark nor builds the LALR tables.
from smear_dsl.expr._standalone import (
    Lark,
    Lark_StandAlone,
    LarkError,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)

MAX_LENGTH = 2000


class ExprSyntaxError(Exception):
    """Bad expression text; `offset` is 0-based within the expression."""

    def __init__(self, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.offset, self.hint = message, offset, hint


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark_StandAlone()


def _pos(x: Any) -> int:
    if isinstance(x, Token):
        return x.start_pos or 0
    if isinstance(x, A.Expr):
        return x.pos
    return 0


@v_args(meta=True)
class _ToAst(Transformer):
    def int(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Const(meta.start_pos, int(c[0]), "int")

    def true(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Const(meta.start_pos, True, "bool")

    def false(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Const(meta.start_pos, False, "bool")

    def string(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Const(meta.start_pos, str(c[0])[1:-1], "str")

    def name(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Name(meta.start_pos, str(c[0]))

    def attr(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Attr(_pos(c[1]), c[0], str(c[1]))

    def call(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Call(meta.start_pos, str(c[0]), tuple(x for x in c[1:] if x is not None))

    def list(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.ListLit(meta.start_pos, tuple(x for x in c if x is not None))

    def card_of(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.CardOf(meta.start_pos, str(c[0]), c[1])

    def neg(self, meta: Any, c: Sequence[Any]) -> A.Expr:  # c: the `-` token, then the operand
        return A.Neg(meta.start_pos, c[-1])

    def binop(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.BinOp(_pos(c[1]), str(c[1]), c[0], c[2])

    def compare(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Compare(_pos(c[1]), str(c[1]), c[0], c[2])

    def member(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Member(meta.start_pos, c[0], c[1], False)

    def not_member(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Member(meta.start_pos, c[0], c[1], True)

    def and_(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.BoolOp(meta.start_pos, "and", c[0], c[1])

    def or_(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.BoolOp(meta.start_pos, "or", c[0], c[1])

    def not_(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Not(meta.start_pos, c[0])

    def ifelse(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.IfElse(meta.start_pos, c[0], c[1], c[2])

    def where(self, meta: Any, c: Sequence[Any]) -> A.Expr:
        return A.Where(meta.start_pos, c[0], c[1])


_TOKEN_WORDS = {
    "CMPOP": "a comparison", "PLUS": "`+`", "MINUS": "`-`", "MULOP": "`*`, `//` or `%`", "NAME": "a name",
    "INT": "a number", "STRING": "a string", "LPAR": "`(`", "RPAR": "`)`", "COMMA": "`,`",
    "LSQB": "`[`", "RSQB": "`]`", "DOT": "`.`", "$END": "the end of the expression",
}


def parse_expr(text: str) -> A.Expr:
    """Parse one expression; raises ExprSyntaxError with an offset on bad input."""
    if len(text) > MAX_LENGTH:
        raise ExprSyntaxError(f"expression is longer than {MAX_LENGTH} characters", 0)
    if not text.strip():
        raise ExprSyntaxError("empty expression", 0)
    try:
        tree = _parser().parse(text)
        out: A.Expr = _ToAst().transform(tree)
        return out
    except UnexpectedCharacters as e:
        raise ExprSyntaxError(f"unexpected character {text[e.pos_in_stream]!r}", e.pos_in_stream,
                              "expressions use names, numbers, `and`/`or`/`not`, comparisons and + - * // %") from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            raise ExprSyntaxError("expression ends too early", len(text.rstrip()),
                                  "something is missing at the end (an operand or a closing bracket?)") from None
        expected = sorted({_TOKEN_WORDS.get(t, f"`{t.lower()}`") for t in e.expected if not t.startswith("__")})
        hint = "expected " + ", ".join(expected[:6]) if expected else None
        raise ExprSyntaxError(f"unexpected {str(tok)!r}", tok.start_pos or 0, hint) from None
    except UnexpectedEOF:
        raise ExprSyntaxError("expression ends too early", len(text.rstrip())) from None
    except (UnexpectedInput, LarkError) as e:
        raise ExprSyntaxError(f"cannot parse expression: {e}", 0) from None
    except RecursionError:
        raise ExprSyntaxError("expression nests too deeply", 0) from None
