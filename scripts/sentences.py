"""Show a translator every sentence of the rules sheets that a catalog change affects, rendered.

Usage: python scripts/sentences.py LANG [--grep TEXT]
Renders the sheet of every shipped rule file in LANG from the catalog as it is now and prints, per
rule file, each line that differs from the reviewed sheets (tests/golden/explain/LANG) as the old
line and the new one; with --grep, also every current line holding TEXT (to read a word in all its
sentences). Exit status 1 when some sheet changed (review, then SMEAR_UPDATE_GOLDEN=1 pytest
tests/sheets/test_i18n.py to accept).
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.i18n import LANGUAGES  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.language.paths import rule_names  # noqa: E402
from smear_dsl.sheets.explain import render  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "explain"


def changed_lines(old: str, new: str) -> list[tuple[str, str]]:
    """(old line, new line) pairs where the sheets differ ("" for a line only one side has)."""
    out: list[tuple[str, str]] = []
    a, b = old.splitlines(), new.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        gone, came = a[i1:i2], b[j1:j2]
        for k in range(max(len(gone), len(came))):
            out.append((gone[k] if k < len(gone) else "", came[k] if k < len(came) else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lang", choices=[code for code in LANGUAGES if code != "en"])
    ap.add_argument("--grep", help="also print every current line holding this text")
    args = ap.parse_args(argv)
    changed = 0
    for name in sorted(rule_names()):
        text = render(load_spec(name), "md", lang=args.lang)
        golden = GOLDEN / args.lang / f"{name}.md"
        old = golden.read_text(encoding="utf-8") if golden.exists() else ""
        pairs = changed_lines(old, text)
        hits = [line for line in text.splitlines() if args.grep and args.grep in line]
        if pairs or hits:
            print(f"== {name}")
        for before, after in pairs:
            changed += 1
            print(f"  - {before}\n  + {after}")
        for line in hits:
            print(f"  = {line}")
    print(f"{changed} line(s) changed in the {args.lang} sheets", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
