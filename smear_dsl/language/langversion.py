"""The rule language's own versions: what a file that names `language: N` (or none: 1) is judged by.

A check added to the language refuses files only from the language version that introduced it; a
file of an earlier version (every file written before it, which names none) still loads, compiles
and plays as it did, and gets the finding as a warning that names the version to move to. So a
record, a stored table or an archive accepted once is judged by the rules as they were then.
"""
from __future__ import annotations

import dataclasses

from smear_dsl.errors import Diagnostic

FIRST = 1
LATEST = 2
# What each version added, in the words `check` and the docs use.
CHANGES: dict[int, str] = {
    1: "the language as first released",
    2: "refuses rules that cannot work as meant: a bid no hand can make, a point whose card is not in the deck, "
       "a `win_if` no score meets, a `count_out` that `tie_break` does not use, a refill that can find the "
       "stock short without `short:`",
}


def refuses(d: Diagnostic, language: int) -> bool:
    """Whether `d` refuses a file of this language version (else it is a warning there)."""
    return d.severity == "error" and d.since <= language


def as_warning(d: Diagnostic, language: int) -> Diagnostic:
    """A finding of a later language, told to a file of an earlier one: a warning naming the version
    that refuses it, and how to move there."""
    move = (f"language {d.since} refuses this; the file is read as language {language}"
            + (" (it names no `language:`)" if language == FIRST else "")
            + f", so its games stand: fix it, then write `language: {d.since}`")
    return dataclasses.replace(d, severity="warning", hint=f"{d.hint}; {move}" if d.hint else move)


def split(diags: list[Diagnostic], language: int) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(what refuses a file of this language version, what only warns it)."""
    errors = [d for d in diags if refuses(d, language)]
    return errors, [d if d.severity != "error" else as_warning(d, language) for d in diags if not refuses(d, language)]
