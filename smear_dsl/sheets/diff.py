"""What changes between two rule files (or two versions of one), as the players read it.

Both rules sheets are built (explain.py) in the reader's language; within each section, the
paragraphs, bullets and table rows that differ are listed as they were and as they are now, so a
club can decide whether to move to a new version without reading YAML. The sheets' own names for
the files (`name@1`, `name@2`) are set aside, so only what the rules say is compared.
"""
from __future__ import annotations

import difflib
from typing import Any

from smear_dsl.i18n import tr_for
from smear_dsl.language.spec import RuleSpec
from smear_dsl.sheets.explain import Document, Table, explain

REF = "\x00rules\x00"  # stands for each sheet's own exact name while comparing


def _lines(doc: Document, spec: RuleSpec) -> list[tuple[str, str]]:
    """(section title, line) of every paragraph, bullet and table row, the file's own names set aside."""
    own = sorted({spec.ref, spec.stem}, key=len, reverse=True)
    out = [("", p) for p in doc.intro]
    for sec in doc.sections:
        for b in sec.blocks:
            if isinstance(b, str):
                out.append((sec.title, b))
            elif isinstance(b, Table):
                out += [(sec.title, " | ".join(row)) for row in [b.header, *b.rows]]
            else:
                out += [(sec.title, item) for item in b]
    for name in own:
        out = [(t, line.replace(f"`{name}`", REF)) for t, line in out]
    return out


def sheet_diff(old: RuleSpec, new: RuleSpec, lang: str = "en", options: dict[str, Any] | None = None,
               players: int | None = None) -> str:
    """Markdown: the lines of `new`'s rules sheet that differ from `old`'s, section by section."""
    tr = tr_for(lang)
    t = tr.t
    a, b = (f"`{s.ref}`" for s in (old, new))
    docs = [explain(s, options, players, lang) for s in (old, new)]
    before, after = _lines(docs[0], old), _lines(docs[1], new)
    titles = _merged([title for title, _ in before], [title for title, _ in after])
    heading = t("What changes from {old} to {new}", old=a, new=b)
    was_word, now_word = t("was:"), t("now:")
    out = ["# " + heading, ""]
    changed = False
    for title in titles:
        was = [line for s, line in before if s == title]
        now = [line for s, line in after if s == title]
        rows = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, was, now, autojunk=False).get_opcodes():
            if op == "equal":
                continue
            rows += [f"- **{was_word}** {line.replace(REF, a)}" for line in was[i1:i2]]
            rows += [f"- **{now_word}** {line.replace(REF, b)}" for line in now[j1:j2]]
        if rows:
            changed = True
            out += [f"## {title or new.title(lang)}", "", *rows, ""]
    if not changed:
        out.append(t("The rules sheets of {old} and {new} say the same: nothing changes at the table.", old=a, new=b))
    return "\n".join(out).rstrip() + "\n"


def _merged(a: list[str], b: list[str]) -> list[str]:
    """The section titles of both sheets once each, in the order they come in (a section only
    one sheet has stands where it stands in that sheet)."""
    a, b = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        out += a[i1:i2] if op == "equal" else [*a[i1:i2], *b[j1:j2]]
    return list(dict.fromkeys(out))
