"""Load YAML into located nodes (file, line, column) with limits against hostile input.

The rest of the compiler only sees `Node` trees, never PyYAML objects, so every later
message can point at the exact place in the rule file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from smear_dsl.errors import Diagnostic

MAX_BYTES = 1_000_000  # a rule file is a few kB; anything near this is a mistake or an attack
TOO_LARGE_HINT = "a rule file is a few kilobytes of YAML"


def too_large(size: int) -> str:
    """The message for a rule file over MAX_BYTES (the file itself, or an upload)."""
    return f"rule file is too large ({size:,} bytes; the limit is {MAX_BYTES:,})"


# libyaml's parser when PyYAML was built with it (ten times faster, the same nodes and marks, and a nesting
# limit of its own); PyYAML's pure-Python one otherwise.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_NODES = 20_000  # counts alias expansions too, which defuses "billion laughs"
MAX_DEPTH = 40


@dataclass
class Node:
    """A YAML value with its place: kind is 'map', 'list' or 'scalar'."""

    kind: str
    value: Any  # dict[str, Node] | list[Node] | scalar
    path: str
    line: int  # 1-based
    col: int  # 1-based
    keys: dict[str, Node] = field(default_factory=dict)  # map only: key nodes, for key errors
    quoted: bool = False  # scalar written in quotes (expression columns shift by one)

    def plain(self) -> Any:
        """The value without positions (for messages and defaults)."""
        if self.kind == "map":
            return {k: v.plain() for k, v in self.value.items()}
        if self.kind == "list":
            return [v.plain() for v in self.value]
        return self.value


class SourceCache:
    """Remembers file texts so diagnostics can quote the offending line."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    def add(self, path: str, text: str) -> None:
        self.texts[path] = text.splitlines()

    def line(self, path: str, line: int) -> str | None:
        lines = self.texts.get(path)
        if lines is None or not (1 <= line <= len(lines)):
            return None
        return lines[line - 1]

    def diag(self, path: str, line: int, col: int, message: str, hint: str | None = None) -> Diagnostic:
        return Diagnostic(path, line, col, message, hint, self.line(path, line))


class _Limit(Exception):
    def __init__(self, message: str, line: int, col: int):
        self.message, self.line, self.col = message, line, col


def load_yaml(text: str, path: str, sources: SourceCache) -> tuple[Node | None, list[Diagnostic]]:
    """Parse YAML text into a Node tree, or return located diagnostics (never raises)."""
    sources.add(path, text)
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        return None, [sources.diag(path, 1, 1, too_large(size), TOO_LARGE_HINT)]
    if not text.strip():
        return None, [sources.diag(path, 1, 1, "rule file is empty",
                                   "start with `name:` and `extends:` naming a rule file in rules/ to build on it, "
                                   "or see docs/rule-language.md")]
    try:
        root = _compose(_Loader, text)
    except yaml.YAMLError:  # say it in PyYAML's own words, which name what was expected and what was found
        try:
            root = _compose(yaml.SafeLoader, text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            msg = f"YAML syntax error: {e.problem or e.context}"
            return None, [sources.diag(path, line, col, msg, "check indentation, colons and quotes around this place")]
        except yaml.YAMLError as e:
            return None, [sources.diag(path, 1, 1, f"YAML error: {e}")]
        except RecursionError:
            return None, [sources.diag(path, 1, 1, "YAML nesting is too deep", f"a rule file nests at most {MAX_DEPTH} levels")]
        # libyaml refused what PyYAML reads (its nesting limit is the only difference known): the limits below decide
    except RecursionError:
        return None, [sources.diag(path, 1, 1, "YAML nesting is too deep", f"a rule file nests at most {MAX_DEPTH} levels")]
    if root is None:
        return None, [sources.diag(path, 1, 1, "rule file is empty")]
    constructor = yaml.SafeLoader("")
    budget = [MAX_NODES]
    try:
        node = _convert(root, path, constructor, budget, 0)
    except _Limit as e:
        return None, [sources.diag(path, e.line, e.col, e.message, "anchors and aliases may not expand into a huge document")]
    except RecursionError:
        return None, [sources.diag(path, 1, 1, "YAML nesting is too deep", f"a rule file nests at most {MAX_DEPTH} levels")]
    return node, []


def _compose(loader_class: type, text: str) -> yaml.Node | None:
    loader = loader_class(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    finally:
        loader.dispose()


def _convert(n: yaml.Node, path: str, ctor: yaml.SafeLoader, budget: list[int], depth: int) -> Node:
    line, col = n.start_mark.line + 1, n.start_mark.column + 1
    budget[0] -= 1
    if budget[0] < 0:
        raise _Limit(f"document expands to more than {MAX_NODES:,} values", line, col)
    if depth > MAX_DEPTH:
        raise _Limit(f"nesting deeper than {MAX_DEPTH} levels", line, col)
    if isinstance(n, yaml.MappingNode):
        items: dict[str, Node] = {}
        keys: dict[str, Node] = {}
        for k, v in n.value:
            kn = _convert(k, path, ctor, budget, depth + 1)
            key = str(kn.value) if kn.kind == "scalar" else repr(kn.plain())
            if kn.kind == "scalar" and kn.value is True and k.value in ("on", "On", "ON", "yes", "Yes", "YES"):
                key = k.value
            if key in items:
                raise _Limit(f"duplicate key `{key}`", kn.line, kn.col)
            keys[key] = kn
            items[key] = _convert(v, path, ctor, budget, depth + 1)
        return Node("map", items, path, line, col, keys)
    if isinstance(n, yaml.SequenceNode):
        return Node("list", [_convert(v, path, ctor, budget, depth + 1) for v in n.value], path, line, col)
    value = ctor.construct_object(n, deep=True)
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, (str, int, float, bool, type(None))):
        value = str(n.value)
    return Node("scalar", value, path, line, col, quoted=getattr(n, "style", None) in ("'", '"'))
