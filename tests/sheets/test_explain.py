"""`smear-dsl explain`: golden outputs for every rule file (Markdown and HTML), and what they must say.

To accept a deliberate change of wording: SMEAR_UPDATE_GOLDEN=1 pytest tests/sheets/test_explain.py
"""
from __future__ import annotations

import html.parser
import os
import subprocess
import sys

import pytest
from conftest import ROOT, RULE_FILES

from smear_dsl.language.load import load_spec
from smear_dsl.sheets.explain import render

GOLDEN = ROOT / "tests" / "golden" / "explain"
UPDATE = os.environ.get("SMEAR_UPDATE_GOLDEN") == "1"
SKETCH = ROOT / "tests" / "rules_extra" / "ten_point_sketch.yaml"
CASES = [(name, fmt) for name in RULE_FILES for fmt in ("md", "html")] + [("ten_point_sketch", "md")]


def _spec(name):
    return load_spec(str(SKETCH) if name == "ten_point_sketch" else name)


@pytest.mark.parametrize("name,fmt", CASES)
def test_explain_matches_golden(name, fmt):
    text = render(_spec(name), fmt)
    path = GOLDEN / f"{name}.{fmt}"
    if UPDATE or not path.exists():
        path.write_text(text)
        if not UPDATE:
            pytest.fail(f"wrote new golden {path.name}; review it and commit")
    assert text == path.read_text(), f"explain output of {name} changed; review, then SMEAR_UPDATE_GOLDEN=1"


@pytest.mark.parametrize("name", RULE_FILES)
def test_explain_reads_like_rules(name):
    spec = _spec(name)
    text = render(spec, "md")
    for heading in ("## Players", "## Cards", "## Deal", "## Bidding", "## Play", "## Points", "## Scoring",
                    "## End of the game", "## Table options"):
        assert heading in text
    for leak in ("<function", "None", "True", "False", "__", "ExprSpec", "lambda"):
        assert leak not in text, f"{leak!r} leaked into the explanation of {name}"
    for p in spec.points:
        assert f"| {p.name} |" in text
    for o in spec.options:
        assert f"`{o.name}`" in text


def test_explain_states_the_variant_specific_facts():
    jick = render(load_spec("five_point_jick"), "md")
    assert "JD (jick)" in jick
    assert "the dealer's side loses 2" in jick
    joker = render(load_spec("five_point_joker"), "md")
    assert "JH, JK, TH" in joker  # the joker between the jack and the ten
    assert "the card led is a joker" in joker
    six = render(load_spec("six_point_ne_wisconsin"), "md")
    assert "7H, BJ = RJ" in six and "first played wins" in six and "`four_point_ne_wisconsin@1`" in six
    schmier = render(load_spec("st_paul_schmier"), "md")
    assert "2H, JK." in schmier and "seats 1, 3 and 5 against 2, 4 and 6" in schmier
    pitch = render(load_spec("auction_pitch"), "md")
    assert "2 players, each for themselves" in pitch and "7 players, each for themselves" in pitch
    assert "the player is the dealer and the highest bid so far is less than 4" in pitch


class _Checker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in ("meta", "br"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def test_html_is_well_formed_and_escaped():
    text = render(load_spec("four_point_ne_wisconsin"), "html")
    checker = _Checker()
    checker.feed(text)
    assert checker.stack == []
    assert "<code>points &gt;= bid</code>" in text


def test_explain_cli_writes_a_file(tmp_path):
    out = tmp_path / "rules.html"
    subprocess.run([sys.executable, "-m", "smear_dsl", "explain", "setback", "--format", "html", "--out", str(out)],
                   check=True, cwd=ROOT)
    assert out.read_text().startswith("<!DOCTYPE html>")
    bad = subprocess.run([sys.executable, "-m", "smear_dsl", "explain", "no_such_rules"], capture_output=True, text=True,
                         cwd=ROOT)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and "no_such_rules" in bad.stderr


def test_a_tables_sheet_reads_its_option_values_in_place_of_their_names():
    from smear_dsl.language.load import load_spec
    from smear_dsl.sheets.explain import render
    spec = load_spec("four_point_ne_wisconsin")
    sheet = render(spec, "md")
    assert "N being the `widow` option" in sheet and "defense_cap" in sheet.split("## Scoring")[1]
    for widow in (2, 3):
        table = render(spec, "md", {"widow": widow}, 4)
        assert f"The bidder takes {widow} cards from the front of the stock." in table
        assert "`widow` option" not in table.split("## Table options")[0]
    off = render(spec, "md", {"defense_cap": False}, 4)
    assert "cannot rise above" not in off.split("## Table options")[0]  # the cap is off here: no sentence on it
    on = render(spec, "md", {"defense_cap": True, "win_only_on_bid": True}, 4)
    assert "In a hand where it is not the bidding side, a side's score cannot rise above" in on
    assert "a side wins when its score is at least the target, it is the bidding side and the bid was made" in on
    assert "| `defense_cap` | on/off | off |" in on and on.rstrip().endswith("| on |")


def test_constant_clauses_read_the_right_way_round():
    from smear_dsl.expr import ast as A
    from smear_dsl.sheets.reading import Reader
    assert Reader().clause(A.Const(0, True, "bool")) == "always"
    assert Reader().clause(A.Const(0, False, "bool")) == "never"
    assert Reader().clause(A.Not(0, A.Const(0, True, "bool"))) == "never"


def test_a_child_file_does_not_inherit_its_parents_description(tmp_path):
    """A parent's description speaks of the parent (its target, its deck): a child that changes the
    target must not print it; a child states its own or has none."""
    from smear_dsl.language.load import load_spec
    from smear_dsl.sheets.explain import render
    child = tmp_path / "short.yaml"
    child.write_text("extends: four_point_ne_wisconsin\nname: Short game\nend:\n  target: 7\n")
    assert load_spec(str(child)).description == ""
    assert "game to 15" not in render(load_spec(str(child)))
    child.write_text("extends: four_point_ne_wisconsin\nname: Short game\ndescription: Four Point to 7.\n"
                     "end:\n  target: 7\n")
    assert load_spec(str(child)).description == "Four Point to 7."


# A phrase said twice in a row ("the bidder; the bidder", "of the cards of the cards"), outside what
# the sheet quotes as typed (`A of trump`).
DOUBLED = __import__("re").compile(r"\b((?:[A-Za-z']+\W+){1,3}?[A-Za-z']+)[\s;,:]+\1\b", __import__("re").I)


@pytest.mark.parametrize("path", sorted((ROOT / "rules").glob("*.yaml")) + sorted((ROOT / "tests" / "rules_extra").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_no_sheet_says_a_phrase_twice_in_a_row(path):
    import re
    text = re.sub(r"`[^`]*`", "`…`", render(load_spec(str(path)), "md"))
    doubled = [m.group(0) for m in DOUBLED.finditer(text)]
    assert not doubled, f"{path.stem}: {doubled[:5]}"
