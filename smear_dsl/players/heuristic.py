"""A random bot, and the heuristic bot: it reads the rule file it plays (worth.py) to bid what its hand
is worth, and plays to the points (search.py has the search bot; classic.py the first heuristic; make.py
builds any of them from its name, e.g. `search:200ms`)."""
from __future__ import annotations

import random
from functools import lru_cache

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.compile.compiled import POINT_BY_TRUMP, POINT_EACH, POINT_MOST, TO_WINNER, CompiledRules
from smear_dsl.engine import BEG, BIDDING, STEP, Game
from smear_dsl.players.worth import Worth, best_trump, hand_worth, outlook, set_penalty

BOLDNESS = {"cautious": -1.0, "steady": 0.0, "bold": 1.0}
BOLD_STEP = 0.12  # how much a step of boldness moves the chance of making a bid the bot asks for
PARTNER_MARGIN = 0.15  # the extra chance wanted to outbid one's own partner
CAUTION = 0.10  # the chance wanted above break-even: the highest of several estimates is the likeliest too high
RIVAL = 0.06  # ... and more to outbid an opponent, whose bid says the cards I count on may be theirs


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, game: Game) -> int:
        return game.random_move(self.rng)


@lru_cache(maxsize=256)
def card_worth(rules: CompiledRules, trump: int) -> tuple[float, ...]:
    """card -> the points a side takes with it in a trick under `trump` (a card point to the trick's
    winner, a point per card, its share of a Game point): what a player protects and feeds a partner."""
    o = outlook(rules)
    worth = [0.0] * 64
    for kind, value, to, extra in o.plan:
        if kind == POINT_BY_TRUMP and to == TO_WINNER and extra[trump] is not None and extra[trump] >= 0:
            worth[extra[trump]] += value
        elif kind == POINT_EACH and to == TO_WINNER:
            for c in C.bits(extra[trump]):
                worth[c] += value
        elif kind == POINT_MOST and o.game_total:
            for c in rules.deck.cards:
                worth[c] += value * rules.deck.value[c] / (o.game_total / 2)
    return tuple(worth)


@lru_cache(maxsize=64)
def _penalties(rules: CompiledRules) -> tuple[tuple[float, float], ...]:
    return tuple(set_penalty(rules, b) for b in range(rules.bidding.max + 1))


def bid_for(rules: CompiledRules, w: Worth, bids: list[int], boldness: float = 0.0,
            partner_high: bool = False, rival_high: bool = False) -> int | None:
    """The highest of `bids` the hand `w` makes often enough for what making and going set are worth
    (the break-even chance, plus caution, less boldness, more over a partner's or a rival's bid); None
    to pass. The heuristic bot bids by it, and so do the tournament's view-only personas (client.py)."""
    penalties = _penalties(rules)
    margin = CAUTION - BOLD_STEP * boldness + (PARTNER_MARGIN if partner_high else RIVAL if rival_high else 0.0)
    for b in sorted(bids, reverse=True):  # the highest that is sure enough
        gain, loss = penalties[min(b, len(penalties) - 1)]
        need = loss / (gain + loss) if gain + loss else 0.5
        if w.chance(b) >= min(0.9, max(0.15, need + margin)):
            return b
    return None


class HeuristicBot:
    """Bids to what its hand is worth under the rules it plays (worth.py), names the trump worth most,
    draws trumps with the highest, feeds its partner's tricks points, wins cheaply, throws what is worth
    least. `boldness` (-1 cautious .. +1 bold) moves how sure of a bid it wants to be."""

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None, boldness: float = 0.0):
        self.rng = rng or random.Random()
        self.boldness = boldness

    def choose(self, game: Game) -> int:
        if game.phase == STEP and game.expected_action() == "discard":
            quick = self.weakest_discard(game)
            if quick is not None:
                return quick
            return game.random_move(self.rng)  # none found within the search's bounds (see discards.py)
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if game.phase == BIDDING:
            return self._bid(game, legal)
        if game.phase == BEG:
            return self._beg(game, legal)
        if game.phase == STEP:
            return self._name_trump(game, legal)
        return self._play(game, legal)

    # ---- before the play
    def worth(self, game: Game, seat: int) -> Worth:
        """The seat's hand at its best trump (or the trump already fixed)."""
        hand, seen = game.hands[seat], game.discarded[seat]
        if game.trump >= 0:
            return hand_worth(game.rules, hand, game.trump, seen)
        return best_trump(game.rules, hand, seen)

    def _bid(self, game: Game, legal: list[int]) -> int:
        bids = sorted(code - M.BID_BASE for code in legal if M.BID_BASE <= code < M.TRUMP_BASE)
        if not bids:
            return M.PASS
        r, seat, high = game.rules, game.turn, game.bidder
        b = bid_for(r, self.worth(game, seat), bids, self.boldness,
                    partner_high=high >= 0 and high != seat and r.side_of[high] == r.side_of[seat],
                    rival_high=high >= 0 and r.side_of[high] != r.side_of[seat])
        if b is not None:
            return M.BID_BASE + b
        return M.PASS if M.PASS in legal else M.BID_BASE + bids[0]

    def _beg(self, game: Game, legal: list[int]) -> int:
        """Stand (or, as dealer, give) when the turned-up trump is worth a fair share of the points;
        else beg (or run the cards)."""
        w = hand_worth(game.rules, game.hands[game.turn], game.trump, game.discarded[game.turn])
        strong = w.points >= fair_share(game.rules) * (1.0 - 0.15 * self.boldness)
        want = ("stand", "give") if strong else ("beg", "run")
        return next((code for code in legal if M.CHOICES[code - M.CHOOSE_BASE] in want), legal[-1])

    def _name_trump(self, game: Game, legal: list[int]) -> int:
        """Name the trump worth most; in turn (a pass allowed), only one worth more than a fair share."""
        w = self.worth(game, game.turn) if game.trump < 0 else best_trump(game.rules, game.hands[game.turn])
        if M.PASS in legal and w.points < fair_share(game.rules) * (1.1 - 0.15 * self.boldness):
            return M.PASS
        code = M.TRUMP_BASE + w.trump
        return code if code in legal else next(c for c in legal if c != M.PASS)

    def weakest_discard(self, game: Game) -> int | None:
        """Keep what the hand is worth: the legal discard of side cards before trumps, cards worth no
        points before those that are, low before high, found by the engine's discard plans."""
        seat = game.turn
        trump = game.trump if game.trump >= 0 else self.worth(game, seat).trump
        r = game.rules
        key, trumps, worth = r.rank_order(trump), r.trumps(trump), card_worth(r, trump)
        m = game.weakest_discard(seat, lambda c: ((trumps >> c) & 1) * 1000 + worth[c] * 40 + key[c])
        return None if m is None else M.DISCARD_FLAG | m

    # ---- the play
    def _play(self, game: Game, legal: list[int]) -> int:
        r = game.rules
        seat = game.turn
        hand = game.hands[seat]
        if game.trump < 0:  # the first card fixes trump: lead the top of the suit worth most
            s = self.worth(game, seat).trump
            key = r.rank_order(s)
            in_suit = [c for c in legal if r.suit_of(s, c) == s]
            return max(in_suit or legal, key=key.__getitem__)
        t = game.trump
        key, worth, trumps = r.rank_order(t), card_worth(r, t), r.trumps(t)
        played = _played(game)
        out = r.deck.mask & ~played & ~hand  # cards someone else may still play
        if not game.trick:
            return self._lead(r, t, legal, key, worth, trumps, out)
        wk = r.trick_strength(t, game.led)
        win_i = max(range(len(game.trick)), key=lambda i: wk[game.trick[i]])
        best = wk[game.trick[win_i]]
        partner_winning = r.side_of[game.trick_seats[win_i]] == r.side_of[seat]
        last = len(game.trick) == game.n - 1
        top_left = next((wk[c] for c in _by_strength(r, t, game.led) if (out >> c) & 1), -1)  # the best card left out
        top_out = -1 if last else top_left  # ... that can still come to this trick
        if partner_winning:
            if best > top_out:  # nobody left can take it: feed it the points
                return max(legal, key=lambda c: (worth[c] if not _boss(c, wk, top_left) else -1.0, -key[c]))
            return min(legal, key=lambda c: (worth[c], key[c]))
        winners = [c for c in legal if wk[c] > best]
        if winners:
            sure = [c for c in winners if wk[c] > top_out]
            trick_worth = sum(worth[c] for c in game.trick)
            if sure and (trick_worth > 0 or last or not [c for c in winners if worth[c] == 0]):
                return min(sure, key=lambda c: (worth[c], wk[c]))
            cheap = [c for c in winners if worth[c] == 0 or wk[c] > top_out]
            if cheap:
                return min(cheap, key=wk.__getitem__)
        return min(legal, key=lambda c: (worth[c], (trumps >> c) & 1, key[c]))

    @staticmethod
    def _lead(r: CompiledRules, t: int, legal: list[int], key, worth, trumps: int, out: int) -> int:
        """Lead the highest trump while it is the best left (it draws the others' trumps); else a side
        suit's best card; else the card worth least."""
        mine = sum(1 << c for c in legal)
        for suit_cards in _by_suit(r, t):  # trump first: each suit's cards from the highest
            top = next((c for c in suit_cards if ((mine | out) >> c) & 1), -1)
            if top >= 0 and (mine >> top) & 1 and (worth[top] < 1 or (trumps >> top) & 1):
                return top
        return min(legal, key=lambda c: (worth[c] >= 1, (trumps >> c) & 1, key[c]))


@lru_cache(maxsize=1024)
def _by_strength(rules: CompiledRules, trump: int, led: int) -> tuple[int, ...]:
    """The cards that can take a trick led in `led` under `trump`, strongest first."""
    wk = rules.trick_strength(trump, led)
    return tuple(sorted((c for c in rules.deck.cards if wk[c] > 0), key=wk.__getitem__, reverse=True))


@lru_cache(maxsize=256)
def _by_suit(rules: CompiledRules, trump: int) -> tuple[tuple[int, ...], ...]:
    """Each suit's cards under `trump` from the highest, trumps first."""
    key = rules.rank_order(trump)
    suits = sorted(range(4), key=lambda s: s != trump)
    return tuple(tuple(sorted((c for c in rules.deck.cards if rules.suit_of(trump, c) == s), key=key.__getitem__,
                              reverse=True)) for s in suits)


def _boss(c: int, wk, top_out: int) -> bool:
    return wk[c] > top_out and wk[c] > 0


def _played(game: Game) -> int:
    """The cards played so far this hand."""
    m = 0
    for _leader, _w, cards in game.tricks:
        for c in cards:
            m |= 1 << c
    for c in game.trick:
        m |= 1 << c
    return m


def fair_share(rules: CompiledRules) -> float:
    """A side's even share of the points a hand can award: what standing or naming a trump asks for."""
    total = sum(value for kind, value, _to, _x in outlook(rules).plan)
    return total / rules.n_sides
