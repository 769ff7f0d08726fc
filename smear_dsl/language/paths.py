"""Where rule files are found: the family shipped in the package, then a club's own folders.

The shipped files are package data (`smear_dsl/rules/`, installed with the package, beside this
folder; found by path, as the locale catalogs are, since importlib.resources costs every command 2 ms);
`$SMEAR_DSL_RULES` names more folders (separated like PATH) whose
files add to the names the CLI and the server know. A shipped name always means the shipped
file, so a record naming a shipped rule verifies the same on every installation; a
club file with a shipped name is passed over.
"""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path

VERSION_LINE = re.compile(r"^version:\s*(\d+)\s*(?:#.*)?$", re.M)


def shipped_dir() -> Path:
    """The package's own rule files (and rules.schema.json beside them)."""
    return Path(__file__).resolve().parent.parent / "rules"


def rule_dirs() -> list[Path]:
    """The shipped folder, then each folder of `$SMEAR_DSL_RULES` that exists, in order."""
    extra = [Path(p).expanduser() for p in os.environ.get("SMEAR_DSL_RULES", "").split(os.pathsep) if p.strip()]
    return [shipped_dir(), *(d for d in extra if d.is_dir())]


def rule_file(name: str) -> Path | None:
    """The file a rule name stands for (the first folder of rule_dirs() that has it), or None.
    `NAME@V` is version V of NAME: the file itself when that is its version, else its frozen copy
    `history/NAME@V.yaml` beside it."""
    if not name or "/" in name or os.sep in name or name.startswith("."):
        return None
    base, version = split_ref(name)
    if "@" in name and version is None:
        return None
    for d in rule_dirs():
        p = d / f"{base}.yaml"
        if not p.is_file():
            continue
        if version is None or file_version(p) == version:
            return p
        old = d / "history" / f"{base}@{version}.yaml"
        return old if old.is_file() else None
    return None


def split_ref(name: str) -> tuple[str, int | None]:
    """`name@2` -> ("name", 2); `name` (or a version that is not 1 to 7 ASCII digits) -> (name, None)."""
    base, at, version = name.partition("@")
    if at and version.isascii() and version.isdigit() and len(version) <= 7:
        return base, int(version)
    return name, None


def file_version(path: Path) -> int | None:
    """The `version:` a rule file states (read from its text, without loading it), or None."""
    try:
        return _version_of(str(path), path.stat().st_mtime)
    except OSError:
        return None


@functools.lru_cache(maxsize=512)
def _version_of(path: str, _mtime: float) -> int | None:
    with open(path, encoding="utf-8", errors="replace") as f:
        m = VERSION_LINE.search(f.read(200_000))
    return int(m.group(1)) if m else None


def rule_names() -> list[str]:
    """Every rule name known: the stems of the .yaml files of rule_dirs()."""
    return sorted({p.stem for d in rule_dirs() for p in d.glob("*.yaml")})


def text_sha256(text: str) -> str:
    """A rule file's `rules_sha256`: the SHA-256 of its text in UTF-8, in hex."""
    import hashlib  # only a pinned or recorded file needs it: not every `check`
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
