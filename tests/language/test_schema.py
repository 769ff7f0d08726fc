"""The JSON Schema for editors: current with the validator's schema, and it agrees with the validator."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import ROOT, RULE_FILES

from smear_dsl.errors import RuleError
from smear_dsl.language.jsonschema import schema_text
from smear_dsl.language.load import spec_from_text

SCHEMA_FILE = ROOT / "smear_dsl" / "rules" / "rules.schema.json"


def validator():
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_checked_in_schema_is_current():
    assert SCHEMA_FILE.read_text() == schema_text(), \
        "rules/rules.schema.json is stale: run `smear-dsl schema --out smear_dsl/rules/rules.schema.json`"


@pytest.mark.parametrize("name", RULE_FILES)
def test_every_rule_file_names_the_schema_and_passes_it(name):
    path = ROOT / "rules" / f"{name}.yaml"
    text = path.read_text()
    assert text.splitlines()[0] == "# yaml-language-server: $schema=rules.schema.json"
    errors = list(validator().iter_errors(yaml.safe_load(text)))
    assert not errors, [e.message for e in errors]


BASE = (ROOT / "rules" / "cutthroat_canadian.yaml").read_text()

# Mistakes an editor should flag, each also refused by the compiler.
BROKEN = {
    "misspelled key": BASE.replace("bidding:", "biding:"),
    "unknown phase": BASE.replace("play:\n", "phases:\n  - shuffle: {who: bidder}\nplay:\n", 1),
    "bad enum": BASE.replace("rest: aside", "rest: table"),
    "missing required": BASE.replace("  hand_size: 6\n", ""),
    "wrong type": BASE.replace("packets: [3, 3]", "packets: three"),
    "players out of range": BASE.replace("players: [2, 3]", "players: 12"),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_schema_and_compiler_both_refuse(what):
    text = BROKEN[what]
    assert list(validator().iter_errors(yaml.safe_load(text))), f"the schema accepts a rule file with a {what}"
    with pytest.raises(RuleError):
        spec_from_text(text, "broken.yaml")


def test_an_extends_file_needs_only_what_it_changes():
    child = {"extends": "cutthroat_canadian", "name": "house", "deck": {"jokers": ["JK"]}, "bidding": {"may_match": None}}
    assert not list(validator().iter_errors(child))
    assert list(validator().iter_errors({"extends": "x", "bidding": {"minimum": 2}}))
