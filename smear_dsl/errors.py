"""One error root for the project, with a subclass per kind of failure."""
from __future__ import annotations

from dataclasses import dataclass


def clip(value: object, limit: int = 40) -> str:
    """`repr(value)`, cut to its first `limit` characters when longer: error messages quote at
    most a short prefix of what a caller sent (a 1 MB card name must not come back whole)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class SmearError(Exception):
    """Root of every error smear-dsl raises on purpose."""


@dataclass(frozen=True)
class Diagnostic:
    """One located problem in a rule file: where, what, and a hint."""

    path: str
    line: int  # 1-based
    col: int  # 1-based
    message: str
    hint: str | None = None
    source_line: str | None = None
    severity: str = "error"  # or "warning": worth a look, but the file still plays
    # Where in a parent file the problem shows, when the author's own line (this one) causes it there.
    inherited: Diagnostic | None = None
    # The language version from which this refuses a file (smear_dsl/language/langversion.py): a file read
    # under an earlier one gets it as a warning, so what was accepted stays accepted.
    since: int = 1

    def format(self) -> str:
        """`path:line:col: message`, then the offending line, a caret and the hint (and, for a problem
        the file causes in a parent, the parent's line as a note)."""
        out = [f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}"]
        if self.source_line is not None:
            text = self.source_line.rstrip("\n")
            out.append(f"    {text}")
            out.append("    " + " " * max(0, self.col - 1) + "^")
        if self.hint:
            out.append(f"    hint: {self.hint}")
        if self.inherited is not None:
            where = self.inherited
            out.append(f"    note: it shows in the parent's rules at {where.path}:{where.line}:{where.col}"
                       + (f": {where.source_line.strip()}" if where.source_line else ""))
        return "\n".join(out)


class RuleError(SmearError):
    """A rule file failed to load or compile; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class OptionError(SmearError):
    """A table option or seat count the rules do not allow."""


@dataclass(frozen=True)
class Said:
    """A message players read, kept as its English template and values so it can be said in
    another language (i18n.say); `str()` is the English. With `plural`, `n` picks the form."""

    template: str
    params: tuple[tuple[str, object], ...] = ()
    plural: str | None = None

    def __str__(self) -> str:
        values = dict(self.params)
        text = self.plural if self.plural is not None and values.get("n") != 1 else self.template
        return text.format(**{k: str(v) for k, v in values.items()}) if values else text


class MoveError(SmearError):
    """A move the referee refuses; `code` is one of RECORD_FORMAT.md's error codes, `said` the reason
    (a template and its values: `MoveError(code, N_("bids are {lo} to {hi}"), lo=2, hi=4)`)."""

    def __init__(self, code: str, message: str | Said, **params: object):
        self.code = code
        self.said = message if isinstance(message, Said) else Said(message, tuple(params.items()))
        self.message = str(self.said)
        super().__init__(f"{code}: {self.message}")


class RecordError(SmearError):
    """A game record that cannot be read at all (not JSON, unknown rules, bad header)."""


# Error codes of RECORD_FORMAT.md, in the order the referee checks them.
ERROR_CODES: tuple[str, ...] = (
    "BAD_RECORD",
    "BAD_DEAL",
    "GAME_OVER",
    "HAND_OVER",
    "HAND_INCOMPLETE",
    "WRONG_TURN",
    "WRONG_PHASE",
    "BID_OUT_OF_RANGE",
    "BID_TOO_LOW",
    "BAD_DISCARD",
    "CARD_NOT_IN_HAND",
    "TRUMP_DISCARDED",
    "MUST_FOLLOW_SUIT",
    # For a rule file's play.follow_rules (not used by the family's seed variants):
    "MUST_TRUMP",
    "MUST_OVERTRUMP",
    "MUST_HEAD_TRICK",
    "PLAY_FORBIDDEN",
    # For begging (`beg:`): a choice that is not the acting seat's to make now.
    "CHOICE_NOT_ALLOWED",
)
