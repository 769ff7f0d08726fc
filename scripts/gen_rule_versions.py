"""Keep the registry of released rule versions (smear_dsl/rules/history/versions.json) true.

For every shipped rule file and each of its versions (the current file, and the frozen copies in
history/), the registry holds the behaviour's fingerprint (smear_dsl/sim/fingerprint.py) and the
SHA-256 of every text the version has shipped with. Run it after you correct a shipped file's
comments or translations (its new text is added) or release a new version (scripts/
new_rule_version.py): it refuses to record a version whose play differs from what was released,
or a frozen version whose text changed at all. tests/language/test_rule_versions.py runs `problems()`.
Usage: python scripts/gen_rule_versions.py [--check]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.errors import RuleError  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.language.paths import file_version, split_ref  # noqa: E402
from smear_dsl.sim.fingerprint import fingerprint  # noqa: E402

FAMILY = ROOT / "smear_dsl" / "rules"


def registry_path(folder: Path) -> Path:
    return folder / "history" / "versions.json"


def survey(folder: Path, only: set[str] | None = None) -> dict[str, tuple[str, str, bool]]:
    """`name@V` -> (fingerprint, sha256 of its text, frozen) for every version in `folder` (of the
    names in `only`, if given)."""
    out: dict[str, tuple[str, str, bool]] = {}
    files = [(p, False) for p in sorted(folder.glob("*.yaml"))] + \
            [(p, True) for p in sorted((folder / "history").glob("*@*.yaml"))]
    for path, frozen in files:
        base, v = split_ref(path.stem)
        if only is not None and base not in only:
            continue
        v = v if frozen else file_version(path)
        if v is None:
            raise SystemExit(f"{path}: a shipped rule file states its `version:`")
        try:
            spec = load_spec(str(path))
        except RuleError as e:
            raise SystemExit(f"{path}: does not check:\n{e}") from None
        out[f"{base}@{v}"] = (fingerprint(spec), spec.sha256, frozen)
    return out


def problems(folder: Path = FAMILY, only: set[str] | None = None,
             found: dict[str, tuple[str, str, bool]] | None = None) -> list[str]:
    """What in `folder` (of the names in `only`) breaks a released version's promise, or the registry
    has not recorded yet. `found`: survey(folder, only), if the caller has it already."""
    registry = json.loads(registry_path(folder).read_text(encoding="utf-8"))
    full = only is None
    found = survey(folder, only) if found is None else found
    out = []
    for ref, (fp, sha, frozen) in sorted(found.items()):
        entry = registry["versions"].get(ref)
        if entry is None:
            out.append(f"{ref}: not in the registry yet (run scripts/gen_rule_versions.py)")
        elif entry["fingerprint"] != fp:
            out.append(f"{ref}: plays differently than when it was released: a change of play is a new "
                       f"version (scripts/new_rule_version.py {split_ref(ref)[0]})")
        elif sha not in entry["sha256"]:
            out.append(f"{ref}: a released version is frozen, but its text changed" if frozen else
                       f"{ref}: its text changed (the same play): run scripts/gen_rule_versions.py")
    names = {split_ref(r)[0] for r in found}
    for ref in sorted(r for r in set(registry["versions"]) - set(found) if split_ref(r)[0] in names or full):
        out.append(f"{ref}: released, but no longer here: every released version stays playable")
    for name in sorted(names):
        mine = sorted(split_ref(r)[1] for r in found if split_ref(r)[0] == name)
        current = file_version(folder / f"{name}.yaml")
        if mine != list(range(1, len(mine) + 1)) or current != mine[-1]:
            out.append(f"{name}: versions {mine} with the current file at {current}: versions count 1, 2, ... "
                       "and the current file holds the newest")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="only report; exit 1 if anything is off")
    args = ap.parse_args()
    found = survey(FAMILY)
    issues = problems(FAMILY, found=found)
    fixable = [p for p in issues if "run scripts/gen_rule_versions.py" in p]
    if args.check or len(fixable) != len(issues):
        print("\n".join(issues) or "the registry holds every version")
        return 1 if issues else 0
    path = registry_path(FAMILY)
    registry = json.loads(path.read_text(encoding="utf-8"))
    for ref, (fp, sha, _frozen) in found.items():
        entry = registry["versions"].setdefault(ref, {"fingerprint": fp, "sha256": []})
        if sha not in entry["sha256"]:
            entry["sha256"].append(sha)
    text = json.dumps(registry, indent=1, sort_keys=True) + "\n"
    path.write_text(re.sub(r'\[\n\s+("[0-9a-f]{64}")\n\s+\]', r"[\1]", text))
    print(f"{path.relative_to(ROOT)}: {len(found)} versions, {len(issues)} new or with a new text")
    return 0


if __name__ == "__main__":
    sys.exit(main())
