"""A game's state between hands, as plain JSON, and a game rebuilt from it without its history.

Between hands a game is only its scores, dealer, hand counts, the last hand's result and its
shuffling generator's state; the next deal follows from these. A server saves this at each hand
boundary, so a restart or a rebuild replays only the moves of the hand in progress.
"""
from __future__ import annotations

import base64
import random
import struct
from typing import Any

from smear_dsl.engine.scoring import HandResult
from smear_dsl.engine.constants import HAND_DONE

_MT = struct.Struct("<625I")  # the Mersenne Twister's 624 words and its position


def between_hands(game) -> dict[str, Any]:
    """The game as it stands between hands (the deal not made yet): plain JSON."""
    rng = game.rng
    state = None
    if type(rng) is random.Random:  # a seeded game: its deals continue from here
        version, words, gauss = rng.getstate()
        state = [version, base64.b64encode(_MT.pack(*words)).decode(), gauss]
    last = game.results[-1] if game.results else None
    return {"hands": len(game.record_hands), "results": len(game.results), "dealer": game.dealer,
            "scores": list(game.scores), "finished": game.finished, "winner": game.winner, "rng": state,
            "last": None if last is None else [list(x) if isinstance(x, tuple) else x for x in last],
            **({"ended_by": game.ended_by} if game.ended_by else {})}


def restore(cls, rules, state: dict[str, Any], **kwargs) -> Any:
    """A game of class `cls` (Game) as `state` left it, the next hand dealt unless it is over. Its
    earlier hands are placeholders (None): it has their number, not their records."""
    game = cls(rules, auto_deal=False, **kwargs)
    if state["rng"] is not None:
        version, words, gauss = state["rng"]
        game.rng.setstate((version, _MT.unpack(base64.b64decode(words)), gauss))
    game.dealer = state["dealer"]
    game.scores = list(state["scores"])
    game.finished = state["finished"]
    game.winner = state["winner"]
    game.ended_by = state.get("ended_by")
    game.record_hands = [None] * state["hands"]
    last = state["last"]
    game.results = [None] * (state["results"] - (last is not None))
    if last is not None:
        game.results.append(_result(last))
    game._compacted, game._compacted_results = state["hands"], state["results"]
    game.auto_deal = True
    game.keep_boundary = True
    game.boundary = state
    if not game.finished:
        game.start_hand()
    return game


def forget_history(game) -> None:
    """Let the finished hands' records and all but the last result go (placeholders keep their count)."""
    done = len(game.record_hands) - (0 if game.phase == HAND_DONE else 1)
    for k in range(done):
        game.record_hands[k] = None
    for k in range(len(game.results) - 1):
        game.results[k] = None
    game._compacted = max(game._compacted, done)
    game._compacted_results = len(game.results)


def _result(fields: list) -> HandResult:
    dealer, bidder, bid, trump, points, game_points, made, delta, scores = fields
    return HandResult(dealer, bidder, bid, trump, points, None if game_points is None else tuple(game_points), made,
                      tuple(delta), tuple(scores))
