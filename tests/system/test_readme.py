"""The README's "Your first hour" is true: every command in it runs, in order, in an empty folder
(files it asks you to save are saved first), and prints what the README shows.

In the shown output a line `...` stands for any number of lines, and `...` inside a line for any
text there (timings). Trailing spaces are ignored."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

README = (ROOT / "README.md").read_text()


def _section_end(text: str) -> int:
    """Where the next `## ` heading outside a code block starts (output shown in a block may have one)."""
    inside = False
    at = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            inside = not inside
        elif line.startswith("## ") and not inside and at:
            return at
        at += len(line)
    return len(text)


SECTION = README[README.index("## Your first hour"):]
SECTION = SECTION[:_section_end(SECTION)]


def steps() -> list[tuple[str, str, str]]:
    """("file", name, text) and ("run", command, expected output), in the order the README gives them."""
    out = []
    for m in re.finditer(r"as `([^`]+)`:\s*\n\s*```yaml\n(.*?)```|```console\n(.*?)```", SECTION, re.S):
        if m.group(1):
            out.append(("file", m.group(1), m.group(2)))
            continue
        for chunk in re.split(r"^\$ ", m.group(3), flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            out.append(("run", command, shown))
    return out


def matches(shown: str, got: str) -> bool:
    pattern = ""
    for line in shown.rstrip("\n").split("\n"):
        line = line.rstrip()
        pattern += r"(?:[^\n]*\n)*?" if line == "..." else \
            "".join(".*?" if part == "..." else re.escape(part) for part in re.split(r"(\.\.\.)", line)) + r"[ \t]*\n"
    return re.fullmatch(pattern, got if got.endswith("\n") else got + "\n", re.S) is not None


def test_the_first_hour_runs_as_shown(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SMEAR_DSL_RULES", "PYTHONPATH")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", COLUMNS="80")
    ran = 0
    for kind, what, text in steps():
        if kind == "file":
            (tmp_path / what).write_text(text)
            continue
        p = subprocess.run(["bash", "-c", f"{what} 2>&1"], capture_output=True, text=True, cwd=tmp_path, env=env,
                           timeout=300)
        got = "\n".join(line.rstrip() for line in p.stdout.splitlines()) + "\n"
        assert matches(text, got), f"$ {what}\n--- the README shows\n{text}--- it prints\n{got}"
        ran += 1
    assert ran >= 8


def test_the_matcher_is_strict():
    assert matches("a\n...\nd\n", "a\nb\nc\nd\n") and matches("x ... y\n", "x 1.5 s y\n")
    assert not matches("a\nd\n", "a\nb\nd\n") and not matches("x ... y\n", "x 1.5 s z\n")
