"""A search bot for any rule file: perfect-information Monte Carlo over the worlds a seat cannot
tell apart.

For each move it samples worlds consistent with what the seat knows (knowledge.py: the hidden
cards dealt anew, voids respected), tries every candidate move in each world, plays the rest of
the hand out with the heuristic bot in every seat, and keeps the move with the best average
outcome for its side (its points less the others', and the game's value when the hand ends it).
Every candidate sees the same worlds, so their difference is not noise of the sampling. The
budget is playouts or wall-clock milliseconds per move.
"""
from __future__ import annotations

import random
import time

from . import moves as M
from .botspec import DEFAULT, Budget
from .bots import HeuristicBot
from .engine import HAND_DONE, STEP, Game
from .errors import MoveError
from .knowledge import knowledge, world

DISCARD_CANDIDATES = 8  # discards tried: the weakest and random legal ones (there can be thousands)
ROLLOUT_CAP = 2_000  # moves in one playout, a bound on any rule file (a hand has far fewer)


class SearchBot:
    """Chooses by playing out sampled worlds (see the module). Only `knowledge(game, seat)` is read of
    the real game's hidden cards' places; everything else it plays on is a sampled world."""

    name = "search"

    def __init__(self, rng: random.Random | None = None, budget: Budget = DEFAULT):
        self.rng = rng or random.Random()
        self.budget = budget
        self.rollout = HeuristicBot(random.Random(self.rng.getrandbits(64)))
        self.last_playouts = 0

    def choose(self, game: Game) -> int:
        seat = game.turn
        cands = self.candidates(game)
        if len(cands) == 1:
            self.last_playouts = 0
            return cands[0]
        kn = knowledge(game, seat)
        side = game.rules.side_of[seat]
        total = [0.0] * len(cands)
        count = [0] * len(cands)
        played = 0
        deadline = time.perf_counter() + self.budget.ms / 1000 if self.budget.ms is not None else None
        while True:
            w = world(game, kn, self.rng)
            for i, code in enumerate(cands):
                v = self._playout(w, seat, code, side)
                if v is not None:
                    total[i] += v
                    count[i] += 1
            played += len(cands)
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif played >= (self.budget.playouts or 1):
                break
        self.last_playouts = played
        means = [t / c if c else float("-inf") for t, c in zip(total, count)]
        return cands[max(range(len(cands)), key=means.__getitem__)]

    def candidates(self, game: Game) -> list[int]:
        """The moves worth comparing: every legal move, but for a discard the weakest and a few random
        legal ones (listing every discard could mean thousands)."""
        if game.phase == STEP and game.expected_action() == "discard":
            seat = game.turn
            out: list[int] = []
            weakest = game.weakest_discard(seat, game.side_cards_first(game.trump if game.trump >= 0 else 0))
            if weakest is not None:
                out.append(M.DISCARD_FLAG | weakest)
            for _ in range(DISCARD_CANDIDATES * 2):
                if len(out) >= DISCARD_CANDIDATES:
                    break
                m = game.sample_discard(seat, self.rng)
                if m is not None and (M.DISCARD_FLAG | m) not in out:
                    out.append(M.DISCARD_FLAG | m)
            return out or [game.random_move(self.rng)]
        return game.legal_moves()

    def _playout(self, w: Game, seat: int, code: int, side: int) -> float | None:
        """The outcome for `side` of playing `code` in world `w` and the hand out; None if the move
        is not legal there (a discard whose condition reads the unseen stock)."""
        g = w.clone()
        try:
            g.apply(seat, code)
        except MoveError:
            return None
        bot = self.rollout
        hands = len(g.results)
        for _ in range(ROLLOUT_CAP):
            if g.phase == HAND_DONE:
                break
            g.apply(g.turn, bot.choose(g))
        return self.value(g, side, hands)

    @staticmethod
    def value(g: Game, side: int, hands: int) -> float:
        """The hand's points for `side` less the others' average, plus the game's target for a game
        won (less for one lost) when the hand ended it."""
        if len(g.results) <= hands:
            return 0.0
        delta = g.results[-1].delta
        others = [d for i, d in enumerate(delta) if i != side]
        v = delta[side] - (sum(others) / len(others) if others else 0.0)
        if g.finished and g.winner is not None:
            v += g.rules.target if g.winner == side else -g.rules.target
        return v
