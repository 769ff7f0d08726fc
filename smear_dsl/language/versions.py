"""Which exact rules a name means: the versions of the shipped family and what each promises.

`history/versions.json` beside the shipped rule files is the registry of every released version
(written by scripts/gen_rule_versions.py, held to the files by tests/language/test_rule_versions.py): for each
`name@V` its behaviour's fingerprint (smear_dsl/sim/fingerprint.py) and the SHA-256 of every text it has
shipped with (a version's comments and translations may be corrected; its play never is), and for
each name the version it meant before versions existed (`legacy`). Anything stored or recorded
before then names its rules without a version and means that one.
"""
from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from smear_dsl.language.paths import file_version, rule_file, rule_names, shipped_dir, split_ref

if TYPE_CHECKING:
    from smear_dsl.language.spec import RuleSpec


@functools.lru_cache(maxsize=1)
def registry() -> dict[str, Any]:
    """{"legacy": {name: version}, "versions": {"name@V": {"fingerprint", "sha256": [...]}}}."""
    path = shipped_dir() / "history" / "versions.json"
    try:
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return loaded
    except (OSError, ValueError):
        return {"legacy": {}, "versions": {}}


def legacy_ref(name: str) -> str:
    """What a bare shipped name meant before versions existed (`name@1`); other names as they are."""
    v = registry()["legacy"].get(name)
    return f"{name}@{v}" if v is not None and "@" not in name else name


def legacy_pins() -> dict[str, str]:
    """Every shipped name -> its legacy version: how a text stored before versions reads `extends:`."""
    return {n: f"{n}@{v}" for n, v in registry()["legacy"].items()}


def latest_ref(name: str) -> str:
    """The version a bare name means today (`name@3`); the name itself if its file states none."""
    base, v = split_ref(name)
    if v is not None:
        return name
    p = rule_file(base)
    fv = file_version(p) if p is not None else None
    return f"{base}@{fv}" if fv is not None else base


def versions_of(name: str) -> list[int]:
    """Every version of `name` this installation has, oldest first (the frozen ones and the current)."""
    base = split_ref(name)[0]
    p = rule_file(base)
    if p is None:
        return []
    found = {v for h in (p.parent / "history").glob(f"{base}@*.yaml") if (v := split_ref(h.stem)[1]) is not None}
    current = file_version(p)
    return sorted(found | ({current} if current is not None else set()))


def is_known(name: str) -> bool:
    """A name of rules/ (`name`), or one of its versions this installation has (`name@2`)."""
    base, v = split_ref(name)
    if base not in rule_names() or ("@" in name and v is None):
        return False
    return v is None or v in versions_of(base)


def known_texts(ref: str) -> set[str]:
    """The SHA-256 of every text version `ref` (`name@V`) has shipped with (empty: not a shipped version)."""
    return set(registry()["versions"].get(ref, {}).get("sha256", ()))


def ref_for_sha(name: str, sha: str) -> str | None:
    """The version of `name` that has shipped with the text hashing to `sha`, if any."""
    for ref, entry in registry()["versions"].items():
        if split_ref(ref)[0] == name and sha in entry.get("sha256", ()):
            return str(ref)
    return None


def pins_of(lineage: Any) -> dict[str, str] | None:
    """A record's or table's `rules_parents` (exact versions, nearest parent first) as pins for
    `extends:` names written without a version; None if it is not a list of such names."""
    if not isinstance(lineage, list) or not all(isinstance(r, str) and split_ref(r)[1] is not None for r in lineage):
        return None
    return {split_ref(r)[0]: r for r in reversed(lineage)}


def is_shipped(spec: RuleSpec) -> bool:
    """Whether `spec` is a released version of the family as released (its name and text registered)."""
    return spec.sha256 in known_texts(spec.ref)


def record_rules(spec: RuleSpec) -> dict[str, Any]:
    """The fields of a record (RECORD_FORMAT.md) naming the rules its game was played under: a
    released version by its exact name and its text's hash; any other rule file (a house rule, a
    club's, a shipped file edited locally) also with its whole text and its parents' exact versions; and
    the version of the rule language the file is written in, which judges it (langversion.py)."""
    out: dict[str, Any] = {"rules": spec.ref, "rules_sha256": spec.sha256, "language": spec.language}
    if not is_shipped(spec):
        out["rules_text"] = spec.text
        if spec.extends:
            out["rules_parents"] = list(spec.extends)
    return out
