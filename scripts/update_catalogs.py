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
                str(base), method_map, options_map={"**.js": {"parse_template_string": "true"}}, keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            rel = f"{folder}/{filename}"
            if any(rel.startswith(s) for s in SKIP) or not _speaks(ROOT / rel):
                continue
            cat.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
    return cat


def _speaks(path: Path) -> bool:
    """Whether a source file uses the catalogs (imports i18n, or marks messages with smear_dsl.marks);
    elsewhere `t(...)` is some other `t`."""
    text = path.read_text(encoding="utf-8")
    return path.stem == "i18n" or "i18n" in text or "smear_dsl.marks" in text


def text(cat: Catalog) -> str:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=True, include_lineno=False)
    return "\n".join(line for line in buf.getvalue().decode().splitlines()
                     if not line.startswith(('"POT-Creation-Date', '"PO-Revision-Date', '"Generated-By'))) + "\n"


def is_form(context: str | None) -> bool:
    """Whether a catalog entry is a form of a message its language asks for (i18n.Words): under the
    context `form:NAME` or `gender`, with `|CONTEXT` for a message that has one."""
    return bool(context) and (context.startswith("form:") or context.split("|")[0] == "gender")


def base_context(context: str) -> str | None:
    """The context of the message a form entry belongs to."""
    return context.partition("|")[2] or None


def pot_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


WEB_MESSAGES = ROOT / "clients" / "web" / "src" / "gen" / "messages.js"
WEB_MOVES = ROOT / "clients" / "web" / "src" / "gen" / "moves.js"
WEB_CONTEXTS = ("name", "suit", "phase", "rank letter")  # words the web shows that the server's messages also name
WEB_SOURCES = ("clients/web/", "smear_dsl/moves.py")  # the move words are the codec's (web_moves)


def _plural_categories(lang: str) -> dict[str, int]:
    """CLDR plural category (what the browser's Intl.PluralRules says) -> index of the .po plural form."""
    import gettext as _gettext

    from babel import Locale
    from babel.messages.plurals import get_plural
    rule = _gettext.c2py(get_plural(lang).plural_expr)
    locale = Locale.parse(lang)
    return {locale.plural_form(n): rule(n) for n in range(0, 1_000_001, 1) if n < 200 or n % 100_000 == 0}


def web_messages() -> str:
    """clients/web/src/gen/messages.js: each language's translations of the messages the web client
    uses (and the point, suit and phase names it shows), for its i18n.js."""
    import json
    used = {m.id if not isinstance(m.id, tuple) else m.id[0] for m in extract()
            if any(loc.startswith(WEB_SOURCES) for loc, _ in m.locations) or m.context in WEB_CONTEXTS}
    out, cats = {}, {}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        with po_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang, domain=DOMAIN)
        table = {}
        for m in cat:
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            if not m.id or key not in used or m.fuzzy or is_form(m.context):  # no web message asks a form yet
                continue
            key = f"{m.context}\u0004{key}" if m.context else key
            table[key] = list(m.string) if isinstance(m.string, tuple) else m.string
        out[lang] = dict(sorted(table.items()))
        cats[lang] = _plural_categories(lang)
    body = json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True)
    return ("// Generated by scripts/update_catalogs.py from smear_dsl/locale: do not edit (tests check it is current).\n"
            f"export const MESSAGES = {body};\n"
            f"export const PLURAL_CATEGORIES = {json.dumps(cats, sort_keys=True)};\n")


def web_moves() -> str:
    """clients/web/src/gen/moves.js: how a move is said (smear_dsl/moves.py's OFFERED and TOLD
    templates), so the web client says moves in the same words as the terminal."""
    import json

    from smear_dsl.moves import OFFERED, TOLD
    return ("// Generated by scripts/update_catalogs.py from smear_dsl/moves.py: do not edit (tests check it is current).\n"
            f"export const OFFERED = {json.dumps(OFFERED, indent=0, sort_keys=True)};\n"
            f"export const TOLD = {json.dumps(TOLD, indent=0, sort_keys=True)};\n")


def main(argv: list[str]) -> int:
    template = extract()
    fresh = text(template)
    if "--check" in argv:
        current = pot_path().read_text(encoding="utf-8") if pot_path().exists() else ""
        print("catalog template is current" if current == fresh else "stale: run scripts/update_catalogs.py")
        return 0 if current == fresh else 1
    pot_path().parent.mkdir(parents=True, exist_ok=True)
    pot_path().write_text(fresh, encoding="utf-8")
    known = {(m.id, m.context) for m in template if m.id}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang, domain=DOMAIN)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="smear-dsl", version="1", fuzzy=False)
        forms = [m for m in cat if m.id and is_form(m.context)]  # a language's own entries: kept while their message is
        cat.update(template, no_fuzzy_matching=True, update_header_comment=True)
        cat.obsolete.clear()
        for m in forms:
            if (m.id, base_context(m.context)) in known:
                cat[m.id] = m
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text(cat), encoding="utf-8")
        missing = sum(1 for m in cat if m.id and (not m.string or isinstance(m.string, tuple) and not all(m.string)))
        print(f"{lang}: {len(template)} messages, {missing} untranslated")
    WEB_MESSAGES.parent.mkdir(parents=True, exist_ok=True)
    WEB_MESSAGES.write_text(web_messages(), encoding="utf-8")
    WEB_MOVES.write_text(web_moves(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
