"""The bidding: legal bids, a bid or pass, and the end of the bidding."""
from __future__ import annotations

from typing import Any

from smear_dsl import moves as M
from smear_dsl.engine.constants import _BID_BASE, _PASS, STEP
from smear_dsl.engine.state import HandState
from smear_dsl.errors import MoveError
from smear_dsl.i18n import N_


class Bidding(HandState):
    """A part of Game, the bidding: legal bids, a bid or a pass, and the end of the bidding; its methods read and set the game's state."""

    # ---- bidding
    def _bid_env(self, seat: int, value: int) -> dict[str, Any]:
        return {"bid": value, "high": self.high, "is_dealer": seat == self.dealer}

    def _forced(self, seat: int) -> bool:
        r = self.rules
        return r.bidding.all_pass == "dealer_bids" and seat == self.dealer and self.high == 0 and (
            r.bidding.rounds == "one" or all(self.passed[s] for s in range(self.n) if s != seat))

    def _bid_ok(self, seat: int, value: int) -> str | None:
        r = self.rules
        if value < r.bidding.min or value > r.bidding.max:
            return "BID_OUT_OF_RANGE"
        if value > self.high:
            return None
        if value == self.high and r.bidding.may_match is not None and r.bidding.may_match(self._bid_env(seat, value)):
            return None
        return "BID_TOO_LOW"

    def _legal_bids(self) -> list[int] | tuple[int, ...]:
        r = self.rules
        high = self.high
        if r.bidding.open_bids is not None:  # no matching and no forced bid: the legal bids depend on the high bid only
            return r.bidding.open_bids[high]
        seat = self.turn
        out = [] if r.bidding.all_pass == "dealer_bids" and self._forced(seat) else [M.PASS]
        if r.bidding.min <= high <= r.bidding.max and self._bid_ok(seat, high) is None:
            out.append(M.BID_BASE + high)
        out.extend(range(M.BID_BASE + max(r.bidding.min, high + 1), M.BID_BASE + r.bidding.max + 1))
        return out

    def _bid(self, seat: int, value: int, is_pass: bool) -> None:
        r = self.rules
        if is_pass:
            if r.bidding.all_pass == "dealer_bids" and self._forced(seat):
                raise MoveError("BID_OUT_OF_RANGE", N_("everyone else passed: the dealer must bid at least {n}"), n=r.bidding.min)
            self.hand_moves.append((seat, _PASS))
            self.bids.append((seat, 0))
            self.passed[seat] = True
        else:
            if not value > self.high or not r.bidding.min <= value <= r.bidding.max:
                err = self._bid_ok(seat, value)
                if err == "BID_OUT_OF_RANGE":
                    raise MoveError(err, N_("bids are {lo} to {hi}, not {value}"), lo=r.bidding.min, hi=r.bidding.max, value=value)
                if err:
                    raise MoveError(err, N_("a bid must be higher than {high}"), high=self.high)
            self.hand_moves.append((seat, _BID_BASE + value))
            self.bids.append((seat, value))
            self.high, self.bidder = value, seat
            if value >= r.bidding.ends_at:
                self.spoken += 1
                self._end_bidding()
                return
        self.spoken += 1
        n = self.n
        if r.bidding.rounds == "one":
            if self.spoken >= n:
                self._end_bidding()
            else:
                self.turn = seat + 1 if seat + 1 < n else 0
            return
        active = [s for s in range(n) if not self.passed[s]]
        if not active or (len(active) == 1 and self.bidder == active[0]):
            self._end_bidding()
            return
        nxt = (seat + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _end_bidding(self) -> None:
        r = self.rules
        if self.bidder < 0 and r.bidding.all_pass in ("eldest_pitches", "dealer_plays"):  # plays as the bidder, no contract
            self.bidder, self.high = (self.dealer + (r.bidding.all_pass == "eldest_pitches")) % self.n, 0
        if self.bidder < 0 and not r.bidding.none:
            if r.bidding.all_pass == "set_back":
                delta = [0] * r.n_sides
                delta[r.side_of[self.dealer]] = -r.bidding.set_back
                self._finish_void(delta, same_dealer=False)
            else:
                self._end_void(same_dealer=(r.bidding.all_pass == "redeal"))
            return
        if not r.play.steps:
            self._start_play()
            return
        self.phase = STEP
        self.step = 0
        self.queue = None
        self._advance_steps()
