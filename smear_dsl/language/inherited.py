"""Problems a child rule file causes in what it inherits, located where the author can act: at the
child's own line that triggers them (a key the message names: a top-level one first, then one of the
file's own deeper keys; else its `extends:`), with the parent's line kept as a note. A parent's own
text is never the place to send a house-rules author."""
from __future__ import annotations

import dataclasses
import re

from smear_dsl.errors import Diagnostic

_KEY = re.compile(r"^([ \t]*)-?[ \t]*([A-Za-z_]\w*)[ \t]*:", re.M)


def own_lines(diags: list[Diagnostic], path: str, text: str) -> list[Diagnostic]:
    """`diags` with each one located in another file (a parent) moved to `path`'s triggering line."""
    if not any(d.path != path for d in diags):
        return diags
    keys = [(m.group(2), not m.group(1), text.count("\n", 0, m.start()) + 1) for m in _KEY.finditer(text)]
    extends = next((line for k, top, line in keys if k == "extends" and top), None)
    if extends is None:
        return diags
    lines = text.splitlines()
    out = []
    for d in diags:
        if d.path != path:
            named = [(not top, line) for k, top, line in keys if k != "extends" and f"`{k}" in d.message]
            line = min(named)[1] if named else extends
            d = dataclasses.replace(d, path=path, line=line, col=len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1,
                                    source_line=lines[line - 1], inherited=dataclasses.replace(d, inherited=None))
        out.append(d)
    return out
