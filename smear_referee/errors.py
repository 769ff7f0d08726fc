"""The referee's one error type: a refusal code (codes.py, which gives its gRPC status) and a message said
in the caller's language. It is a SmearError, the project's one error root."""
from __future__ import annotations

from typing import TYPE_CHECKING

from smear_dsl.errors import Said, SmearError
from smear_dsl.i18n import say, tr_for
from smear_referee import codes
from smear_referee.codes import Code

if TYPE_CHECKING:
    from smear_dsl.language.spec import RuleSpec


class RefereeError(SmearError):
    """A refusal: its code (a RECORD_FORMAT.md code or the service's own, codes.py), whose gRPC status it
    is sent with, and what is said."""

    def __init__(self, code: Code, message: str | Said, metadata: dict[str, str] | None = None,
                 spec: RuleSpec | None = None):
        said = message if isinstance(message, Said) else Said(message)
        super().__init__(str(said))
        self.code = code
        self.status, self.reason, self.message = code.status, code.name, str(said)
        self.metadata = metadata or {}  # ErrorInfo's metadata (NOT_OWNER: the owner's address)
        self.said, self.spec = said, spec  # for saying it in the caller's language (the rule file's own words)

    def message_in(self, lang: str) -> str:
        """The message in the caller's language (the same code, whatever the language)."""
        if lang == "en":
            return self.message
        return say(tr_for(lang), self.said, self.reason, self.spec.words(lang) if self.spec is not None else None)


def damaged(table_id: str, reason: str) -> RefereeError:
    """DATA_LOSS / TABLE_DAMAGED naming the table: its stored rows are not what was written."""
    return RefereeError(codes.TABLE_DAMAGED, f"table {table_id}: {reason}", {"table_id": table_id})
