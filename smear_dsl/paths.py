"""Where the shipped rule files live."""
from __future__ import annotations

import os
from pathlib import Path


def rules_dir() -> Path:
    """`$SMEAR_DSL_RULES`, else `rules/` beside the package (the repository layout)."""
    env = os.environ.get("SMEAR_DSL_RULES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "rules"


def rule_names() -> list[str]:
    """The stems of the rule files in rules_dir()."""
    d = rules_dir()
    return sorted(p.stem for p in d.glob("*.yaml")) if d.is_dir() else []
