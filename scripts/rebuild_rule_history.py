"""Rebuild the versions of the shipped rule files from git: where a file's play changed since it first
shipped, the earlier behaviour is an earlier version, frozen in smear_dsl/rules/history/NAME@V.yaml.

For every commit that touched the rule files, every file of that commit is loaded beside its
siblings of the same commit (so `extends:` finds the parent as it was then) and fingerprinted with
today's engine (smear_dsl/sim/fingerprint.py). A file's versions are the runs of equal fingerprints;
each version is frozen as the file's text at the last commit of its run (comment-only edits fold
in), with `version: N` and its `extends:` pinned to the parent's version at that commit. Revisions
that do not load with today's language (the language grew under them) are listed and skipped.
Writes the history folder and the legacy map of history/versions.json (the version each name meant
before versions existed), writes each current file's `version:` and pins its parent,
and prints each file's timeline. Run once, when versions were introduced (it refuses once history/
exists); later versions are made with scripts/new_rule_version.py, and recorded with
scripts/gen_rule_versions.py.
Usage: python scripts/rebuild_rule_history.py [--dry-run]
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.errors import RuleError  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.sim.fingerprint import fingerprint  # noqa: E402

RULES = ROOT / "smear_dsl" / "rules"
HISTORY = RULES / "history"


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def files_at(commit: str) -> dict[str, str]:
    """name -> text of every rule file at `commit` (in smear_dsl/rules/ or, earlier, rules/)."""
    for folder in ("smear_dsl/rules", "rules"):
        try:
            listing = git("ls-tree", "--name-only", f"{commit}:{folder}")
        except subprocess.CalledProcessError:
            continue
        names = [n for n in listing.split() if n.endswith(".yaml")]
        if names:
            return {n[:-5]: git("show", f"{commit}:{folder}/{n}") for n in names}
    return {}


def timeline() -> tuple[list[str], dict[str, list[tuple[str, str | None, str]]]]:
    commits = git("log", "--reverse", "--format=%H", "--", "smear_dsl/rules", "rules").split()
    out: dict[str, list[tuple[str, str | None, str]]] = {}
    for c in commits:
        texts = files_at(c)
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in texts.items():
                (Path(tmp) / f"{name}.yaml").write_text(text)
            for name, text in texts.items():
                try:
                    fp = fingerprint(load_spec(str(Path(tmp) / f"{name}.yaml")))
                except (RuleError, Exception) as e:  # noqa: BLE001 - a revision today's language cannot read
                    fp = None
                    print(f"  {c[:7]} {name}: does not load today ({type(e).__name__})", file=sys.stderr)
                out.setdefault(name, []).append((c, fp, text))
    return commits, out


def versions(line: list[tuple[str, str | None, str]]) -> list[tuple[str, str, str]]:
    """(fingerprint, last commit, text at it) of each run of equal fingerprints, in order."""
    runs: list[list] = []
    for c, fp, text in line:
        if fp is None:
            continue
        if runs and runs[-1][0] == fp:
            runs[-1][1:] = [c, text]
        else:
            runs.append([fp, c, text])
    return [tuple(r) for r in runs]


def version_at(runs: list[tuple[str, str, str]], line: list[tuple[str, str | None, str]], commit: str) -> int:
    fp = next(fp for c, fp, _t in line if c == commit)
    return 1 + [r[0] for r in runs].index(fp)


def frozen(text: str, version: int, parent: str | None, parent_version: int | None) -> str:
    """The file's text with its version written in and its parent pinned."""
    text = re.sub(r"^version:.*\n", "", text, flags=re.M)
    if parent is not None:
        text = re.sub(r"^extends:\s*['\"]?([A-Za-z0-9_]+)(@\d+)?['\"]?\s*$", f"extends: {parent}@{parent_version}",
                      text, count=1, flags=re.M)
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if re.match(r"^(name|extends):", line)), 0)
    lines.insert(at, f"version: {version}\n")
    return "".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    _commits, line = timeline()
    runs = {name: versions(lst) for name, lst in line.items()}
    legacy = {}
    for name in sorted(runs):
        legacy[name] = len(runs[name])
        print(f"{name}: {len(runs[name])} version(s): " + ", ".join(f"v{i + 1} to {c[:7]} ({fp[:8]})"
                                                                  for i, (fp, c, _t) in enumerate(runs[name])))
    if args.dry_run:
        return
    if HISTORY.exists():
        raise SystemExit(f"{HISTORY} exists: the history is rebuilt once (see the docstring)")
    HISTORY.mkdir()
    for name, rs in runs.items():
        for i, (_fp, commit, text) in enumerate(rs[:-1]):
            m = re.search(r"^extends:\s*['\"]?([A-Za-z0-9_]+)", text, re.M)
            parent = m.group(1) if m else None
            pv = version_at(runs[parent], line[parent], commit) if parent else None
            (HISTORY / f"{name}@{i + 1}.yaml").write_text(frozen(text, i + 1, parent, pv))
    for name, v in legacy.items():  # the current file is its name's newest version
        path = RULES / f"{name}.yaml"
        m = re.search(r"^extends:\s*['\"]?([A-Za-z0-9_]+)", path.read_text(), re.M)
        path.write_text(frozen(path.read_text(), v, m.group(1) if m else None, legacy.get(m.group(1)) if m else None))
    (HISTORY / "versions.json").write_text(json.dumps({"legacy": legacy, "versions": {}}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {HISTORY.relative_to(ROOT)}: the current files are each name's version {legacy}; "
          "now run scripts/gen_rule_versions.py")


if __name__ == "__main__":
    main()
