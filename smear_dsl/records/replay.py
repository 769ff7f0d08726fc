"""Every position of a recorded game, for a replay viewer: the record re-refereed by `verify`,
with each seat's cards, the trick, the bidding, trump and scores after each deal and each move.

A replay shows every hand face up, so it is made only from a finished record (the referee
serves a table's replay once the game and its duplicate round are over).
"""
from __future__ import annotations

from typing import Any

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine import Game
from smear_dsl.i18n import LANGUAGES, rules_title
from smear_dsl.records.verify import rules_for, verify

MAX_STEPS = 100_000  # positions kept; a record within the referee's size limit has far fewer


def replay(record: Any, allow_paths: bool = True) -> dict[str, Any]:
    """{"rules", "titles", "players", "side_of", "steps": [...], "verdict"}; RecordError if unreadable.
    `titles`: the rules' name and version in each language ("Name, version 2")."""
    rules = rules_for(record, allow_paths)
    steps: list[dict[str, Any]] = []

    def observe(game: Game, hand: int, move: int | None) -> None:
        if len(steps) < MAX_STEPS:
            steps.append(position(game, hand, move))
    verdict = verify(record, allow_paths, observe)
    return {"rules": rules.ref, "titles": {lang: rules_title(rules.spec, lang) for lang in LANGUAGES},
            "players": rules.players, "side_of": list(rules.side_of),
            "steps": steps, "verdict": verdict}


def position(game: Game, hand: int, move: int | None) -> dict[str, Any]:
    """One position, every card face up."""
    name = game.rules.card_name
    sort = (lambda cs: [name(c) for c in sorted(cs, key=lambda c: (C.suit_of(c), -c))])
    last = None
    if move is not None:
        seat, code = game.hand_moves[-1]
        last = M.to_dict(code, seat, name)
    trick = [{"seat": s, "card": name(c)} for s, c in zip(game.trick_seats, game.trick)]
    if not trick and game.tricks:
        leader, _winner, cards = game.tricks[-1]
        trick = [{"seat": (leader + i) % game.n, "card": name(c)} for i, c in enumerate(cards)]
    return {
        "hand": hand, "move": move, "last": last, "dealer": game.dealer,
        "hands": [sort(C.bits(h)) for h in game.hands],
        "discarded": [sort(C.bits(d)) for d in game.discarded],
        "stock": len(game.stock),
        "bids": [{"seat": s, "bid": v or None} for s, v in game.bids],
        "trump": C.SUIT_CHARS[game.trump] if game.trump >= 0 else None,
        "turned_up": name(game.turn_card) if game.rules.deal.turn_up and game.turn_card >= 0 else None,
        "trick": trick, "tricks": len(game.tricks),
        "winner_of_trick": game.tricks[-1][1] if game.tricks and not game.trick else None,
        "turn": game.turn if not game.hand_over else None,
        "scores": list(game.scores),
        "result": game.results[-1].to_json() if game.hand_over and game.results else None,
    }
