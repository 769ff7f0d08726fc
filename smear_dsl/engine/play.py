"""The play of the cards: legal leads and follows, the first leader, tricks and who took what."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smear_dsl import cards as C
from smear_dsl.engine.constants import PLAY
from smear_dsl.engine.state import HandState
from smear_dsl.errors import MoveError
from smear_dsl.i18n import N_

GUARD_ANSWERS = 1 << 14  # follow guards' answers kept per rule set (by lead, winner, trump and what else they read)


class Play(HandState):
    """A part of Game, the play of the cards: legal leads and follows, the first leader, tricks and who took what;
    its methods read and set the game's state."""

    # ---- play
    def _start_play(self) -> None:
        self.phase = PLAY
        self.lead_free = self.trump >= 0 and not self.rules.play.lead_checks
        self.held = list(self.hands)
        self.turn = self._first_leader()
        self.trick_no = 1
        if not all(self.hands):  # a seat holds nothing (the phases took it all): no trick can be played
            self._score_hand()

    def _first_leader(self) -> int:
        """Who leads the first trick once the phases are done."""
        leader = self.rules.play.leader
        if leader == "bidder":
            return self.bidder
        return self.namer if leader == "namer" and self.namer >= 0 else (self.dealer + 1) % self.n

    def _lead_mask(self, seat: int, hand: int, discarded: int, trick_no: int) -> int:
        """Cards `seat` may lead from `hand` under the lead rules (the last answer is kept: see `_lead_memo`).

        Rules that read the lead only as `lead.suit` are tested once per suit held, not once per card."""
        if self.trump < 0 and not self.rules.play.trump_named:
            hand &= C.SUITED_MASK  # a joker cannot fix trump
        if not self.rules.play.lead_checks:  # only an open trump restricts the lead
            return hand
        key = (seat, hand, discarded, trick_no, self.trump)
        memo = self._lead_memo
        if memo is not None and memo[0] == key:
            found: int = memo[1]  # e.g. found when the leader's discard was checked, then again to lead, then in apply
            return found
        checks = self._active_checks(hand, discarded, trick_no)
        if not checks:
            return hand
        env = self.lead_env(seat, hand, discarded, trick_no)
        r = self.rules
        t1 = self.trump + 1
        eff, same_suit = r.deck.eff_suit[t1], r.tables.suit_masks[t1]  # [effective suit + 1]; -1: jokers before trump
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

    def _any_lead(self, hand: int) -> int:
        """The leads allowed when the lead rules would forbid every card held: then none applies (a
        player always has a card to lead), except that a joker cannot fix trump while a suited card
        can (a hand of jokers alone leads one, which fixes spades: see `_lead`)."""
        if self.trump < 0 and not self.rules.play.trump_named:
            return hand & C.SUITED_MASK or hand
        return hand

    def lead_env(self, seat: int, hand: int, discarded: int, trick_no: int) -> dict[str, Any]:
        """The names a lead rule sees (all but `lead`, which the caller sets per card)."""
        return {"hand": hand, "discarded": discarded, "trick": trick_no, "trump": self.trump,
                "trump_known": self.trump >= 0, "is_bidder": seat == self.bidder, "bid": self.high}

    def _active_checks(self, hand: int, discarded: int, trick_no: int) -> list[Any]:
        out = []
        for chk in self.rules.play.lead_checks:
            if chk.trick is not None and chk.trick != trick_no:
                continue
            if ("discarded" in chk.needs and not discarded) or ("hand" in chk.needs and not hand):
                continue
            out.append(chk)
        return out

    def _legal_play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand if self.lead_free else \
                self._lead_mask(seat, hand, self.discarded[seat], self.trick_no) or self._any_lead(hand)
        base = hand & self.follow_ok if hand & self.led_mask else hand
        return self._follow_mask(seat, base) if self.rules.play.follow_checks else base

    # ---- follow rules (play.follow_rules): judged card by card, on top of the following rule
    def _follow_env(self, seat: int, base: int) -> tuple[dict[str, Any], Any]:
        """The names a follow rule sees (all but `play` and `wins`, set per card), and `beats(card)`:
        whether a card would take the trick so far."""
        env = self._follow_names(seat, base)
        return env, env.beats

    def _follow_names(self, seat: int, base: int) -> _FollowEnv:
        """The names a follow rule sees; the sets that cost a walk over cards (`wins` of each card as a
        set, `can_win`, `trick_cards`) are found only if a rule reads them (_FollowEnv)."""
        key, trick, last = self.trick_key, self.trick, self.rules.play.equal_last
        win, wk = self._winning()
        env = _FollowEnv({"lead": trick[0], "winning": win, "legal": base, "hand": self.hands[seat],
                          "trick": self.trick_no, "trump": self.trump, "is_bidder": seat == self.bidder,
                          "bid": self.high})
        env.key, env.top, env.last, env.cards = key, wk, last, trick
        return env

    def _winning(self) -> tuple[int, Any]:
        """The card winning the trick so far and its key: as a completed trick is judged, a higher key
        wins and equal keys go by equal_last."""
        key, trick = self.trick_key, self.trick
        win = trick[0]
        wk = key(win)
        if len(trick) > 1:  # (a two-seat game's every follow has the lead alone)
            last = self.rules.play.equal_last
            for c in trick[1:]:
                k = key(c)
                if k > wk or (last and k == wk):
                    win, wk = c, k
        return win, wk

    def _guards_off(self, seat: int, guard: tuple[Any, ...]) -> bool:
        """Whether every follow rule's guard (the parts that read only the trick) is false now, so none
        forbids a card; answers are kept by what the guards read (at most GUARD_ANSWERS of them)."""
        fns, reads_trick, reads_bidder, reads_bid, known = guard
        win = self._winning()[0]
        key = (self.trick[0], win, self.trump, self.trick_no if reads_trick else 0,
               seat == self.bidder if reads_bidder else False, self.high if reads_bid else 0)
        off: bool | None = known.get(key)
        if off is None:
            env = {"lead": key[0], "winning": win, "trump": self.trump, "trick": self.trick_no,
                   "is_bidder": seat == self.bidder, "bid": self.high}
            off = not any(fn(env) for fn in fns)
            if len(known) >= GUARD_ANSWERS:
                known.clear()
            known[key] = off
        return off

    def _forbidding(self, env: dict[str, Any], beats: Callable[[int], bool], c: int) -> Any:
        """The first follow rule that forbids playing `c` (None: none does)."""
        env["play"], env["wins"] = c, beats(c)
        return next((chk for chk in self.rules.play.follow_checks if chk.forbid(env)), None)

    def _follow_mask(self, seat: int, base: int) -> int:
        """The cards of `base` no follow rule forbids; if the rules would forbid them all, none applies
        (a player always has a card to play). The last answer is kept (random_move, a bot and apply ask alike)."""
        # Within a hand the log of its moves fixes the trick, trump and bid: the answer is kept for this
        # log at this length, this seat and hand (a world's redeal changes the hand, a copy the log).
        moves, hand = self.hand_moves, self.hands[seat]
        memo = self._follow_memo
        if memo is not None and memo[0] is moves and memo[1] == len(moves) and memo[2] == seat and memo[3] == hand \
                and memo[4] == base:
            kept: int = memo[5]
            return kept
        guard = self.rules.play.follow_guard
        if guard is not None and self._guards_off(seat, guard):  # no rule applies to this trick: the hand unread
            self._follow_memo = (moves, len(moves), seat, hand, base, base)
            return base
        env = self._follow_names(seat, base)
        vectors = self.rules.play.follow_vectors
        if vectors is not None:  # each rule as the set it forbids: one step
            forbidden = 0
            for forbid_cards in vectors:
                forbidden |= forbid_cards(env)
            out = base & ~forbidden
        else:
            out = 0
            for c in C.bits(base):
                if self._forbidding(env, env.beats, c) is None:
                    out |= 1 << c
        out = out or base
        self._follow_memo = (moves, len(moves), seat, hand, base, out)
        return out

    def _refuse_follow(self, seat: int, c: int, base: int) -> None:
        """Refuse a follow of `c` (one of `base`, the cards the following rule allows) that a follow
        rule forbids, with that rule's code and message."""
        env, beats = self._follow_env(seat, base)
        refusal = self._forbidding(env, beats, c)
        raise MoveError(refusal.code, refusal.message)

    def _lead(self, seat: int, c: int, hand: int) -> None:
        """Check a lead against the lead rules, then fix trump (if open), the led suit and the trick's order."""
        r = self.rules
        if r.play.lead_checks and (self.trick_no == 1 or r.play.lead_checks_later) \
                and not ((self._lead_mask(seat, hand, self.discarded[seat], self.trick_no) or self._any_lead(hand)) >> c) & 1:
            # Refused: find the first rule that forbids it, for its code (a joker is refused below).
            checks = self._active_checks(hand, self.discarded[seat], self.trick_no)
            if checks:
                env = self.lead_env(seat, hand, self.discarded[seat], self.trick_no)
                env["lead"] = c
                for chk in checks:
                    if chk.forbid(env):
                        raise MoveError(chk.code, chk.message)
        trump = self.trump
        if trump < 0:
            if c >= C.N_SUITED and hand & C.SUITED_MASK:
                raise MoveError("WRONG_PHASE", N_("a joker cannot fix trump: lead a suited card"))
            self.trump = trump = c // 13 if c < C.N_SUITED else 0  # a hand of jokers alone: a joker leads as a spade
        self.led, self.led_mask, self.follow_ok, self.trick_key = r.play.lead_info[trump][c]
        self.trick_leader = seat
        # Trump is known from here on; only rules that apply after the first trick can restrict a later lead.
        self.lead_free = not r.play.lead_checks_later

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
        if self.n == 4:  # every trick holds a card a seat (apply ends it at n): unpacked, a third faster
            for _l, w, (a, b, c, d) in self.tricks:
                out[w] |= (1 << a) | (1 << b) | (1 << c) | (1 << d)
            return out
        for _l, w, cards in self.tricks:
            m = 0
            for c in cards:
                m |= 1 << c
            out[w] |= m
        return out


class _FollowEnv(dict[str, Any]):
    """A follow rule's names, where the sets that cost a walk over cards are worked out when first read:
    `wins_set` (the cards of `legal` that would take the trick so far), `can_win`, `trick_cards`."""

    # the trick's strength lookup (card -> key), the key winning it so far, whether equal keys go to the
    # last played (equal_last), and the trick's cards
    __slots__ = ("key", "top", "last", "cards")
    key: Any  # a card's key: a list indexed by card, or a function
    top: Any
    last: bool
    cards: list[int]

    def beats(self, c: int) -> bool:
        """Whether card `c` would take the trick as it stands."""
        k = self.key(c)
        return bool(k >= self.top if self.last else k > self.top)

    def __missing__(self, name: str) -> Any:
        if name == "wins_set" or name == "can_win":
            beats, wins, m = self.beats, 0, self["legal"]
            while m:
                low = m & -m
                if beats(low.bit_length() - 1):
                    wins |= low
                m ^= low
            self["wins_set"], self["can_win"] = wins, wins != 0
            return self[name]
        if name == "trick_cards":
            out = 0
            for c in self.cards:
                out |= 1 << c
            self[name] = out
            return out
        raise KeyError(name)
