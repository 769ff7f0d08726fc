"""The expression language: lark grammar -> AST -> typed -> Python closures."""
from smear_dsl.expr.ast import Expr
from smear_dsl.expr.check import Env, ExprTypeError, check
from smear_dsl.expr.emit import Tables, emit
from smear_dsl.expr.parse import ExprSyntaxError, parse_expr

__all__ = ["Expr", "parse_expr", "ExprSyntaxError", "Env", "check", "ExprTypeError", "Tables", "emit"]
