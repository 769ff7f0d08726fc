"""The referee's one error type: a gRPC status, a reason code and a message said in the caller's language."""
from __future__ import annotations

from typing import TYPE_CHECKING

from smear_dsl.errors import Said
from smear_dsl.i18n import say, tr_for

if TYPE_CHECKING:
    from smear_dsl.language.spec import RuleSpec


class RefereeError(Exception):
    """An error with a gRPC status name and a reason (the RECORD_FORMAT.md code or our own)."""

    def __init__(self, status: str, reason: str, message: str | Said, metadata: dict[str, str] | None = None,
                 spec: RuleSpec | None = None):
        said = message if isinstance(message, Said) else Said(message)
        super().__init__(str(said))
        self.status, self.reason, self.message = status, reason, str(said)
        self.metadata = metadata or {}  # ErrorInfo's metadata (NOT_OWNER: the owner's address)
        self.said, self.spec = said, spec  # for saying it in the caller's language (the rule file's own words)

    def message_in(self, lang: str) -> str:
        """The message in the caller's language (the same code, whatever the language)."""
        if lang == "en":
            return self.message
        return say(tr_for(lang), self.said, self.reason, self.spec.words(lang) if self.spec is not None else None)


def damaged(table_id: str, reason: str) -> RefereeError:
    """DATA_LOSS / TABLE_DAMAGED naming the table: its stored rows are not what was written."""
    return RefereeError("DATA_LOSS", "TABLE_DAMAGED", f"table {table_id}: {reason}", {"table_id": table_id})
