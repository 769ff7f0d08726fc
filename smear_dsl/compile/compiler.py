"""RuleSpec + seat count + table options -> CompiledRules: flat tables and closures.

Everything the engine needs while playing is precomputed here (card encoding, the
effective suit and trick strength of every card for every trump suit, point selectors,
scoring formulas), so play never walks YAML or syntax trees.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.errors import Diagnostic, OptionError, RuleError, clip
from smear_dsl.expr import ast as A
from smear_dsl.expr.emit import Tables, emit, trump_runs
from smear_dsl.compile.shuffle import ShufflePlan, shuffle_plan
from smear_dsl.language.spec import ExprSpec, Loc, RuleSpec, phase_seats

Fn = Callable[[dict], Any]
N_TABLE = 64  # card ids are below this


@dataclass(frozen=True)
class CompiledStep:
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

    @property
    def any_cards(self) -> bool:
        """A discard of any cards of the hand, as many as a range fixed for the table (a widow): no
        rule on the cards, so nothing to evaluate per card or per set."""
        return self.fixed_range is not None and self.allowed is None and self.valid_if is None

    @property
    def exact(self) -> int | None:
        """The count every seat takes, discards or refills to, when it is fixed for the table (else None)."""
        if self.kind == "refill":
            return getattr(self.to, "const", None)
        fr = self.fixed_range
        return fr[0] if fr and fr[0] == fr[1] else None


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


def _never_acts(step: CompiledStep) -> bool:
    """A take/discard whose count (or maximum) is a folded constant of at most 0."""
    if step.kind not in ("take", "discard"):
        return False
    fixed = step.count if step.count is not None else step.max
    return fixed is not None and isinstance(getattr(fixed, "const", None), int) and fixed.const <= 0


@dataclass(frozen=True)
class CompiledPoint:
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


# How scoring decides a point (the first field of each point_plan entry): the most Game count, a
# card looked up per trump, a scan of the cards played (or dealt) for a trump, or the card closure;
# and the points settled before the play: the dealer's gift, and a card turned up for trump.
POINT_MOST, POINT_BY_TRUMP, POINT_SCAN_PLAYED, POINT_SCAN_DEALT, POINT_EXPR = 0, 1, 2, 3, 4
POINT_GIFT, POINT_TURNED = 5, 6
# Who takes a tie for the Game point (the last field of each point_plan entry).
TIE_NONE, TIE_BIDDER, TIE_ELDEST = 0, 1, 2


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


@dataclass
class CompiledRules:
    """Everything one table needs: fixed for its seat count and options."""

    spec: RuleSpec
    players: int
    options: dict[str, Any]
    n_sides: int
    side_of: tuple[int, ...]
    deck: tuple[int, ...]
    deck_mask: int
    jokers: tuple[str, ...]
    hand_size: int
    packets: tuple[int, ...]
    rest: str
    eff_suit: tuple[tuple[int, ...], ...]  # [trump + 1][card]
    suit_mask: tuple[tuple[int, ...], ...]  # [trump + 1][suit]
    trump_mask: tuple[int, ...]  # [trump + 1]
    win_key: tuple[tuple[int, ...], ...]  # [trump * 4 + led][card]
    equal_last: bool
    value: tuple[int, ...]
    tables: Tables
    bid_min: int
    bid_max: int
    ends_at: int
    rounds: str
    may_match: Fn | None
    all_pass: str
    set_back: int
    steps: tuple[CompiledStep, ...]
    trump_named: bool
    leader: str
    follow_suit_only: bool
    lead_checks: tuple[LeadCheck, ...]
    follow_checks: tuple[LeadCheck, ...]  # play.follow_rules (only `forbid`, `code`, `message` are used)
    points: tuple[CompiledPoint, ...]
    made: Fn
    bidder_delta: Fn
    others_delta: Fn
    cap_when: Fn | None
    cap_at: Fn | None
    target: int
    win_if: Fn
    tie_break: tuple[str, ...]
    redeal_if: Fn | None
    name_of: dict[int, str] = field(default_factory=dict)
    id_of: dict[str, int] = field(default_factory=dict)
    # False when the compiler proved every hand starts the play with as many cards (counts fixed for the
    # table); True when a count depends on the hand, so the engine must watch for the first empty hand.
    uneven_hands: bool = False
    # `tie_break: [count_out]`: the point indices in the order they are counted (None: not counted out here).
    count_plan: tuple[int, ...] | None = None
    no_bidding: bool = False  # `bidding: none`: each hand goes from the deal to the phases and play
    # (point index, name) of the points the scoring and end formulas read by name (`jack`: won the Jack).
    point_reads: tuple[tuple[int, str], ...] = ()
    turn_up: bool = False  # the stock's top card is turned up after the deal and its suit is trump
    stock_face_up: bool = False  # everyone sees the stock's top card, so every draw is public
    draw_in_play: bool = False  # after each trick each player draws from the stock, the winner first
    beg_run: int = 0  # `beg:` (0: no begging): cards dealt to each player when the dealer runs the cards
    gift_may_win: bool = False  # the dealer may give a gift that takes the beggar's side to the target
    # True when some lead rule can apply after the first trick (the engine skips them otherwise).
    lead_checks_later: bool = field(init=False)
    draws_stock: bool = field(init=False)  # a take or refill phase takes cards from the stock
    point_names: tuple[str, ...] = field(init=False)
    point_values: tuple[int, ...] = field(init=False)
    # Per point: (POINT_* kind, card closure, by_trump or scan runs, to winner, TIE_* for the Game point).
    point_plan: tuple[tuple[int, Fn | None, Any, bool, int], ...] = field(init=False)
    gift_value: int = field(init=False)  # the worth of the gift point (0 without begging)
    pre_points: bool = field(init=False)  # some point is settled before the play (a gift, a turned-up card)
    credits_discards: bool = field(init=False)  # some discard joins a side's Game count
    open_bids: tuple[tuple[int, ...], ...] | None = field(init=False)  # [high bid]: the legal bids, when only it matters
    value_by_rank: tuple[int, ...] = field(init=False)  # Game value of each 13-bit suit chunk
    value_by_jokers: tuple[int, ...] = field(init=False)  # ... and of each set of jokers (bits 52 up)
    lead_info: tuple[tuple[tuple[int, int, int, Any], ...], ...] = field(init=False)
    # Names the scoring and end formulas read, of those scoring computes per hand or per side: it skips the others.
    score_reads: frozenset[str] = frozenset({"tricks", "dealer", "previous", "delta", "total_tricks", "bidder_tricks"})
    score_flags: tuple[bool, bool, bool, bool] = field(init=False)  # tricks, dealer, previous, delta: read or not

    shuffle_plan: ShufflePlan = field(init=False)
    dealt_cards: int = field(init=False)  # how many cards go to the hands; the rest is the stock
    deal_takers: tuple[tuple[Callable, ...], ...] = field(init=False)  # [dealer][seat]: gathers the seat's cards

    def __post_init__(self) -> None:
        self.point_names = tuple(p.name for p in self.points)
        self.point_values = tuple(p.value for p in self.points)
        self.score_flags = tuple(v in self.score_reads for v in ("tricks", "dealer", "previous", "delta"))
        plan = []
        for p in self.points:
            if p.most:
                kind, extra = POINT_MOST, None
            elif p.gift:
                kind, extra = POINT_GIFT, None
            elif p.to == "dealer_if_turned":
                kind, extra = POINT_TURNED, p.by_trump
            elif p.by_trump is not None:
                kind, extra = POINT_BY_TRUMP, p.by_trump
            elif p.scan is not None:
                kind, extra = (POINT_SCAN_DEALT if p.scan[0] == "dealt" else POINT_SCAN_PLAYED), p.scan[1]
            else:
                kind, extra = POINT_EXPR, None
            plan.append((kind, p.card, extra, p.to == "winner", ("none", "bidder", "eldest").index(p.tie)))
        self.point_plan = tuple(plan)
        self.gift_value = sum(p.value for p in self.points if p.gift)
        self.pre_points = any(kind >= POINT_GIFT for kind, *_rest in plan)
        self.credits_discards = any(st.kind == "discard" and st.credit != "nobody" for st in self.steps)
        # With no matching and no forced dealer, the legal bids follow from the high bid alone (tabled for small ranges).
        self.open_bids = None
        if self.may_match is None and self.all_pass != "dealer_bids" and self.bid_max <= 64:
            self.open_bids = tuple((M.PASS,) + tuple(range(M.BID_BASE + max(self.bid_min, high + 1), M.BID_BASE + self.bid_max + 1))
                                   for high in range(self.bid_max + 1))
        self.value_by_rank, self.value_by_jokers = value_chunks(self.value)
        # lead_info[trump][card]: what leading that card fixes for the trick (led suit, cards of that
        # suit, cards that follow, trick strength lookup), so a lead is one table read.
        info = []
        for t in range(4):
            row = []
            for c in range(N_TABLE):
                led = self.eff_suit[t + 1][c]
                led_mask = self.suit_mask[t + 1][led] if led >= 0 else 0
                follow = led_mask if self.follow_suit_only else led_mask | self.trump_mask[t + 1]
                row.append((led, led_mask, follow, self.win_key[t * 4 + led].__getitem__ if led >= 0 else None))
            info.append(tuple(row))
        self.lead_info = tuple(info)
        self.shuffle_plan = shuffle_plan(self.deck)
        self.lead_checks_later = any(chk.trick != 1 for chk in self.lead_checks)
        self.draws_stock = self.draw_in_play or bool(self.beg_run) or any(st.kind in ("take", "refill") for st in self.steps)
        # Each seat's positions in the shuffled deck, packet by packet clockwise from the dealer's left.
        self.dealt_cards = sum(self.packets) * self.players
        takers = []
        for dealer in range(self.players):
            where: list[list[int]] = [[] for _ in range(self.players)]
            pos = 0
            for size in self.packets:
                for i in range(1, self.players + 1):
                    where[(dealer + i) % self.players] += range(pos, pos + size)
                    pos += size
            takers.append(tuple(operator.itemgetter(*w) if len(w) > 1 else (lambda o, i=w[0]: (o[i],)) for w in where))
        self.deal_takers = tuple(takers)

    @property
    def stem(self) -> str:
        return self.spec.stem

    @property
    def ref(self) -> str:
        """The exact rules these are (`name@2`): what records, views and reports name."""
        return self.spec.ref

    def split_deal(self, order, dealer: int) -> tuple[list[list[int]], list[int]]:
        """A shuffled deck (card ids in order) dealt in packets from `dealer`'s left: (hands, stock)."""
        return [list(take(order)) for take in self.deal_takers[dealer]], list(order[self.dealt_cards:])

    # ---- queries for players (bots and tools read the tables through these, not by their layout)
    def trumps(self, trump: int) -> int:
        """The mask of cards that are trumps when `trump` (a suit index; -1: none yet) is trump."""
        return self.trump_mask[trump + 1]

    def suit_of(self, trump: int, card: int) -> int:
        """The suit `card` follows when `trump` is trump (the jick, a joker, another card the rules make a trump: trump's)."""
        return self.eff_suit[trump + 1][card]

    def rank_order(self, trump: int) -> tuple[int, ...]:
        """card -> its rank within its suit as when `trump` is trump (higher wins); trumps above all."""
        return self.tables.order_key[trump + 1]

    def trick_strength(self, trump: int, led: int) -> tuple[int, ...]:
        """card -> its strength in a trick led in suit `led` with `trump` trump: the highest takes it."""
        return self.win_key[trump * 4 + led]

    def card_name(self, c: int) -> str:
        return self.name_of[c]

    def parse_card(self, name: Any) -> int | None:
        """Card id for a name of this deck's notation (None if it is not a card name at all)."""
        if not isinstance(name, str):
            return None
        if name in self.id_of:
            return self.id_of[name]
        cid = C.parse_suited(name)
        return cid


def resolve_options(spec: RuleSpec, given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with the given options; raises OptionError for unknown or bad ones."""
    out = {o.name: o.default for o in spec.options}
    for k, v in (given or {}).items():
        o = spec.option(k)
        if o is None:
            names = ", ".join(x.name for x in spec.options) or "none"
            raise OptionError(f"unknown option {clip(k)} for {spec.stem} (options: {names})")
        try:
            out[k] = o.parse(v)
        except ValueError as e:
            raise OptionError(str(e)) from None
    return out


def compile_rules(spec: RuleSpec, players: int | None = None, options: dict[str, Any] | None = None) -> CompiledRules:
    """Compile a spec for one table; raises OptionError for a bad table setup, RuleError for impossible rules."""
    if players is None:
        players = spec.players[0]
    if players not in spec.players:
        raise OptionError(f"{spec.stem} is for {', '.join(map(str, spec.players))} players, not {players}")
    opts = resolve_options(spec, options)
    static = {"players": players, **opts}
    return _Compiler(spec, players, opts, static).run()


class _Compiler:
    def __init__(self, spec: RuleSpec, players: int, opts: dict[str, Any], static: dict[str, Any]):
        self.spec, self.players, self.opts, self.static = spec, players, opts, static
        self.diags: list[Diagnostic] = []
        self.uneven = False  # set by steps(): whether hands may start the play with different sizes
        self.stock_at_play: set[int] = set()  # set by card_counts: the stock's size when play begins, per bidder

    def fail(self, loc: Loc, message: str, hint: str | None = None) -> None:
        self.diags.append(loc.diag(message, hint))

    def static_int(self, e: ExprSpec | None, tables: Tables, default: int | None = None) -> int | None:
        if e is None:
            return default
        return int(emit(e.checked, tables)({}))

    def fn(self, e: ExprSpec | None, tables: Tables) -> Fn | None:
        return None if e is None else emit(e.checked, tables)

    def run(self) -> CompiledRules:
        """Every table the engine reads, in the order they depend on each other; RuleError lists
        every impossible setting found along the way."""
        spec, n = self.spec, self.players
        deck, values = self.deck()
        deck_mask = C.mask_of(deck)
        eff_suit, suit_mask, trump_mask, order_key, win_key = self.card_orders(deck, deck_mask)
        suit_masks = tuple(tuple(C.mask_of(c for c in range(N_TABLE) if eff_suit[t][c] == s) for s in range(-1, 4))
                           for t in range(5))
        tables = Tables(eff_suit, trump_mask, order_key, tuple(values), self.static, suit_masks)
        n_sides, side_of = self.sides(tables)
        hand_size, packets = self.deal(tables, len(deck))
        bmin, bmax, ends_at = self.bidding(tables)
        equal_last = self.equal_last(tables)
        steps = self.steps(tables, hand_size, len(deck) - hand_size * n)
        points = self.points(tables)
        self.begging(n_sides, len(deck) - hand_size * n)
        target = self.static_int(spec.end.target, tables)
        if self.diags:
            raise RuleError(self.diags)
        jokers = spec.deck.jokers
        name_of = {c: C.suited_name(c) for c in deck if c < C.N_SUITED}
        name_of.update({C.JOKER_BASE + j: name for j, name in enumerate(jokers)})
        id_of = {v: k for k, v in name_of.items()}
        sc = spec.scoring
        tie_break, count_plan = self.count_out(tables)
        formulas = [e for e in (sc.made, sc.bidder, sc.others, sc.cap_when, sc.cap_at, spec.end.win_if) if e is not None]
        return CompiledRules(
            spec=spec, players=n, options=dict(self.opts), n_sides=n_sides, side_of=side_of, deck=tuple(deck),
            deck_mask=deck_mask, jokers=jokers, hand_size=hand_size, packets=tuple(packets), rest=spec.deal.rest,
            eff_suit=eff_suit, suit_mask=suit_mask, trump_mask=trump_mask,
            win_key=win_key, equal_last=equal_last, value=tuple(values), tables=tables,
            bid_min=bmin, bid_max=bmax, ends_at=ends_at, rounds=spec.bidding.rounds,
            may_match=self.fn(spec.bidding.may_match, tables), all_pass=spec.bidding.all_pass,
            set_back=self.static_int(spec.bidding.set_back, tables, 0), steps=tuple(steps),
            trump_named=spec.trump_named, leader=spec.play.leader, follow_suit_only=spec.play.follow == "suit",
            lead_checks=tuple(LeadCheck(emit(r.forbid.checked, tables), r.code, r.message, *_guards(r.forbid.ast))
                              for r in spec.play.lead_rules),
            follow_checks=tuple(LeadCheck(emit(r.forbid.checked, tables), r.code, r.message)
                                for r in spec.play.follow_rules),
            points=tuple(points), made=self.fn(sc.made, tables), bidder_delta=self.fn(sc.bidder, tables),
            others_delta=self.fn(sc.others, tables), cap_when=_unless_never(self.fn(sc.cap_when, tables)),
            cap_at=self.fn(sc.cap_at, tables), target=target, win_if=self.fn(spec.end.win_if, tables),
            score_reads=frozenset(v for v in ("tricks", "dealer", "previous", "delta", "total_tricks", "bidder_tricks")
                                  if any(A.mentions(e.ast, v) for e in formulas)),
            no_bidding=spec.bidding.min is None,
            point_reads=tuple((i, p.name) for i, p in enumerate(spec.points)
                              if p.name in spec.point_vars and any(A.mentions(e.ast, p.name) for e in formulas)),
            turn_up=spec.deal.turn_up, stock_face_up=spec.deal.stock_face_up, draw_in_play=spec.play.draw != "none",
            beg_run=spec.beg.run if spec.beg else 0, gift_may_win=bool(spec.beg and spec.beg.gift_may_win),
            tie_break=tie_break, count_plan=count_plan, redeal_if=self.fn(spec.deal.redeal_if, tables),
            name_of=name_of, id_of=id_of, uneven_hands=self.uneven)

    def deck(self) -> tuple[list[int], list[int]]:
        """The deck's card ids (suits high to low, then jokers) and each card's value for Game."""
        deck_spec = self.spec.deck
        removed = set(deck_spec.remove)
        deck = [C.card_id(s, r) for s in range(4) for r in sorted(deck_spec.ranks, reverse=True)
                if C.card_id(s, r) not in removed]
        deck += [C.JOKER_BASE + j for j in range(len(deck_spec.jokers))]
        values = [0] * N_TABLE
        vmap = dict(deck_spec.values)
        for c in deck:
            key = C.rank_of(c) if c < C.N_SUITED else 100 + (c - C.JOKER_BASE)
            values[c] = vmap.get(key, 0)
        return deck, values

    def card_orders(self, deck: list[int], deck_mask: int) -> tuple:
        """For each trump (index t + 1; 0 = no trump yet): effective suits, suit and trump masks and
        the order key; and for each (trump, led suit) the key that decides a trick."""
        spec = self.spec
        plain_strength = {r: len(spec.deck.ranks) - i for i, r in enumerate(spec.deck.ranks)}
        eff_suit, suit_mask, trump_mask, order_key = [], [], [], []
        strength_of: list[dict[int, int]] = []
        for t in range(-1, 4):
            eff = [C.suit_of(c) if c < C.N_SUITED else -1 for c in range(N_TABLE)]
            strength: dict[int, int] = {}
            if t >= 0:
                top = len(spec.trump_order)
                for i, group in enumerate(spec.trump_order):
                    for ref in group:
                        if ref.kind == "joker":
                            c = C.JOKER_BASE + ref.index
                        else:
                            c = C.card_id(t if ref.kind == "rank" else C.SISTER[t], ref.index)
                        if (deck_mask >> c) & 1:
                            strength[c] = top - i
                            eff[c] = t
            okey = [0] * N_TABLE
            for c in deck:
                okey[c] = 1000 + strength[c] if c in strength else plain_strength.get(C.rank_of(c), 0)
            sm = [0, 0, 0, 0]
            for c in deck:
                if eff[c] >= 0:
                    sm[eff[c]] |= 1 << c
            eff_suit.append(tuple(eff))
            suit_mask.append(tuple(sm))
            trump_mask.append(C.mask_of(strength))
            order_key.append(tuple(okey))
            strength_of.append(strength)
        win_key = []
        for t in range(4):
            strength = strength_of[t + 1]
            for led in range(4):
                key = [0] * N_TABLE
                for c in deck:
                    if c in strength:
                        key[c] = 1000 + strength[c]
                    elif eff_suit[t + 1][c] == led:
                        key[c] = 1 + plain_strength.get(C.rank_of(c), 0)
                win_key.append(tuple(key))
        return tuple(eff_suit), tuple(suit_mask), tuple(trump_mask), tuple(order_key), tuple(win_key)

    def sides(self, tables: Tables) -> tuple[int, tuple[int, ...]]:
        """The number of sides and each seat's side (seat mod teams; no teams: every seat alone)."""
        spec, n = self.spec, self.players
        teams = self.static_int(spec.teams, tables)
        if teams is None or teams <= 0:
            return n, tuple(range(n))
        if teams < 2 or n % teams:
            self.fail(spec.teams.loc, f"{n} players cannot sit in {teams} equal partnerships",
                      "teams must divide the number of players (seat mod teams is the side)")
            teams = n
        return teams, tuple(s % teams for s in range(n))

    def deal(self, tables: Tables, deck_size: int) -> tuple[int, tuple[int, ...]]:
        """The hand size and the packets it is dealt in, checked against the deck and seats."""
        spec, n = self.spec, self.players
        hand_size = self.static_int(spec.deal.hand_size, tables)
        if hand_size is None or hand_size < 1:
            self.fail(spec.deal.hand_size.loc, f"hand size must be at least 1, not {hand_size}")
            hand_size = 1
        if hand_size * n > deck_size:
            self.fail(spec.deal.hand_size.loc,
                      f"{n} hands of {hand_size} need {hand_size * n} cards but the deck has {deck_size}",
                      "deal fewer cards or use a bigger deck")
        packets = spec.deal.packets or (hand_size,)
        if sum(packets) != hand_size:
            self.fail(spec.deal.loc, f"packets {list(packets)} add up to {sum(packets)}, not the hand size {hand_size}")
        return hand_size, tuple(packets)

    def bidding(self, tables: Tables) -> tuple[int | None, int | None, int | None]:
        """The lowest and highest bid, and the bid that ends the bidding at once."""
        b = self.spec.bidding
        if b.min is None:  # `bidding: none`
            return 0, 0, 0
        bmin, bmax = self.static_int(b.min, tables), self.static_int(b.max, tables)
        if bmin is not None and bmax is not None and (bmin < 1 or bmax < bmin):
            self.fail(b.loc, f"bids {bmin}..{bmax} are not a range of positive numbers")
        if bmax is not None and bmax > 2000:
            self.fail(b.max.loc, "bids above 2000 are not supported")
        return bmin, bmax, self.static_int(b.ends_at, tables, bmax)

    def equal_last(self, tables: Tables) -> bool:
        """Whether, of two equal trumps, the one played last wins the trick."""
        e = self.spec.equal_trumps
        if e is None:
            return False
        v = emit(e.checked, tables)({})
        if v not in ("first", "last"):
            self.fail(e.loc, f'equal_trumps is "first" or "last", not {v!r}')
        return v == "last"

    def steps(self, tables: Tables, hand_size: int, stock_size: int) -> list[CompiledStep]:
        """The phases between bidding and play that can act at this table."""
        spec = self.spec
        steps = []
        for p in spec.phases:
            if p.kind in ("take", "refill") and spec.deal.rest != "stock":
                self.fail(p.loc, f"a `{p.kind}` phase needs `deal.rest: stock`")
            count, lo, hi = self.fn(p.count, tables), self.fn(p.min, tables), self.fn(p.max, tables)
            fixed = None
            if hasattr(count, "const"):
                fixed = (count.const, count.const)
            elif hasattr(lo, "const") and hasattr(hi, "const"):
                fixed = (lo.const, hi.const)
            steps.append(CompiledStep(p.kind, p.who, count, lo, hi, self.fn(p.allowed, tables), self.fn(p.valid_if, tables),
                                      p.credit, self.fn(p.to, tables), fixed, p.face_up,
                                      tuple(self.fn(k, tables) for k in p.kinds)))
            # A take whose count is fixed for the table must fit in the stock.
            if p.kind == "take" and p.count is not None and stock_size >= 0 and not _uses_runtime(p.count):
                k = self.static_int(p.count, tables)
                if k is not None and (k < 0 or k > stock_size):
                    self.fail(p.count.loc, f"takes {k} cards but the stock has {stock_size}")
        if stock_size >= 0 and not self.diags:
            self.uneven = not self.card_counts(list(zip(spec.phases, steps)), hand_size, stock_size)
            if self.uneven and not self.diags:
                self.refill_bounds(list(zip(spec.phases, steps)), hand_size, stock_size)
            if spec.play.draw != "none" and not self.diags:
                self.play_draws(hand_size)
        # A take or discard whose count is fixed at 0 for this table can never act: drop it, so the
        # engine does not evaluate it every hand (e.g. `widow: 0`).
        return [st for st in steps if not _never_acts(st)]

    def begging(self, n_sides: int, stock_size: int) -> None:
        """Begging is between the beggar's side and the dealer's, and the stock must let the dealer run
        the cards at least once (the turned-up card set aside, `run` to each, one more turned up)."""
        beg, n = self.spec.beg, self.players
        if beg is None:
            return
        if n_sides != 2:
            self.fail(beg.loc, f"begging is between two sides, but {n} players make {n_sides}",
                      "play it with two players or in two partnerships")
        need = 1 + beg.run * n + 1
        if need > stock_size:
            self.fail(beg.loc, f"running the cards needs {need} cards from the stock, which holds {stock_size} "
                      f"with {n} players", "deal fewer cards, or run fewer (`run:`)")
        if self.spec.play.draw != "none" or any(p.kind in ("take", "refill") for p in self.spec.phases):
            self.fail(beg.loc, "begging runs the cards from the stock, so nothing else may draw from it",
                      "leave out the takes, refills and draws during the play")

    def play_draws(self, hand_size: int) -> None:
        """Draws after each trick must share the stock out evenly: every player draws in every round
        of draws, so the stock left when play begins must be a multiple of the players (and a
        phase count that depends on the hand would leave it unknown)."""
        n, loc = self.players, self.spec.deal.loc
        if self.uneven:
            return self.fail(loc, "draws during the play need the phases' counts fixed for the table, so that the "
                             "stock left when play begins is known", "give the takes, discards and refills fixed counts")
        for left in sorted(self.stock_at_play):
            if left % n:
                return self.fail(loc, f"with {n} players the stock holds {left} cards when play begins, which does not "
                                 f"share out one card each after every trick ({left} is not a multiple of {n})",
                                 "deal so that the stock divides by the number of players, or remove cards from the deck")

    def card_counts(self, phases: list, hand_size: int, stock_size: int) -> bool:
        """The phases' takes, discards and refills, played out for every bidder (the dealer is seat 0):
        none may need a card the stock or a hand does not have, and every hand must start the play
        with as many cards as the others. Checked where every count is fixed for the table; a count
        that depends on the hand is the engine's to bound at play. True: every count was fixed and
        the hands start the play even."""
        n = self.players
        for bidder in range(n):
            hands, stock = [hand_size] * n, stock_size
            for p, st in phases:
                if st.kind == "name_trump":
                    continue
                k = st.exact
                if k is None:
                    return False  # a count that depends on the hand: the engine's to bound
                for s in phase_seats(st.who, n, bidder, dealer=0):
                    draw = k if st.kind == "take" else max(0, k - hands[s]) if st.kind == "refill" else 0
                    if draw > stock:
                        self.fail(p.loc, f"the {st.kind}s can need more cards than the stock holds: with {n} "
                                         f"players only {stock} are left when seat {s} "
                                         f"{'takes' if st.kind == 'take' else 'refills to'} {k}",
                                         "ask for fewer cards, or deal fewer (the stock is what the deal leaves)")
                        return False
                    if st.kind == "discard" and k > hands[s]:
                        self.fail(p.loc, f"discards {k} cards from a hand of {hands[s]}")
                        return False
                    stock -= draw
                    hands[s] += draw - (k if st.kind == "discard" else 0)
            self.stock_at_play.add(stock)
            if len(set(hands)) > 1:
                self.fail(self.spec.phases[-1].loc, "the hands would start the play with different numbers "
                                 f"of cards ({', '.join(f'seat {s}: {h}' for s, h in enumerate(hands))}, seat 0 "
                                 f"dealing, seat {bidder} bidding)", "every player must hold as many cards when play begins")
                return False
        return True

    def refill_bounds(self, phases: list, hand_size: int, stock_size: int) -> None:
        """Where a count depends on the hand, bound each refill's need from the fewest cards a hand can
        hold by then and the fewest the stock can hold: a refill that might find the stock short must
        say what happens then (`short:`), so no table meets a draw the rules did not foresee."""
        n = self.players
        for bidder in range(n):
            low, stock = [hand_size] * n, stock_size  # lower bounds: cards in each hand, cards in the stock
            for p, st in phases:
                seats = phase_seats(st.who, n, bidder, dealer=0)
                if st.kind == "take":
                    k = st.exact
                    for s in seats:
                        low[s] += k or 0
                        stock = stock - k if k is not None else 0  # a count that depends on the hand may take it all
                elif st.kind == "discard":
                    most = st.fixed_range[1] if st.fixed_range else None
                    for s in seats:
                        low[s] = max(0, low[s] - most) if most is not None else 0
                elif st.kind == "refill":
                    to = st.exact
                    if to is None:
                        continue
                    need = sum(max(0, to - low[s]) for s in seats)
                    if need > stock and p.short is None:
                        return self.fail(p.loc, f"the refill can run short: with {n} players the stock may hold only "
                                         f"{stock} cards when up to {need} are needed (seat {bidder} bidding)",
                                         "say what happens then with `short: play_short` (the last players draw "
                                         "what is left), or discard fewer cards before it")
                    stock = max(0, stock - need)
                    for s in seats:
                        low[s] = max(low[s], to) if p.short is None else low[s]

    def count_out(self, tables: Tables) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
        """The tie-breaks that apply at this table, and the order points are counted out in: those
        `count_out.order` names first, then the rest as the file lists them."""
        end = self.spec.end
        names = [p.name for p in self.spec.points]
        on = "count_out" in end.tie_break and (end.count_out_when is None or bool(self.fn(end.count_out_when, tables)({})))
        if not on:
            return tuple(t for t in end.tie_break if t != "count_out"), None
        first = [names.index(n) for n in end.count_order]
        return end.tie_break, tuple(first + [i for i in range(len(names)) if i not in first])

    def points(self, tables: Tables) -> list[CompiledPoint]:
        """Each point's card selector, with its value per trump when that is all it depends on."""
        points = []
        for pt in self.spec.points:
            card = self.fn(pt.card, tables)
            by_trump = None
            if card is not None and not any(A.mentions(pt.card.ast, v) for v in ("played", "dealt", "held", "bid")):
                by_trump = tuple(card({"trump": t}) for t in range(4))  # options are folded in already
            scan = _trump_scan(pt.card.ast, tables) if card is not None else None
            points.append(CompiledPoint(pt.name, self.static_int(pt.value, tables), card, pt.to,
                                        pt.most, pt.tie, by_trump, scan, pt.gift))
        return points


def _guards(e) -> tuple[int | None, tuple[str, ...], bool, bool]:
    """`trick == N`, `any(X ...)` / `count(X ...) > 0` and `any(X where card.suit == lead.suit)`
    conjuncts (X: discarded or hand): cheap reasons a rule cannot fire. Returns LeadCheck's
    trick, needs, by_suit and needs_discard_of_lead_suit."""
    conj, stack = [], [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.BoolOp) and x.op == "and":
            stack += [x.a, x.b]
        else:
            conj.append(x)
    trick, needs, of_lead_suit = None, [], False
    for x in conj:
        if isinstance(x, A.Compare) and x.op == "==":
            for a, b in ((x.a, x.b), (x.b, x.a)):
                if isinstance(a, A.Name) and a.name == "trick" and isinstance(b, A.Const) and b.type == "int":
                    trick = b.value
        call = None
        if isinstance(x, A.Call) and x.fn == "any":
            call = x
        elif (isinstance(x, A.Compare) and x.op == ">" and isinstance(x.a, A.Call) and x.a.fn == "count"
              and isinstance(x.b, A.Const) and x.b.value == 0):
            call = x.a
        if call is not None:
            arg = call.args[0]
            base = arg.cards if isinstance(arg, A.Where) else arg
            if isinstance(base, A.Name) and base.name in ("discarded", "hand"):
                needs.append(base.name)
                if base.name == "discarded" and isinstance(arg, A.Where) and _is_same_suit_as_lead(arg.cond):
                    of_lead_suit = True
    return trick, tuple(needs), A.used_only_as(e, "lead", "suit"), of_lead_suit


def _is_same_suit_as_lead(e: A.Expr) -> bool:
    """`card.suit == lead.suit` (either way round)."""
    def attr(x: A.Expr, obj: str) -> bool:
        return isinstance(x, A.Attr) and x.name == "suit" and isinstance(x.obj, A.Name) and x.obj.name == obj
    return isinstance(e, A.Compare) and e.op == "==" and (
        (attr(e.a, "card") and attr(e.b, "lead")) or (attr(e.a, "lead") and attr(e.b, "card")))


def _trump_scan(e: A.Expr, tables: Tables) -> tuple[str, tuple[tuple[tuple[int, int], ...], ...]] | None:
    """("played" | "held" | "dealt", runs) for `highest(S where card.trump)` or `lowest(...)`; else None."""
    if isinstance(e, A.Call) and e.fn in ("highest", "lowest") and len(e.args) == 1:
        arg = e.args[0]
        if (isinstance(arg, A.Where) and isinstance(arg.cards, A.Name) and arg.cards.name in ("played", "held", "dealt")
                and isinstance(arg.cond, A.Attr) and arg.cond.name == "trump"
                and isinstance(arg.cond.obj, A.Name) and arg.cond.obj.name == "card"):
            return arg.cards.name, trump_runs(tables, e.fn)[1:]
    return None


def _unless_never(f: Fn | None) -> Fn | None:
    """None for a condition folded to false for this table (e.g. `defense_cap and ...` with the option
    off), so the engine skips it instead of calling it."""
    return None if f is not None and hasattr(f, "const") and not f.const else f


def _uses_runtime(e: ExprSpec) -> bool:
    return any(A.mentions(e.ast, v) for v in ("hand", "stock", "is_bidder", "is_dealer", "bid", "trump"))

