"""Names people type (players, entrants, tournaments) are data: normalised and checked at the
referee, and shown by every client as plain text, never as markup or terminal control.

The referee keeps a name in Unicode NFC with runs of spaces made one, and refuses one holding a
control character, a bidirectional override or isolate, a zero-width or other invisible format
character, or a line or paragraph separator: each can make a name look like another, reorder
what follows it on screen, or drive a terminal. Clients still show every name through `shown`
(names stored before these checks, or sent by another server, may hold anything).
"""
from __future__ import annotations

import unicodedata

from smear_dsl.errors import clip
from smear_referee import codes
from smear_referee.errors import RefereeError

# Categories no name may hold: control (Cc), format (Cf: bidi controls, zero-width characters,
# soft hyphen...), surrogates (Cs), private use (Co), unassigned (Cn), line and paragraph separators.
REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean(text: str, limit: int, what: str = "a name", empty: bool = True) -> str:
    """`text` as the referee stores it, or INVALID_ARGUMENT / BAD_NAME saying what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    for i, ch in enumerate(name):
        if unicodedata.category(ch) in REFUSED:
            label = unicodedata.name(ch, "an unassigned or private character")
            raise RefereeError(codes.BAD_NAME, f"{what} may not hold U+{ord(ch):04X} {label} "
                               f"(character {i + 1}): use letters, digits, spaces and punctuation")
    if len(name) > limit:
        raise RefereeError(codes.BAD_NAME, f"{what} is at most {limit} characters, not "
                           f"{len(name)} ({clip(name)})")
    if not name and not empty:
        raise RefereeError(codes.BAD_NAME, f"{what} may not be empty")
    return name


def rules_file_name(text: str, limit: int) -> str:
    """An uploaded rule file's name as a table, tournament or club keeps it: its letters, digits, `_` and `-`
    (it is shown, and part of names like `name@version`), at most `limit` of them; may be empty."""
    return "".join(ch for ch in text if ch.isalnum() or ch in "_-")[:limit]


def shown(text: str) -> str:
    """A name (or any text from the server) safe to print: every character `clean` refuses becomes
    U+FFFD, so no escape sequence, bidi override or invisible character reaches the screen. Markup
    is the printer's to escape (rich.markup.escape, textContent)."""
    return "".join("\ufffd" if unicodedata.category(ch) in REFUSED else ch for ch in text)
