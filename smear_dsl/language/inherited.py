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
            row = lines[line - 1]
            d = dataclasses.replace(d, path=path, line=line, col=len(row) - len(row.lstrip()) + 1, source_line=row,
                                    hint=_removed_option_hint(d, text) or _list_hint(d),
                                    inherited=dataclasses.replace(d, inherited=None))
        out.append(d)
    return out


def _list_hint(d: Diagnostic) -> str | None:
    """The parent's hint, and when the error is about an item of a parent's list (it quotes the item's
    setting: `who: bidder` in a phase), how a child changes it: a list is replaced whole, so the child
    writes its own."""
    row = d.source_line or ""
    if not row.lstrip().startswith("-") or not any(q in row for q in re.findall(r"`([^`]*:[^`]*)`", d.message)):
        return d.hint
    try:
        with open(d.path, encoding="utf-8") as f:
            above = f.read().splitlines()[:d.line]
    except (OSError, UnicodeDecodeError):
        return d.hint
    key = next((m.group(2) for row in reversed(above) if (m := _KEY.match(row)) and not m.group(1) and not row.startswith("-")), None)
    if key is None:
        return d.hint
    way = f"`{key}` is a list in the parent's rules, and a list is replaced whole: write your own `{key}:` here"
    return f"{d.hint}; {way}" if d.hint else way


def _removed_option_hint(d: Diagnostic, text: str) -> str | None:
    """For a name the parent still reads but the child removed (`options: {count_out: null}`): what to
    write instead (keep the option, or override the parent's setting that reads it)."""
    m = re.match(r"unknown name `(\w+)`", d.message)
    if m is None or not re.search(rf"^[ \t]+{m.group(1)}[ \t]*:[ \t]*(null|~)[ \t]*$", text, re.M):
        return None
    name = m.group(1)
    where = (d.source_line or "").strip()
    return (f"your file removes the option `{name}`, which the parent's rules still read"
            + (f" (`{where}`)" if where else "") + f": keep the option and set its default instead "
            f"(`{name}: {{default: ...}}`), or override that setting in your file so it no longer reads `{name}` "
            f"(a condition you do not want: `when: null`)")
