"""The JSON Schema of rule files, generated from the schema the validator walks (rulefile.RULES).

Editors with a YAML language server use it (every file in rules/ names it in its first line)
to complete keys and flag mistakes as you type. A file with `extends:` only overrides its
parent, so for it nothing is required and any key may be null (null removes a parent's key).
"""
from __future__ import annotations

import copy
import json
from typing import Any

from smear_dsl.language.rulefile import RULES

SCHEMA_ID = "https://smear-dsl.example/rules.schema.json"


def _clean(node: Any) -> Any:
    """Drop empty descriptions and empty `required` lists so the output reads well."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "description" and not v:
                continue
            if k == "required" and v == []:
                continue
            out[k] = _clean(v)
        return out
    if isinstance(node, list):
        return [_clean(x) for x in node]
    return node


def _relaxed(node: Any) -> Any:
    """The same schema with nothing required and every property nullable (for `extends:` files)."""
    if isinstance(node, dict):
        out = {k: _relaxed(v) for k, v in node.items() if k != "required"}
        if "properties" in node:
            out["properties"] = {k: {"anyOf": [_relaxed(v), {"type": "null"}]} for k, v in node["properties"].items()}
        if isinstance(node.get("additionalProperties"), dict):  # a named entry (a point, an option) may be removed too
            out["additionalProperties"] = {"anyOf": [_relaxed(node["additionalProperties"]), {"type": "null"}]}
        return out
    if isinstance(node, list):
        return [_relaxed(x) for x in node]
    return node


def rule_file_schema() -> dict[str, Any]:
    """The whole JSON Schema (draft 2020-12) for a rule file."""
    full = _clean(RULES.json())
    partial = _relaxed(copy.deepcopy(full))
    partial["required"] = ["extends"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "smear-dsl rule file",
        "description": "A Smear-family variant: deck, bidding, phases, play, points, scoring and end of game. "
                       "See docs/rule-language.md.",
        "$defs": {"full": full, "extends": partial},
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/extends"},
        "else": {"$ref": "#/$defs/full"},
    }


def schema_text() -> str:
    """The schema as the checked-in rules/rules.schema.json (shipped in the package) holds it."""
    return json.dumps(rule_file_schema(), indent=2, sort_keys=False) + "\n"
