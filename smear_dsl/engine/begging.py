"""Begging (`beg:`): the player left of the dealer stands on the turned-up trump or begs; the dealer
then gives the beggar's side the gift point or runs the cards, dealing more to everyone and turning
up again until a new suit shows."""
from __future__ import annotations

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine.constants import BEG
from smear_dsl.engine.scoring import may_win_before_play, score_hand
from smear_dsl.engine.state import HandState
from smear_dsl.errors import MoveError
from smear_dsl.i18n import N_, Phrase

STAND, BEG_, GIVE, RUN = (M.CHOOSE_BASE + i for i in range(len(M.CHOICES)))


class Begging(HandState):
    """A part of Game, begging and the points settled before the play; its methods read and set the game's state."""

    # The card turned up for trump (its suit is trump once settled), the side given the gift (-1:
    # none), and the turned-up cards the dealer set aside when running the cards (public). Class
    # defaults: a game without begging or a turned-up card never sets them.
    turn_card = -1
    gift_side = -1
    turned_down: list[int] = ()  # type: ignore[assignment]  # a tuple: never appended to before _start_beg's list

    def _start_beg(self) -> None:
        """The eldest hand (left of the dealer) speaks first: stand or beg."""
        self.phase = BEG
        self.gift_side = -1
        self.turned_down = []
        self.turn = (self.dealer + 1) % self.n

    def _legal_choices(self) -> list[int]:
        if self.turn != self.dealer:
            return [STAND, BEG_]
        return [GIVE, RUN] if self._may_give() else [RUN]

    def _may_give(self) -> bool:
        """Whether the dealer may give: unless the rules allow it, not a gift that reaches the target."""
        r = self.rules
        side = r.side_of[(self.dealer + 1) % self.n]
        return r.bidding.gift_may_win or self.scores[side] + r.points.gift_value < r.end.target

    def _choose(self, seat: int, code: int) -> None:
        """Apply a choice: refused with CHOICE_NOT_ALLOWED unless it is the seat's to make now."""
        if code not in self._legal_choices():
            name = M.CHOICES[code - M.CHOOSE_BASE]
            why = (N_("the dealer may not give a point that would win the game: he must run the cards") if code == GIVE
                   and seat == self.dealer else N_("the player left of the dealer stands or begs") if seat != self.dealer
                   else N_("the dealer gives a point or runs the cards"))
            raise MoveError("CHOICE_NOT_ALLOWED", N_("you cannot {choice} now: {why}"), choice=Phrase(M.CHOICE_WORDS[name]),
                            why=Phrase(why))
        self.hand_moves.append((seat, code))
        if code == BEG_:
            self.turn = self.dealer
        elif code == GIVE:
            self.gift_side = self.rules.side_of[(self.dealer + 1) % self.n]
            self._trump_settled()
        elif code == RUN:
            self._run_cards()
        else:
            self._trump_settled()

    def _run_cards(self) -> None:
        """Set the turned-up card aside, deal `run` more to each from the dealer's left, turn up the next;
        again while it is of the suit begged. If the stock runs out first, the same dealer deals again."""
        n, k, stock = self.n, self.rules.bidding.beg_run, self.stock
        begged = C.suit_of(self.turn_card)
        while True:
            if len(stock) < 1 + k * n + 1:
                self._end_void(same_dealer=True)
                return
            self.turned_down.append(stock.pop(0))
            for i in range(1, n + 1):
                seat = (self.dealer + i) % n
                got = C.mask_of(stock[:k])
                del stock[:k]
                self.hands[seat] |= got
                self.dealt[seat] |= got
            self.turn_card = stock[0]
            if C.suit_of(self.turn_card) != begged:
                break
        self._trump_settled()

    def _trump_settled(self) -> None:
        """Trump is the turned-up card's suit; on to the phases and the play, unless the points settled
        now win the game."""
        self.trump = C.suit_of(self.turn_card)
        if not self._won_before_play():
            self._end_bidding()

    def _won_before_play(self) -> bool:
        """Without bidding, points settled before the play (the gift, a turned-up card) count at once: a
        side they take to a win wins the game before a card is played (the hand ends there)."""
        if not (self.rules.points.pre_points and self.rules.bidding.none) or not may_win_before_play(self):
            return False
        result, winner = score_hand(self, early=True)
        if winner is None:
            return False
        self._record_result(result, winner)
        return True
