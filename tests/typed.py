"""Typed answers as plain rows, for tests that compare them with a record, an archive or an old store."""

from __future__ import annotations

from typing import Any

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message


def plain(message: Message) -> dict[str, Any]:
    """A message as a dict under its proto field names, every field present (zeros and empty lists too)."""
    return MessageToDict(message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)


def ladders(answer: Any) -> dict[str, list[dict[str, Any]]]:
    """A GetClub answer's ladders, {key: [rung rows]}: the shape ladder_json had."""
    return {key: [plain(r) for r in ladder.rungs] for key, ladder in answer.ladders.items()}


def standings(answer: Any) -> list[dict[str, Any]]:
    """A GetStandings answer's rows, best first: the shape an archive's `standings` has."""
    return [plain(r) for r in answer.standings]
