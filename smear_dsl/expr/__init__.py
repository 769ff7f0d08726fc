"""The expression language: lark grammar -> AST -> typed -> Python closures."""
from .ast import Expr
from .parse import ExprSyntaxError, parse_expr
from .check import Env, ExprTypeError, check
from .emit import Tables, emit

__all__ = ["Expr", "parse_expr", "ExprSyntaxError", "Env", "check", "ExprTypeError", "Tables", "emit"]
