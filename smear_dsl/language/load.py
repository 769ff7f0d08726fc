"""YAML rule file -> validated RuleSpec: `extends:` merging, structure, names and types.

Every problem is collected and reported at once as a located diagnostic; nothing here
raises anything but RuleError.
"""
from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from smear_dsl import cards as C
from smear_dsl.choices import LANGUAGES
from smear_dsl.errors import Diagnostic, RuleError
from smear_dsl.expr import ast as A
from smear_dsl.expr.check import (
    BOOL,
    CARD,
    CARDS,
    FUNCTIONS,
    INT,
    KEYWORDS,
    RANK_CONSTS,
    STR,
    SUIT_CONSTS,
    Env,
    ExprTypeError,
    check,
    guard_of,
    vector,
)
from smear_dsl.expr.counted import MAX_KINDS, NotCounted, counted_conditions
from smear_dsl.expr.parse import ExprSyntaxError, parse_expr
from smear_dsl.language.contexts import CONTEXTS
from smear_dsl.language.crosschecks import CrossChecks
from smear_dsl.language.inherited import own_lines
from smear_dsl.language.langversion import FIRST, as_warning
from smear_dsl.language.paths import file_version, rule_file, rule_names, split_ref
from smear_dsl.language.pointdefs import PointChecks
from smear_dsl.language.rulefile import RULES
from smear_dsl.language.schema import MISSING, Ctx, Src, did_you_mean
from smear_dsl.language.semanticpart import needed
from smear_dsl.language.spec import (
    BiddingSpec,
    DealSpec,
    DeckSpec,
    EndSpec,
    ExprSpec,
    LangText,
    LeadRule,
    Loc,
    OptionSpec,
    PhaseSpec,
    PlaySpec,
    PointSpec,
    RuleSpec,
    ScoringSpec,
    TrumpRef,
)
from smear_dsl.language.versions import versions_of
from smear_dsl.language.yamlsrc import MAX_BYTES, TOO_LARGE_HINT, Node, SourceCache, load_yaml, too_large

MAX_EXTENDS_DEPTH = 8

LANGUAGE_WORDS = set(KEYWORDS) | set(FUNCTIONS) | set(RANK_CONSTS) | set(SUIT_CONSTS) | {"jick", "card", "players"}
RESERVED = (LANGUAGE_WORDS
            | {v for ctx, _ in CONTEXTS.values() for v in ctx})

# Contexts whose expression tests one card: (the card's name, the per-card truths the engine gives as sets).
CARD_TESTS = {"discard_card": ("card", {}), "follow": ("play", {"wins": "wins_set"})}
# What a follow rule reads of the trick alone (the rest of its names read the card played or the hand):
# its parts that read only these, and options, are its guard (check.guard_of).
TRICK_NAMES = frozenset({"lead", "winning", "trick", "trump", "is_bidder", "bid"})
NOT_TRICK = frozenset(CONTEXTS["follow"][0]) - TRICK_NAMES


def resolve_rules_path(name_or_path: str, relative_to: str | None = None) -> Path | None:
    """A rule name (file stem in rules/) or a path to a rule file; None if it does not exist."""
    p = Path(name_or_path)
    candidates = []
    if p.suffix in (".yaml", ".yml") or os.sep in name_or_path or "/" in name_or_path:
        if relative_to and not p.is_absolute():
            candidates.append(Path(relative_to).parent / p)
        candidates.append(p)
    else:
        if relative_to:
            candidates.append(Path(relative_to).parent / f"{name_or_path}.yaml")
        known = rule_file(name_or_path)
        if known is not None:
            candidates.append(known)
    for c in candidates:
        if c.is_file():
            return c
    return None


def unknown_rules_hint(name: str) -> str:
    """What to write instead of a rule name that names nothing: its versions, or a near name."""
    base, version = split_ref(name)
    have = versions_of(base) if version is not None else []
    if have:
        return f"`{base}` has version{'s' if len(have) > 1 else ''} {', '.join(map(str, have))} here"
    return did_you_mean(base, rule_names()) or "known rules: " + ", ".join(rule_names())


def load_spec(name_or_path: str) -> RuleSpec:
    """Load, merge, validate and type-check a rule file; raises RuleError with every problem."""
    path = resolve_rules_path(name_or_path)
    if path is None:
        raise RuleError([Diagnostic(name_or_path, 1, 1, f"no rule file `{name_or_path}`", unknown_rules_hint(name_or_path))])
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:  # refused before it is read
            raise RuleError([Diagnostic(str(path), 1, 1, too_large(size), TOO_LARGE_HINT)])
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise RuleError([Diagnostic(str(path), 1, 1, f"cannot read rule file: {e.strerror}")]) from None
    return spec_from_text(text, str(path))


def spec_from_text(text: str, path: str, known_parents_only: bool = False,
                   pins: dict[str, str] | None = None) -> RuleSpec:
    """Validate rule-file text (the `path` names it in messages and anchors relative `extends:`).

    With `known_parents_only` (text uploaded to a server), `extends:` may only name a rule in
    rules/, never a path, so an upload cannot make the server read other files. `pins` maps a
    parent named without a version to the version to use (`name` -> `name@1`: what a table or a
    record was created under); other bare names mean their latest version."""
    sources = SourceCache()
    lineage: list[str] = []
    unpinned: list[tuple[str, str]] = []
    root, diags = _load_merged(text, path, sources, [], lineage, known_parents_only, unpinned, pins or {})
    if diags:
        raise RuleError(diags)
    assert root is not None, "a file that loads without a diagnostic has a tree"
    ctx = Ctx(sources)
    raw = RULES.validate(root, ctx)
    if raw is MISSING:
        raise RuleError(ctx.diags or [sources.diag(path, 1, 1, "invalid rule file")])
    structural = len(ctx.diags)
    language = raw.get("language") or FIRST
    try:
        sem = _Semantics(ctx, path, language)
        spec = sem.build(raw)
        if spec is not None:
            spec = dataclasses.replace(spec, extends=tuple(lineage), version=raw.get("version"), language=language,
                                       later=tuple(own_lines(sem.later, path, text)), text=text,
                                       unpinned=tuple(unpinned))
    except (TypeError, KeyError, AttributeError, ValueError):
        # Only reachable after structural errors left holes; those errors are already reported.
        if not structural:
            raise
        spec = None
    if ctx.diags or spec is None:
        diags = sorted(own_lines(ctx.diags, path, text), key=lambda d: (d.path != path, d.path, d.line, d.col))
        raise RuleError(diags or [sources.diag(path, 1, 1, "invalid rule file")])
    return spec


def _load_merged(text: str, path: str, sources: SourceCache, chain: list[str],
                 lineage: list[str] | None = None, known_only: bool = False,
                 unpinned: list[tuple[str, str]] | None = None,
                 pins: dict[str, str] | None = None) -> tuple[Node | None, list[Diagnostic]]:
    """The file's node tree with its `extends:` ancestors merged in; `lineage` collects their exact
    names (`name@2`), `unpinned` the parents named without a version and what they resolved to."""
    node, diags = load_yaml(text, path, sources)
    if diags:
        return None, diags
    assert node is not None, "a text that loads without a diagnostic has a tree"
    if node.kind != "map":
        return None, [sources.diag(path, node.line, node.col, "a rule file is a mapping of keys like `name:` and `deck:`",
                                   "see docs/rule-language.md")]
    ext = node.value.get("extends")
    if ext is None:
        return node, []
    if ext.kind != "scalar" or not isinstance(ext.value, str):
        return None, [sources.diag(path, ext.line, ext.col, "`extends` names a rule (file stem) or a path")]
    if len(chain) >= MAX_EXTENDS_DEPTH:
        return None, [sources.diag(path, ext.line, ext.col, f"`extends` chain is deeper than {MAX_EXTENDS_DEPTH}")]
    wanted = (pins or {}).get(ext.value, ext.value)  # a bare name the caller pinned: that version
    if known_only:
        parent_path = rule_file(wanted)
    else:
        parent_path = resolve_rules_path(wanted, path)
    if parent_path is None:
        return None, [sources.diag(path, ext.line, ext.col + (1 if ext.quoted else 0),
                                   f"`extends`: no rule file `{wanted}`", unknown_rules_hint(wanted))]
    key = str(parent_path.resolve())
    if key in chain or key == str(Path(path).resolve()):
        names = " -> ".join(Path(p).stem for p in [*chain, str(Path(path).resolve()), key])
        return None, [sources.diag(path, ext.line, ext.col, f"`extends` cycle: {names}", "a rule file cannot extend itself")]
    try:
        ptext = parent_path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        return None, [sources.diag(path, ext.line, ext.col, f"cannot read `{parent_path}`: {e.strerror}")]
    resolved = parent_path.stem
    if "@" not in resolved and (v := file_version(parent_path)) is not None:
        resolved = f"{resolved}@{v}"
    if lineage is not None:
        lineage.append(resolved)
    if unpinned is not None and wanted == ext.value and "@" not in wanted and "@" in resolved and not any(
            c in wanted for c in "/\\."):
        unpinned.append((ext.value, resolved))
    parent, pdiags = _load_merged(ptext, str(parent_path), sources, [*chain, str(Path(path).resolve())], lineage,
                                  unpinned=unpinned, pins=pins)
    if pdiags:
        return None, [sources.diag(path, ext.line, ext.col, f"the parent rule file `{ext.value}` has errors (below)"), *pdiags]
    assert parent is not None, "a parent that loads without a diagnostic has a tree"
    merged = _merge(parent, node)
    merged.value.pop("extends", None)
    for own in ("version", "language"):  # the file's own: a child does not inherit its parent's
        if own not in node.value:
            merged.value.pop(own, None)
    if "description" not in node.value:  # the parent's would describe the parent (its target, its deck...)
        merged.value.pop("description", None)
    _own_titles(merged, node)
    return merged, []


def _own_titles(merged: Node, child: Node) -> None:
    """A parent's name and description in another language describe the parent: keep only the child's."""
    langs = merged.value.get("translations")
    if langs is None or langs.kind != "map":
        return
    own = child.value.get("translations")
    own_langs = own.value if own is not None and own.kind == "map" else {}
    for lang, words in list(langs.value.items()):
        if words.kind != "map":
            continue
        mine = own_langs.get(lang)
        kept = {k: v for k, v in words.value.items()
                if k not in ("name", "description") or (mine is not None and mine.kind == "map" and k in mine.value)}
        langs.value[lang] = Node("map", kept, words.path, words.line, words.col, words.keys)


def _merge(base: Node, over: Node) -> Node:
    """Child keys override the parent's; mappings merge deeply; `null` removes a key."""
    if base.kind != "map" or over.kind != "map":
        return over
    out = dict(base.value)
    keys = dict(base.keys)
    for k, v in over.value.items():
        if v.kind == "scalar" and v.value is None and k in out:
            out.pop(k)
            continue
        out[k] = _merge(out[k], v) if k in out else v
        keys[k] = over.keys.get(k, v)
    return Node("map", out, over.path, over.line, over.col, keys)


class _Semantics(CrossChecks, PointChecks):
    """Second pass: names, types, card orders and expressions."""

    def __init__(self, ctx: Ctx, path: str, language: int = FIRST):
        self.ctx, self.path, self.language = ctx, path, language
        self.envs: dict[str, Env] = {}
        self.later: list[Diagnostic] = []  # what a later language refuses: warnings for this file

    # -- helpers --
    def err(self, node_or_src: Any, message: str, hint: str | None = None, offset: int = 0, since: int = 1) -> None:
        """Report a problem; one a later language version than the file's refuses (`since`) is kept
        as a warning instead, so the file loads as it did under its own version."""
        if since > self.language:
            mine, self.ctx.diags = self.ctx.diags, []
            try:
                self.err(node_or_src, message, hint, offset)
            finally:
                found, self.ctx.diags = self.ctx.diags, mine
            self.later += [as_warning(dataclasses.replace(d, since=since), self.language) for d in found]
            return
        if isinstance(node_or_src, Src):
            s = node_or_src
            col = s.col + (1 if s.quoted else 0) + offset
            self.ctx.diags.append(self.ctx.sources.diag(s.path, s.line, col, message, hint))
        elif isinstance(node_or_src, Loc):  # a built spec's place (a phase, a point)
            loc = node_or_src
            self.ctx.diags.append(self.ctx.sources.diag(loc.path, loc.line, loc.col, message, hint))
        else:
            self.ctx.error(node_or_src, message, hint)

    def expr(self, src: Src | None) -> ExprSpec | None:
        """The checked expression of a field, of the type and in the context the schema declares for it
        (named definitions expanded where they are used, and checked there)."""
        if src is None:
            return None
        want, context = src.want, src.context
        try:
            written = parse_expr(src.text)
            ast = A.expand(written, self.def_asts) if self.defs else written
            checked = check(ast, self.envs[context], want)
        except (ExprSyntaxError, ExprTypeError) as e:
            hint = e.hint
            used = [n for n in self.defs if A.mentions(written, n)] if isinstance(e, ExprTypeError) else []
            if used:
                where = ", ".join(f"`{n}` (line {self.defs[n][0].line})" for n in used)
                hint = f"{hint + '; ' if hint else ''}this uses the definition {where}, checked here {self.envs[context].descr}"
            self.err(src, e.message if isinstance(e, ExprTypeError) else f"bad expression: {e.message}", hint, e.offset)
            return None
        except ValueError as e:  # a definition that uses itself (reported at the definition too)
            self.err(src, f"the definitions used here go round in a circle: {e}")
            return None
        if context == "static" and A.mentions(ast, "card"):
            self.err(src, "this setting cannot depend on cards")
        subject = CARD_TESTS.get(context)
        cards = vector(ast, self.envs[context], *subject) if subject is not None else None
        guard = guard_of(ast, self.envs[context], NOT_TRICK) if context == "follow" else None
        return ExprSpec(src.text, Loc(src.path, src.line, src.col, self.ctx.sources.line(src.path, src.line)), ast,
                        checked, written if written is not ast else None, cards,
                        None if guard is None else (guard[0], tuple(sorted(guard[1] & TRICK_NAMES))))

    def definitions(self, raw: dict[str, Any], known: set[str]) -> dict[str, tuple[Src, A.Expr]]:
        """`define:`: each name's parsed expression (checked where it is used: its names depend on where)."""
        out: dict[str, tuple[Src, A.Expr]] = {}
        for name, (src, kn) in raw.items():
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                self.err(kn, f"a definition's name is lower case letters, digits and _, not `{name}`")
            elif name in RESERVED or name in known:
                self.err(kn, f"`{name}` is already a name of the language (or of an option, bid or joker)",
                         "choose another name for the definition")
            else:
                try:
                    out[name] = (src, parse_expr(src.text))
                except ExprSyntaxError as e:
                    self.err(src, f"bad expression: {e.message}", e.hint, e.offset)
        asts = {name: ast for name, (_src, ast) in out.items()}
        for name, (src, ast) in out.items():
            try:
                A.expand(ast, asts, (name,))
            except ValueError as e:
                self.err(src, f"definition `{name}` uses itself: {e}")
        return out

    def loc(self, node: Node) -> Loc:
        return Loc(node.path, node.line, node.col, self.ctx.sources.line(node.path, node.line))

    def section(self, build: Callable[[], Any]) -> Any:  # (None only when the file has errors: it is refused)
        """Build one section; after structural errors a hole in it only skips that section."""
        try:
            return build()
        except (TypeError, KeyError, AttributeError) as e:
            if not self.ctx.diags:
                raise RuntimeError(f"internal error while checking a rule file: {e!r}") from e
            return None

    # -- the pass --
    def build(self, raw: dict[str, Any]) -> RuleSpec | None:
        root: Node = raw["__node__"]
        self.root = root
        players = raw["players"]
        players_t = tuple(sorted(set(players if isinstance(players, list) else [players]))) if players else (2,)
        options = self.options(raw["options"])
        deck = self.deck(raw["deck"]) if raw["deck"] and not raw["deck"].get("__bad__") else None
        if deck is None:
            return None
        statics = {"players": INT, **{o.name: {"int": INT, "bool": BOOL, "choice": STR}[o.type] for o in options}}
        bidding_raw = raw["bidding"] if isinstance(raw["bidding"], dict) else {}
        bid_names = {k: v for k, (v, _n) in (bidding_raw.get("names") or {}).items()}
        consts: dict[str, tuple[str, Any]] = {name: (CARD, C.JOKER_BASE + j) for j, name in enumerate(deck.jokers)}
        for k, (v, kn) in (bidding_raw.get("names") or {}).items():
            if k in RESERVED or k in consts or k in statics:
                self.err(kn, f"bid name `{k}` is already a name of the language")
            consts[k] = (INT, v)
        for name, (vars_, descr) in CONTEXTS.items():
            self.envs[name] = Env(dict(vars_), consts, statics, descr)
        self.defs = self.definitions(raw.get("define") or {}, set(consts) | set(statics))
        self.def_asts = {name: ast for name, (_src, ast) in self.defs.items()}
        sec = self.section
        trump_order = sec(lambda: self.trump_order(raw.get("trump_order"), deck, root))
        teams = sec(lambda: self.expr(raw["teams"]))
        equal = sec(lambda: self.expr(raw["equal_trumps"]))
        deal = sec(lambda: self.deal(raw["deal"]))
        bidding = sec(lambda: self.bidding(raw["bidding"], bid_names))
        no_bids = bidding is not None and bidding.min is None
        phases = sec(lambda: tuple(p for p in (self.phase(k, v, no_bids) for k, v in raw["phases"] or [])
                                   if p is not None)) or ()
        named = sum(1 for p in phases if p.kind == "name_trump")
        if named > 1:
            self.err(root.value["phases"], "more than one name_trump phase")
        play = sec(lambda: self.play(raw["play"] or {"leader": "bidder", "follow": "suit_or_trump", "lead_rules": []}))
        trump_fixed = named or (deal is not None and deal.turn_up)
        points = sec(lambda: self.points(raw["points"], deal))
        point_vars = self.point_vars(points or ())
        scoring = sec(lambda: self.scoring(raw["scoring"], bidding))
        end = sec(lambda: self.end(raw["end"], points))
        if bidding is not None and bidding.min is None:
            self.no_bidding(root, phases, play)
        if deal is not None and play is not None:
            self.stock_use(root, deal, play, deck, named)
        self.leader_named(root, play, named)
        beg = sec(lambda: self.beg(raw.get("beg"), root, deal, bidding, points))
        if deck.jokers and not trump_fixed and play is not None:
            if not any(A.mentions(r.forbid.ast, "joker") for r in play.lead_rules):
                self.err(root.value["deck"], "with jokers and trump fixed by the first lead, a lead rule must say when a "
                         "joker may not be led", "add to play.lead_rules: `- {forbid: trick == 1 and lead.joker, code: WRONG_PHASE}`")
        translations = _translations(self, raw.get("translations") or {}, options, points, play, bid_names, deck)
        if self.ctx.diags:
            return None
        return RuleSpec(
            stem=Path(self.path).stem, path=self.path, name=raw["name"], description=raw["description"] or "",
            players=players_t, teams=teams, options=options, deck=deck, trump_order=trump_order, equal_trumps=equal,
            deal=deal, bidding=bidding, phases=phases, trump_named=bool(named), play=play, points=points,
            scoring=scoring, end=end, loc=self.loc(root),
            definitions=tuple((name, src.text, ast) for name, (src, ast) in self.defs.items()), point_vars=point_vars,
            beg=beg, translations=translations)

    def options(self, raw: dict[str, Any]) -> tuple[OptionSpec, ...]:
        out = []
        for name, (o, kn) in (raw or {}).items():
            if name in RESERVED:
                self.err(kn, f"option name `{name}` is already a name of the language", "choose another name")
                continue
            node: Node = o["__node__"]
            if o["type"] == "int" and (o["min"] is None or o["max"] is None):
                self.err(node, f"int option `{name}` needs `min` and `max`")
                continue
            if o["type"] == "choice" and not o["choices"]:
                self.err(node, f"choice option `{name}` needs `choices`")
                continue
            if o["type"] == "int" and o["min"] > o["max"]:
                self.err(node, f"option `{name}`: min {o['min']} is above max {o['max']}")
                continue
            spec = OptionSpec(name, o["type"], o["default"], o["min"], o["max"], tuple(o["choices"] or ()),
                              o["description"] or "", self.loc(kn))
            try:
                spec = OptionSpec(name, spec.type, spec.parse(o["default"]), spec.min, spec.max, spec.choices,
                                  spec.description, spec.loc)
            except ValueError as e:
                self.err(node.value["default"], f"default: {e}")
                continue
            out.append(spec)
        return tuple(out)

    def deck(self, raw: dict[str, Any]) -> DeckSpec | None:
        node: Node = raw["__node__"]
        before = len(self.ctx.diags)
        ranks = []
        for rn, r in zip(node.value["ranks"].value, raw["ranks"]):
            idx = C.parse_rank(str(r))
            if idx is None:
                self.err(rn, f"`{r}` is not a rank", "ranks are A K Q J T 9 8 7 6 5 4 3 2")
            elif idx in ranks:
                self.err(rn, f"rank `{r}` is listed twice")
            else:
                ranks.append(idx)
        remove = []
        for i, name in enumerate(raw["remove"] or []):
            cid = C.parse_suited(name)
            if cid is None:
                self.err(node.value["remove"].value[i], f"`{name}` is not a card", "cards are written like AS, TD, 7C")
            elif C.rank_of(cid) not in ranks:
                self.err(node.value["remove"].value[i], f"`{name}` is not in the deck anyway")
            else:
                remove.append(cid)
        jokers = []
        for i, name in enumerate(raw["jokers"] or []):
            jn = node.value["jokers"].value[i]
            if not (2 <= len(name) <= 4 and name.isalnum() and name.isupper()) or C.parse_suited(name) is not None:
                self.err(jn, f"joker name `{name}` must be 2-4 capital letters or digits and not a card name", "e.g. BJ, RJ, JK")
            elif name in jokers:
                self.err(jn, f"joker `{name}` is listed twice")
            else:
                jokers.append(name)
        if len(jokers) > C.MAX_JOKERS:
            self.err(node.value["jokers"], f"at most {C.MAX_JOKERS} jokers")
        values = []
        for key, (v, kn) in (raw["values"] or {}).items():
            r = C.parse_rank(key)
            if key in jokers:
                values.append((100 + jokers.index(key), v))
            elif r is not None and r in ranks:
                values.append((r, v))
            else:
                self.err(kn, f"`{key}` is not a rank or joker of this deck", did_you_mean(key, jokers + [C.RANK_CHARS[x] for x in ranks]))
        if len(self.ctx.diags) > before:
            return None
        return DeckSpec(tuple(ranks), tuple(remove), tuple(jokers), tuple(values), self.loc(node))

    def trump_order(self, raw: list[Any] | None, deck: DeckSpec, root: Node) -> tuple[tuple[TrumpRef, ...], ...]:
        if raw is None:
            return tuple((TrumpRef("rank", r),) for r in deck.ranks) + tuple((TrumpRef("joker", j),) for j in range(len(deck.jokers)))
        node = root.value["trump_order"]
        out, seen = [], set()
        for item_node, item in zip(node.value, raw):
            group_nodes = item_node.value if item_node.kind == "list" else [item_node]
            group_vals = item if isinstance(item, list) else [item]
            group = []
            for gn, g in zip(group_nodes, group_vals):
                ref = self.trump_ref(str(g), deck)
                if ref is None:
                    self.err(gn, f"`{g}` is not a card of the trump suit",
                             "use a rank (A, K, ..., 2), `jick` (the jack of the same colour) or a joker name")
                elif ref in seen:
                    self.err(gn, f"`{g}` is listed twice")
                else:
                    seen.add(ref)
                    group.append(ref)
            if group:
                out.append(tuple(group))
        missing = [C.RANK_CHARS[r] for r in deck.ranks if TrumpRef("rank", r) not in seen]
        missing += [j for i, j in enumerate(deck.jokers) if TrumpRef("joker", i) not in seen]
        if missing:
            self.err(node, f"trump_order leaves out {', '.join(missing)}", "every rank of the deck and every joker has a place")
        return tuple(out)

    @staticmethod
    def trump_ref(text: str, deck: DeckSpec) -> TrumpRef | None:
        t = text.strip()
        if t in deck.jokers:
            return TrumpRef("joker", deck.jokers.index(t))
        if t.lower() == "jick":
            return TrumpRef("sister", 9) if 9 in deck.ranks else None
        parts = t.split()
        if len(parts) == 3 and parts[1] == "of" and parts[2] in ("sister", "trump"):
            r = C.parse_rank(parts[0])
            if r is None or r not in deck.ranks:
                return None
            return TrumpRef("sister" if parts[2] == "sister" else "rank", r)
        r = C.parse_rank(t)
        return TrumpRef("rank", r) if r is not None and r in deck.ranks else None

    def deal(self, raw: dict[str, Any]) -> DealSpec:
        node: Node = raw["__node__"]
        return DealSpec(needed(self.expr(raw["hand_size"])), tuple(raw["packets"]) if raw["packets"] else None,
                        raw["rest"], self.expr(raw["redeal_if"]), self.loc(node), bool(raw.get("turn_up")),
                        bool(raw.get("stock_face_up")))

    def point_vars(self, points: tuple[PointSpec, ...]) -> tuple[str, ...]:
        """Make each point's name a truth value in scoring and end (`jack`: this side won the Jack),
        unless the name is taken there already (that name keeps its meaning)."""
        out = []
        for p in points:
            if all(p.name not in env.vars and p.name not in env.consts and p.name not in env.statics
                   for env in (self.envs[c] for c in ("made", "scoring", "end"))) and p.name not in self.defs \
                    and p.name not in LANGUAGE_WORDS:
                out.append(p.name)
        for c in ("made", "scoring", "end"):
            self.envs[c] = self.envs[c].with_vars(**{name: BOOL for name in out})
        return tuple(out)

    def bidding(self, raw: dict[str, Any] | str, names: dict[str, int]) -> BiddingSpec:
        if isinstance(raw, str):  # "none": the one word the schema lets `bidding` be
            return BiddingSpec(None, None, (), "one", None, None, "redeal", None, self.loc(self.root.value["bidding"]))
        node: Node = raw["__node__"]
        if raw["all_pass"] == "set_back" and raw["set_back"] is None:
            self.err(node, "all_pass: set_back needs `set_back: N` (how much the dealer loses)")
        return BiddingSpec(self.expr(raw["min"]), self.expr(raw["max"]),
                           tuple(names.items()), raw["rounds"], self.expr(raw["ends_at"]),
                           self.expr(raw["may_match"]), raw["all_pass"],
                           self.expr(raw["set_back"]), self.loc(node))

    def phase(self, kind: str, raw: dict[str, Any], no_bids: bool = False) -> PhaseSpec | None:
        node: Node = raw["__node__"]
        if kind == "discard":
            if raw["count"] is None and (raw["min"] is None or raw["max"] is None):
                self.err(node, "a discard needs `count`, or both `min` and `max`")
            if raw["count"] is not None and (raw["min"] is not None or raw["max"] is not None):
                self.err(node, "a discard has `count` or `min`/`max`, not both")
        if kind == "name_trump":
            self.naming(node, raw, no_bids)
        valid_if = self.expr(raw.get("valid_if"))
        return PhaseSpec(kind, raw["who"], self.expr(raw.get("count")), self.expr(raw.get("min")),
                         self.expr(raw.get("max")), self.expr(raw.get("allowed")),
                         valid_if, raw.get("credit") or "nobody",
                         self.expr(raw.get("to")), self.loc(node), raw.get("short"), bool(raw.get("face_up")),
                         self.discard_kinds(raw.get("valid_if"), valid_if), bool(raw.get("may_pass")),
                         raw.get("all_pass") or "forced")

    def discard_kinds(self, src: Src | None, valid_if: ExprSpec | None) -> tuple[ExprSpec, ...]:
        """The kinds of card a discard's valid_if counts by (see expr/counted.py), each checked as a set
        of the hand's cards; a located error when it reads the discard otherwise, or counts too many kinds."""
        if valid_if is None or src is None:  # (a valid_if was checked from its source)
            return ()
        try:
            conds = counted_conditions(valid_if.ast)
        except NotCounted as e:
            self.err(src, "`valid_if` may read `discard` and `kept` only by counting them: count(...) or any(...), "
                     "with `where` conditions on each card", "e.g. `count(kept where card.trump) >= 6`; a rule about "
                     "single cards goes in `allowed`", e.pos)
            return ()
        if len(conds) > MAX_KINDS:
            self.err(src, f"`valid_if` counts the discard by {len(conds)} different conditions; at most {MAX_KINDS} "
                     "keep the search for a legal discard short", "count by fewer kinds of card")
            return ()
        env = self.envs["discard_set"]
        return tuple(ExprSpec(src.text, valid_if.loc, probe, check(probe, env, CARDS)) for probe in conds)

    def play(self, raw: dict[str, Any]) -> PlaySpec:
        def rules(key: str, default: str) -> tuple[LeadRule, ...]:
            out = []
            for r in raw.get(key) or []:
                f = self.expr(r["forbid"])
                if f is not None:
                    out.append(LeadRule(f, r["code"], r["message"] or default))
            return tuple(out)
        return PlaySpec(raw["leader"], raw["follow"], rules("lead_rules", "this lead is not allowed"),
                        rules("follow_rules", "this card may not be played now"), raw.get("draw") or "none")

    def scoring(self, raw: dict[str, Any], bidding: BiddingSpec | None) -> ScoringSpec:
        cap = raw["cap"]
        if bidding is not None and bidding.min is not None:
            for key in ("made", "bidder"):
                if raw[key] is None:
                    self.err(raw["__node__"], f"scoring needs `{key}` (only `bidding: none` goes without)")
        return ScoringSpec(self.expr(raw["made"]), self.expr(raw["bidder"]),
                           needed(self.expr(raw["others"])),
                           self.expr(cap["when"]) if cap else None,
                           self.expr(cap["at"]) if cap else None)

    def end(self, raw: dict[str, Any], points: tuple[PointSpec, ...] | None) -> EndSpec:
        co = raw.get("count_out") or {}
        as_won = co.get("order") == "as_won"
        order = () if as_won else tuple(co.get("order") or ())
        names = [p.name for p in points or ()]
        node = raw["__node__"]
        for i, name in enumerate(order):
            if points is not None and name not in names:
                self.err(node.value["count_out"].value["order"].value[i], f"`{name}` is not a point of this file",
                         did_you_mean(name, names) or f"the points are {', '.join(names)}")
            elif name in order[:i]:
                self.err(node.value["count_out"].value["order"].value[i], f"`{name}` is counted twice")
        tie_break = tuple(raw["tie_break"] or ())
        if co and "count_out" not in tie_break:
            self.err(node.value["count_out"], "`count_out` says how to count out, but `tie_break` does not use it",
                     "add count_out to tie_break, e.g. `tie_break: [bidder, count_out]`", since=2)
        return EndSpec(needed(self.expr(raw["target"])), needed(self.expr(raw["win_if"])), tie_break,
                       order, self.expr(co.get("when")), as_won)


def _translations(sem: _Semantics, raw: dict[str, Any], options: tuple[OptionSpec, ...] | None,
                  points: tuple[PointSpec, ...] | None, play: PlaySpec | None, bid_names: dict[str, int],
                  deck: DeckSpec) -> tuple[tuple[str, LangText], ...]:
    """`translations:` checked against what the file defines: a known language, its options,
    its refusal codes, its identifiers (a misspelt key would silently never show)."""
    known = {"options": {o.name for o in options or ()},
             "messages": {x for r in (*play.lead_rules, *play.follow_rules) for x in (r.code, r.message)}
             if play else set(),
             "names": {p.name for p in points or ()} | set(sem.def_asts) | set(bid_names) | set(deck.jokers if deck else ())
             | {o.name for o in options or ()}}
    out = []
    for lang, (words, kn) in raw.items():
        if lang not in LANGUAGES or lang == "en":
            sem.err(kn, f"`{lang}` is not a players' language here", "languages: " +
                    ", ".join(code for code in LANGUAGES if code != "en") + " (the file itself is the English)")
            continue
        kept: dict[str, dict[str, str]] = {}
        for part, names in known.items():
            kept[part] = {}
            for key, (text, kkn) in (words[part] or {}).items():
                if key in names:
                    kept[part][key] = text
                elif kkn.path == sem.path:  # a parent's words for what this file took away just go
                    sem.err(kkn, f"translations.{lang}.{part}: `{key}` is not defined in this rule file",
                            did_you_mean(key, names) or ("defined: " + ", ".join(sorted(names)) if names else None))
        out.append((lang, LangText(words["name"] or "", words["description"] or "", kept["options"],
                                   kept["messages"], kept["names"])))
    return tuple(out)
