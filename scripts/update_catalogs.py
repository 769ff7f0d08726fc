"""Extract the players' messages into smear_dsl/locale/smear.pot and bring every language's .po up to
date with it (new messages added untranslated, gone ones dropped), as `pybabel extract` + `update` do.

Run after changing a message: `.venv/bin/python scripts/update_catalogs.py`, then translate what
tests/test_i18n.py reports missing. `--check` only says whether the .pot is current (exit 1 if not).
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from smear_dsl.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, po_path  # noqa: E402

KEYWORDS = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2), "N_": None, "NP_": ((1, "c"), 2), "NN_": (1, 2)}
# Where players' messages live: the sheet, the referee's refusals and pages, the clients.
SOURCES = (("smear_dsl", [("**.py", "python")]), ("smear_referee", [("**.py", "python")]),
           ("clients/web/src", [("**.js", "javascript")]))
# Authors' tools stay English: nothing under these is extracted even if it uses t(...).
SKIP = ("smear_dsl/expr/_parser.py", "smear_dsl/proto", "smear_referee/api", "clients/web/src/gen")
HEADER = "Players' messages of smear-dsl (rules sheets, tables, refusals); see docs/translating.md."


def extract() -> Catalog:
    """A fresh template: every message the sources mark, with where it is used."""
    cat = Catalog(domain=DOMAIN, project="smear-dsl", version="1", header_comment=f"# {HEADER}",
                  charset="utf-8", fuzzy=False)
    for folder, method_map in SOURCES:
        base = ROOT / folder
        for filename, lineno, message, comments, context in extract_from_dir(
                str(base), method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            rel = f"{folder}/{filename}"
            if any(rel.startswith(s) for s in SKIP) or not _speaks(ROOT / rel):
                continue
            cat.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
    return cat


def _speaks(path: Path) -> bool:
    """Whether a source file uses the catalogs (imports i18n); elsewhere `t(...)` is some other `t`."""
    return path.name == "i18n.py" or "i18n" in path.read_text(encoding="utf-8")


def text(cat: Catalog) -> str:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=True, include_lineno=False)
    return "\n".join(line for line in buf.getvalue().decode().splitlines()
                     if not line.startswith(('"POT-Creation-Date', '"PO-Revision-Date', '"Generated-By'))) + "\n"


def pot_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


def main(argv: list[str]) -> int:
    template = extract()
    fresh = text(template)
    if "--check" in argv:
        current = pot_path().read_text(encoding="utf-8") if pot_path().exists() else ""
        print("catalog template is current" if current == fresh else "stale: run scripts/update_catalogs.py")
        return 0 if current == fresh else 1
    pot_path().parent.mkdir(parents=True, exist_ok=True)
    pot_path().write_text(fresh, encoding="utf-8")
    for lang in LANGUAGES:
        if lang == "en":
            continue
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang, domain=DOMAIN)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="smear-dsl", version="1", fuzzy=False)
        cat.update(template, no_fuzzy_matching=True, update_header_comment=True)
        cat.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text(cat), encoding="utf-8")
        missing = sum(1 for m in cat if m.id and (not m.string or isinstance(m.string, tuple) and not all(m.string)))
        print(f"{lang}: {len(template)} messages, {missing} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
