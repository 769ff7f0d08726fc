"""Where rule files are found: the family shipped in the package, then a club's own folders.

The shipped files are package data (`smear_dsl/rules/`, found through importlib.resources, so
an installed wheel has them); `$SMEAR_DSL_RULES` names more folders (separated like PATH) whose
files add to the names the CLI and the server know. A shipped name always means the shipped
file, so a record naming a shipped rule verifies the same on every installation; a
club file with a shipped name is passed over.
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def shipped_dir() -> Path:
    """The package's own rule files (and rules.schema.json beside them)."""
    return Path(str(resources.files("smear_dsl").joinpath("rules")))


def rule_dirs() -> list[Path]:
    """The shipped folder, then each folder of `$SMEAR_DSL_RULES` that exists, in order."""
    extra = [Path(p).expanduser() for p in os.environ.get("SMEAR_DSL_RULES", "").split(os.pathsep) if p.strip()]
    return [shipped_dir(), *(d for d in extra if d.is_dir())]


def rule_file(name: str) -> Path | None:
    """The file a rule name stands for (the first folder of rule_dirs() that has it), or None."""
    if not name or "/" in name or os.sep in name or name.startswith("."):
        return None
    for d in rule_dirs():
        p = d / f"{name}.yaml"
        if p.is_file():
            return p
    return None


def rule_names() -> list[str]:
    """Every rule name known: the stems of the .yaml files of rule_dirs()."""
    return sorted({p.stem for d in rule_dirs() for p in d.glob("*.yaml")})
