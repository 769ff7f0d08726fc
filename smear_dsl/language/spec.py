"""Validated rule specs: frozen dataclasses, the only thing the compiler reads.

Nothing here refers to YAML or lark; expressions are held as checked ASTs whose
closures are built later against the compiled tables.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from smear_dsl.errors import Diagnostic, clip
from smear_dsl.expr.ast import Expr as ExprAst
from smear_dsl.expr.check import Checked
from smear_dsl.expr.emit import Maker


@dataclass(frozen=True)
class Loc:
    """A place in a rule file, 1-based, with the text of its line (for diagnostics: a compile
    error quotes it without reading any file again)."""

    path: str
    line: int
    col: int
    source: str | None = None

    def diag(self, message: str, hint: str | None = None, severity: str = "error") -> Diagnostic:
        """A diagnostic here (the compiler's and lint's one way to make one)."""
        return Diagnostic(self.path, self.line, self.col, message, hint, self.source, severity)


@dataclass(frozen=True)
class ExprSpec:
    """A checked expression: its text, where it was written, its AST, type and closure maker."""

    text: str
    loc: Loc
    ast: ExprAst  # with named definitions expanded: what is checked, analysed and run
    checked: Checked
    written: ExprAst | None = None  # as written, definitions by name (what explain reads); None: the same
    # A test of one card (a discard's `allowed`, a follow rule's `forbid`) as the set of cards it holds
    # for (check.vector), where it can be: the engine then tests a hand in one step, not card by card.
    cards: Maker | None = None
    # A follow rule's `and`s that read only the trick (check.guard_of) and the trick's names they read:
    # while they are false the rule forbids nothing, and the engine need not look at the hand.
    guard: tuple[Checked, tuple[str, ...]] | None = None

    @property
    def source(self) -> ExprAst:
        return self.written if self.written is not None else self.ast

    @property
    def type(self) -> str:
        return self.checked.type


@dataclass(frozen=True)
class LangText:
    """A rule file's own words in one players' language (`translations: {fr: ...}`): its name and
    description, its options' descriptions, its refusal messages by code, and names for its identifiers."""

    name: str = ""
    description: str = ""
    options: dict[str, str] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def refusal(self, code: str, message: str) -> str:
        """A lead or follow rule's refusal in this language: by its English message (two rules may
        share a code), else by its code, else the English itself."""
        return self.messages.get(message) or self.messages.get(code) or message


@dataclass(frozen=True)
class OptionSpec:
    name: str
    type: str  # 'int' | 'bool' | 'choice'
    default: Any
    min: int | None
    max: int | None
    choices: tuple[str, ...]
    description: str
    loc: Loc

    def parse(self, raw: Any) -> Any:
        """Check a value given for this option (a YAML/JSON value or a `k=v` text); raises ValueError."""
        if self.type == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                return raw.lower() in ("true", "yes", "1", "on")
            raise ValueError(f"option `{self.name}` is true or false, not {clip(raw)}")
        if self.type == "int":
            if isinstance(raw, bool):
                raise ValueError(f"option `{self.name}` is a whole number, not {clip(raw)}")
            try:
                v = int(raw) if isinstance(raw, (int, str)) else None
            except ValueError:
                v = None
            if v is None:
                raise ValueError(f"option `{self.name}` is a whole number, not {clip(raw)}")
            if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
                raise ValueError(f"option `{self.name}` must be in {self.min}..{self.max}, not {clip(v)}")
            return v
        if not isinstance(raw, str) or raw not in self.choices:
            raise ValueError(f"option `{self.name}` is one of {', '.join(self.choices)}, not {clip(raw)}")
        return raw

    def domain(self) -> list[Any]:
        """A few representative values (for checking every setup a table could choose)."""
        if self.type == "bool":
            return [False, True]
        if self.type == "choice":
            return list(self.choices)
        vals = {self.default}
        if self.min is not None:
            vals.add(self.min)
        if self.max is not None:
            vals.add(self.max)
        return sorted(vals)


@dataclass(frozen=True)
class DeckSpec:
    ranks: tuple[int, ...]  # rank indices, high to low (the order in a plain suit)
    remove: tuple[int, ...]  # suited card ids taken out
    jokers: tuple[str, ...]  # joker names; joker j is card id 52 + j
    values: tuple[tuple[int, int], ...]  # (card-kind key, value): rank index, or 100 + joker index
    loc: Loc


@dataclass(frozen=True)
class TrumpRef:
    """One card of the trump suit's order, relative to trump."""

    kind: str  # 'rank' (that rank of trump) | 'sister' (that rank of the same-colour suit) | 'joker'
    index: int  # rank index or joker index


@dataclass(frozen=True)
class DealSpec:
    hand_size: ExprSpec
    packets: tuple[int, ...] | None
    rest: str  # 'stock' | 'aside'
    redeal_if: ExprSpec | None
    loc: Loc
    turn_up: bool = False  # the stock's top card is turned up after the deal: its suit is trump
    stock_face_up: bool = False  # everyone sees the stock's top card (and so every draw)


@dataclass(frozen=True)
class BiddingSpec:
    min: ExprSpec | None  # None (and max None) with `bidding: none`: no bidding at all
    max: ExprSpec | None
    names: tuple[tuple[str, int], ...]
    rounds: str  # 'one' | 'open'
    ends_at: ExprSpec | None
    may_match: ExprSpec | None
    all_pass: str  # 'redeal' | 'next_dealer' | 'dealer_bids' | 'set_back' | 'eldest_pitches' | 'dealer_plays'
    set_back: ExprSpec | None
    loc: Loc


@dataclass(frozen=True)
class PhaseSpec:
    kind: str  # 'name_trump' | 'take' | 'discard' | 'refill'
    who: str  # 'bidder' | 'dealer' | 'each' | 'non_dealers' | 'non_bidders'
    count: ExprSpec | None  # take / discard: exact count
    min: ExprSpec | None  # discard: a range instead of an exact count
    max: ExprSpec | None
    allowed: ExprSpec | None  # discard: which cards may be discarded
    valid_if: ExprSpec | None  # discard: a condition on the whole discard
    credit: str  # discard: whose Game count the discards join: 'own' | 'bidder' | 'nobody'
    to: ExprSpec | None  # refill: up to this many cards
    loc: Loc
    short: str | None = None  # refill: what happens when the stock runs short ('play_short'), if stated
    face_up: bool = False  # discard: shown to everyone
    # discard: the kinds of card valid_if counts the discard by, each as the hand's cards of that kind
    # (`hand where card.trump`): the engine searches counts per kind, not combinations (expr/counted.py).
    kinds: tuple[ExprSpec, ...] = ()
    may_pass: bool = False  # name_trump: each in turn names trump or passes
    all_pass: str = "forced"  # name_trump with may_pass: 'forced' (the last must name) | 'redeal'


def phase_seats(who: str, n: int, bidder: int, dealer: int) -> list[int]:
    """The seats a phase's `who` names, in order from the dealer's left (the engine's and the
    compiler's card-count check's one reading of it)."""
    if who == "bidder":
        return [bidder]
    if who == "dealer":
        return [dealer]
    order = [(dealer + i) % n for i in range(1, n + 1)]
    if who == "non_dealers":
        return [s for s in order if s != dealer]
    if who == "non_bidders":
        return [s for s in order if s != bidder]
    return order


@dataclass(frozen=True)
class LeadRule:
    forbid: ExprSpec
    code: str
    message: str


@dataclass(frozen=True)
class PlaySpec:
    leader: str  # 'bidder' | 'left_of_dealer'
    follow: str  # 'suit_or_trump' | 'suit'
    lead_rules: tuple[LeadRule, ...]
    follow_rules: tuple[LeadRule, ...] = ()  # the same shape: a forbidden card, its code and message
    draw: str = "none"  # 'none' | 'winner_first': draws from the stock after each trick


@dataclass(frozen=True)
class PointSpec:
    name: str
    value: ExprSpec
    card: ExprSpec | None
    to: str | None  # 'player' | 'winner' | 'holder' | 'dealer_if_turned', or 'expr': `to_expr` chooses
    most: bool
    tie: str  # 'none' | 'bidder' | 'eldest'
    loc: Loc
    gift: bool = False  # the point the dealer gives the beggar's side instead of running the cards
    to_expr: ExprSpec | None = None  # a `to:` written as a condition (`if winner != holder then winner else nobody`)
    each: ExprSpec | None = None  # a point for every card this holds for (`card.rank == 9 and not card.trump`)
    per_trick: bool = False  # a point for every trick, to its winner

    @property
    def multi(self) -> bool:
        """Whether the point can be scored many times in a hand (per card or per trick)."""
        return self.each is not None or self.per_trick


@dataclass(frozen=True)
class BegSpec:
    """`beg:`: the player left of the dealer stands on the turned-up trump or begs; the dealer then
    gives the beggar's side the gift point or runs the cards (deals `run` more to each and turns
    up again until the suit changes)."""

    run: int
    gift_may_win: bool
    loc: Loc


@dataclass(frozen=True)
class ScoringSpec:
    made: ExprSpec | None  # None only with `bidding: none`
    bidder: ExprSpec | None
    others: ExprSpec
    cap_when: ExprSpec | None
    cap_at: ExprSpec | None


@dataclass(frozen=True)
class EndSpec:
    target: ExprSpec
    win_if: ExprSpec
    tie_break: tuple[str, ...]
    count_order: tuple[str, ...] = ()  # `count_out.order`: point names, counted first in this order
    count_out_when: ExprSpec | None = None  # `count_out.when`: the tie-break applies only when it holds
    count_as_won: bool = False  # `count_out.order: as_won`: in the order the points fell during the hand


@dataclass(frozen=True)
class RuleSpec:
    """A whole validated rule file (after `extends:` is merged)."""

    stem: str
    path: str
    name: str
    description: str
    players: tuple[int, ...]
    teams: ExprSpec | None
    options: tuple[OptionSpec, ...]
    deck: DeckSpec
    trump_order: tuple[tuple[TrumpRef, ...], ...]  # high to low; a tuple of several = equal rank
    equal_trumps: ExprSpec | None
    deal: DealSpec
    bidding: BiddingSpec
    phases: tuple[PhaseSpec, ...]
    trump_named: bool
    play: PlaySpec
    points: tuple[PointSpec, ...]
    scoring: ScoringSpec
    end: EndSpec
    loc: Loc
    extends: tuple[str, ...] = ()  # the parent's stem, its parent's, ... (empty without `extends:`)
    definitions: tuple[tuple[str, str, ExprAst], ...] = ()  # `define:`: (name, text, AST as written)
    # Point names usable as truth values in scoring and end (true for the side that won the point);
    # a point whose name is already a name there (an option, `bid`...) is not among them.
    point_vars: tuple[str, ...] = ()
    beg: BegSpec | None = None
    translations: tuple[tuple[str, LangText], ...] = ()  # (language, its words), as `translations:` gives them
    version: int | None = None  # the file's `version:` (its own, never its parent's)
    language: int = 1  # the file's `language:` (its own, never its parent's; 1 when it names none)
    # What a later language refuses in this file, told as warnings (language.as_warning).
    later: tuple[Diagnostic, ...] = field(default=(), repr=False)
    text: str = field(default="", repr=False)  # the file's own text (a record of a house rule carries it)
    unpinned: tuple[tuple[str, str], ...] = ()  # `extends:` names given without a version, and what they resolved to

    @cached_property
    def sha256(self) -> str:
        """Of the file's own text: with its parents pinned, this names what it plays. Worked out when first
        asked (a record, a table, a pin), not on every `check`: hashlib is 3 ms of a cold start."""
        from smear_dsl.language.paths import text_sha256
        return text_sha256(self.text)

    @property
    def ref(self) -> str:
        """The exact rules a game is played under: `name@2` (the stem alone for a file without a version)."""
        base = self.stem.partition("@")[0]
        return f"{base}@{self.version}" if self.version is not None else self.stem

    def words(self, lang: str) -> LangText | None:
        """The rule file's own words in `lang`, if it gives any."""
        return dict(self.translations).get(lang)

    def title(self, lang: str = "en") -> str:
        """The variant's name as players of `lang` read it (the file's own name where it gives none)."""
        w = self.words(lang)
        return w.name if w and w.name else self.name

    def about(self, lang: str = "en") -> str:
        w = self.words(lang)
        return w.description if w and w.description else self.description

    def option_text(self, name: str, lang: str = "en") -> str:
        """What option `name` does, in `lang` where the file says it."""
        w = self.words(lang)
        o = self.option(name)
        return (w.options.get(name) if w else None) or (o.description if o else "")

    def option(self, name: str) -> OptionSpec | None:
        for o in self.options:
            if o.name == name:
                return o
        return None
