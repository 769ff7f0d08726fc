"""The rule-language reference stays true: every cookbook snippet is part of the rule file it names."""
from __future__ import annotations

import re

import pytest
import yaml
from conftest import ROOT

DOC = (ROOT / "docs" / "rule-language.md").read_text()
COOKBOOK = DOC[DOC.index("## Cookbook"):]


def _snippets():
    out = []
    for section in re.split(r"\n### ", COOKBOOK)[1:]:
        m = re.match(r"[^\n]*\(`([a-z_/]+?)(?:\.yaml)?`\)", section)
        if not m:
            continue
        for block in re.findall(r"```yaml\n(.*?)```", section, re.S):
            out.append((m.group(1), block))
    return out


def _is_part(part, whole, path="") -> None:
    if isinstance(part, dict):
        assert isinstance(whole, dict), f"{path}: the rule file has no mapping here"
        for k, v in part.items():
            assert k in whole, f"{path}.{k} is not in the rule file"
            _is_part(v, whole[k], f"{path}.{k}")
    elif isinstance(part, list) and part and isinstance(part[0], dict) and isinstance(whole, list):
        for item in part:  # phases / lead rules: each item must be one of the file's, or part of one
            assert any(_try(item, w) for w in whole), f"{path}: {item} is not in the rule file"
    else:
        assert part == whole, f"{path}: the docs say {part!r}, the rule file {whole!r}"


def _try(part, whole) -> bool:
    try:
        _is_part(part, whole)
        return True
    except AssertionError:
        return False


SNIPPETS = _snippets()


def test_the_cookbook_covers_every_rule_file():
    named = {name for name, _ in SNIPPETS}
    assert named >= {p.stem for p in (ROOT / "rules").glob("*.yaml")} - {"four_point_house", "cutthroat_joker"}


@pytest.mark.parametrize("name,block", SNIPPETS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SNIPPETS)])
def test_cookbook_snippet_is_part_of_its_rule_file(name, block):
    path = ROOT / f"{name}.yaml" if "/" in name else ROOT / "rules" / f"{name}.yaml"  # a feature's example file
    whole = yaml.safe_load(path.read_text())
    _is_part(yaml.safe_load(block), whole)


def test_security_doc_lists_every_limit_with_its_value():
    """docs/security.md states each limit of smear_referee/limits.py with the value the server uses."""
    import dataclasses

    from smear_referee.limits import Limits
    doc = (ROOT / "docs" / "security.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([0-9.,]+) \|", doc, re.M))
    for f in dataclasses.fields(Limits):
        value = getattr(Limits(), f.name)
        assert rows.get(f.name) == (f"{value:,}" if isinstance(value, int) else str(value)), f.name
