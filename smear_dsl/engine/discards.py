"""Finding legal discards without trying every combination.

A discard is legal when its size is in range, `allowed` lets each card go, `valid_if` holds of the
whole set and (before the first lead) the leader keeps a legal lead. `valid_if` reads the discard
only by counting it by kinds of card (the compiler makes sure: expr/counted.py), so whether it holds
depends only on how many cards of each kind go. A *plan* is such a count per kind; there are few
(at most four kinds), and each is checked on one discard. A uniformly random legal discard is a plan
drawn by how many discards it stands for, then cards drawn within each kind; the weakest discard
takes the weakest cards of each kind under the best plan.

The lead check (the first leader's last discard must leave a legal lead) is judged on every
discard found. To find one quickly where it binds, the kinds are also split by suit there and the
plans tried on one discard each: the family's lead rules read the hand by suit, so a plan that
passes there stands for discards that pass. Should a rule file's lead rules read more than suits,
random draws are retried and then up to SEARCH discards tried, so the cost stays bounded.
"""
from __future__ import annotations

import itertools
import math
import random
from typing import Callable

from .. import cards as C

RETRIES = 64  # random discards tried when the lead check refuses some (rare: it binds only before the first lead)
SEARCH = 5000  # then discards checked one by one, at most, plan by plan from the weakest
PLANS = 20000  # the most plans looked at: kinds are split by suit only while they stay under this


class Discards:
    """A part of Game: legal discards by plans (see the module); its methods read the game's state."""

    # (key, plan) of the last discard looked at: random_move, a bot and apply each look at it once.
    _plan_memo: tuple | None = None

    def _plan(self, seat: int) -> tuple[int, int, int, list[int], frozenset, list[tuple[int, ...]]]:
        """(cards `allowed` lets go, fewest, most, the kinds, the plans valid_if passes as a set, the
        plans to search: those whose discard also leaves a lead where that is checked) for the discard
        `seat` makes now. Everything it reads is fixed by the hand, the step, the seat, its cards and
        the stock's size, so it is kept for that key."""
        key = (len(self.record_hands), self.step, seat, self.hands[seat], len(self.stock))
        memo = self._plan_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        step = self.rules.steps[self.step]
        env = self._step_env(seat)
        allowed = self._discardable(seat, env)
        lo, hi = self._discard_range(seat, env)
        masks = [kind(env) for kind in step.kinds]
        lead = self._lead_binds(seat)
        kinds = _split(allowed, lambda c: tuple((m >> c) & 1 for m in masks))
        if lead:
            by_suit = _split(allowed, lambda c: (tuple((m >> c) & 1 for m in masks), C.suit_of(c)))
            if _n_plans(by_suit, hi) <= PLANS:
                kinds = by_suit
        hand = self.hands[seat]
        valid, search = [], []
        for counts in _counts(kinds, lo, hi):
            mask = _lowest(kinds, counts)
            if step.valid_if is not None:
                env["discard"], env["kept"] = mask, hand & ~mask
                if not step.valid_if(env):
                    continue
            valid.append(counts)
            if not lead or self._lead_error(seat, mask) is None:
                search.append(counts)
        plan = (allowed, lo, hi, kinds, frozenset(valid), search or valid)
        self._plan_memo = (key, plan)
        return plan

    def _lead_binds(self, seat: int) -> bool:
        """Whether this discard is the first leader's last before play (steps.py's `_lead_error` judges it)."""
        return self.step == len(self.rules.steps) - 1 and len(self.queue) == 1 and self._first_leader() == seat

    def discard_plans(self, seat: int) -> tuple[list[int], list[tuple[int, ...]]]:
        """(the kinds of card `seat` may discard now, the plans to search: counts per kind whose
        discard is in range, passes valid_if and, where it is checked, leaves a lead)."""
        plan = self._plan(seat)
        return plan[3], plan[5]

    def sample_discard(self, seat: int, rng: random.Random) -> int | None:
        """A uniformly random legal discard of `seat` now (a card mask), or None if there is none."""
        kinds, plans = self.discard_plans(seat)
        if not plans:
            return None
        sizes = [k.bit_count() for k in kinds]
        weights = [math.prod(math.comb(n, k) for n, k in zip(sizes, counts)) for counts in plans]
        for _ in range(RETRIES):
            counts = plans[0] if len(plans) == 1 else rng.choices(plans, weights)[0]
            mask = 0
            for kind, n, k in zip(kinds, sizes, counts):
                mask |= _random_subset(kind, n, k, rng)
            if self._lead_error(seat, mask) is None:  # the plan saw to the rest
                return mask
        return self._first_legal(seat, kinds, plans, lambda c: 0)

    def weakest_discard(self, seat: int, weakness: Callable[[int], float]) -> int | None:
        """The legal discard whose cards' `weakness` adds up to the least (lowest cards of each kind
        under each plan), or None if there is none."""
        kinds, plans = self.discard_plans(seat)
        return self._first_legal(seat, kinds, plans, weakness)

    def _first_legal(self, seat: int, kinds: list[int], plans: list[tuple[int, ...]], weakness) -> int | None:
        """The weakest discard under the plans that the lead check lets through: each plan's weakest
        first, then (should the lead check refuse them all) up to SEARCH others, plan by plan."""
        ordered = [sorted(C.bits(k), key=weakness) for k in kinds]
        weakest = []
        for counts in plans:
            mask = 0
            for cards, k in zip(ordered, counts):
                mask |= C.mask_of(cards[:k])
            weakest.append((sum(weakness(c) for c in C.bits(mask)), mask, counts))
        weakest.sort()
        for _score, mask, _counts in weakest:
            if self._lead_error(seat, mask) is None:
                return mask
        tried = 0
        for _score, _mask, counts in weakest:
            for parts in itertools.product(*(itertools.combinations(cards, k) for cards, k in zip(ordered, counts))):
                tried += 1
                if tried > SEARCH:
                    return None
                mask = C.mask_of(c for part in parts for c in part)
                if self._lead_error(seat, mask) is None:
                    return mask
        return None


def _split(cards: int, kind_of) -> list[int]:
    """`cards` split by `kind_of(card)`, in order of first appearance."""
    out: dict = {}
    for c in C.bits(cards):
        k = kind_of(c)
        out[k] = out.get(k, 0) | (1 << c)
    return list(out.values())


def _n_plans(kinds: list[int], hi: int) -> int:
    """How many counts per kind `_counts` would look at (an upper bound)."""
    return math.prod(min(k.bit_count(), hi) + 1 for k in kinds)


def _counts(kinds: list[int], lo: int, hi: int):
    """Every count per kind (no more than the kind holds) adding up to lo..hi."""
    sizes = [k.bit_count() for k in kinds]
    if len(sizes) == 1:
        return [(k,) for k in range(lo, min(sizes[0], hi) + 1)]
    return [c for c in itertools.product(*(range(min(n, hi) + 1) for n in sizes)) if lo <= sum(c) <= hi]


def _lowest(kinds: list[int], counts: tuple[int, ...]) -> int:
    """A discard of `counts[i]` cards of `kinds[i]` each (their lowest cards: any stand for all)."""
    out = 0
    for kind, k in zip(kinds, counts):
        for _ in range(k):
            low = kind & -kind
            out |= low
            kind ^= low
    return out


def _random_subset(mask: int, size: int, k: int, rng: random.Random) -> int:
    """A uniformly random k-card subset of `mask` (which has `size` cards)."""
    out = 0
    for _ in range(k):
        m = mask
        for _ in range(int(rng.random() * size)):
            m &= m - 1
        low = m & -m
        out |= low
        mask ^= low
        size -= 1
    return out
