"""The rules of the tables a referee holds, parsed and compiled once and shared: a rule file of
rules/ at its exact version, or an uploaded text with its parents pinned (smear_dsl/language/pins.py)."""
from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.language.load import load_spec, resolve_rules_path, spec_from_text
from smear_dsl.language.pins import upload_pins
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import legacy_ref


def rules_spec(rules_name: str | None, rules_text: str | None) -> RuleSpec:
    """The spec of a table's rules as stored (smear_dsl/language/pins.py): its uploaded text (parsed once per
    content and pins), else the exact version of a rule of rules/ its name gives."""
    if rules_text is not None:
        return upload_spec(rules_text, upload_pins(rules_name or "upload"))[1]
    ref = legacy_ref(rules_name or "")
    return _known_spec(ref, _mtime(ref))


_UPLOADS: OrderedDict[str, tuple[str, RuleSpec]] = OrderedDict()
_UPLOADS_LOCK = threading.Lock()  # parsed in worker threads (asyncio.to_thread)
UPLOADS_KEPT = 64


def upload_spec(text: str, pins: dict[str, str] | None = None) -> tuple[str, RuleSpec]:
    """An uploaded rule file, parsed once per content (and `pins`: the versions its `extends:` means;
    None for a new table: the latest): tables with the same upload share one text, one spec and so
    (see compiled) one CompiledRules, whoever uploaded it and how often."""
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
    if pins is not None:
        digest += json.dumps(pins, sort_keys=True)
    with _UPLOADS_LOCK:
        hit = _UPLOADS.get(digest)
        if hit is not None:
            _UPLOADS.move_to_end(digest)
            return hit
    hit = (text, spec_from_text(text, "upload.yaml", known_parents_only=True, pins=pins))
    with _UPLOADS_LOCK:
        hit = _UPLOADS.setdefault(digest, hit)
        while len(_UPLOADS) > UPLOADS_KEPT:
            _UPLOADS.popitem(last=False)
    return hit


@functools.lru_cache(maxsize=256)
def _known_spec(name: str, _mtime: float) -> RuleSpec:
    """A rule file of rules/, parsed once per version of the file (tables are created often)."""
    return load_spec(name)


def known_spec(name: str) -> RuleSpec:
    """A rule file of rules/ by name (the caller has checked the name is one of rule_names())."""
    return _known_spec(name, _mtime(name))


_COMPILED: dict[tuple, CompiledRules] = {}


def compiled(spec: RuleSpec, players: int | None, options: dict[str, Any]) -> CompiledRules:
    """Tables of the same rules, seats and options share one CompiledRules (it is never changed
    while playing), so a server with many tables keeps one copy of its tables and closures."""
    key = (id(spec), players, tuple(sorted((k, str(v)) for k, v in options.items())))
    hit = _COMPILED.get(key)
    if hit is not None and hit.spec is spec:
        return hit
    rules = compile_rules(spec, players, options)
    if len(_COMPILED) >= 256:
        _COMPILED.clear()
    _COMPILED[key] = rules
    return rules


def _mtime(name: str) -> float:
    path = resolve_rules_path(name)
    return path.stat().st_mtime if path is not None else 0.0
