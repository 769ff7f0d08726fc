"""A game's state between hands, as plain JSON, and a game rebuilt from it without its history; and
the whole game as a smear-record/1 document (Snapshots.to_record).

Between hands a game is only its scores, dealer, hand counts, the last hand's result and its
shuffling generator's state; the next deal follows from these. A server saves this at each hand
boundary, so a restart or a rebuild replays only the moves of the hand in progress.
"""
from __future__ import annotations

import base64
import random
import struct
from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.engine.constants import HAND_DONE
from smear_dsl.engine.scoring import Awards, HandResult
from smear_dsl.engine.state import HandState
from smear_dsl.language.versions import record_rules

_MT = struct.Struct("<625I")  # the Mersenne Twister's 624 words and its position


def between_hands(game: HandState) -> dict[str, Any]:
    """The game as it stands between hands (the deal not made yet): plain JSON."""
    rng = game.rng
    state = None
    if type(rng) is random.Random:  # a seeded game: its deals continue from here
        version, words, gauss = rng.getstate()
        state = [version, base64.b64encode(_MT.pack(*words)).decode(), gauss]
    last = game.results[-1] if game.results else None
    return {"hands": len(game.record_hands), "results": len(game.results), "dealer": game.dealer,
            "scores": list(game.scores), "finished": game.finished, "winner": game.winner, "rng": state,
            "last": None if last is None else _result_fields(last),
            **({"ended_by": game.ended_by} if game.ended_by else {})}


def restore(cls: Any, rules: CompiledRules, state: dict[str, Any], **kwargs: Any) -> Any:
    """A game of class `cls` (Game) as `state` left it (Game.resume)."""
    game = cls(rules, auto_deal=False, **kwargs)
    game.resume(state)
    return game


def rng_state(saved: list[Any]) -> tuple[Any, ...]:
    """A seeded game's generator state from what `between_hands` saved of it."""
    version, words, gauss = saved
    return version, _MT.unpack(base64.b64decode(words)), gauss


def _result_fields(last: HandResult) -> list[Any]:
    """A hand's result as JSON: its nine verdict fields, then the awards in the order they fell."""
    out = [list(x) if isinstance(x, tuple) else x for x in last[:9]]
    return out + [None if last.fell is None else [list(e) for e in last.awards()]]


def result_of(fields: list[Any], rules: CompiledRules | None = None) -> HandResult:
    dealer, bidder, bid, trump, points, game_points, made, delta, scores = fields[:9]
    fell = fields[9] if len(fields) > 9 and rules is not None else None  # (saved before awards were kept: none)
    return HandResult(dealer, bidder, bid, trump, points, None if game_points is None else tuple(game_points), made,
                      tuple(delta), tuple(scores), None if fell is None else Awards((rules, tuple(map(tuple, fell)))))


class Snapshots(HandState):
    """A part of Game: standing at a snapshot, and letting history go (the fields are Game's)."""

    def resume(self, state: dict[str, Any]) -> None:
        """Stand where a snapshot's `state` (engine/snapshot.py) left the game, its earlier hands
        placeholders (None): it has their number, not their records; the next hand is dealt unless
        the game is over."""
        if state["rng"] is not None:
            self.rng.setstate(rng_state(state["rng"]))
        self.dealer = state["dealer"]
        self.scores = list(state["scores"])
        self.finished = state["finished"]
        self.winner = state["winner"]
        self.ended_by = state.get("ended_by")
        self.record_hands = [None] * state["hands"]
        last = state["last"]
        # Placeholders for the results let go (forget_history): their number is known, not their values.
        self.results = [None] * (state["results"] - (last is not None))  # type: ignore[list-item]
        if last is not None:
            self.results.append(result_of(last, self.rules))
        self._compacted, self._compacted_results = state["hands"], state["results"]
        self.auto_deal = self.keep_boundary = True
        self.boundary = state
        if not self.finished:
            self.start_hand()

    def forget_history(self) -> None:
        """Let the finished hands' records and all but the last result go (placeholders keep their count)."""
        done = len(self.record_hands) - (0 if self.phase == HAND_DONE else 1)
        for k in range(done):
            self.record_hands[k] = None
        for k in range(len(self.results) - 1):
            self.results[k] = None  # type: ignore[call-overload]  # a placeholder (see resume)
        self._compacted = max(self._compacted, done)
        self._compacted_results = len(self.results)

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

    def to_record(self) -> dict[str, Any]:
        """The game so far as a smear-record/1 document."""
        r = self.rules
        name = r.card_name
        return {"format": "smear-record/1", **record_rules(r.spec), "players": self.n, "options": dict(r.options),
                "first_dealer": self.first_dealer, **({"hand_limit": self.hand_limit} if self.hand_limit else {}),
                "hands": [{"dealer": dealer,
                           "deal": {"hands": [[name(c) for c in h] for h in hands], "stock": [name(c) for c in stock]},
                           "moves": [M.to_dict(code, seat, name) for seat, code in moves]}
                          for dealer, hands, stock, moves in self.record_hands]}
