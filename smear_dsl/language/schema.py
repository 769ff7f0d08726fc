"""The shape of a rule file, declared once: the validator walks it, and so does the JSON Schema export.

Each schema object checks a located YAML `Node` and returns plain Python values, adding
a located diagnostic (with a "did you mean" hint where it can) for every mismatch.
Expression fields come back as `Src` (text and place) for the semantic pass to check.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from smear_dsl.errors import Diagnostic
from smear_dsl.language.yamlsrc import Node, SourceCache


@dataclass(frozen=True)
class Src:
    """An expression's text and where it stands in the rule file."""

    text: str
    path: str
    line: int
    col: int
    quoted: bool = False
    want: str = ""     # the type the rule file's schema declares for this field (rulefile.py)
    context: str = ""  # and the context it is written in (contexts.py): declared once, there


class Ctx:
    """Collects diagnostics while validating one rule file."""

    def __init__(self, sources: SourceCache):
        self.sources = sources
        self.diags: list[Diagnostic] = []

    def error(self, node: Node, message: str, hint: str | None = None) -> None:
        self.diags.append(self.sources.diag(node.path, node.line, node.col, message, hint))


MISSING = object()


def did_you_mean(word: str, options: Iterable[Any]) -> str | None:
    import difflib  # only when something is misspelt: not on every check
    m = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.6)
    return f"did you mean `{m[0]}`?" if m else None


class Schema:
    doc: str = ""

    def validate(self, node: Node, ctx: Ctx) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def json(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError


class Str(Schema):
    def __init__(self, doc: str = ""):
        self.doc = doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "scalar" or node.value is None or isinstance(node.value, bool):
            ctx.error(node, "expected text", self.doc or None)
            return MISSING
        return str(node.value)

    def json(self) -> dict[str, Any]:
        return {"type": "string", "description": self.doc}


class Int(Schema):
    def __init__(self, doc: str = "", lo: int | None = None, hi: int | None = None):
        self.doc, self.lo, self.hi = doc, lo, hi

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "scalar" or not isinstance(node.value, int) or isinstance(node.value, bool):
            ctx.error(node, f"expected a whole number, got {_show(node)}", self.doc or None)
            return MISSING
        if (self.lo is not None and node.value < self.lo) or (self.hi is not None and node.value > self.hi):
            ctx.error(node, f"{node.value} is out of range {self.lo}..{self.hi}", self.doc or None)
            return MISSING
        return node.value

    def json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "integer", "description": self.doc}
        if self.lo is not None:
            d["minimum"] = self.lo
        if self.hi is not None:
            d["maximum"] = self.hi
        return d


class Bool(Schema):
    def __init__(self, doc: str = ""):
        self.doc = doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "scalar" or not isinstance(node.value, bool):
            ctx.error(node, f"expected true or false, got {_show(node)}")
            return MISSING
        return node.value

    def json(self) -> dict[str, Any]:
        return {"type": "boolean", "description": self.doc}


class Any_(Schema):
    """A scalar of any type (option defaults are checked against the option's type later)."""

    def __init__(self, doc: str = ""):
        self.doc = doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "scalar":
            ctx.error(node, "expected a single value")
            return MISSING
        return node.value

    def json(self) -> dict[str, Any]:
        return {"type": ["string", "integer", "boolean"], "description": self.doc}


class Enum(Schema):
    def __init__(self, *values: str, doc: str = ""):
        self.values, self.doc = values, doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        v = node.value if node.kind == "scalar" else None
        if not isinstance(v, str) or v not in self.values:
            ctx.error(node, f"expected one of {', '.join(self.values)}; got {_show(node)}",
                      did_you_mean(v, self.values) if isinstance(v, str) else None)
            return MISSING
        return v

    def json(self) -> dict[str, Any]:
        return {"enum": list(self.values), "description": self.doc}


class Expr(Schema):
    """An expression of the rule language; numbers and true/false are accepted as themselves."""

    def __init__(self, type_: str, context: str, doc: str = ""):
        self.type, self.context, self.doc = type_, context, doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "scalar" or node.value is None:
            ctx.error(node, f"expected an expression ({self.type}), got {_show(node)}", self.doc or None)
            return MISSING
        v = node.value
        text = ("true" if v else "false") if isinstance(v, bool) else str(v)
        return Src(text, node.path, node.line, node.col, node.quoted, self.type, self.context)

    def json(self) -> dict[str, Any]:
        t = {"int": ["integer", "string"], "bool": ["boolean", "string"]}.get(self.type, "string")
        return {"type": t, "description": f"{self.doc} (expression: {self.type})".strip()}


class ListOf(Schema):
    def __init__(self, item: Schema, doc: str = "", min_items: int = 0):
        self.item, self.doc, self.min_items = item, doc, min_items

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "list":
            ctx.error(node, f"expected a list, got {_show(node)}", self.doc or None)
            return MISSING
        if len(node.value) < self.min_items:
            ctx.error(node, f"expected at least {self.min_items} item(s)")
        out = [self.item.validate(n, ctx) for n in node.value]
        return [x for x in out if x is not MISSING and not (isinstance(x, dict) and x.get("__bad__"))]

    def json(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.json(), "description": self.doc}


class OneOf(Schema):
    """The first alternative whose YAML kind matches the node is used."""

    def __init__(self, *alts: tuple[str, Schema], doc: str = ""):
        self.alts, self.doc = alts, doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        for kind, sch in self.alts:
            if kind == node.kind:
                return sch.validate(node, ctx)
        kinds = " or ".join({"map": "a mapping", "list": "a list", "scalar": "a value"}[k] for k, _ in self.alts)
        ctx.error(node, f"expected {kinds}", self.doc or None)
        return MISSING

    def json(self) -> dict[str, Any]:
        return {"anyOf": [s.json() for _, s in self.alts], "description": self.doc}


@dataclass
class F:
    """A field of a Map: its schema, whether it is required, and a default."""

    schema: Schema
    required: bool = False
    default: Any = None
    doc: str = ""


class Map(Schema):
    def __init__(self, fields: dict[str, F], doc: str = "", name: str = ""):
        self.fields, self.doc, self.name = fields, doc, name

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "map":
            ctx.error(node, f"expected a mapping{' for ' + self.name if self.name else ''}, got {_show(node)}",
                      "write `key: value` lines indented under it")
            return MISSING
        out: dict[str, Any] = {"__node__": node}
        bad = False
        for key, val in node.value.items():
            if key not in self.fields:
                hint = did_you_mean(key, self.fields) or ("keys here: " + ", ".join(self.fields))
                ctx.error(node.keys.get(key, val), f"unknown key `{key}`{' in ' + self.name if self.name else ''}", hint)
                bad = True
                continue
            v = self.fields[key].schema.validate(val, ctx)
            if v is MISSING:
                bad = True
                v = None
            out[key] = v
        for key, f in self.fields.items():
            if key not in out:
                if f.required:
                    ctx.error(node, f"missing required key `{key}`{' in ' + self.name if self.name else ''}", f.doc or None)
                    bad = True
                elif isinstance(f.schema, Expr) and f.default is not None:
                    out[key] = Src(str(f.default).lower() if isinstance(f.default, bool) else str(f.default),
                                   node.path, node.line, node.col, False, f.schema.type, f.schema.context)
                else:
                    out[key] = f.default
        if bad:
            out["__bad__"] = True
        return out

    def json(self) -> dict[str, Any]:
        props = {}
        for k, f in self.fields.items():
            props[k] = {**f.schema.json(), **({"description": f.doc} if f.doc else {})}
            if f.default is not None and f.default != [] and f.default != {}:
                props[k]["default"] = f.default
        return {"type": "object", "description": self.doc, "additionalProperties": False,
                "properties": props, "required": [k for k, f in self.fields.items() if f.required]}


class Dict(Schema):
    """A mapping with free keys (option names, point names) and one value schema."""

    def __init__(self, value: Schema, doc: str = "", free_keys: bool = False):
        self.value, self.doc, self.free_keys = value, doc, free_keys

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "map":
            ctx.error(node, f"expected a mapping, got {_show(node)}", self.doc or None)
            return MISSING
        out: dict[str, Any] = {}
        for key, val in node.value.items():
            kn = node.keys.get(key, val)
            if not self.free_keys and (not key.replace("_", "a").isalnum() or not (key[0].isalpha() or key[0] == "_")):
                ctx.error(kn, f"`{key}` is not a valid name", "names are letters, digits and _, starting with a letter")
                continue
            v = self.value.validate(val, ctx)
            if v is MISSING or (isinstance(v, dict) and v.get("__bad__")):
                continue
            out[key] = (v, kn)
        return out

    def json(self) -> dict[str, Any]:
        d = {"type": "object", "description": self.doc, "additionalProperties": self.value.json()}
        if not self.free_keys:
            d["propertyNames"] = {"pattern": "^[A-Za-z][A-Za-z0-9_]*$"}
        return d


class Tagged(Schema):
    """A one-key mapping whose key says which kind of item it is (phases)."""

    def __init__(self, kinds: dict[str, Schema], doc: str = ""):
        self.kinds, self.doc = kinds, doc

    def validate(self, node: Node, ctx: Ctx) -> Any:
        if node.kind != "map" or len(node.value) != 1:
            ctx.error(node, "expected a one-key mapping such as `- take: {...}`", "kinds: " + ", ".join(self.kinds))
            return MISSING
        (key, val), = node.value.items()
        if key not in self.kinds:
            ctx.error(node.keys.get(key, node), f"unknown phase `{key}`",
                      did_you_mean(key, self.kinds) or "kinds: " + ", ".join(self.kinds))
            return MISSING
        v = self.kinds[key].validate(val, ctx)
        return MISSING if v is MISSING or v.get("__bad__") else (key, v)

    def json(self) -> dict[str, Any]:
        return {"description": self.doc, "oneOf": [
            {"type": "object", "additionalProperties": False, "required": [k], "properties": {k: s.json()}}
            for k, s in self.kinds.items()]}


def _show(node: Node) -> str:
    if node.kind == "map":
        return "a mapping"
    if node.kind == "list":
        return "a list"
    if node.value is None:
        return "nothing"
    return repr(node.value)
