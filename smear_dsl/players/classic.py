"""The first heuristic bot, kept as `heuristic@1` for the ladder (benchmarks/bench_ladder.py): it bids on
trump length as if every game were Four Point, so the present heuristic (heuristic.py) is measured against it."""
from __future__ import annotations

import random

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine import BEG, BIDDING, STEP, Game


class ClassicBot:
    """Bids on trump length and top trumps whatever the points; leads its highest trump, wins cheaply, throws low."""

    name = "heuristic@1"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, game: Game) -> int:
        if game.phase == STEP and game.expected_action() == "discard":
            quick = self.weakest_discard(game)
            if quick is not None:
                return quick
            return game.random_move(self.rng)  # none found within the search's bounds (see discards.py)
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if game.phase == BIDDING:
            return self._bid(game, legal)
        if game.phase == BEG:
            return self._beg(game, legal)
        if game.phase == STEP:
            return self._discard_or_trump(game, legal)
        return self._play(game, legal)

    def _suit_strength(self, game: Game, hand: int, suit: int) -> float:
        r = game.rules
        key = r.rank_order(suit)
        trumps = [c for c in C.bits(hand & r.trumps(suit))]
        top = max((key[c] for c in r.deck.cards), default=0)
        score = len(trumps) * 0.6
        for c in trumps:
            if key[c] >= top - 1:
                score += 1.0
            elif key[c] >= top - 3:
                score += 0.4
        return score

    def _best_suit(self, game: Game, hand: int) -> tuple[int, float]:
        return max(((s, self._suit_strength(game, hand, s)) for s in range(4)), key=lambda x: x[1])

    def _bid(self, game: Game, legal: list[int]) -> int:
        _s, strength = self._best_suit(game, game.hands[game.turn])
        bids = sorted(code for code in legal if code != M.PASS)
        if not bids:
            return M.PASS
        want = game.rules.bidding.min + int(max(0.0, strength - 2.5))
        ok = [b for b in bids if b - M.BID_BASE <= want]
        if ok and strength >= 2.5:
            return ok[-1]
        return M.PASS if M.PASS in legal else bids[0]

    def _beg(self, game: Game, legal: list[int]) -> int:
        """Stand (or, as dealer, give) on a turned-up suit the hand is strong in; else beg (or run)."""
        strong = self._suit_strength(game, game.hands[game.turn], game.trump) >= 2.0
        want = ("stand", "give") if strong else ("beg", "run")
        return next((code for code in legal if M.CHOICES[code - M.CHOOSE_BASE] in want), legal[-1])

    def weakest_discard(self, game: Game) -> int | None:
        """Keep the strongest cards: the legal discard of the weakest (side suits before trumps, low
        before high), found by the engine's discard plans without trying every combination."""
        seat = game.turn
        trump = game.trump if game.trump >= 0 else self._best_suit(game, game.hands[seat])[0]
        m = game.weakest_discard(seat, game.side_cards_first(trump))
        return None if m is None else M.DISCARD_FLAG | m

    def _discard_or_trump(self, game: Game, legal: list[int]) -> int:
        """Name the strongest suit; in turn (a pass allowed), only a suit worth leading from."""
        s, strength = self._best_suit(game, game.hands[game.turn])
        if M.PASS in legal and strength < 3.0:
            return M.PASS
        return M.TRUMP_BASE + s

    def _play(self, game: Game, legal: list[int]) -> int:
        r = game.rules
        seat = game.turn
        hand = game.hands[seat]
        if game.trump < 0:
            s, _ = self._best_suit(game, hand)
            key = r.rank_order(s)
            in_suit = [c for c in legal if r.suit_of(s, c) == s]
            return max(in_suit or legal, key=key.__getitem__)
        t = game.trump
        key = r.rank_order(t)
        if not game.trick:
            trumps = [c for c in legal if (r.trumps(t) >> c) & 1]
            if trumps and key[max(trumps, key=key.__getitem__)] >= max(key[c] for c in r.deck.cards) - 1:
                return max(trumps, key=key.__getitem__)
            return max(legal, key=key.__getitem__)
        wk = r.trick_strength(t, game.led)
        best = max(wk[c] for c in game.trick)
        partner_winning = r.side_of[game.trick_seats[max(range(len(game.trick)), key=lambda i: wk[game.trick[i]])]] == r.side_of[seat]
        winners = [c for c in legal if wk[c] > best]
        if winners and not partner_winning:
            return min(winners, key=wk.__getitem__)
        # Throw the cheapest card: lowest value, then lowest in order.
        return min(legal, key=lambda c: (r.deck.value[c] if not partner_winning else -r.deck.value[c], key[c]))
