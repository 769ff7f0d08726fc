"""RuleSpec + seat count + table options -> CompiledRules (compiled.py): its parts, built in the
order they depend on each other, with every impossible setting found on the way.

Everything the engine needs while playing is precomputed here (card encoding, the
effective suit and trick strength of every card for every trump suit, point selectors,
scoring formulas), so play never walks YAML or syntax trees.
"""
from __future__ import annotations

import dataclasses
from typing import Any, overload

from smear_dsl import cards as C
from smear_dsl.compile.compiled import (
    N_TABLE,
    SCORE_VARS,
    BiddingRules,
    CompiledPoint,
    CompiledRules,
    CompiledStep,
    DealRules,
    DeckRules,
    EndRules,
    Fn,
    LeadCheck,
    PlayRules,
    PointRules,
    ScoringRules,
)
from smear_dsl.errors import Diagnostic, OptionError, RuleError, clip
from smear_dsl.expr import ast as A
from smear_dsl.expr.counted import plan_reads
from smear_dsl.expr.emit import Tables, emit, trump_runs
from smear_dsl.language.inherited import own_lines
from smear_dsl.language.langversion import as_warning
from smear_dsl.language.spec import ExprSpec, Loc, PhaseSpec, RuleSpec, phase_seats

_NO: Any = object()  # no folded constant


def _never_acts(step: CompiledStep) -> bool:
    """A take/discard whose count (or maximum) is a folded constant of at most 0."""
    if step.kind not in ("take", "discard"):
        return False
    fixed = step.count if step.count is not None else step.max
    const = getattr(fixed, "const", None)
    return isinstance(const, int) and const <= 0


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


_ORDERS: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # (id of the spec, deck mask, deck) -> (that spec, Compiler.card_orders)


class _Compiler:
    def __init__(self, spec: RuleSpec, players: int, opts: dict[str, Any], static: dict[str, Any]):
        self.spec, self.players, self.opts, self.static = spec, players, opts, static
        self.diags: list[Diagnostic] = []
        self.later: list[Diagnostic] = []
        self.uneven = False  # set by steps(): whether hands may start the play with different sizes
        self.stock_at_play: set[int] = set()  # set by card_counts: the stock's size when play begins, per bidder

    def fail(self, loc: Loc, message: str, hint: str | None = None, since: int = 1) -> None:
        """An impossible setting; one that only a later language version than the file's refuses
        (`since`) is kept as a warning, and the file compiles as it did under its own version."""
        if since > self.spec.language:
            self.later.append(as_warning(dataclasses.replace(loc.diag(message, hint), since=since), self.spec.language))
        else:
            self.diags.append(loc.diag(message, hint))

    @overload
    def static_int(self, e: ExprSpec, tables: Tables, default: int | None = None) -> int: ...
    @overload
    def static_int(self, e: ExprSpec | None, tables: Tables, default: int) -> int: ...
    @overload
    def static_int(self, e: ExprSpec | None, tables: Tables, default: None = None) -> int | None: ...
    def static_int(self, e: ExprSpec | None, tables: Tables, default: int | None = None) -> int | None:
        if e is None:
            return default
        return int(emit(e.checked, tables)({}))

    @overload
    def fn(self, e: ExprSpec, tables: Tables) -> Fn: ...
    @overload
    def fn(self, e: ExprSpec | None, tables: Tables) -> Fn | None: ...
    def fn(self, e: ExprSpec | None, tables: Tables) -> Fn | None:
        return None if e is None else emit(e.checked, tables)

    def cards(self, e: ExprSpec | None, tables: Tables) -> Fn | None:
        """A test of one card as the set of cards it holds for (ExprSpec.cards), where it has one."""
        return None if e is None or e.cards is None else e.cards(tables)

    def run(self) -> CompiledRules:
        """Every part the engine reads, in the order they depend on each other; RuleError lists
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
        steps = tuple(self.steps(tables, hand_size, len(deck) - hand_size * n))
        points = self.points(tables, deck)
        self.begging(n_sides, len(deck) - hand_size * n)
        target = self.static_int(spec.end.target, tables)
        if self.diags:
            raise RuleError(own_lines(self.diags, spec.path, spec.text or ""))
        name_of = {c: C.suited_name(c) for c in deck if c < C.N_SUITED}
        name_of.update({C.JOKER_BASE + j: name for j, name in enumerate(spec.deck.jokers)})
        cards = DeckRules(tuple(deck), deck_mask, spec.deck.jokers, tuple(values), eff_suit, suit_mask, trump_mask,
                          win_key, name_of, {v: k for k, v in name_of.items()})
        beg = spec.beg
        bidding = BiddingRules(spec.bidding.min is None, bmin, bmax, ends_at, spec.bidding.rounds,
                               self.fn(spec.bidding.may_match, tables), spec.bidding.all_pass,
                               self.static_int(spec.bidding.set_back, tables, 0), beg.run if beg else 0,
                               bool(beg and beg.gift_may_win))
        play = self.play_part(tables, steps, equal_last, cards)
        draws = play.draw_in_play or bool(bidding.beg_run) or any(st.kind in ("take", "refill") for st in steps)
        deal = DealRules(hand_size, tuple(packets), spec.deal.rest, spec.deal.turn_up, spec.deal.stock_face_up,
                         self.fn(spec.deal.redeal_if, tables), draws, n, cards.cards)
        scoring, reads = self.scoring_part(tables)
        tie_break, count_plan = self.count_out(tables)
        return CompiledRules(
            spec=spec, players=n, options=dict(self.opts), n_sides=n_sides, side_of=side_of, tables=tables,
            deck=cards, deal=deal, bidding=bidding, play=play,
            points=PointRules(tuple(points), reads,
                              any(st.kind == "discard" and st.credit != "nobody" for st in steps)),
            scoring=scoring,
            end=EndRules(target, self.fn(spec.end.win_if, tables), tie_break, count_plan,
                         count_plan is not None and spec.end.count_as_won,
                         spec.end.win_if is not None and A.names_in(spec.end.win_if.ast) <= {"score", "target"}),
            later=tuple(own_lines(self.later, spec.path, spec.text or "")))

    def play_part(self, tables: Tables, steps: tuple[CompiledStep, ...], equal_last: bool, deck: DeckRules) -> PlayRules:
        """The phases and the tricks: leader, lead and follow rules, draws."""
        play = self.spec.play
        return PlayRules(
            steps, self.spec.trump_named, play.leader, play.follow == "suit",
            tuple(LeadCheck(emit(r.forbid.checked, tables), r.code, r.message, *_guards(r.forbid.ast))
                  for r in play.lead_rules),
            tuple(LeadCheck(emit(r.forbid.checked, tables), r.code, r.message,
                            forbid_cards=self.cards(r.forbid, tables),
                            guard=emit(r.forbid.guard[0], tables) if r.forbid.guard else None,
                            guard_reads=r.forbid.guard[1] if r.forbid.guard else ()) for r in play.follow_rules),
            equal_last, play.draw != "none", self.uneven, deck)

    def scoring_part(self, tables: Tables) -> tuple[ScoringRules, tuple[tuple[int, str], ...]]:
        """The hand's scoring formulas, and (index, name) of the points they or the end read by name."""
        spec, sc = self.spec, self.spec.scoring
        formulas = [e for e in (sc.made, sc.bidder, sc.others, sc.cap_when, sc.cap_at, spec.end.win_if) if e is not None]
        used = frozenset().union(*(A.names_in(e.ast) for e in formulas))
        scoring = ScoringRules(
            self.fn(sc.made, tables), self.fn(sc.bidder, tables), self.fn(sc.others, tables),
            _unless_never(self.fn(sc.cap_when, tables)), self.fn(sc.cap_at, tables),
            frozenset(v for v in SCORE_VARS if v in used),
            sc.others is not None and isinstance(sc.others.ast, A.Name) and sc.others.ast.name == "points")
        reads = tuple((i, p.name) for i, p in enumerate(spec.points) if p.name in spec.point_vars and p.name in used)
        return scoring, reads

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

    def card_orders(self, deck: list[int], deck_mask: int) -> tuple[Any, ...]:
        """For each trump (index t + 1; 0 = no trump yet): effective suits, suit and trump masks and
        the order key; and for each (trump, led suit) the key that decides a trick. Worked out once per rules
        and deck (tuples, never changed): `check` compiles a file for every setup, a server for every table."""
        key = (id(self.spec), deck_mask, tuple(deck))
        hit = _ORDERS.get(key)
        if hit is not None and hit[0] is self.spec:
            orders: tuple[Any, ...] = hit[1]
            return orders
        if len(_ORDERS) >= 64:
            _ORDERS.clear()
        out = self._card_orders(deck, deck_mask)
        _ORDERS[key] = (self.spec, out)
        return out

    def _card_orders(self, deck: list[int], deck_mask: int) -> tuple[Any, ...]:
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
        if spec.teams is None or (teams := self.static_int(spec.teams, tables)) <= 0:
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

    def bidding(self, tables: Tables) -> tuple[int, int, int]:
        """The lowest and highest bid, and the bid that ends the bidding at once."""
        b = self.spec.bidding
        if b.min is None or b.max is None:  # `bidding: none` (a mapping has both: the schema requires them)
            return 0, 0, 0
        bmin, bmax = self.static_int(b.min, tables), self.static_int(b.max, tables)
        if bmin < 1 or bmax < bmin:
            self.fail(b.loc, f"bids {bmin}..{bmax} are not a range of positive numbers")
        if bmax > 2000:
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
        return bool(v == "last")

    def steps(self, tables: Tables, hand_size: int, stock_size: int) -> list[CompiledStep]:
        """The phases between bidding and play that can act at this table."""
        spec = self.spec
        steps = []
        for p in spec.phases:
            if p.kind in ("take", "refill") and spec.deal.rest != "stock":
                self.fail(p.loc, f"a `{p.kind}` phase needs `deal.rest: stock`")
            count, lo, hi = self.fn(p.count, tables), self.fn(p.min, tables), self.fn(p.max, tables)
            fixed = None
            c_count, c_lo, c_hi = (getattr(f, "const", _NO) for f in (count, lo, hi))  # folded constants
            if c_count is not _NO:
                fixed = (c_count, c_count)
            elif c_lo is not _NO and c_hi is not _NO:
                fixed = (c_lo, c_hi)
            steps.append(CompiledStep(p.kind, p.who, count, lo, hi, self.fn(p.allowed, tables), self.fn(p.valid_if, tables),
                                      p.credit, self.fn(p.to, tables), fixed, p.face_up,
                                      tuple(self.fn(k, tables) for k in p.kinds), p.may_pass, p.all_pass,
                                      self.cards(p.allowed, tables),
                                      plan_reads(p.valid_if.ast) if p.valid_if is not None else None))
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

    def card_counts(self, phases: list[tuple[PhaseSpec, CompiledStep]], hand_size: int, stock_size: int) -> bool:
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

    def refill_bounds(self, phases: list[tuple[PhaseSpec, CompiledStep]], hand_size: int, stock_size: int) -> None:
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
                    kept = _kept_at_least(p.count.ast) if most is None and p.count is not None else 0
                    for s in seats:
                        low[s] = max(0, low[s] - most) if most is not None else min(low[s], kept)
                elif st.kind == "refill":
                    to = st.exact
                    if to is None:
                        continue
                    need = sum(max(0, to - low[s]) for s in seats)
                    if need > stock and p.short is None:
                        return self.fail(p.loc, f"the refill can run short: with {n} players the stock may hold only "
                                         f"{stock} cards when up to {need} are needed (seat {bidder} bidding)",
                                         "say what happens then with `short: play_short` (the last players draw "
                                         "what is left), or discard fewer cards before it", since=2)
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
        if end.count_as_won:  # the order the points fell; points that fall together count as listed
            return end.tie_break, tuple(range(len(names)))
        first = [names.index(n) for n in end.count_order]
        return end.tie_break, tuple(first + [i for i in range(len(names)) if i not in first])

    def points(self, tables: Tables, deck: list[int]) -> list[CompiledPoint]:
        """Each point's card selector, with its value per trump when that is all it depends on; a point
        per card as the cards it scores under each trump; a `to:` condition as its closure."""
        points = []
        for pt in self.spec.points:
            card = by_trump = scan = None
            if pt.card is not None:
                card = self.fn(pt.card, tables)
                if not any(A.mentions(pt.card.ast, v) for v in ("played", "dealt", "held", "bid")):
                    by_trump = tuple(card({"trump": t}) for t in range(4))  # options are folded in already
                scan = _trump_scan(pt.card.ast, tables)
            each = None
            if pt.each is not None:
                cond = self.fn(pt.each, tables)
                each = tuple(C.mask_of(c for c in deck if cond({"card": c, "trump": t})) for t in range(4))
            points.append(CompiledPoint(pt.name, self.static_int(pt.value, tables), card, pt.to,
                                        pt.most, pt.tie, by_trump, scan, pt.gift, self.fn(pt.to_expr, tables),
                                        each, pt.per_trick))
        return points


def _kept_at_least(count: A.Expr) -> int:
    """The fewest cards a discard of `count` leaves in a hand: `count(hand) - E` keeps E, at least E's
    lower bound (`max(1, min(6, ...))` keeps 1); any other count may leave none."""
    if isinstance(count, A.BinOp) and count.op == "-" and isinstance(count.a, A.Call) and count.a.fn == "count" \
            and len(count.a.args) == 1 and isinstance(count.a.args[0], A.Name) and count.a.args[0].name == "hand":
        return max(0, _least(count.b) or 0)
    return 0


def _least(e: A.Expr) -> int | None:
    """A lower bound of an integer expression, where one is plain from its form (None: unknown)."""
    if isinstance(e, A.Const) and e.type == "int":
        least: int = e.value
        return least
    if isinstance(e, A.Call) and e.fn == "count":
        return 0
    if isinstance(e, A.Call) and e.fn in ("max", "min") and len(e.args) == 2:
        a, b = _least(e.args[0]), _least(e.args[1])
        if e.fn == "max":
            known = [x for x in (a, b) if x is not None]
            return max(known) if known else None
        return min(a, b) if a is not None and b is not None else None
    if isinstance(e, A.BinOp) and e.op == "+":
        a, b = _least(e.a), _least(e.b)
        return a + b if a is not None and b is not None else None
    return None


def _guards(e: A.Expr) -> tuple[int | None, tuple[str, ...], bool, bool]:
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
