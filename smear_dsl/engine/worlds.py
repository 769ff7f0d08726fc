"""A search's worlds: a game copied to deal the cards a seat cannot see anew (engine/knowledge.py); a
random legal move (simulations, a random bot)."""
from __future__ import annotations

import random
import secrets
from typing import Self

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine.constants import BIDDING, PLAY, STEP
from smear_dsl.engine.state import HandState

_SHALLOW = frozenset((list, dict))  # what a copy of a game copies (one level: the rest is never changed in place)
# The attributes that may hold a list or a dict (some only in some games, or only at times): a copy copies
# these and shares the rest, which is replaced, never changed in place. tests/engine/test_clone.py holds
# every attribute the engine assigns to this list or to its known-shared set, and every copy to
# sharing no list.
_COPIED = ("scores", "results", "record_hands", "hands", "dealt", "stock", "bids", "passed", "discarded", "credit",
           "trick", "tricks", "hand_moves", "held", "queue", "turned_down", "drawn", "shown", "boundary")


def _copied(rng: random.Random) -> random.Random:
    """A seeded generator's copy: it deals what the original would."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


_NO_DEALS = secrets.SystemRandom()  # what a world has for a dealing generator: shared, never seeded, never read


class Worlds(HandState):
    """A part of Game: making a world of it and dealing the world's unseen cards, and a random legal move (simulations)."""

    def clone(self, deals: bool = True) -> Self:
        """An independent copy (for search and perft): lists are copied, immutable parts shared;
        `deals=False`: one that will never deal (a world), so its shuffling generator is not copied."""
        g = object.__new__(self.__class__)  # the class is already chosen: Game.__new__'s choice is not asked again
        d = self.__dict__.copy()
        for k in _COPIED:  # a named list (the dict's copy of all would cost four times as much)
            v = d.get(k)
            if v.__class__ in _SHALLOW:
                d[k] = v.copy()
        d["rng"] = _NO_DEALS if not deals else self.rng if isinstance(self.rng, secrets.SystemRandom) else _copied(self.rng)
        g.__dict__ = d
        if self.record_hands and self.record_hands[-1] is not None:  # the record's entry for this hand holds
            # the copy's own list of moves (a world keeps no record)
            dealer, hands, stock, _moves = self.record_hands[-1]
            g.record_hands[-1] = (dealer, hands, stock, g.hand_moves)
        return g

    def world_copy(self) -> Self:
        """A copy to deal the unseen cards of anew (a search's world, engine/knowledge.py): it deals
        no further hand, holds no generator of this game's, keeps no boundary and starts with empty
        caches (they are keyed on cards, not on the stock); nor a record of its hands (placeholders
        keep their count, as forget_history's do): nobody records a world, and its copies skip the work."""
        g = self.clone(deals=False)
        g.deal_source, g.auto_deal, g.keep_boundary, g.boundary = None, False, False, None
        g.record_hands = [None] * len(self.record_hands)
        g.forget_caches()
        return g

    def redeal(self, seat: int, hand: int, discarded: int, played: int) -> None:
        """In a world: `seat` holds `hand` and has discarded `discarded`, having played `played`."""
        self.hands[seat] = hand
        self.discarded[seat] = discarded
        self.held[seat] = hand | played if self.phase == PLAY else 0
        self.dealt[seat] = hand | played | discarded

    def restock(self, stock: list[int], hand_moves: list[tuple[int, int]]) -> None:
        """In a world: the stock and this hand's moves (others' discards as the world dealt them),
        and the hand's record as the world dealt it."""
        self.stock = stock
        self.hand_moves[:] = hand_moves
        if self.record_hands and self.record_hands[-1] is not None:
            self.record_hands[-1] = (self.record_hands[-1][0], [C.bit_list(d) for d in self.dealt], list(stock),
                                     self.hand_moves)

    def random_move(self, rng: random.Random) -> int:
        """A uniformly random legal move (plays sampled straight from the bitset)."""
        phase = self.phase
        if phase == PLAY:
            # _legal_play_mask, inlined: this is the benchmark's hot path (a test checks they agree).
            m = self.hands[self.turn]
            if not self.trick:
                if not self.lead_free:
                    m = self._lead_mask(self.turn, m, self.discarded[self.turn], self.trick_no) or self._any_lead(m)
            elif m & self.led_mask:
                m &= self.follow_ok
            k = int(rng.random() * m.bit_count())  # drop the k lowest cards, take the next
            while k:
                m &= m - 1
                k -= 1
            return (m & -m).bit_length() - 1
        if phase == BIDDING:
            bids = self._legal_bids()
            return bids[int(rng.random() * len(bids))]
        if phase == STEP and self.rules.play.steps[self.step].kind == "discard":
            mask = self.sample_discard(self.turn, rng)  # by plans (discards.py), never every combination
            if mask is None:  # none found by the plans' bounded search: the first legal one, also bounded
                mask = self.any_discard(self.turn)
            return M.DISCARD_FLAG | mask
        return rng.choice(self.legal_moves())
