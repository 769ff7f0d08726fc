"""What each part of the semantic pass (pointdefs.py, crosschecks.py) calls of the whole (load.py's
_Semantics): declared once, so a type checker knows them; at run time the declarations cost nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smear_dsl.language.schema import Src
    from smear_dsl.language.spec import ExprSpec, Loc
    from smear_dsl.language.yamlsrc import Node


class SemanticPart:
    """A part of the semantic pass: `err` reports, `loc` locates, `expr` checks (defined by _Semantics)."""

    if TYPE_CHECKING:
        def err(self, node_or_src: Any, message: str, hint: str | None = None, offset: int = 0,
                since: int = 1) -> None: ...
        def expr(self, src: Src | None) -> ExprSpec | None: ...
        def loc(self, node: Node) -> Loc: ...


def needed(e: ExprSpec | None) -> ExprSpec:
    """An expression a spec must have. It is None only when its check failed and was reported, and then
    the pass refuses the whole file, so a spec built with it is never used: the one place that says so."""
    return e  # type: ignore[return-value]
