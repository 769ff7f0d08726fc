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


def test_no_class_over_400_lines_and_no_function_over_60():
    """Outside generated code; a function may stay whole if its body starts with a `# Kept whole:` comment."""
    too_long = set()
    for package in ("smear_dsl", "smear_referee"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "api" in path.relative_to(ROOT / package).parts:
                continue
            text = path.read_text()
            lines = text.splitlines()
            for node in ast.walk(ast.parse(text)):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                size = node.end_lineno - node.lineno + 1
                limit = 400 if isinstance(node, ast.ClassDef) else 60
                body_start = node.body[0].end_lineno if isinstance(node.body[0], ast.Expr) else node.body[0].lineno - 1
                whole = any(x.strip().startswith("# Kept whole:") for x in lines[body_start:body_start + 3])
                if size > limit and not whole:
                    too_long.add(f"{path.relative_to(ROOT)}:{node.name}")
    assert not too_long, sorted(too_long)
