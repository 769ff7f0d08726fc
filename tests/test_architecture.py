"""The package boundary: smear_dsl (the language, compiler, engine and records) never imports the
referee (smear_referee), which depends on it; the referee's commands reach the one CLI through
an entry point."""
from __future__ import annotations

import ast
import subprocess
import sys

from conftest import ROOT


def imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
    return out


def test_smear_dsl_never_imports_the_referee():
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if m.split(".")[0] == "smear_referee")
                 for p in (ROOT / "smear_dsl").rglob("*.py")}
    assert not {k: v for k, v in offenders.items() if v}
    assert not (ROOT / "server").exists(), "the referee lives in smear_referee/, not a top-level `server` package"


def test_the_language_runs_without_the_referee():
    """Importing every smear_dsl module loads no module of the referee; a language command loads only
    the referee's small `register` module (its commands' names), not the server or gRPC."""
    code = ("import importlib, pkgutil, sys, smear_dsl\n"
            "for m in pkgutil.walk_packages(smear_dsl.__path__, 'smear_dsl.'):\n"
            "    if m.name != 'smear_dsl.__main__': importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.startswith('smear_referee')))\n"
            "from smear_dsl.cli import main\n"
            "main(['check', 'setback'])\n"
            "print(sorted(n for n in sys.modules if n.startswith(('smear_referee', 'grpc'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    lines = out.strip().splitlines()
    assert lines[0] == "[]" and lines[-1] == "['smear_referee', 'smear_referee.cli']"


def test_the_referee_commands_come_through_the_entry_point():
    p = subprocess.run([sys.executable, "-m", "smear_dsl", "--help"], capture_output=True, text=True, cwd=ROOT)
    for command in ("serve", "bot", "tournament", "verify-tournament", "demo"):
        assert command in p.stdout
