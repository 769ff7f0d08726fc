"""The phases between bidding and play: takes from the stock, discards, refills, naming trump."""
from __future__ import annotations

import functools
import itertools
from typing import Any

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine.constants import _BIT
from smear_dsl.engine.state import HandState
from smear_dsl.errors import MoveError, Said
from smear_dsl.i18n import N_, NN_, CardWord
from smear_dsl.language.spec import phase_seats


class Steps(HandState):
    """A part of Game, the phases between bidding and play: takes from the stock, discards, refills, naming trump;
    its methods read and set the game's state."""

    # ---- phases between bidding and play
    def step_env(self, seat: int) -> dict[str, Any]:
        """The names a step's expressions (count, allowed, valid_if) see for `seat` (the stock as a set
        only if one reads it: see _StepEnv)."""
        env = _StepEnv({"hand": self.hands[seat], "is_bidder": seat == self.bidder, "is_dealer": seat == self.dealer,
                        "bid": self.high, "trump": self.trump})
        env.stock_cards = self.stock
        return env

    def _discard_range(self, seat: int, env: dict[str, Any] | None = None) -> tuple[int, int]:
        step = self.rules.play.steps[self.step]
        if step.fixed_range is not None:
            return step.fixed_range
        if env is None:
            env = self.step_env(seat)
        if step.count is not None:
            k = step.count(env)
            return k, k
        lo, hi = step.min, step.max
        assert lo is not None and hi is not None, "a step has a count or a min and a max"
        return lo(env), hi(env)

    def _advance_steps(self) -> None:
        """Run automatic steps and skip empty discards until a seat must act, then start play."""
        steps = self.rules.play.steps
        while self.step < len(steps):
            step = steps[self.step]
            if self.queue is None:
                self.queue = list(_seats(step.who, self.n, self.bidder, self.dealer))
            queue = self.queue
            while queue:
                seat = queue[0]
                if step.kind == "take":
                    k = step.fixed_range[0] if step.fixed_range is not None else _call(step.count, self.step_env(seat))
                    k = max(0, min(k, len(self.stock)))
                    self.hands[seat] |= sum(map(_BIT, self.stock[:k]))  # stock cards are distinct
                    del self.stock[:k]
                elif step.kind == "refill":
                    to: Any = step.to  # a compiled Fn, with `const` when it is one
                    need = max(0, (to.const if hasattr(to, "const") else to(self.step_env(seat))) - self.hands[seat].bit_count())
                    need = min(need, len(self.stock))
                    self.hands[seat] |= sum(map(_BIT, self.stock[:need]))  # stock cards are distinct
                    del self.stock[:need]
                elif step.kind == "name_trump":
                    self.turn = seat
                    return
                else:  # a discard: its plan now (the move's choice and check read it), or skip an empty one
                    if self.hands[seat] and self._plan(seat)[2] > 0:
                        self.turn = seat
                        return
                queue.pop(0)
            self.step += 1
            self.queue = None
        self._start_play()

    def _name_trump(self, seat: int, suit: int) -> None:
        self._log(seat, M.TRUMP_BASE + suit)
        self.trump = suit
        self.namer = seat
        self._queue().clear()  # the first to name trump sets it: no one else speaks
        self._advance_steps()

    def may_pass_trump(self) -> bool:
        """Whether the seat to name trump may pass: the phase lets each pass, and this is not the last
        seat of a phase where the last must name it (`all_pass: forced`)."""
        step = self.rules.play.steps[self.step]
        return step.may_pass and (len(self._queue()) > 1 or step.all_pass != "forced")

    def _pass_trump(self, seat: int) -> None:
        """A pass while trump is named in turn; when everyone has passed (`all_pass: redeal`) the same
        dealer deals again."""
        if not self.may_pass_trump():
            raise MoveError("WRONG_PHASE", N_("everyone else has passed, so you must name trump"))
        self._log(seat, M.PASS)
        queue = self._queue()
        queue.pop(0)
        if queue:
            self.turn = queue[0]
            return
        self._end_void(same_dealer=True)

    def _discard_error(self, seat: int, mask: int) -> Said | None:
        """Why a discard of `mask` is refused, or None if it is legal: the size, the cards in hand and
        `allowed` by masks, valid_if by the counts per kind it reads (discards.py's plan), then the lead."""
        if self._known_legal(seat, mask):
            return None
        step = self.rules.play.steps[self.step]
        kinds: list[int] | tuple[()]
        plans: list[tuple[int, ...]]
        if step.any_cards:  # e.g. a widow: no plan needed
            lo, hi = step.span
            allowed, kinds, plans = self.hands[seat], (), []
        else:
            allowed, lo, hi, kinds, plans = self._plan(seat)
        k = mask.bit_count()
        if not lo <= k <= hi:
            one, many = NN_("discard {n} card", "discard {n} cards")
            return Said(one, (("n", lo),), many) if lo == hi else \
                Said(N_("discard {lo} to {hi} cards"), (("lo", lo), ("hi", hi)))
        if mask & ~self.hands[seat]:
            return Said(N_("you can only discard cards in your hand"))
        if mask & ~allowed:
            card = next(C.bits(mask & ~allowed))
            return Said(N_("{card} may not be discarded"), (("card", CardWord(card, self.rules.card_name(card))),))
        if step.valid_if is not None and tuple((mask & kind).bit_count() for kind in kinds) not in plans:
            return Said(N_("this discard breaks the discard rule"))
        return self.lead_error(seat, mask)

    def lead_error(self, seat: int, mask: int) -> Said | None:
        """The last action before play, by the first leader: the discard must leave a legal lead."""
        if self._lead_binds(seat):
            if not self._can_lead(seat, self.hands[seat] & ~mask, self.discarded[seat] | mask):
                return Said(N_("after this discard you would have no legal first lead"))
        return None

    def _can_lead(self, seat: int, hand: int, discarded: int) -> bool:
        """Whether `seat` would have any legal first lead from `hand`."""
        return bool(self._lead_mask(seat, hand, discarded, 1))  # the whole mask: the first lead reuses it

    def discard_options(self, seat: int) -> tuple[int, int, int]:
        """(fewest, most, mask of the cards that may go) for the discard `seat` must make now."""
        mask, lo, hi = self._plan(seat)[:3]
        return lo, min(hi, mask.bit_count()), mask

    def discard_error(self, seat: int, mask: int) -> Said | None:
        """Why discarding `mask` now would be refused (None: it is legal)."""
        return self._discard_error(seat, mask)

    def _discardable(self, seat: int, env: dict[str, Any] | None = None) -> int:
        """The cards of `seat`'s hand that the step's `allowed` lets go (all of them without one)."""
        step = self.rules.play.steps[self.step]
        hand = self.hands[seat]
        if step.allowed is None:
            return hand
        if env is None:
            env = self.step_env(seat)
        if step.allowed_cards is not None:  # `allowed` as the set of cards it lets go: one step
            lets_go: int = step.allowed_cards(env)
            return hand & lets_go
        out = 0
        for c in C.bits(hand):
            env["card"] = c
            if step.allowed(env):
                out |= 1 << c
        return out

    def _legal_discards(self, seat: int) -> list[int]:
        lo, hi = self._discard_range(seat)
        cards = list(C.bits(self._discardable(seat)))
        out = []
        for k in range(lo, hi + 1):
            for combo in itertools.combinations(cards, k):
                m = C.mask_of(combo)
                if self._discard_error(seat, m) is None:
                    out.append(m)
        return out

    def any_discard(self, seat: int, most: int = 100_000) -> int:
        """A legal discard of `seat`, found by checking at most `most` combinations (smallest first);
        MoveError NO_LEGAL_DISCARD if none is found, so a bot's move costs bounded time."""
        lo, hi = self._discard_range(seat)
        cards = list(C.bits(self._discardable(seat)))
        tried = 0
        combos = itertools.chain.from_iterable(itertools.combinations(cards, k) for k in range(lo, hi + 1))
        for combo in itertools.islice(combos, most):
            tried += 1
            m = C.mask_of(combo)
            if self._discard_error(seat, m) is None:
                return m
        raise MoveError("NO_LEGAL_DISCARD", f"no legal discard found for seat {seat} among {tried:,} tried")

    def discard_cards(self, seat: int, cards: list[int]) -> None:
        """Discard a list of card ids (a repeated card is a BAD_DISCARD)."""
        self.check_turn(seat, "discard")
        if len(set(cards)) != len(cards):
            raise MoveError("BAD_DISCARD", N_("a card is repeated in the discard"))
        self._discard(seat, C.mask_of(cards))

    def _discard(self, seat: int, mask: int) -> None:
        err = self._discard_error(seat, mask)
        if err:
            raise MoveError("BAD_DISCARD", err)
        self.hand_moves.append((seat, M.DISCARD_FLAG | mask))
        step = self.rules.play.steps[self.step]
        self.hands[seat] &= ~mask
        self.discarded[seat] |= mask
        if step.face_up and mask:
            self._public_log()
            self.shown.append((seat, mask))
        if step.credit == "bidder":
            self.credit[self.rules.side_of[self.bidder]] |= mask
        elif step.credit == "own":
            self.credit[self.rules.side_of[seat]] |= mask
        self._queue().pop(0)
        self._advance_steps()


def _call(fn: Any, env: dict[str, Any]) -> Any:
    """A step's compiled expression on `env` (the compiler set it for the step's kind)."""
    assert fn is not None, "the step's expression is missing"
    return fn(env)


@functools.lru_cache(maxsize=1024)
def _seats(who: str, n: int, bidder: int, dealer: int) -> tuple[int, ...]:
    """phase_seats, kept: a hand asks it once per phase, and seats, bidder and dealer repeat."""
    return tuple(phase_seats(who, n, bidder, dealer))


class _StepEnv(dict[str, Any]):
    """A step's names, where `stock`, the stock as a set of cards, is made when first read (most steps'
    expressions never read it, and a discard's plan asks for the names several times)."""

    __slots__ = ("stock_cards",)  # the stock as a list, made a set when `stock` is first read
    stock_cards: list[int]

    def __missing__(self, name: str) -> Any:
        if name != "stock":
            raise KeyError(name)
        self["stock"] = stock = C.mask_of(self.stock_cards)
        return stock
