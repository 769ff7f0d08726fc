"""Refusal codes are data (smear_referee/codes.py): every raise names one of them, every one is
documented, and what is made from them (docs/referee.md's table, the web client's gen/codes.js) is current."""
from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest
from conftest import ROOT, SHARED

from smear_dsl.errors import ERROR_CODES, SmearError
from smear_referee import codes
from smear_referee.errors import RefereeError

DYNAMIC = {"too_slow", "e.code", "code"}  # a Code passed on (sandboxed's too_slow, a caught error's own)


def raised_codes(path) -> list[tuple[int, str]]:
    """(line, what) for each RefereeError(...) and _abort(...) in a file: the code expression's
    `codes.X` names, or the expression itself when it names none."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("RefereeError", "_abort", "_deny"):
            args = node.args[1:] if node.func.id in ("_abort", "_deny") else node.args
            if not args:
                out.append((node.lineno, "(no code)"))
                continue
            first = args[0]
            names = [f"codes.{n.attr}" for n in ast.walk(first)
                     if isinstance(n, ast.Attribute) and ast.unparse(n.value) == "codes"]
            out += [(node.lineno, n) for n in names] or [(node.lineno, ast.unparse(first))]
    return out


def test_every_raise_names_a_code_of_the_list():
    bad = []
    for path in sorted((ROOT / "smear_referee").rglob("*.py")):
        if "api" in path.parts:
            continue
        for line, what in raised_codes(path):
            if what.startswith("codes."):
                attr = what.removeprefix("codes.")
                if not isinstance(getattr(codes, attr, None), codes.Code) and attr not in ("of_move", "damaged_code"):
                    bad.append(f"{path.relative_to(ROOT)}:{line}: {what} is not in codes.py")
            elif what not in DYNAMIC:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {what} (name a codes.X)")
    assert not bad, bad


def test_the_check_finds_a_literal_code(tmp_path):
    p = tmp_path / "x.py"
    p.write_text('raise RefereeError("PERMISSION_DENIED", "NOT_THE_HOST", "no")\nraise RefereeError(codes.NOPE, "x")\n')
    assert [w for _l, w in raised_codes(p)] == ["'PERMISSION_DENIED'", "codes.NOPE"]


def test_each_code_is_one_constant_and_every_status_is_a_grpc_one():
    assert all(getattr(codes, name, c) is c for name, c in codes.ALL.items())
    assert len(codes.ALL) == len({c.name for c in codes.ALL.values()})
    assert tuple(c.name for c in codes.ALL.values() if c.record) == ERROR_CODES
    import grpc
    assert {c.status for c in codes.ALL.values()} <= {s.name for s in grpc.StatusCode}


def test_what_is_made_from_the_codes_is_current():
    p = subprocess.run([sys.executable, "scripts/gen_codes.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_every_code_is_documented():
    """The service's codes in docs/referee.md's table (made from codes.py); the moves' and records' in
    docs/rule-language.md, where a rule file's author meets them."""
    referee = (ROOT / "docs" / "referee.md").read_text()
    language = (ROOT / "docs" / "rule-language.md").read_text()
    for c in codes.ALL.values():
        assert re.search(rf"\| `{c.status}` \| `{c.name}` \|", referee), c.name
        if c.record:
            assert f"`{c.name}`" in language, f"{c.name} is not in docs/rule-language.md"


def test_the_record_codes_are_record_formats_own():
    """Every code RECORD_FORMAT.md lists is one the engine makes (run where ../shared is beside the clone)."""
    if not (SHARED / "RECORD_FORMAT.md").is_file():
        pytest.skip("no ../shared/RECORD_FORMAT.md beside this clone")
    text = (SHARED / "RECORD_FORMAT.md").read_text()
    table = text[text.index("## Error codes"):]
    listed = re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.M)
    assert listed and set(listed) <= {c.name for c in codes.ALL.values() if c.record}


def test_a_refusal_is_a_smear_error_with_its_codes_status():
    e = RefereeError(codes.SEAT_TAKEN, "seat 2 is taken")
    assert isinstance(e, SmearError)
    assert (e.status, e.reason, e.code) == ("ALREADY_EXISTS", "SEAT_TAKEN", codes.SEAT_TAKEN)
    with pytest.raises(KeyError):
        codes.of_move("NOT_A_CODE")
