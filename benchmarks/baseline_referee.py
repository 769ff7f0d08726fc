"""A straightforward hand-written Python referee for the two seed variants, as a yardstick.

It is what one would write for these two games alone without a rule language: cards as
(rank, suit) tuples, hands as lists, `random.shuffle`, legal moves as lists, scoring loops.
It refuses illegal moves like the engine (same checks), so `bench_engine.py` can run random
games on both side by side. It is not used by smear-dsl itself.
"""
from __future__ import annotations

import random
from itertools import combinations

RANK_ORDER = "AKQJT98765432"  # high to low
VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}


class IllegalMove(Exception):
    pass


class Referee:
    """One game of Four Point (`four_point`, 4 players, partnerships) or Cutthroat (`cutthroat`, 2-3 players)."""

    def __init__(self, variant: str, players: int, widow: int = 0, seed: int | None = None, hand_limit: int = 200):
        self.variant = variant
        self.n = players
        self.widow = widow
        self.rng = random.Random(seed)
        self.teams = variant == "four_point"
        self.n_sides = 2 if self.teams else players
        ranks = "AKQJT987" if variant == "four_point" else RANK_ORDER
        self.deck = [(r, s) for s in "SHDC" for r in ranks]
        self.target = 15 if variant == "four_point" else 11
        self.scores = [0] * self.n_sides
        self.dealer = self.rng.randrange(players)
        self.hands_played = 0
        self.hand_limit = hand_limit
        self.finished = False
        self.moves = 0
        self.log: list[tuple[int, tuple]] = []  # every accepted move, for the game's record
        self.new_hand()

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    # ---- dealing and bidding
    def new_hand(self) -> None:
        deck = list(self.deck)
        self.rng.shuffle(deck)
        self.hands = [[] for _ in range(self.n)]
        pos = 0
        for packet in (3, 3):
            for i in range(1, self.n + 1):
                seat = (self.dealer + i) % self.n
                self.hands[seat].extend(deck[pos:pos + packet])
                pos += packet
        self.stock = deck[pos:]
        self.phase = "bid"
        self.turn = (self.dealer + 1) % self.n
        self.bids_made = 0
        self.high = 0
        self.bidder = None
        self.trump = None
        self.discarded = []
        self.trick = []
        self.tricks = []
        self.played_by = {}

    def legal_moves(self) -> list:
        if self.phase == "bid":
            return [("pass",)] + [("bid", b) for b in range(max(2, self.high + 1), 5)]
        if self.phase == "discard":
            return [("discard", c) for c in combinations(self.hands[self.turn], self.widow) if self._discard_ok(list(c))]
        return [("play", c) for c in self.hands[self.turn] if self._play_ok(self.turn, c)]

    def play(self, seat: int, move: tuple) -> None:
        if self.finished:
            raise IllegalMove("GAME_OVER")
        if seat != self.turn:
            raise IllegalMove("WRONG_TURN")
        kind = move[0]
        self._apply(seat, move, kind)
        self.log.append((seat, move))

    def _apply(self, seat: int, move: tuple, kind: str) -> None:
        if self.phase == "bid":
            if kind == "pass":
                pass
            elif kind == "bid":
                if not 2 <= move[1] <= 4:
                    raise IllegalMove("BID_OUT_OF_RANGE")
                if move[1] <= self.high:
                    raise IllegalMove("BID_TOO_LOW")
                self.high, self.bidder = move[1], seat
            else:
                raise IllegalMove("WRONG_PHASE")
            self.moves += 1
            self.bids_made += 1
            if self.high == 4 or self.bids_made == self.n:
                self._end_bidding()
            else:
                self.turn = (seat + 1) % self.n
        elif self.phase == "discard":
            if kind != "discard" or not self._discard_ok(list(move[1])):
                raise IllegalMove("BAD_DISCARD")
            self.moves += 1
            for c in move[1]:
                self.hands[seat].remove(c)
                self.discarded.append(c)
            self.phase = "play"
        else:
            if kind != "play":
                raise IllegalMove("WRONG_PHASE")
            card = move[1]
            if card not in self.hands[seat]:
                raise IllegalMove("CARD_NOT_IN_HAND")
            if not self._play_ok(seat, card):
                raise IllegalMove("MUST_FOLLOW_SUIT" if self.trick else "TRUMP_DISCARDED")
            self.moves += 1
            if self.trump is None:
                self.trump = card[1]
            self.hands[seat].remove(card)
            self.trick.append((seat, card))
            self.played_by[card] = seat
            if len(self.trick) < self.n:
                self.turn = (seat + 1) % self.n
                return
            winner = self._trick_winner()
            self.tricks.append((winner, [c for _s, c in self.trick]))
            self.trick = []
            self.turn = winner
            if not self.hands[winner]:
                self._score()

    def _end_bidding(self) -> None:
        if self.bidder is None:  # all passed: the same dealer deals again
            self.new_hand()
            return
        self.turn = self.bidder
        if self.widow:
            self.hands[self.bidder].extend(self.stock[:self.widow])
            del self.stock[:self.widow]
            self.phase = "discard"
        else:
            self.phase = "play"

    def _discard_ok(self, cards: list) -> bool:
        if len(cards) != self.widow or any(c not in self.hands[self.turn] for c in cards):
            return False
        kept = [c for c in self.hands[self.turn] if c not in cards]
        return any(self._lead_ok(kept, cards, c) for c in kept)

    def _lead_ok(self, hand: list, discarded: list, card: tuple) -> bool:
        """First lead (it fixes trump): not a suit the bidder discarded while holding another suit."""
        suit = card[1]
        return not (any(d[1] == suit for d in discarded) and any(c[1] != suit for c in hand))

    def _play_ok(self, seat: int, card: tuple) -> bool:
        if not self.trick:
            return self.trump is not None or seat != self.bidder or self._lead_ok(self.hands[seat], self.discarded, card)
        led = self.trick[0][1][1]
        if card[1] == led or card[1] == self.trump:
            return True
        return not any(c[1] == led for c in self.hands[seat])

    def _trick_winner(self) -> int:
        led = self.trick[0][1][1]
        best_seat, best_key = None, None
        for seat, (rank, suit) in self.trick:
            if suit == self.trump:
                key = (2, -RANK_ORDER.index(rank))
            elif suit == led:
                key = (1, -RANK_ORDER.index(rank))
            else:
                key = (0, 0)
            if best_key is None or key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    # ---- scoring
    def _score(self) -> None:
        trump = self.trump
        points = [0] * self.n_sides
        trumps_played = [c for c in self.played_by if c[1] == trump]
        if ("A", trump) in self.played_by:
            points[self.side(self.played_by[("A", trump)])] += 1
        if self.variant == "four_point":
            if ("7", trump) in self.played_by:
                points[self.side(self.played_by[("7", trump)])] += 1
        else:
            low = max(trumps_played, key=lambda c: RANK_ORDER.index(c[0]))
            points[self.side(self.played_by[low])] += 1
        for winner, cards in self.tricks:
            if ("J", trump) in cards:
                points[self.side(winner)] += 1
        game = [0] * self.n_sides
        for winner, cards in self.tricks:
            for rank, _suit in cards:
                game[self.side(winner)] += VALUES.get(rank, 0)
        for rank, _suit in self.discarded:
            game[self.side(self.bidder)] += VALUES.get(rank, 0)
        top = max(game)
        if game.count(top) == 1:
            points[game.index(top)] += 1
        bside = self.side(self.bidder)
        previous = list(self.scores)
        made = points[bside] >= self.high
        for s in range(self.n_sides):
            if s == bside and not made:
                self.scores[s] -= self.high
            else:
                self.scores[s] += points[s]
        self.hands_played += 1
        if self.variant == "four_point":
            winners = [s for s in range(self.n_sides) if self.scores[s] >= self.target]
            if winners:
                self.finished = True
        elif made and (self.scores[bside] >= self.target or (self.high == 4 and previous[bside] >= 1)):
            self.finished = True
        if self.hands_played >= self.hand_limit:
            self.finished = True
        self.dealer = (self.dealer + 1) % self.n
        if not self.finished:
            self.new_hand()


def random_game(variant: str, players: int, widow: int, seed: int, rng: random.Random) -> tuple[int, int]:
    """Play one random game: (moves, hands)."""
    ref = Referee(variant, players, widow, seed)
    while not ref.finished:
        ref.play(ref.turn, rng.choice(ref.legal_moves()))
    return ref.moves, ref.hands_played
