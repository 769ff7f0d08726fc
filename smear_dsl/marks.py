"""Message markers: they mark a message for the catalogs where it is defined (scripts/update_catalogs.py
extracts them by name) and return it unchanged; it is translated where it is used (smear_dsl/i18n.py).
Apart from i18n so that what only marks messages (moves, errors) starts without loading the catalogs' code."""
from __future__ import annotations


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined (a table of phrases); translated where used."""
    return message


def NP_(context: str, message: str) -> str:
    """N_ with a context, for words that may need two translations (a suit, a point's name)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """N_ for a message with a plural form (its count is `{n}`)."""
    return singular, plural
