"""Per-seat views: exactly what one seat (or a spectator) may see, nothing more."""
from __future__ import annotations

from typing import Any

from . import cards as C
from . import moves as M


def seat_view(game, seat: int | None) -> dict[str, Any]:
    """Own hand and own discards, public bidding and play, scores; never another hand, the stock or the seed."""
    r = game.rules
    name = r.card_name
    in_hand = not game.hand_over
    view: dict[str, Any] = {
        "rules": r.stem,
        "players": game.n,
        "seat": seat,
        "side": r.side_of[seat] if seat is not None else None,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "finished": game.finished,
        "winner": game.winner,
        "hands_played": len(game.results),
        "phase": ("game over" if game.finished else "between hands") if not in_hand else
                 {0: "bidding", 1: game.expected_action(), 2: "play"}[game.phase],
        "turn": game.turn if in_hand else None,
    }
    if in_hand:
        view["bids"] = [{"seat": s, "bid": v or None} for s, v in game.bids]
        view["bidder"] = game.bidder if game.bidder >= 0 else None
        view["bid"] = game.high or None
        view["trump"] = C.SUIT_CHARS[game.trump] if game.trump >= 0 else None
        view["trick"] = [{"seat": s, "card": name(c)} for s, c in zip(game.trick_seats, game.trick)]
        view["tricks"] = [{"leader": lead, "winner": w, "cards": [name(c) for c in cards]} for lead, w, cards in game.tricks]
        view["hand_sizes"] = [h.bit_count() for h in game.hands]
        if seat is not None:
            view["hand"] = [name(c) for c in sorted(C.bits(game.hands[seat]), key=lambda c: (C.suit_of(c), -c))]
            view["discarded"] = [name(c) for c in C.bits(game.discarded[seat])]
            if game.turn == seat:
                view["legal"] = [M.to_dict(code, seat, name) for code in game.legal_moves()]
    if game.results:
        view["last_hand"] = game.results[-1].to_json()
    return view

