"""The rules a table was created under, named so that they never change under it.

A table stores its rules as a name: a shipped rule file at its exact version (`name@2`), or, for an
uploaded house rule (whose text is stored beside), `upload` followed by the exact versions of its
parents (`upload < name@2`), since the text may say `extends: name` and mean the version that was
the latest when the table was created. A name stored before versions existed (`name`, `upload`)
means the version the name had then (versions.legacy_ref).
"""
from __future__ import annotations

from smear_dsl.language.load import load_spec, spec_from_text
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import legacy_pins, legacy_ref, pins_of

SEP = " < "


def table_rules_name(spec: RuleSpec, uploaded: bool) -> str:
    """What a table created under `spec` stores as its rules' name (see the module's docstring)."""
    return SEP.join([spec.ref, *spec.extends]) if uploaded else spec.ref


def upload_pins(rules_name: str) -> dict[str, str]:
    """The versions an uploaded text's `extends:` names mean at its table."""
    parts = rules_name.split(SEP)
    return (pins_of(parts[1:]) or {}) if len(parts) > 1 else legacy_pins()


def stored_spec(rules_name: str, rules_text: str | None) -> RuleSpec:
    """The spec of a stored table's rules (RuleError if they no longer load): its uploaded text with its
    parents pinned, else the exact version its name gives (a bare name: the version it had before
    versions existed)."""
    if rules_text is not None:
        return spec_from_text(rules_text, "upload.yaml", known_parents_only=True, pins=upload_pins(rules_name))
    return load_spec(legacy_ref(rules_name))
