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

from smear_dsl import moves as M
from smear_dsl.engine import BIDDING, HAND_DONE, PLAY, STEP, Game
from smear_dsl.engine.knowledge import knowledge, world
from smear_dsl.errors import MoveError
from smear_dsl.players.botspec import DEFAULT, Budget
from smear_dsl.players.heuristic import HeuristicBot

DISCARD_CANDIDATES = 8  # discards tried: the weakest and random legal ones (there can be thousands)
SETTLE_WORLDS = 12  # worlds played before the search may stop early on a clear best move
SETTLE_Z = 3.0  # how clear: the best leads the next by this many standard errors of their paired difference
BID_SPREAD = 2  # bids tried: within this many of the heuristic's own bid (with the pass), not all of 1 to 14
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
        values: list[list[float | None]] = [[] for _ in cands]  # per candidate, its outcome in each world
        deadline = time.perf_counter() + self.budget.ms / 1000 if self.budget.ms is not None else None
        limit = self.budget.playouts or 1
        played, last = 0, len(cands) - 1
        while True:
            w = world(game, kn, self.rng)
            for i, code in enumerate(cands):  # each from its own copy of the world; the last plays the world itself
                values[i].append(self._playout(w.clone() if i < last else w, seat, code, side))
            played += len(cands)
            worlds = len(values[0])
            if deadline is not None and time.perf_counter() >= deadline or deadline is None and played >= limit:
                break
            if worlds >= SETTLE_WORLDS and worlds % 4 == 0 and settled(values):
                break
        self.last_playouts = played
        means = [_mean(v) for v in values]
        return cands[max(range(len(cands)), key=means.__getitem__)]

    def candidates(self, game: Game) -> list[int]:
        """The moves worth comparing: every legal move, but for a discard the weakest and a few random
        legal ones (listing every discard could mean thousands), and for a bid those near the hand's worth."""
        if game.phase == STEP and game.expected_action() == "discard":
            seat = game.turn
            weakest = self.rollout.weakest_discard(game)
            out: list[int] = [weakest] if weakest is not None else []
            for _ in range(DISCARD_CANDIDATES * 2):
                if len(out) >= DISCARD_CANDIDATES:
                    break
                m = game.sample_discard(seat, self.rng)
                if m is not None and (M.DISCARD_FLAG | m) not in out:
                    out.append(M.DISCARD_FLAG | m)
            return out or [game.random_move(self.rng)]
        legal = game.legal_moves()
        if game.phase == BIDDING:
            return self._bid_candidates(game, legal)
        return legal

    def _bid_candidates(self, game: Game, legal: list[int]) -> list[int]:
        """The pass (or the least bid) and the bids near what the heuristic would bid on this hand: a
        budget spread over every bid of a range that runs to 14 left each a handful of worlds, and the bids far
        from the hand's worth are the ones no playout would choose."""
        bids = [c for c in legal if M.BID_BASE <= c < M.TRUMP_BASE]
        if len(bids) <= 2 * BID_SPREAD + 1:
            return legal
        own = self.rollout.choose(game)
        anchor = own - M.BID_BASE if own in bids else min(bids) - M.BID_BASE
        near = [c for c in bids if abs(c - M.BID_BASE - anchor) <= BID_SPREAD]
        rest = [c for c in legal if not (M.BID_BASE <= c < M.TRUMP_BASE)]  # the pass, where there is one
        return rest + near if rest else sorted(set(near) | {min(bids)})

    def _playout(self, g: Game, seat: int, code: int, side: int) -> float | None:
        """The outcome for `side` of playing `code` in world `g` (which it plays on) and the hand out;
        None if the move is not legal there (a discard whose condition reads the unseen stock)."""
        try:
            g.apply(seat, code)
        except MoveError:
            return None
        bot = self.rollout
        choose, play, apply, play_legal = bot.choose, bot._play, g.apply, g.play_legal
        hands, legal_of = len(g.results), g._legal_play_mask
        for _ in range(ROLLOUT_CAP):
            phase = g.phase
            if phase == PLAY:  # bot.choose's card play, without its call: most of a playout's moves
                turn = g.turn
                legal = legal_of(turn)
                play_legal(turn, legal.bit_length() - 1 if not legal & (legal - 1) else play(g, legal))
            elif phase == HAND_DONE:
                break
            else:
                apply(g.turn, choose(g))
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
            v += g.rules.end.target if g.winner == side else -g.rules.end.target
        return v


def _mean(vals: list[float | None]) -> float:
    got = [v for v in vals if v is not None]
    return sum(got) / len(got) if got else float("-inf")


def settled(values: list[list[float | None]]) -> bool:
    """Whether more worlds would not change the choice: the best candidate leads the runner-up by
    SETTLE_Z standard errors of their difference world by world, or the two never differ."""
    order = sorted(range(len(values)), key=lambda i: _mean(values[i]), reverse=True)
    diffs = [a - b for a, b in zip(values[order[0]], values[order[1]]) if a is not None and b is not None]
    if len(diffs) < SETTLE_WORLDS:
        return False
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return var == 0 or mean > SETTLE_Z * (var / n) ** 0.5
