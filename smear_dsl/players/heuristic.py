"""A random bot, and the heuristic bot: it reads the rule file it plays (worth.py) to bid what its hand
is worth, and plays to the points (search.py has the search bot; classic.py the first heuristic; make.py
builds any of them from its name, e.g. `search:200ms`)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.compile.compiled import POINT_BY_TRUMP, POINT_EACH, POINT_MOST, TO_WINNER, CompiledRules
from smear_dsl.engine import BEG, BIDDING, PLAY, STEP, Game
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


@lru_cache(maxsize=256)
def _discard_weakness(rules: CompiledRules, trump: int) -> tuple[float, ...]:
    """card -> how little the heuristic minds discarding it under `trump`: side cards before trumps,
    cards worth no points before those that are, low before high (worked out once per trump)."""
    key, trumps, worth = rules.rank_order(trump), rules.trumps(trump), card_worth(rules, trump)
    return tuple(((trumps >> c) & 1) * 1000 + worth[c] * 40 + key[c] for c in range(min(len(key), len(worth))))


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
        self._orders: _Orders | None = None  # the last trump's orders (a playout keeps one trump)

    def choose(self, game: Game) -> int:
        phase = game.phase
        if phase == PLAY:  # most moves, and all of a search's playouts: straight from the legal mask
            legal = game._legal_play_mask(game.turn)
            if not legal & (legal - 1):
                return legal.bit_length() - 1
            return self._play(game, legal)
        if phase == STEP and game.expected_action() == "discard":
            quick = self.weakest_discard(game)
            if quick is not None:
                return quick
            return game.random_move(self.rng)  # none found within the search's bounds (see discards.py)
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if phase == BIDDING:
            return self._bid(game, moves)
        if phase == BEG:
            return self._beg(game, moves)
        if phase == STEP:
            return self._name_trump(game, moves)
        return self._play(game, C.mask_of(moves))

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
        m = game.weakest_discard(seat, _discard_weakness(game.rules, trump).__getitem__)
        return None if m is None else M.DISCARD_FLAG | m

    # ---- the play
    def _play(self, game: Game, legal_mask: int) -> int:
        """The card to play of `legal_mask` (two or more): the orders it picks by are precomputed per
        trump and led suit (_Orders), so a choice is a few mask tests and a min over the legal cards.
        tests/players/test_rollout_policy.py holds it to the plain reading of the rules below."""
        r, seat, t = game.rules, game.turn, game.trump
        if t < 0:  # the first card fixes trump: lead the top of the suit worth most
            s = self.worth(game, seat).trump
            key = r.rank_order(s)
            legal = C.bit_tuple(legal_mask)
            in_suit = [c for c in legal if r.suit_of(s, c) == s]
            return max(in_suit or legal, key=key.__getitem__)
        o = self._orders
        if o is None or o.trump != t or o.rules is not r:
            o = self._orders = _orders(r, t)
        out = o.deck & ~(game.played | game.hands[seat])  # cards someone else may still play
        trick = game.trick
        if not trick:  # lead the highest trump while it is the best left (it draws the others' trumps);
            live = legal_mask | out  # else a side suit's best card; else the card worth least
            for suit_mask, suit_cards in o.suits:  # trump first: each suit's cards from the highest
                if live & suit_mask:
                    for top in suit_cards:
                        if (live >> top) & 1:
                            if (legal_mask >> top) & 1 and o.leads_top[top]:
                                return top
                            break
            return min(C.bit_tuple(legal_mask), key=o.throw_lead.__getitem__)
        f = o.by_led[game.led]
        wk, worth = f.strength, o.worth
        best, win_i = wk[trick[0]], 0
        for i in range(1, len(trick)):  # the first of equal strengths holds the trick
            k = wk[trick[i]]
            if k > best:
                best, win_i = k, i
        last = len(trick) == game.n - 1
        top_left = -1  # the best card left out
        if out & f.takers:
            for c in f.by_strength:
                if (out >> c) & 1:
                    top_left = wk[c]
                    break
        top_out = -1 if last else top_left  # ... that can still come to this trick
        legal = C.bit_tuple(legal_mask)
        if r.side_of[(game.trick_leader + win_i) % game.n] == r.side_of[seat]:  # the partner holds it
            if best > top_out:  # nobody left can take it: feed it the points
                key, boss = o.key, max(top_left, 0)
                return max(legal, key=lambda c: (worth[c] if wk[c] <= boss else -1.0, -key[c]))
            return min(legal, key=o.feed_low.__getitem__)
        winners = [c for c in legal if wk[c] > best]
        if winners:
            sure = [c for c in winners if wk[c] > top_out]
            if sure and (last or sum(worth[c] for c in trick) > 0 or all(worth[c] != 0 for c in winners)):
                return min(sure, key=f.win_low.__getitem__)
            cheap = [c for c in winners if worth[c] == 0 or wk[c] > top_out]
            if cheap:
                return min(cheap, key=wk.__getitem__)
        return min(legal, key=o.throw.__getitem__)


def _rank_of(cards, key) -> tuple[int, ...]:
    """card -> its place in `cards` sorted by `key` then by card id: min() by it picks the card a min()
    by `key` over cards in id order picks (the first of equals), with no key function to call."""
    place = [1 << 20] * 64
    for i, c in enumerate(sorted(cards, key=lambda c: (key(c), c))):
        place[c] = i
    return tuple(place)


@dataclass(frozen=True, eq=False)
class _Orders:
    """What the card play reads under one trump, computed once: masks, worths and orders to pick by."""

    rules: CompiledRules
    trump: int
    deck: int
    key: tuple[int, ...]
    worth: tuple[float, ...]
    suits: tuple[tuple[int, tuple[int, ...]], ...]  # (mask, cards from the highest) per suit, trump first
    leads_top: tuple[bool, ...]  # card -> worth leading when it is its suit's best left: a trump or worth < 1
    throw_lead: tuple[int, ...]  # the lead of last resort: worthless first, side suits first, low first
    feed_low: tuple[int, ...]  # under a partner's trick that may be lost: least worth, then low
    throw: tuple[int, ...]  # the card of last resort: least worth, side suits first, low first
    by_led: tuple[_Led, ...]  # per suit led


@dataclass(frozen=True, eq=False)
class _Led:
    """What the card play reads of a trick led in one suit under one trump."""

    strength: tuple[int, ...]
    by_strength: tuple[int, ...]  # the cards that can take the trick, strongest first
    takers: int  # ... as a mask
    win_low: tuple[int, ...]  # a sure winner: least worth, then the weakest


@lru_cache(maxsize=256)
def _orders(rules: CompiledRules, trump: int) -> _Orders:
    key, worth, trumps = rules.rank_order(trump), card_worth(rules, trump), rules.trumps(trump)
    cards = rules.deck.cards
    by_suit = []
    for s in sorted(range(4), key=lambda s: s != trump):
        ranked = tuple(sorted((c for c in cards if rules.suit_of(trump, c) == s), key=key.__getitem__, reverse=True))
        by_suit.append((sum(1 << c for c in ranked), ranked))
    return _Orders(
        rules, trump, rules.deck.mask, key, worth, tuple(by_suit),
        tuple(worth[c] < 1 or bool((trumps >> c) & 1) for c in range(64)),
        _rank_of(cards, lambda c: (worth[c] >= 1, (trumps >> c) & 1, key[c])),
        _rank_of(cards, lambda c: (worth[c], key[c])),
        _rank_of(cards, lambda c: (worth[c], (trumps >> c) & 1, key[c])),
        tuple(_led(rules, trump, worth, led) for led in range(4)))


def _led(rules: CompiledRules, trump: int, worth: tuple[float, ...], led: int) -> _Led:
    wk, cards = rules.trick_strength(trump, led), rules.deck.cards
    strongest = tuple(sorted((c for c in cards if wk[c] > 0), key=wk.__getitem__, reverse=True))
    return _Led(wk, strongest, sum(1 << c for c in strongest), _rank_of(cards, lambda c: (worth[c], wk[c])))


def fair_share(rules: CompiledRules) -> float:
    """A side's even share of the points a hand can award: what standing or naming a trump asks for."""
    total = sum(value for kind, value, _to, _x in outlook(rules).plan)
    return total / rules.n_sides
