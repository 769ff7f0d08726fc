"""Start a new version of a shipped rule file: freeze today's as history/NAME@V.yaml and raise the
current file's `version:` to V+1, ready for the change of play. Then edit the current file, and
record it: python scripts/gen_rule_versions.py. Children that pin `extends: NAME@V` keep the frozen
copy; move a shipped child to the new version by giving it a new version of its own.
Usage: python scripts/new_rule_version.py NAME
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.language.paths import file_version  # noqa: E402

FAMILY = ROOT / "smear_dsl" / "rules"


def main(name: str) -> int:
    current = FAMILY / f"{name}.yaml"
    v = file_version(current) if current.is_file() else None
    if v is None:
        print(f"no shipped rule file {name} with a `version:`")
        return 2
    frozen = FAMILY / "history" / f"{name}@{v}.yaml"
    if frozen.exists():
        print(f"{frozen} exists already")
        return 2
    text = current.read_text(encoding="utf-8")
    frozen.write_text(text, encoding="utf-8")
    current.write_text(re.sub(r"^version:\s*\d+", f"version: {v + 1}", text, count=1, flags=re.M), encoding="utf-8")
    print(f"froze {frozen.relative_to(ROOT)}; {current.relative_to(ROOT)} is now version {v + 1}: change its play, "
          "then run scripts/gen_rule_versions.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]) if len(sys.argv) == 2 else (print(__doc__) or 2))
