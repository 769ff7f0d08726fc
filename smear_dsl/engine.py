"""The game engine: deals, whose turn, legal moves, applying moves (scoring: scoring.py).

Hands are int bitsets and moves small ints (see moves.py). A refused move raises
MoveError with a RECORD_FORMAT.md code and leaves the state exactly as it was: every
check happens before anything changes.
"""
from __future__ import annotations

import itertools
import math
import random
import secrets
from typing import Any

from . import cards as C
from . import moves as M
from .compiler import CompiledRules
from .errors import MoveError
from .scoring import HandResult, award, score_hand
from .shuffle import keyed_shuffle

_BIT = tuple(1 << c for c in range(64)).__getitem__  # card id -> its bit
_PASS, _BID_BASE, _TRUMP_BASE = M.PASS, M.BID_BASE, M.TRUMP_BASE  # read as globals on the bidding fast path

# Phases of a hand.
BIDDING, STEP, PLAY, HAND_DONE = 0, 1, 2, 3
PHASE_NAMES = ("bidding", "discarding", "play", "hand over")


class Game:
    """One game at one table. `Game(rules, seed=...)` deals itself; `auto_deal=False` waits for `start_hand(deal)`."""

    def __init__(self, rules: CompiledRules, seed: int | str | None = None, first_dealer: int | None = None,
                 auto_deal: bool = True, deal_source=None, hand_limit: int | None = None):
        """`deal_source(k)`, if given, supplies hand k's deal (duplicate boards) instead of the shuffle;
        with `hand_limit` (a tournament played by hands) the game ends after that many hands,
        won by the unique highest score (a tie: no winner)."""
        self.rules = rules
        self.deal_source = deal_source
        self.hand_limit = hand_limit
        self.n = rules.players
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        self.first_dealer = first_dealer if first_dealer is not None else self.rng.randrange(self.n)
        self.dealer = self.first_dealer
        self.scores = [0] * rules.n_sides
        self.finished = False
        self.winner: int | None = None
        self.results: list[HandResult] = []
        self.record_hands: list[dict[str, Any]] = []
        self.auto_deal = auto_deal
        self._new_hand([0] * self.n, [])
        self._compacted = self._compacted_results = 0  # hands and results compact_history has frozen
        # Set before each use (a lead, the phases, the start of play), so a new hand need not reset them.
        self.trick_leader = -1
        self.led = -1
        self.led_mask = 0
        self.follow_ok = 0
        self.trick_key = None  # the led suit's trick strength lookup (card -> key), set by each lead
        self.step = 0
        self.queue: list[int] | None = None
        self.held = [0] * self.n  # each seat's cards when play starts
        self.phase = HAND_DONE
        self.turn = -1
        if auto_deal:
            self.start_hand()

    # ------------------------------------------------------------------ dealing
    def _new_hand(self, hands: list[int], stock: list[int]) -> None:
        """Every per-hand attribute, set whole: for each deal, and (empty) when the game is created,
        so a game before its first deal has them too and nothing needs to ask whether they exist."""
        n = self.n
        self.hands = hands  # each seat's cards, a bitset
        self.dealt = list(hands)
        self.stock = stock
        self.bids: list[tuple[int, int]] = []  # (seat, value or 0 for pass)
        self.high = 0
        self.bidder = -1
        self.passed = [False] * n
        self.spoken = 0
        self.discarded = [0] * n
        self.credit = [0] * self.rules.n_sides
        self.trump = -1
        self.trick: list[int] = []  # cards of the trick in progress, in play order from `trick_leader`
        self.lead_free = False  # True once any card may be led without checks (trump known, no lead rule left)
        self.trick_no = 0
        self.tricks: list[tuple[int, int, list[int]]] = []  # (leader, winner, cards in play order)
        self.hand_moves: list[tuple[int, int]] = []  # (seat, move code); names are made on export
        self._lead_memo: tuple | None = None  # ((seat, hand, discarded, trick, trump), mask) of the last lead mask found

    def start_hand(self, deal: tuple[list[list[int]], list[int]] | None = None) -> None:
        """Begin the next hand with the given deal (card ids) or a fresh shuffle."""
        if self.finished:
            raise MoveError("GAME_OVER", "the game is over")
        r = self.rules
        if deal is None and self.deal_source is None:
            # Shuffle (shuffle.py's keyed shuffle) and deal in packets clockwise from the dealer's left.
            hands, stock = r.split_deal(keyed_shuffle(self.rng, r.deck, r.shuffle_plan), self.dealer)
        else:
            hands, stock = self.deal_source(len(self.record_hands)) if deal is None else deal
            hands, stock = [list(h) for h in hands], list(stock)
        self._new_hand([C.mask_of(h) for h in hands], stock)
        n = self.n
        # The record keeps the stock as dealt; a copy only if phases will draw from it.
        self.record_hands.append((self.dealer, hands, list(stock) if r.draws_stock else stock, self.hand_moves))
        self.phase = BIDDING
        self.turn = (self.dealer + 1) % n
        if r.redeal_if is not None:
            env = {"trump": -1}
            for seat in range(n):
                env["hand"] = self.hands[seat]
                if r.redeal_if(env):
                    self._end_void(same_dealer=True)
                    return

    def clone(self) -> "Game":
        """An independent copy (for search and perft): lists are copied, immutable parts shared."""
        g = Game.__new__(Game)
        d = dict(self.__dict__)
        for k, v in d.items():
            if isinstance(v, list):
                d[k] = list(v)
            elif isinstance(v, dict):
                d[k] = dict(v)
        if not isinstance(self.rng, secrets.SystemRandom):  # a seeded game's copy deals the same
            d["rng"] = random.Random()
            d["rng"].setstate(self.rng.getstate())
        g.__dict__.update(d)
        if self.record_hands:
            g.hand_moves = list(self.hand_moves)
            dealer, hands, stock, _moves = self.record_hands[-1]
            g.record_hands[-1] = (dealer, hands, stock, g.hand_moves)
        return g

    # ------------------------------------------------------------------ queries
    @property
    def hand_over(self) -> bool:
        return self.phase == HAND_DONE

    def expected_action(self) -> str | None:
        """The action the hand waits for: bid (pass or bid), discard, trump, play; None between hands."""
        if self.phase == BIDDING:
            return "bid"
        if self.phase == STEP:
            return "trump" if self.rules.steps[self.step].kind == "name_trump" else "discard"
        if self.phase == PLAY:
            return "play"
        return None

    def legal_moves(self) -> list[int]:
        """Every legal move of the seat to act (as move codes); empty between hands and after the game."""
        if self.phase == PLAY:
            return list(C.bits(self._legal_play_mask(self.turn)))
        if self.phase == BIDDING:
            return self._legal_bids()
        if self.phase == STEP:
            step = self.rules.steps[self.step]
            if step.kind == "name_trump":
                return [M.TRUMP_BASE + s for s in range(4)]
            return [M.DISCARD_FLAG | m for m in self._legal_discards(self.turn)]
        return []

    def random_move(self, rng: random.Random) -> int:
        """A uniformly random legal move (plays sampled straight from the bitset)."""
        phase = self.phase
        if phase == PLAY:
            # _legal_play_mask, inlined: this is the benchmark's hot path (a test checks they agree).
            m = self.hands[self.turn]
            if not self.trick:
                if not self.lead_free:
                    m = self._lead_mask(self.turn, m, self.discarded[self.turn], self.trick_no)
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
        if phase == STEP and self.rules.steps[self.step].kind == "discard":
            # Rejection sampling: a uniformly random subset of the discardable cards, of an allowed size (sizes weighted by
            # how many subsets they have), kept if legal, is uniform over the legal discards
            # without enumerating them all.
            seat = self.turn
            lo, hi = self._discard_range(seat)
            hand = self._discardable(seat)
            size = hand.bit_count()
            hi = min(hi, size)
            sizes = range(lo, hi + 1)
            weights = [math.comb(size, k) for k in sizes] if hi > lo else None
            for _ in range(64 if lo <= hi else 0):
                k = lo if weights is None else rng.choices(sizes, weights)[0]
                m = _random_subset(hand, size, k, rng)
                if self._discard_error(seat, m) is None:
                    return M.DISCARD_FLAG | m
        return rng.choice(self.legal_moves())

    # ------------------------------------------------------------------ applying
    def apply(self, seat: int, code: int) -> None:
        """Apply a move for `seat`, or raise MoveError (state unchanged)."""
        # Kept whole: the card-play path is inlined here because it runs for most moves of every
        # game (a call per play cost measurable speed); test_properties holds it to the plain checks.
        phase = self.phase
        if seat == self.turn:  # fast paths for the two common cases; anything odd goes through check_turn
            if phase == PLAY and 0 <= code < 64:  # playing a card: the hot path, inlined
                hands = self.hands
                hand = hands[seat]
                bit = 1 << code
                if not hand & bit:
                    raise MoveError("CARD_NOT_IN_HAND", f"{self.rules.name_of.get(code, str(code))} is not in seat {seat}'s hand")
                trick = self.trick
                if not trick:
                    if self.lead_free:  # trump known and no lead rule left: the lead only sets the trick up
                        self.led, self.led_mask, self.follow_ok, self.trick_key = self.rules.lead_info[self.trump][code]
                        self.trick_leader = seat
                    else:
                        self._lead(seat, code, hand)
                elif hand & self.led_mask and not bit & self.follow_ok:
                    raise MoveError("MUST_FOLLOW_SUIT", f"you must follow {C.SUIT_WORDS[self.led]}"
                                    + ("" if self.rules.follow_suit_only else " or play a trump"))
                self.hand_moves.append((seat, code))
                hands[seat] = hand ^ bit
                trick.append(code)
                n = self.n
                if len(trick) < n:
                    self.turn = seat + 1 if seat + 1 < n else 0
                    return
                # The trick is complete: the highest key wins; of equal keys the first, or with
                # `equal_last` the last, played.
                key = self.trick_key
                if n == 2:  # one comparison (True is 1: the second card wins)
                    wi = key(code) >= key(trick[0]) if self.rules.equal_last else key(code) > key(trick[0])
                elif self.rules.equal_last:
                    ks = list(map(key, trick))
                    wi = n - 1 - ks[::-1].index(max(ks))
                else:
                    wi = trick.index(max(trick, key=key))
                leader = self.trick_leader
                winner = (leader + wi) % n
                self.tricks.append((leader, winner, trick))
                self.trick = []
                self.turn = winner
                self.trick_no += 1
                if not any(hands):
                    self._score_hand()
                return
            if phase == BIDDING:
                if code == _PASS:
                    self._bid(seat, 0, True)
                    return
                if _BID_BASE <= code < _TRUMP_BASE:
                    self._bid(seat, code - _BID_BASE, False)
                    return
            if phase == STEP and M.DISCARD_FLAG <= code < M.DISCARD_FLAG << 1 \
                    and self.rules.steps[self.step].kind == "discard":
                self._discard(seat, code ^ M.DISCARD_FLAG)
                return
        self.check_turn(seat, M.action_of(code))
        if code == M.PASS or M.BID_BASE <= code < M.TRUMP_BASE:
            self._bid(seat, 0 if code == M.PASS else code - M.BID_BASE, code == M.PASS)
        elif code >= M.DISCARD_FLAG:
            self._discard(seat, code ^ M.DISCARD_FLAG)
        elif code >= M.TRUMP_BASE:
            self._name_trump(seat, code - M.TRUMP_BASE)
        else:  # unreachable: check_turn admits a play only when the fast path above takes it
            raise MoveError("WRONG_PHASE", "a card can be played only in the play")

    def check_turn(self, seat: int, action: str) -> None:
        """GAME_OVER / HAND_OVER / WRONG_TURN / WRONG_PHASE, in that order."""
        if self.finished and self.phase == HAND_DONE:
            raise MoveError("GAME_OVER", "the game is over")
        if self.phase == HAND_DONE:
            raise MoveError("HAND_OVER", "the hand is over")
        if seat != self.turn:
            raise MoveError("WRONG_TURN", f"it is seat {self.turn}'s turn, not seat {seat}'s")
        want = self.expected_action()
        ok = action in ("bid", "pass") if want == "bid" else action == want
        if not ok:
            need = {"bid": "a bid or a pass", "discard": "a discard", "trump": "naming trump", "play": "playing a card"}[want]
            raise MoveError("WRONG_PHASE", f"the hand is waiting for {need}, not a {action}")

    def _log(self, seat: int, code: int) -> None:
        self.hand_moves.append((seat, code))

    @property
    def moves_played(self) -> int:
        """Moves accepted in this game so far (every hand's log)."""
        return sum(len(moves) for _d, _h, _s, moves in self.record_hands)

    # ---- bidding
    def _bid_env(self, seat: int, value: int) -> dict[str, Any]:
        return {"bid": value, "high": self.high, "is_dealer": seat == self.dealer}

    def _forced(self, seat: int) -> bool:
        r = self.rules
        return r.all_pass == "dealer_bids" and seat == self.dealer and self.high == 0 and (
            r.rounds == "one" or all(self.passed[s] for s in range(self.n) if s != seat))

    def _bid_ok(self, seat: int, value: int) -> str | None:
        r = self.rules
        if value < r.bid_min or value > r.bid_max:
            return "BID_OUT_OF_RANGE"
        if value > self.high:
            return None
        if value == self.high and r.may_match is not None and r.may_match(self._bid_env(seat, value)):
            return None
        return "BID_TOO_LOW"

    def _legal_bids(self) -> list[int] | tuple[int, ...]:
        r = self.rules
        high = self.high
        if r.open_bids is not None:  # no matching and no forced bid: the legal bids depend on the high bid only
            return r.open_bids[high]
        seat = self.turn
        out = [] if r.all_pass == "dealer_bids" and self._forced(seat) else [M.PASS]
        if r.bid_min <= high <= r.bid_max and self._bid_ok(seat, high) is None:
            out.append(M.BID_BASE + high)
        out.extend(range(M.BID_BASE + max(r.bid_min, high + 1), M.BID_BASE + r.bid_max + 1))
        return out

    def _bid(self, seat: int, value: int, is_pass: bool) -> None:
        r = self.rules
        if is_pass:
            if r.all_pass == "dealer_bids" and self._forced(seat):
                raise MoveError("BID_OUT_OF_RANGE", f"everyone else passed: the dealer must bid at least {r.bid_min}")
            self.hand_moves.append((seat, _PASS))
            self.bids.append((seat, 0))
            self.passed[seat] = True
        else:
            if not value > self.high or not r.bid_min <= value <= r.bid_max:
                err = self._bid_ok(seat, value)
                if err == "BID_OUT_OF_RANGE":
                    raise MoveError(err, f"bids are {r.bid_min} to {r.bid_max}, not {value}")
                if err:
                    raise MoveError(err, f"a bid must be higher than {self.high}")
            self.hand_moves.append((seat, _BID_BASE + value))
            self.bids.append((seat, value))
            self.high, self.bidder = value, seat
            if value >= r.ends_at:
                self.spoken += 1
                self._end_bidding()
                return
        self.spoken += 1
        n = self.n
        if r.rounds == "one":
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
        if self.bidder < 0:
            if r.all_pass == "set_back":
                delta = [0] * r.n_sides
                delta[r.side_of[self.dealer]] = -r.set_back
                self._finish_void(delta, same_dealer=False)
            else:
                self._end_void(same_dealer=(r.all_pass == "redeal"))
            return
        if not r.steps:
            self._start_play()
            return
        self.phase = STEP
        self.step = 0
        self.queue = None
        self._advance_steps()

    # ---- phases between bidding and play
    def _step_env(self, seat: int) -> dict[str, Any]:
        return {"hand": self.hands[seat], "stock": C.mask_of(self.stock), "is_bidder": seat == self.bidder,
                "is_dealer": seat == self.dealer, "bid": self.high, "trump": self.trump}

    def _seats_for(self, who: str) -> list[int]:
        if who == "bidder":
            return [self.bidder]
        if who == "dealer":
            return [self.dealer]
        order = [(self.dealer + i) % self.n for i in range(1, self.n + 1)]
        if who == "non_dealers":
            return [s for s in order if s != self.dealer]
        if who == "non_bidders":
            return [s for s in order if s != self.bidder]
        return order

    def _discard_range(self, seat: int, env: dict[str, Any] | None = None) -> tuple[int, int]:
        step = self.rules.steps[self.step]
        if step.fixed_range is not None:
            return step.fixed_range
        if env is None:
            env = self._step_env(seat)
        if step.count is not None:
            k = step.count(env)
            return k, k
        return step.min(env), step.max(env)

    def _advance_steps(self) -> None:
        """Run automatic steps and skip empty discards until a seat must act, then start play."""
        steps = self.rules.steps
        while self.step < len(steps):
            step = steps[self.step]
            if self.queue is None:
                self.queue = self._seats_for(step.who)
            while self.queue:
                seat = self.queue[0]
                if step.kind == "take":
                    k = step.fixed_range[0] if step.fixed_range is not None else step.count(self._step_env(seat))
                    k = max(0, min(k, len(self.stock)))
                    self.hands[seat] |= sum(map(_BIT, self.stock[:k]))  # stock cards are distinct
                    del self.stock[:k]
                elif step.kind == "refill":
                    need = max(0, step.to(self._step_env(seat)) - self.hands[seat].bit_count())
                    need = min(need, len(self.stock))
                    self.hands[seat] |= C.mask_of(self.stock[:need])
                    del self.stock[:need]
                elif step.kind == "name_trump":
                    self.turn = seat
                    return
                else:
                    lo, hi = self._discard_range(seat)
                    if hi > 0 and self.hands[seat]:
                        self.turn = seat
                        return
                self.queue.pop(0)
            self.step += 1
            self.queue = None
        self._start_play()

    def _name_trump(self, seat: int, suit: int) -> None:
        self._log(seat, M.TRUMP_BASE + suit)
        self.trump = suit
        self.queue.pop(0)
        self._advance_steps()

    def _discard_error(self, seat: int, mask: int) -> str | None:
        """Why a discard of `mask` is refused, or None if it is legal."""
        step = self.rules.steps[self.step]
        hand = self.hands[seat]
        env = self._step_env(seat) if step.fixed_range is None or step.allowed or step.valid_if else None
        lo, hi = self._discard_range(seat, env)
        k = mask.bit_count()
        if not lo <= k <= hi:
            return f"discard {lo} card(s)" if lo == hi else f"discard {lo} to {hi} cards"
        if mask & ~hand:
            return "you can only discard cards in your hand"
        if step.allowed is not None:
            for c in C.bits(mask):
                env["card"] = c
                if not step.allowed(env):
                    return f"{self.rules.card_name(c)} may not be discarded"
        if step.valid_if is not None:
            env["discard"], env["kept"] = mask, hand & ~mask
            if not step.valid_if(env):
                return "this discard breaks the discard rule"
        if self.step == len(self.rules.steps) - 1 and len(self.queue) == 1 and self._first_leader() == seat:
            # The last action before play, by the first leader: the discard must leave a legal lead.
            if not self._can_lead(seat, hand & ~mask, self.discarded[seat] | mask):
                return "after this discard you would have no legal first lead"
        return None

    def _can_lead(self, seat: int, hand: int, discarded: int) -> bool:
        """Whether `seat` would have any legal first lead from `hand`."""
        return bool(self._lead_mask(seat, hand, discarded, 1))  # the whole mask: the first lead reuses it

    def discard_options(self, seat: int) -> tuple[int, int, int]:
        """(fewest, most, mask of the cards that may go) for the discard `seat` must make now."""
        lo, hi = self._discard_range(seat)
        mask = self._discardable(seat)
        return lo, min(hi, mask.bit_count()), mask

    def discard_error(self, seat: int, mask: int) -> str | None:
        """Why discarding `mask` now would be refused (None: it is legal)."""
        return self._discard_error(seat, mask)

    def _discardable(self, seat: int) -> int:
        """The cards of `seat`'s hand that the step's `allowed` lets go (all of them without one)."""
        step = self.rules.steps[self.step]
        hand = self.hands[seat]
        if step.allowed is None:
            return hand
        env = self._step_env(seat)
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

    def discard_cards(self, seat: int, cards: list[int]) -> None:
        """Discard a list of card ids (a repeated card is a BAD_DISCARD)."""
        self.check_turn(seat, "discard")
        if len(set(cards)) != len(cards):
            raise MoveError("BAD_DISCARD", "a card is repeated in the discard")
        self._discard(seat, C.mask_of(cards))

    def _discard(self, seat: int, mask: int) -> None:
        err = self._discard_error(seat, mask)
        if err:
            raise MoveError("BAD_DISCARD", err)
        self.hand_moves.append((seat, M.DISCARD_FLAG | mask))
        step = self.rules.steps[self.step]
        self.hands[seat] &= ~mask
        self.discarded[seat] |= mask
        if step.credit == "bidder":
            self.credit[self.rules.side_of[self.bidder]] |= mask
        elif step.credit == "own":
            self.credit[self.rules.side_of[seat]] |= mask
        self.queue.pop(0)
        self._advance_steps()

    # ---- play
    def _start_play(self) -> None:
        self.phase = PLAY
        self.lead_free = self.trump >= 0 and not self.rules.lead_checks
        self.held = list(self.hands)
        self.turn = self._first_leader()
        self.trick_no = 1

    def _first_leader(self) -> int:
        """Who leads the first trick once the phases are done."""
        return self.bidder if self.rules.leader == "bidder" else (self.dealer + 1) % self.n

    def _lead_mask(self, seat: int, hand: int, discarded: int, trick_no: int) -> int:
        """Cards `seat` may lead from `hand` under the lead rules (the last answer is kept: see `_lead_memo`).

        Rules that read the lead only as `lead.suit` are tested once per suit held, not once per card."""
        if self.trump < 0 and not self.rules.trump_named:
            hand &= C.SUITED_MASK  # a joker cannot fix trump
        if not self.rules.lead_checks:  # only an open trump restricts the lead
            return hand
        key = (seat, hand, discarded, trick_no, self.trump)
        memo = self._lead_memo
        if memo is not None and memo[0] == key:
            return memo[1]  # e.g. found when the leader's discard was checked, then again to lead, then in apply
        checks = self._active_checks(hand, discarded, trick_no)
        if not checks:
            return hand
        env = self._lead_env(seat, hand, discarded, trick_no)
        r = self.rules
        t1 = self.trump + 1
        eff, same_suit = r.eff_suit[t1], r.tables.suit_masks[t1]  # [effective suit + 1]; -1: jokers before trump
        # (cards led, the lead's suit): a rule that reads the lead only as `lead.suit` is tested once per suit held.
        if all(chk.by_suit for chk in checks):
            groups = [(hand & sm, sm) for sm in same_suit if hand & sm]
        else:
            groups = [(1 << c, same_suit[eff[c] + 1]) for c in C.bits(hand)]
        out = 0
        for g, sm in groups:
            env["lead"] = (g & -g).bit_length() - 1
            for chk in checks:
                # A rule that needs a discarded card of the lead's suit cannot fire without one.
                if (discarded & sm or not chk.needs_discard_of_lead_suit) and chk.forbid(env):
                    break
            else:
                out |= g
        self._lead_memo = (key, out)
        return out

    def _lead_env(self, seat: int, hand: int, discarded: int, trick_no: int) -> dict[str, Any]:
        """The names a lead rule sees (all but `lead`, which the caller sets per card)."""
        return {"hand": hand, "discarded": discarded, "trick": trick_no, "trump": self.trump,
                "trump_known": self.trump >= 0, "is_bidder": seat == self.bidder, "bid": self.high}

    def _active_checks(self, hand: int, discarded: int, trick_no: int) -> list:
        out = []
        for chk in self.rules.lead_checks:
            if chk.trick is not None and chk.trick != trick_no:
                continue
            if ("discarded" in chk.needs and not discarded) or ("hand" in chk.needs and not hand):
                continue
            out.append(chk)
        return out

    def _legal_play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand if self.lead_free else self._lead_mask(seat, hand, self.discarded[seat], self.trick_no)
        if hand & self.led_mask:
            return hand & self.follow_ok
        return hand

    def _lead(self, seat: int, c: int, hand: int) -> None:
        """Check a lead against the lead rules, then fix trump (if open), the led suit and the trick's order."""
        r = self.rules
        if r.lead_checks and (self.trick_no == 1 or r.lead_checks_later) \
                and not (self._lead_mask(seat, hand, self.discarded[seat], self.trick_no) >> c) & 1:
            # Refused: find the first rule that forbids it, for its code (a joker is refused below).
            checks = self._active_checks(hand, self.discarded[seat], self.trick_no)
            if checks:
                env = self._lead_env(seat, hand, self.discarded[seat], self.trick_no)
                env["lead"] = c
                for chk in checks:
                    if chk.forbid(env):
                        raise MoveError(chk.code, chk.message)
        trump = self.trump
        if trump < 0:
            if c >= C.N_SUITED:
                raise MoveError("WRONG_PHASE", "a joker cannot fix trump: lead a suited card")
            self.trump = trump = c // 13
        self.led, self.led_mask, self.follow_ok, self.trick_key = r.lead_info[trump][c]
        self.trick_leader = seat
        # Trump is known from here on; only rules that apply after the first trick can restrict a later lead.
        self.lead_free = not r.lead_checks_later

    # ---- derived state (cheap to compute when asked, so play does not maintain it)
    @property
    def trick_seats(self) -> list[int]:
        """Seats that played to the trick in progress, in play order."""
        return [(self.trick_leader + i) % self.n for i in range(len(self.trick))] if self.trick else []

    @property
    def played_mask(self) -> int:
        """Every card in a completed trick this hand."""
        out = 0
        for _l, _w, cards in self.tricks:
            for c in cards:
                out |= 1 << c
        return out

    def taken(self) -> list[int]:
        """Cards each seat has won in tricks this hand (a mask per seat)."""
        out = [0] * self.n
        for _l, w, cards in self.tricks:
            for c in cards:
                out[w] |= 1 << c
        return out

    # ------------------------------------------------------------------ scoring
    def _end_void(self, same_dealer: bool) -> None:
        self._finish_void([0] * self.rules.n_sides, same_dealer)

    def _finish_void(self, delta: list[int], same_dealer: bool) -> None:
        self.scores = [s + d for s, d in zip(self.scores, delta)]
        self.results.append(HandResult(self.dealer, None, None, None, None, None, None, delta, list(self.scores)))
        self._next_hand(same_dealer)

    def _next_hand(self, same_dealer: bool) -> None:
        self.phase = HAND_DONE
        self.turn = -1
        if self.hand_limit is not None and not self.finished and len(self.results) >= self.hand_limit:
            self.finished = True
            top = max(self.scores)
            self.winner = self.scores.index(top) if self.scores.count(top) == 1 else None
        if not same_dealer:
            self.dealer = (self.dealer + 1) % self.n
        if self.auto_deal and not self.finished:
            self.start_hand()

    def award_points(self) -> tuple[dict[str, int | None], list[int]]:
        """Who won each point this hand, and each side's card-value total for Game."""
        got, game_points = award(self, self.taken())
        return dict(zip(self.rules.point_names, got)), game_points

    def _score_hand(self) -> None:
        result, winner = score_hand(self)
        self.scores = list(result.scores)
        self.results.append(result)
        if winner is not None:
            self.finished = True
            self.winner = winner
        self._next_hand(False)

    def compact_history(self) -> None:
        """Freeze the finished hands' records and results into tuples (the same values), which the
        garbage collector stops tracking: a server holding many long games calls this as hands end."""
        n = len(self.record_hands) - (0 if self.phase == HAND_DONE else 1)
        for k in range(self._compacted, n):
            dealer, hands, stock, moves = self.record_hands[k]
            self.record_hands[k] = (dealer, tuple(map(tuple, hands)), tuple(stock), tuple(moves))
        self._compacted = max(self._compacted, n)
        for k in range(self._compacted_results, len(self.results)):
            res = self.results[k]
            self.results[k] = res._replace(game_points=None if res.game_points is None else tuple(res.game_points),
                                           delta=tuple(res.delta), scores=tuple(res.scores))
        self._compacted_results = len(self.results)

    # ------------------------------------------------------------------ views and records
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator): own hand, public play, scores; never other hands or the stock."""
        from .view import seat_view
        return seat_view(self, seat)

    def to_record(self) -> dict[str, Any]:
        """The game so far as a smear-record/1 document."""
        r = self.rules
        name = r.card_name
        return {"format": "smear-record/1", "rules": r.stem, "players": self.n, "options": dict(r.options),
                "first_dealer": self.first_dealer,
                "hands": [{"dealer": dealer,
                           "deal": {"hands": [[name(c) for c in h] for h in hands], "stock": [name(c) for c in stock]},
                           "moves": [M.to_dict(code, seat, name) for seat, code in moves]}
                          for dealer, hands, stock, moves in self.record_hands]}


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
