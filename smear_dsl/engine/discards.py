"""Finding legal discards without trying every combination.

A discard is legal when its size is in range, `allowed` lets each card go, `valid_if` holds of the
whole set and (before the first lead) the leader keeps a legal lead. `valid_if` reads the discard
only by counting it by kinds of card (the compiler makes sure: expr/counted.py), so whether it holds
depends only on how many cards of each kind go. A *plan* is such a count per kind; there are few
(at most four kinds), and each is checked on one discard. A uniformly random legal discard is a plan
drawn by how many discards it stands for, then cards drawn within each kind; the weakest discard
takes the weakest cards of each kind under the best plan.

The lead check (the first leader's last discard must leave a legal lead) is judged on every
discard found, and a refused draw is drawn again (which keeps the draws uniform). Where it refuses
most discards, the kinds are also split by suit and the plans tried on one discard each: the
family's lead rules read the hand by suit, so a plan that passes there stands for discards that
pass. Should a rule file's lead rules read more than suits, the draws are retried and then up to
SEARCH discards tried, so the cost stays bounded.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Callable
from typing import Any

from smear_dsl import cards as C
from smear_dsl.engine.state import HandState

RETRIES = 64  # random discards tried when the lead check refuses some (rare: it binds only before the first lead)
QUICK = 8  # of them, drawn from the plain plans before those split by suit
SEARCH = 5000  # then discards checked one by one, at most, plan by plan from the weakest
PLANS = 20000  # the most plans looked at: kinds are split by suit only while they stay under this
PLANS_MEMO = 4096  # valid_if's answers a step keeps (CompiledStep.plans_memo), forgotten all at once when full


class Discards(HandState):
    """A part of Game: legal discards by plans (see the module); its methods read the game's state."""

    # (key, plan) of the last discard looked at, and of its plans by suit, are Game's caches (forget_caches).

    def _key(self, seat: int) -> tuple[int, int, int, int, int]:
        """What a discard's plan reads: the hand, the step, the seat, its cards and the stock's size."""
        return len(self.record_hands), self.step, seat, self.hands[seat], len(self.stock)

    def _legal_key(self, seat: int) -> tuple[tuple[int, int, int, int, int], int, int]:
        """What a discard's legality reads: the plan's key, what the seat discarded before (the lead
        check) and how many seats are still to discard in this step (whether the lead check binds)."""
        return self._key(seat), self.discarded[seat], len(self._queue())

    def _known_legal(self, seat: int, mask: int) -> bool:
        """Whether `mask` is the discard sample_discard last found legal for this seat as things stand
        (random_move then apply look at the same discard: it is judged once)."""
        sampled = self._sampled
        return sampled is not None and sampled[1] == mask and sampled[0] == self._legal_key(seat)

    def _plan(self, seat: int) -> tuple[int, int, int, list[int], list[tuple[int, ...]]]:
        """(cards `allowed` lets go, fewest, most, the kinds valid_if counts by, the plans) for the
        discard `seat` makes now, kept for its key."""
        key = self._key(seat)
        memo = self._plan_memo
        if memo is not None and memo[0] == key:
            planned: tuple[int, int, int, list[int], list[tuple[int, ...]]] = memo[1]
            return planned
        step = self.rules.play.steps[self.step]
        if step.any_cards:  # e.g. a widow
            lo, hi = step.span
            allowed, kinds = self.hands[seat], [self.hands[seat]]
            plans = _counts(kinds, lo, hi)
        else:
            env = self.step_env(seat)
            allowed = self._discardable(seat, env)
            lo, hi = self._discard_range(seat, env)
            masks = [kind(env) for kind in step.kinds]
            kinds = _split_by(allowed, masks) if masks else [allowed]
            plans = self._valid_plans(seat, kinds, lo, hi, env, masks)
        plan = (allowed, lo, hi, kinds, plans)
        self._plan_memo = (key, plan)
        return plan

    def _valid_plans(self, seat: int, kinds: list[int], lo: int, hi: int, env: dict[str, Any] | None = None,
                     masks: list[int] | None = None) -> list[tuple[int, ...]]:
        """The counts per kind in range whose discard passes valid_if (judged on one discard each). Given
        the masks of the kinds valid_if counts by, and a valid_if that reads the hand only by them
        (CompiledStep.plan_reads), the answer is remembered by what it depends on: the hand's count of
        each kind, which of them each group of `kinds` belongs to and its size, and the other names."""
        step = self.rules.play.steps[self.step]
        valid_if = step.valid_if
        if valid_if is None:
            return _counts(kinds, lo, hi)
        env, hand = env if env is not None else self.step_env(seat), self.hands[seat]
        key = None
        if masks is not None and step.plan_reads is not None:
            sig: list[Any] = [lo, hi, hand.bit_count(), len(masks)]  # flat: this runs for every discard
            for m in masks:
                sig.append(m.bit_count())
            for g in kinds:
                sig.append(g.bit_count())
                for m in masks:
                    sig.append(g & m != 0)
            for n in step.plan_reads:
                sig.append(env[n] if n == "stock" else env.get(n))
            key = tuple(sig)
            found: list[tuple[int, ...]] | None = step.plans_memo.get(key)
            if found is not None:
                return found
        out = []
        for counts in _counts(kinds, lo, hi):
            env["discard"] = mask = _lowest(kinds, counts)
            env["kept"] = hand & ~mask
            if valid_if(env):
                out.append(counts)
        if key is not None:
            memo = step.plans_memo
            if len(memo) >= PLANS_MEMO:
                memo.clear()
            memo[key] = out
        return out

    def _lead_plans(self, seat: int) -> tuple[list[int], list[tuple[int, ...]]]:
        """Where the lead check binds and refuses many discards: the kinds split by suit too, and the
        plans whose discard (one each) also leaves a lead; the plain plans if that would be too many."""
        key = self._key(seat)
        memo = self._lead_memo_plans
        if memo is not None and memo[0] == key:
            split: tuple[list[int], list[tuple[int, ...]]] = memo[1]
            return split
        _allowed, lo, hi, kinds, plans = self._plan(seat)
        by_suit = [part for kind in kinds for part in _split(kind, C.suit_of)]
        found = (kinds, plans)
        if _n_plans(by_suit, hi) <= PLANS:
            leading = [counts for counts in self._valid_plans(seat, by_suit, lo, hi)
                       if self.lead_error(seat, _lowest(by_suit, counts)) is None]
            found = (by_suit, leading) if leading else found
        self._lead_memo_plans = (key, found)
        return found

    def _lead_binds(self, seat: int) -> bool:
        """Whether this discard is the first leader's last before play (steps.py's `lead_error` judges it)."""
        return self.step == len(self.rules.play.steps) - 1 and len(self._queue()) == 1 and self._first_leader() == seat

    def discard_plans(self, seat: int) -> tuple[list[int], list[tuple[int, ...]]]:
        """(the kinds of card `seat` may discard now, every count per kind in range that valid_if passes)."""
        plan = self._plan(seat)
        return plan[3], plan[4]

    def sample_discard(self, seat: int, rng: random.Random) -> int | None:
        """A uniformly random legal discard of `seat` now (a card mask), or None if none is found: a
        plan drawn by how many discards it stands for, cards drawn within each kind, and the lead
        checked; after QUICK refusals by the lead check, from the plans by suit (`_lead_plans`)."""
        step = self.rules.play.steps[self.step]
        binds = self._lead_binds(seat)
        fixed = step.fixed_range if step.any_cards else None  # (a discard of any cards has one)
        if fixed is not None and fixed[0] == fixed[1]:  # any k cards (a widow): no plan needed
            hand, k = self.hands[seat], fixed[0]
            n = hand.bit_count()
            for _ in range(QUICK if binds else 1):
                mask = _random_subset(hand, n, k, rng) if k <= n else None
                if mask is None or not binds or self.lead_error(seat, mask) is None:
                    return mask
        _allowed, _lo, _hi, kinds, plans = self._plan(seat)
        if not plans:
            return None
        cum: list[int] | None = None
        for attempt in range(RETRIES):
            if attempt == QUICK and binds:
                kinds, plans = self._lead_plans(seat)
                cum = None
            if cum is None:
                sizes = tuple(map(int.bit_count, kinds))
                cum = _cum_weights(sizes, tuple(plans)) if len(plans) > 1 else []
            # random.choices(plans, cum_weights=cum)[0], the same draw without its checks and list
            counts = plans[0] if len(plans) == 1 else \
                plans[bisect.bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(plans) - 1)]
            mask = 0
            for kind, n, k in zip(kinds, sizes, counts):
                mask |= _random_subset(kind, n, k, rng)
            if not binds or self.lead_error(seat, mask) is None:  # the plan saw to the rest
                self._sampled = (self._legal_key(seat), mask)
                return mask
        return self._first_legal(seat, kinds, plans, lambda c: 0, SEARCH)

    def side_cards_first(self, trump: int) -> Callable[[int], int]:
        """A card's weakness for a discard under `trump`: side cards before trumps, low before high
        (what the view's example discard and the heuristic bot throw)."""
        key, trumps = self.rules.tables.order_key[trump + 1], self.rules.deck.trump_mask[trump + 1]
        return lambda c: ((trumps >> c) & 1) * 1000 + key[c]

    def weakest_discard(self, seat: int, weakness: Callable[[int], float]) -> int | None:
        """The legal discard whose cards' `weakness` adds up to the least (the weakest cards of each
        kind under each plan), or None if none is found."""
        kinds, plans = self.discard_plans(seat)
        mask = self._first_legal(seat, kinds, plans, weakness, 0)
        if not mask and self._lead_binds(seat):  # none (or an empty one): the plans by suit too
            mask = self._first_legal(seat, *self._lead_plans(seat), weakness, SEARCH)
        if mask is not None:  # legal by its plan and the lead check: the move that plays it is not judged again
            self._sampled = (self._legal_key(seat), mask)
        return mask

    def _first_legal(self, seat: int, kinds: list[int], plans: list[tuple[int, ...]], weakness: Any,
                     search: int) -> int | None:
        """The weakest discard under the plans that the lead check lets through: each plan's weakest
        first, then (should the lead check refuse them all) up to `search` others, plan by plan."""
        ordered = [sorted(C.bits(k), key=weakness) for k in kinds]
        weakest = []
        for counts in plans:
            mask = 0
            for cards, k in zip(ordered, counts):
                mask |= C.mask_of(cards[:k])
            weakest.append((sum(map(weakness, C.bits(mask))), mask, counts))
        weakest.sort()
        for _score, mask, _counts in weakest:
            if self.lead_error(seat, mask) is None:
                return mask
        tried = 0
        for _score, _mask, counts in weakest:
            for parts in itertools.product(*(itertools.combinations(cards, k) for cards, k in zip(ordered, counts))):
                tried += 1
                if tried > search:
                    return None
                mask = C.mask_of(c for part in parts for c in part)
                if self.lead_error(seat, mask) is None:
                    return mask
        return None


@functools.lru_cache(maxsize=4096)
def _cum_weights(sizes: tuple[int, ...], plans: tuple[tuple[int, ...], ...]) -> list[int]:
    """The running total of how many discards each plan stands for (the plans' weights for a uniform
    draw; `random.choices` draws the same from them as from the weights)."""
    return list(itertools.accumulate(math.prod(math.comb(n, k) for n, k in zip(sizes, counts)) for counts in plans))


def _split(cards: int, kind_of: Callable[[int], int]) -> list[int]:
    """`cards` split by `kind_of(card)`, in order of first appearance."""
    out: dict[int, int] = {}
    for c in C.bits(cards):
        k = kind_of(c)
        out[k] = out.get(k, 0) | (1 << c)
    return list(out.values())


def _split_by(cards: int, masks: list[int]) -> list[int]:
    """`cards` split by which of `masks` hold them, in order of first appearance (as `_split` by that
    signature would, in a few int operations per mask)."""
    groups = [cards] if cards else []
    for m in masks:
        groups = [part for g in groups for part in (g & m, g & ~m) if part]
    if len(groups) < 3:  # the common case (one mask): at most a swap
        return groups if len(groups) < 2 or groups[0] & -groups[0] < groups[1] & -groups[1] else groups[::-1]
    return sorted(groups, key=lambda g: g & -g)


def _n_plans(kinds: list[int], hi: int) -> int:
    """How many counts per kind `_counts` would look at (an upper bound)."""
    return math.prod(min(k.bit_count(), hi) + 1 for k in kinds)


def _counts(kinds: list[int], lo: int, hi: int) -> list[tuple[int, ...]]:
    """Every count per kind (no more than the kind holds) adding up to lo..hi."""
    sizes = [k.bit_count() for k in kinds]
    if lo == hi == sum(sizes):  # every card must go (a forced discard): one count, without the product
        return [tuple(sizes)]
    if len(sizes) == 1:
        return [(k,) for k in range(lo, min(sizes[0], hi) + 1)]
    if len(sizes) == 2:  # as the product below, in its order, without the counts out of range
        n1, n2 = min(sizes[0], hi), min(sizes[1], hi)
        return [(a, b) for a in range(n1 + 1) for b in range(max(0, lo - a), min(n2, hi - a) + 1)]
    return [c for c in itertools.product(*(range(min(n, hi) + 1) for n in sizes)) if lo <= sum(c) <= hi]


def _lowest(kinds: list[int], counts: tuple[int, ...]) -> int:
    """A discard of `counts[i]` cards of `kinds[i]` each (their lowest cards: any stand for all)."""
    out = 0
    for kind, k in zip(kinds, counts):
        if k == kind.bit_count():  # all of them (a forced discard)
            out |= kind
            continue
        for _ in range(k):
            low = kind & -kind
            out |= low
            kind ^= low
    return out


def _random_subset(mask: int, size: int, k: int, rng: random.Random) -> int:
    """A uniformly random k-card subset of `mask` (which has `size` cards)."""
    if k == size:  # all of them (a discard the plan forces): the generator is still drawn from as below,
        for _ in range(k):  # so that seeded games (a rule version's fingerprint) play as they always have
            rng.random()
        return mask
    if not k:
        return 0
    cards, out, rand = C.bit_list(mask), 0, rng.random
    for _ in range(k):  # the i-th lowest card left, i drawn uniformly
        out |= 1 << cards.pop(int(rand() * size))
        size -= 1
    return out
