"""CompiledRules: one table's rules as frozen parts the engine reads (deck, deal, bidding, play, points,
scoring, end), each built once by the compiler; a change to one stage touches one part.

The parts hold flat tables and closures, so play never walks YAML or syntax trees; the few queries
players need (which cards are trumps, what suit a card follows, how strong it is) are methods of
CompiledRules, so bots do not index the tables by their layout.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import InitVar, dataclass, field
from functools import lru_cache
from typing import Any

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.compile import pointkinds
from smear_dsl.compile.shuffle import ShufflePlan, shuffle_plan
from smear_dsl.errors import Diagnostic
from smear_dsl.expr.emit import Tables
from smear_dsl.language.spec import RuleSpec

Fn = Callable[[dict[str, Any]], Any]
N_TABLE = 64  # card ids are below this

# How scoring decides a point (the first field of each points.plan entry): compile/pointkinds.py declares
# every kind, under these names here.
POINT_MOST, POINT_BY_TRUMP, POINT_SCAN_PLAYED, POINT_SCAN_DEALT, POINT_EXPR = (
    pointkinds.MOST, pointkinds.BY_TRUMP, pointkinds.SCAN_PLAYED, pointkinds.SCAN_DEALT, pointkinds.EXPR)
POINT_EACH, POINT_TRICKS = pointkinds.EACH, pointkinds.TRICKS  # scored many times a hand: per card, per trick
POINT_GIFT, POINT_TURNED = pointkinds.GIFT, pointkinds.TURNED  # settled before the play (`kind >= POINT_GIFT`)
# Who takes a tie for the Game point (the last field of each points.plan entry).
TIE_NONE, TIE_BIDDER, TIE_ELDEST = 0, 1, 2


def _derive(part: Any, **values: Any) -> None:
    """Set a frozen part's derived fields, once, while it is being built."""
    for name, value in values.items():
        object.__setattr__(part, name, value)


@dataclass(frozen=True)
class CompiledStep:
    """A phase between the bidding and the play (discard, take, refill, name trump), for this table."""

    kind: str
    who: str
    count: Fn | None
    min: Fn | None
    max: Fn | None
    allowed: Fn | None
    valid_if: Fn | None
    credit: str
    to: Fn | None
    # (count, count) or (min, max) when they are folded constants for this table: no env to build.
    fixed_range: tuple[int, int] | None = None
    face_up: bool = False  # a discard everyone sees
    kinds: tuple[Fn, ...] = ()  # discard: the hand's cards of each kind valid_if counts by (PhaseSpec.kinds)
    may_pass: bool = False  # name_trump: each in turn names or passes
    all_pass: str = "forced"  # name_trump: when all the others passed, the last must name ('forced') or the hand is dealt again
    allowed_cards: Fn | None = None  # discard: `allowed` as the set of cards it lets go (ExprSpec.cards), if it has one
    # discard: the names valid_if reads besides hand, discard and kept when it reads those only by the
    # counts per kind (expr/counted.py's plan_reads), else None; with them, plans_memo keeps which plans
    # pass by those names and counts, as hands that differ card by card share them (discards.py).
    plan_reads: tuple[str, ...] | None = None
    plans_memo: dict[tuple[Any, ...], list[tuple[int, ...]]] = field(default_factory=dict, compare=False, repr=False)
    # A discard of any cards of the hand, as many as a range fixed for the table (a widow): no rule on
    # the cards, so nothing to evaluate per card or per set. Set once (every discard asks).
    any_cards: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "any_cards", self.fixed_range is not None and self.allowed is None
                           and self.valid_if is None)

    @property
    def span(self) -> tuple[int, int]:
        """fixed_range where the step has one: a discard of any cards (any_cards) always does."""
        fr = self.fixed_range
        assert fr is not None, "a step without a fixed range"
        return fr

    @property
    def exact(self) -> int | None:
        """The count every seat takes, discards or refills to, when it is fixed for the table (else None)."""
        if self.kind == "refill":
            return getattr(self.to, "const", None)
        fr = self.fixed_range
        return fr[0] if fr and fr[0] == fr[1] else None


@dataclass(frozen=True)
class CompiledPoint:
    """One point of the hand (High, Jack, Game, ...) for this table."""

    name: str
    value: int
    card: Fn | None
    to: str | None
    most: bool
    tie: str
    # The card for each trump suit when the selector reads nothing but `trump` and table
    # options (`A of trump`, `jick`, ...): scoring then looks it up instead of evaluating.
    by_trump: tuple[int, ...] | None = None
    # For `highest(S where card.trump)` / `lowest(...)` with S one of played, held, dealt: S and
    # the trumps in pick order per trump (see trump_runs), so scoring scans S without an env.
    scan: tuple[str, tuple[tuple[tuple[int, int], ...], ...]] | None = None
    gift: bool = False  # the dealer's gift to the beggar's side (no card)
    to_fn: Fn | None = None  # `to:` as a condition: env (sides, the card, what took it) -> side, -1 for nobody
    each: tuple[int, ...] | None = None  # a point per card: the cards it scores, per trump
    per_trick: bool = False  # a point per trick, to its winner


@dataclass(frozen=True)
class LeadCheck:
    """A compiled lead rule; `trick` and `needs` are guards found in its top-level `and`s, so
    the engine skips it without evaluating when it cannot apply (e.g. after the first trick)."""

    forbid: Fn
    code: str
    message: str
    trick: int | None = None
    needs: tuple[str, ...] = ()
    by_suit: bool = False  # reads the lead only as `lead.suit`: one test per suit decides for all its cards
    # An `any(discarded where card.suit == lead.suit)` conjunct: the rule cannot fire for a lead of a
    # suit nothing was discarded from.
    needs_discard_of_lead_suit: bool = False
    forbid_cards: Fn | None = None  # a follow rule: the cards it forbids, as a set (ExprSpec.cards), if it has one
    # A follow rule's parts that read only the trick (ExprSpec.guard), and which of the trick's names
    # they read: while the guard is false the rule forbids nothing.
    guard: Fn | None = None
    guard_reads: tuple[str, ...] = ()


@lru_cache(maxsize=64)
def value_chunks(values: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(by_rank, by_jokers): the card-value total of every 13-bit suit chunk (values go by rank) and
    of every set of jokers, so a Game count is four lookups and one more for jokers."""
    rank_value = [max(values[s * 13 + r] for s in range(4)) for r in range(13)]  # removed cards are worth 0
    by_rank = [0] * (1 << 13)
    for x in range(1, 1 << 13):
        low = x & -x
        by_rank[x] = by_rank[x ^ low] + rank_value[low.bit_length() - 1]
    jokers = values[C.JOKER_BASE:C.JOKER_BASE + C.MAX_JOKERS]
    by_jokers = [0] * (1 << len(jokers))
    for x in range(1, len(by_jokers)):
        low = x & -x
        by_jokers[x] = by_jokers[x ^ low] + jokers[low.bit_length() - 1]
    return tuple(by_rank), tuple(by_jokers)


@dataclass(frozen=True, eq=False)
class DeckRules:
    """The cards and what each is under each trump. Tables indexed [trump + 1] (0: no trump yet),
    except win_key, indexed [trump * 4 + led suit]."""

    cards: tuple[int, ...]  # the deck's card ids: suits high to low, then jokers
    mask: int
    jokers: tuple[str, ...]  # the jokers' names
    value: tuple[int, ...] = field(repr=False)  # card -> its value for Game
    eff_suit: tuple[tuple[int, ...], ...] = field(repr=False)  # [trump + 1][card]: the suit it follows
    suit_mask: tuple[tuple[int, ...], ...] = field(repr=False)  # [trump + 1][suit]: the cards that follow it
    trump_mask: tuple[int, ...] = field(repr=False)  # [trump + 1]
    win_key: tuple[tuple[int, ...], ...] = field(repr=False)  # [trump * 4 + led][card]: its strength in the trick
    name_of: dict[int, str] = field(repr=False)
    id_of: dict[str, int] = field(repr=False)
    value_by_rank: tuple[int, ...] = field(init=False, repr=False)  # Game value of each 13-bit suit chunk
    value_by_jokers: tuple[int, ...] = field(init=False, repr=False)  # ... and of each set of jokers (bits 52 up)

    def __post_init__(self) -> None:
        by_rank, by_jokers = value_chunks(self.value)
        _derive(self, value_by_rank=by_rank, value_by_jokers=by_jokers)


@dataclass(frozen=True, eq=False)
class DealRules:
    """How the cards go out: packets clockwise from the dealer's left, the stock, a turned-up trump."""

    hand_size: int
    packets: tuple[int, ...]
    rest: str
    turn_up: bool  # the stock's top card is turned up after the deal and its suit is trump
    stock_face_up: bool  # everyone sees the stock's top card, so every draw is public
    redeal_if: Fn | None
    draws_stock: bool  # a take or refill phase, the begging or the play takes cards from the stock
    players: InitVar[int]
    deck: InitVar[tuple[int, ...]]
    shuffle_plan: ShufflePlan = field(init=False, repr=False)
    dealt_cards: int = field(init=False)  # how many cards go to the hands; the rest is the stock
    takers: tuple[tuple[Callable[..., Any], ...], ...] = field(init=False, repr=False)  # [dealer][seat]: gathers the seat's cards

    def __post_init__(self, players: int, deck: tuple[int, ...]) -> None:
        # Each seat's positions in the shuffled deck, packet by packet clockwise from the dealer's left.
        takers = []
        for dealer in range(players):
            where: list[list[int]] = [[] for _ in range(players)]
            pos = 0
            for size in self.packets:
                for i in range(1, players + 1):
                    where[(dealer + i) % players] += range(pos, pos + size)
                    pos += size
            takers.append(tuple(operator.itemgetter(*w) if len(w) > 1 else (lambda o, i=w[0]: (o[i],)) for w in where))
        _derive(self, shuffle_plan=shuffle_plan(deck), dealt_cards=sum(self.packets) * players, takers=tuple(takers))


@dataclass(frozen=True, eq=False)
class BiddingRules:
    """The bidding (or its absence) and the begging that may replace it."""

    none: bool  # `bidding: none`: each hand goes from the deal to the phases and play
    min: int
    max: int
    ends_at: int
    rounds: str
    may_match: Fn | None
    all_pass: str
    set_back: int
    beg_run: int = 0  # `beg:` (0: no begging): cards dealt to each player when the dealer runs the cards
    gift_may_win: bool = False  # the dealer may give a gift that takes the beggar's side to the target
    open_bids: tuple[tuple[int, ...], ...] | None = field(init=False, repr=False)  # [high bid]: the legal bids, when only it matters

    def __post_init__(self) -> None:
        # With no matching and no forced dealer, the legal bids follow from the high bid alone (tabled for small ranges).
        open_bids = None
        if self.may_match is None and self.all_pass != "dealer_bids" and self.max <= 64:
            open_bids = tuple((M.PASS,) + tuple(range(M.BID_BASE + max(self.min, high + 1), M.BID_BASE + self.max + 1))
                              for high in range(self.max + 1))
        _derive(self, open_bids=open_bids)


@dataclass(frozen=True, eq=False)
class PlayRules:
    """The phases after the bidding and the tricks: who leads, what may be led and played, who wins."""

    steps: tuple[CompiledStep, ...]
    trump_named: bool
    leader: str
    follow_suit_only: bool
    lead_checks: tuple[LeadCheck, ...]
    follow_checks: tuple[LeadCheck, ...]  # play.follow_rules (only `forbid`, `code`, `message` are used)
    equal_last: bool  # of equal cards in a trick, the last played wins
    draw_in_play: bool  # after each trick each player draws from the stock, the winner first
    # False when the compiler proved every hand starts the play with as many cards (counts fixed for the
    # table); True when a count depends on the hand, so the engine must watch for the first empty hand.
    uneven_hands: bool
    deck: InitVar[DeckRules]
    # True when some lead rule can apply after the first trick (the engine skips them otherwise).
    lead_checks_later: bool = field(init=False)
    # [trump][card]: what leading that card fixes for the trick (led suit, cards of that suit, cards
    # that follow, trick strength lookup), so a lead is one table read.
    lead_info: tuple[tuple[tuple[int, int, int, Any], ...], ...] = field(init=False, repr=False)
    trump_in_turn: bool = field(init=False)  # a name_trump phase where each names trump or passes in turn
    # The follow rules as the sets of cards they forbid (each one's forbid_cards), when every rule has
    # one (None: some rule is judged card by card).
    follow_vectors: tuple[Fn, ...] | None = field(init=False, repr=False)
    # When every follow rule is a set and has a guard: (the guards, whether they read `trick`, `is_bidder`,
    # `bid`, and the answers so far by what they read): a follow whose guards are all false is the
    # following rule's cards, found without building the rules' names (Play._follow_mask).
    follow_guard: tuple[tuple[Fn, ...], bool, bool, bool, dict[tuple[Any, ...], bool]] | None = field(init=False, repr=False)
    # Hands may start the play uneven and nobody draws: the hand ends after the trick where the first runs
    # out (Game.apply looks, trick by trick; with draws ExtrasGame looks after the draw).
    watch_empty: bool = field(init=False)

    def __post_init__(self, deck: DeckRules) -> None:
        _derive(self, trump_in_turn=any(st.kind == "name_trump" and st.may_pass for st in self.steps),
                follow_vectors=tuple(chk.forbid_cards for chk in self.follow_checks)
                if all(chk.forbid_cards is not None for chk in self.follow_checks) else None,
                watch_empty=self.uneven_hands and not self.draw_in_play)
        guarded = self.follow_checks and self.follow_vectors is not None and \
            all(chk.guard is not None for chk in self.follow_checks)
        reads = {name for chk in self.follow_checks for name in chk.guard_reads}
        _derive(self, follow_guard=(tuple(chk.guard for chk in self.follow_checks), "trick" in reads,
                                    "is_bidder" in reads, "bid" in reads, {}) if guarded else None)
        info = []
        for t in range(4):
            row = []
            for c in range(N_TABLE):
                led = deck.eff_suit[t + 1][c]
                led_mask = deck.suit_mask[t + 1][led] if led >= 0 else 0
                follow = led_mask if self.follow_suit_only else led_mask | deck.trump_mask[t + 1]
                row.append((led, led_mask, follow, deck.win_key[t * 4 + led].__getitem__ if led >= 0 else None))
            info.append(tuple(row))
        _derive(self, lead_info=tuple(info), lead_checks_later=any(chk.trick != 1 for chk in self.lead_checks))


@dataclass(frozen=True, eq=False)
class PointRules:
    """The points of a hand and how scoring decides each."""

    entries: tuple[CompiledPoint, ...]
    # (point index, name) of the points the scoring and end formulas read by name (`jack`: won the Jack).
    reads: tuple[tuple[int, str], ...]
    credits_discards: bool  # some discard joins a side's Game count
    names: tuple[str, ...] = field(init=False)
    values: tuple[int, ...] = field(init=False)
    # Per point: (POINT_* kind, card closure, by_trump or scan runs or each masks, TO_* for who gets it,
    # TIE_* for the Game point, the `to:` condition's closure or None).
    plan: tuple[tuple[int, Fn | None, Any, int, int, Fn | None], ...] = field(init=False, repr=False)
    multi: tuple[bool, ...] = field(init=False)  # per point: scored per card or per trick (a value per side)
    pegged: bool = field(init=False)  # some point is scored per card or per trick: views show them as they fall
    plain_plan: tuple[tuple[Any, ...], ...] | None = field(init=False, repr=False)
    gift_value: int = field(init=False)  # the worth of the gift point (0 without begging)
    pre_points: bool = field(init=False)  # some point is settled before the play (a gift, a turned-up card)
    # (kind, card closure, by_trump, value) of each point settled before the play, in rule order
    pre_plan: tuple[tuple[int, Fn | None, Any, int], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        plan = tuple(_point_plan(p) for p in self.entries)
        pre_plan = tuple((kind, card, extra, p.value) for (kind, card, extra, *_r), p in zip(plan, self.entries)
                         if kind >= POINT_GIFT)
        _derive(self, names=tuple(p.name for p in self.entries), values=tuple(p.value for p in self.entries),
                plan=plan, gift_value=sum(p.value for p in self.entries if p.gift),
                pre_plan=pre_plan, pre_points=bool(pre_plan),
                multi=tuple(pointkinds.KINDS[kind].per is not None for kind, *_rest in plan))
        _derive(self, pegged=any(self.multi))
        # Scoring's short path, for points that are each one card's, won by one side (by a rule word or
        # a `to:` condition): the plan itself; None when a point is scored per card or per trick.
        plain = None if self.pegged else plan
        _derive(self, plain_plan=plain)


TO_PLAYER, TO_WINNER, TO_EXPR = 0, 1, 2  # who gets a card's point: who played (or held) it, the trick's winner, a condition


def _point_plan(p: CompiledPoint) -> tuple[int, Fn | None, Any, int, int, Fn | None]:
    """How scoring decides the point `p` (one points.plan entry): its kind (pointkinds.kind_of) and what
    that kind reads (the cards per trump, the scan's runs, the per-card masks)."""
    kind = pointkinds.kind_of(p)
    extra: Any = None
    if kind == POINT_EACH:
        extra = p.each
    elif kind in (POINT_TURNED, POINT_BY_TRUMP):
        extra = p.by_trump
    elif kind in (POINT_SCAN_DEALT, POINT_SCAN_PLAYED):
        assert p.scan is not None
        extra = p.scan[1]
    to = TO_WINNER if p.to == "winner" or p.per_trick else TO_EXPR if p.to_fn is not None else TO_PLAYER
    return kind, p.card, extra, to, ("none", "bidder", "eldest").index(p.tie), p.to_fn


SCORE_VARS = ("tricks", "dealer", "previous", "delta", "total_tricks", "bidder_tricks")


@dataclass(frozen=True, eq=False)
class ScoringRules:
    """What each side scores for a hand: the contract, the deltas, the cap."""

    made: Fn | None  # (None with `bidding: none`: no contract, no bidder)
    bidder_delta: Fn | None
    others_delta: Fn
    cap_when: Fn | None
    cap_at: Fn | None
    # Names the scoring and end formulas read, of those scoring computes per hand or per side: it skips the others.
    reads: frozenset[str] = frozenset(SCORE_VARS)
    points_only: bool = False  # `others: points`: a side not bidding scores its points and nothing else
    flags: tuple[bool, bool, bool, bool] = field(init=False)  # tricks, dealer, previous, delta: read or not

    def __post_init__(self) -> None:
        _derive(self, flags=tuple(v in self.reads for v in ("tricks", "dealer", "previous", "delta")))


@dataclass(frozen=True, eq=False)
class EndRules:
    """When the game ends and who wins it."""

    target: int
    win_if: Fn
    tie_break: tuple[str, ...]
    # `tie_break: [count_out]`: the point indices in the order they are counted (None: not counted out here).
    count_plan: tuple[int, ...] | None = None
    count_as_won: bool = False  # count out in the order the points fell (count_plan orders those that fell together)
    scores_only: bool = False  # win_if reads only `score` and `target`


@dataclass(frozen=True, eq=False, repr=False)
class CompiledRules:
    """Everything one table needs, fixed for its seat count and options: the parts, and who plays with whom."""

    spec: RuleSpec
    players: int
    options: dict[str, Any]
    n_sides: int
    side_of: tuple[int, ...]
    tables: Tables  # what the rules' expressions read at run time
    deck: DeckRules
    deal: DealRules
    bidding: BiddingRules
    play: PlayRules
    points: PointRules
    scoring: ScoringRules
    end: EndRules
    # What a later language version than the file's refuses in this setup: warnings here (langversion.py).
    later: tuple[Diagnostic, ...] = ()

    def __repr__(self) -> str:
        return f"CompiledRules({self.ref}, {self.players} players, options={self.options!r})"

    @property
    def stem(self) -> str:
        return self.spec.stem

    @property
    def ref(self) -> str:
        """The exact rules these are (`name@2`): what records, views and reports name."""
        return self.spec.ref

    def split_deal(self, order: Sequence[int], dealer: int) -> tuple[list[list[int]], list[int]]:
        """A shuffled deck (card ids in order) dealt in packets from `dealer`'s left: (hands, stock)."""
        deal = self.deal
        return [list(take(order)) for take in deal.takers[dealer]], list(order[deal.dealt_cards:])

    # ---- queries for players (bots and tools read the tables through these, not by their layout)
    def trumps(self, trump: int) -> int:
        """The mask of cards that are trumps when `trump` (a suit index; -1: none yet) is trump."""
        return self.deck.trump_mask[trump + 1]

    def suit_of(self, trump: int, card: int) -> int:
        """The suit `card` follows when `trump` is trump (the jick, a joker, another card the rules make a trump: trump's)."""
        return self.deck.eff_suit[trump + 1][card]

    def rank_order(self, trump: int) -> tuple[int, ...]:
        """card -> its rank within its suit as when `trump` is trump (higher wins); trumps above all."""
        return self.tables.order_key[trump + 1]

    def trick_strength(self, trump: int, led: int) -> tuple[int, ...]:
        """card -> its strength in a trick led in suit `led` with `trump` trump: the highest takes it."""
        return self.deck.win_key[trump * 4 + led]

    def card_name(self, c: int) -> str:
        return self.deck.name_of[c]

    def parse_card(self, name: Any) -> int | None:
        """Card id for a name of this deck's notation (None if it is not a card name at all)."""
        if not isinstance(name, str):
            return None
        if name in self.deck.id_of:
            return self.deck.id_of[name]
        return C.parse_suited(name)
