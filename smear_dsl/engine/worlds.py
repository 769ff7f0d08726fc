"""A search's worlds: a game copied to deal the cards a seat cannot see anew (engine/knowledge.py)."""
from __future__ import annotations

from smear_dsl import cards as C
from smear_dsl.engine.constants import PLAY


class Worlds:
    """A part of Game: making a world of it and dealing the world's unseen cards."""

    def world_copy(self) -> "Game":
        """A copy to deal the unseen cards of anew (a search's world, engine/knowledge.py): it deals
        no further hand, holds no generator of this game's, keeps no boundary and starts with empty
        caches (they are keyed on cards, not on the stock); nor a record of its hands (placeholders
        keep their count, as forget_history's do): nobody records a world, and its copies skip the work."""
        g = self.clone(deals=False)
        g.deal_source, g.auto_deal, g.keep_boundary, g.boundary = None, False, False, None
        g.record_hands = [None] * len(self.record_hands)
        g.forget_caches()
        return g

    def redeal(self, seat: int, hand: int, discarded: int, played: int) -> None:
        """In a world: `seat` holds `hand` and has discarded `discarded`, having played `played`."""
        self.hands[seat] = hand
        self.discarded[seat] = discarded
        self.held[seat] = hand | played if self.phase == PLAY else 0
        self.dealt[seat] = hand | played | discarded

    def restock(self, stock: list[int], hand_moves: list[tuple[int, int]]) -> None:
        """In a world: the stock and this hand's moves (others' discards as the world dealt them),
        and the hand's record as the world dealt it."""
        self.stock = stock
        self.hand_moves[:] = hand_moves
        if self.record_hands and self.record_hands[-1] is not None:
            self.record_hands[-1] = (self.record_hands[-1][0], [C.bit_list(d) for d in self.dealt], list(stock),
                                     self.hand_moves)
