"""A readable hand-by-hand account of a game record: bids, trump, tricks, points, scores."""
from __future__ import annotations

from typing import Any, Iterator

from . import cards as C
from .engine import Game
from .record import apply_parsed, parse_deal, parse_move, rules_for

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def side_name(rules, side: int) -> str:
    if rules.n_sides == rules.players:
        return f"seat {side}"
    seats = [s for s in range(rules.players) if rules.side_of[s] == side]
    return "team " + "+".join(map(str, seats))


def narrate(record: dict[str, Any]) -> Iterator[str]:
    """Lines describing each hand of a (valid) record."""
    rules = rules_for(record)
    game = Game(rules, seed=0, first_dealer=record["first_dealer"], auto_deal=False)
    for h, hand in enumerate(record["hands"]):
        deal = parse_deal(rules, hand["deal"])
        if deal is None or game.finished:
            yield f"hand {h + 1}: bad deal or game over; stopping"
            return
        game.start_hand(deal)
        yield f"[bold]Hand {h + 1}[/bold] — dealer seat {game.dealer}"
        bids: list[str] = []
        trick_cards: list[str] = []
        for move in hand["moves"]:
            seat, action, payload = parse_move(rules, move)
            tricks_before = len(game.tricks)
            trump_before = game.trump
            apply_parsed(game, seat, action, payload)
            if action in ("pass", "bid"):
                bids.append(f"{seat}:{'pass' if action == 'pass' else payload}")
                if game.phase != 0:
                    yield "  bids  " + "  ".join(bids)
            elif action == "discard":
                yield f"  seat {seat} discards {' '.join(move['cards'])}"
            elif action == "trump":
                yield f"  seat {seat} names trump {SUIT_SYMBOL[C.SUIT_CHARS[payload]]}"
            else:
                trick_cards.append(f"{seat}:{move['card']}")
                if trump_before < 0 <= game.trump:
                    yield f"  trump {SUIT_SYMBOL[C.SUIT_CHARS[game.trump]]} (led by seat {seat}, bid {game.high})"
                if len(game.tricks) > tricks_before:
                    w = game.tricks[-1][1]
                    yield f"  trick {len(game.tricks)}: {' '.join(trick_cards)} -> seat {w}"
                    trick_cards = []
        res = game.results[-1] if game.results and len(game.results) == h + 1 else None
        if res is None:
            yield "  (hand unfinished)"
            return
        if res.bidder is None:
            if any(res.delta):
                yield f"  everyone passed: dealer set back, scores {res.scores}"
            else:
                yield "  everyone passed: no score, " + ("same dealer deals again" if game.dealer == res.dealer else "the deal passes")
            continue
        pts = ", ".join(f"{k} -> {side_name(rules, v) if v is not None else 'nobody'}" for k, v in res.points.items())
        yield f"  points: {pts}; card points {res.game_points}"
        verdict = "made" if res.made else "[red]set[/red]"
        yield f"  seat {res.bidder} bid {res.bid}: {verdict}; change {res.delta}, scores {res.scores}"
    if game.finished:
        yield f"[bold green]{side_name(rules, game.winner)} wins[/bold green] with scores {game.scores}"
