"""Per-seat views: exactly what one seat (or a spectator) may see, nothing more."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine.scoring import fallen, fell_json


class SeatBid(TypedDict):
    seat: int
    bid: int | None  # None: a pass


class SeatCard(TypedDict):
    seat: int
    card: str


class SeatCards(TypedDict):
    seat: int
    cards: list[str]


class TrickTaken(TypedDict):
    leader: int
    winner: int
    cards: list[str]  # in play order from the leader


class StockSeen(TypedDict):
    size: int
    turned_up: str | None
    top: str | None  # a face-up stock's top card
    draws: NotRequired[list[SeatCard]]
    turned_down: NotRequired[list[str]]  # begging: the cards turned up and set aside


class DiscardAsk(TypedDict):
    min: int
    max: int
    cards: list[str]  # the cards that may go
    example: list[str] | None  # one legal discard, the weakest


class SeatView(TypedDict):
    """A seat's view, the engine's one answer to "what may this seat see" (the referee's View message
    is made from it, field by field); the keys marked NotRequired are there only while a hand is played,
    only under the rules that have them, or only for a seat."""

    rules: str
    players: int
    seat: int | None
    side: int | None
    sides: list[int]
    dealer: int
    scores: list[int]
    finished: bool
    winner: int | None
    hands_played: int
    phase: str
    turn: int | None
    bids: NotRequired[list[SeatBid]]
    bidder: NotRequired[int | None]
    bid: NotRequired[int | None]
    trump: NotRequired[str | None]
    trick: NotRequired[list[SeatCard]]
    tricks: NotRequired[list[TrickTaken]]
    hand_sizes: NotRequired[list[int]]
    points_won: NotRequired[list[dict[str, Any]]]  # fell_json's entries: the point names are the rule file's
    hand_points: NotRequired[list[int]]
    shown: NotRequired[list[SeatCards]]
    stock: NotRequired[StockSeen]
    trump_calls: NotRequired[list[dict[str, Any]]]  # {seat, suit}: suit None for a pass
    choices: NotRequired[list[dict[str, Any]]]  # {seat, choice}
    hand: NotRequired[list[str]]
    discarded: NotRequired[list[str]]
    discard: NotRequired[DiscardAsk]
    legal: NotRequired[list[dict[str, Any]]]  # moves in their record form (smear_dsl.moves)
    last_hand: NotRequired[dict[str, Any]]  # the verdict's hand entry, without the point cards


def seat_view(game: Any, seat: int | None) -> SeatView:
    """Own hand and own discards, public bidding and play, scores; never another hand, the stock or the seed."""
    r = game.rules
    name = r.card_name
    in_hand = not game.hand_over
    view: SeatView = {
        "rules": r.ref,
        "players": game.n,
        "seat": seat,
        "side": r.side_of[seat] if seat is not None else None,
        "sides": list(r.side_of),  # each seat's side: who plays with whom (public)
        "dealer": game.dealer,
        "scores": list(game.scores),
        "finished": game.finished,
        "winner": game.winner,
        "hands_played": len(game.results),
        "phase": game.phase_name,
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
        if (r.points.pegged or r.end.count_as_won) and game.phase_name == "play":
            # Points pegged as their tricks are won: each award so far, and each side's running total.
            fell, totals = fallen(game)
            view["points_won"] = [fell_json(e, r.points.names, r.deck.name_of) for e in fell]
            view["hand_points"] = totals
        drawn, shown = game.public_log()
        if shown:  # face-up discards: everyone saw them
            view["shown"] = [{"seat": s, "cards": [name(c) for c in C.bits(m)]} for s, m in shown]
        if r.deal.turn_up or r.play.draw_in_play:
            view["stock"] = _stock_view(game, name, drawn)
        if r.play.trump_in_turn:  # naming trump in turn is public: who passed, who named which suit
            view["trump_calls"] = [{"seat": s, "suit": None if code == M.PASS else C.SUIT_CHARS[code - M.TRUMP_BASE]}
                                   for s, code in game.hand_moves if code == M.PASS or M.TRUMP_BASE <= code < M.TRUMP_BASE + 4]
        if r.bidding.beg_run:  # begging is public: who stood, begged, gave or ran, and the cards turned up and set aside
            view["choices"] = [{"seat": s, "choice": M.CHOICES[code - M.CHOOSE_BASE]} for s, code in game.hand_moves
                               if M.CHOOSE_BASE <= code < M.DISCARD_FLAG]
            view["stock"]["turned_down"] = [name(c) for c in game.turned_down]
        if seat is not None:
            view["hand"] = [name(c) for c in sorted(C.bits(game.hands[seat]), key=lambda c: (C.suit_of(c), -c))]
            view["discarded"] = [name(c) for c in C.bits(game.discarded[seat])]
            if game.turn == seat and game.expected_action() == "discard":
                view["discard"] = _discard_view(game, seat, name)
                example = view["discard"]["example"]
                view["legal"] = [{"seat": seat, "action": "discard", "cards": example}] if example is not None else []
            elif game.turn == seat:
                view["legal"] = [M.to_dict(code, seat, name) for code in game.legal_moves()]
    if game.results:
        last = view["last_hand"] = game.results[-1].to_json()
        # When each point fell, without its card: in the next hand that card name may be in someone's
        # hand or the stock, and a view never names a card its seat cannot see (the record keeps them).
        for award in last.get("points_won") or ():
            del award["card"]
    return view


def _discard_view(game: Any, seat: int, name: Any) -> DiscardAsk:
    """The discard `seat` must make: how many cards (min..max), which may go, and one legal discard
    (the weakest: side cards before trumps, low before high). Listing every legal discard could
    mean thousands of combinations; any set of `cards` in range is accepted unless the rules'
    condition on the whole discard (or the first lead) refuses it, with the reason."""
    lo, hi, mask = game.discard_options(seat)
    example = game.weakest_discard(seat, game.side_cards_first(game.trump))
    return {"min": lo, "max": hi, "cards": [name(c) for c in C.bits(mask)],
            "example": [name(c) for c in C.bits(example)] if example is not None else None}


def _stock_view(game: Any, name: Any, drawn: Any) -> StockSeen:
    """What everyone sees of the stock: its size, the turned-up trump card, and with a face-up stock
    its top card and every draw (a face-down stock shows no more than the turned-up card's draw)."""
    r = game.rules
    turned = game.turn_card if r.deal.turn_up and game.turn_card >= 0 else None  # the card whose suit is (or may be) trump
    out: StockSeen = {"size": len(game.stock), "turned_up": name(turned) if turned is not None else None,
                           "top": name(game.stock[0]) if r.deal.stock_face_up and game.stock else None}
    if r.play.draw_in_play:
        out["draws"] = [{"seat": seat, "card": name(c)} for seat, c in drawn if r.deal.stock_face_up or c == turned]
    return out
