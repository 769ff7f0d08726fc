"""The heuristic's card play reads masks and precomputed orders (it is the search's rollout policy, so
its speed is the search's); it must choose exactly as the plain reading of its rules does. The oracle
below is that plain reading: the policy as first written, over lists with key functions, kept here
unchanged so the fast one is held to it move by move over random games of every file and seat count."""
from __future__ import annotations

import random

import pytest
from conftest import ROOT, rules, table_setups

from smear_dsl.engine import PLAY, Game
from smear_dsl.players.heuristic import HeuristicBot, card_worth


def oracle_play(game: Game, legal: list[int]) -> int:
    """The card the heuristic plays, by the rules as stated (heuristic.py's docstrings)."""
    r, seat, hand = game.rules, game.turn, game.hands[game.turn]
    if game.trump < 0:
        s = HeuristicBot().worth(game, seat).trump  # the first card fixes trump: the top of the suit worth most
        in_suit = [c for c in legal if r.suit_of(s, c) == s]
        return max(in_suit or legal, key=r.rank_order(s).__getitem__)
    t = game.trump
    key, worth, trumps = r.rank_order(t), card_worth(r, t), r.trumps(t)
    played = 0
    for _leader, _w, cards in game.tricks:
        for c in cards:
            played |= 1 << c
    for c in game.trick:
        played |= 1 << c
    assert game.played == played  # the engine keeps the cards played this hand as they fall
    out = r.deck.mask & ~played & ~hand
    if not game.trick:
        mine = sum(1 << c for c in legal)
        for suit_cards in by_suit(r, t):
            top = next((c for c in suit_cards if ((mine | out) >> c) & 1), -1)
            if top >= 0 and (mine >> top) & 1 and (worth[top] < 1 or (trumps >> top) & 1):
                return top
        return min(legal, key=lambda c: (worth[c] >= 1, (trumps >> c) & 1, key[c]))
    wk = r.trick_strength(t, game.led)
    seats = [(game.trick_leader + i) % game.n for i in range(len(game.trick))]
    win_i = max(range(len(game.trick)), key=lambda i: wk[game.trick[i]])
    best = wk[game.trick[win_i]]
    partner_winning = r.side_of[seats[win_i]] == r.side_of[seat]
    last = len(game.trick) == game.n - 1
    strongest = sorted((c for c in r.deck.cards if wk[c] > 0), key=wk.__getitem__, reverse=True)
    top_left = next((wk[c] for c in strongest if (out >> c) & 1), -1)
    top_out = -1 if last else top_left
    if partner_winning:
        if best > top_out:
            return max(legal, key=lambda c: (worth[c] if not (wk[c] > top_left and wk[c] > 0) else -1.0, -key[c]))
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


def by_suit(r, t: int) -> list[list[int]]:
    key = r.rank_order(t)
    suits = sorted(range(4), key=lambda s: s != t)
    return [sorted((c for c in r.deck.cards if r.suit_of(t, c) == s), key=key.__getitem__, reverse=True) for s in suits]


EXTRA = sorted(p.stem for p in (ROOT / "tests" / "rules_extra").glob("*.yaml") if p.stem != "lint_warnings")


@pytest.mark.parametrize("name,players", table_setups() + [(str(ROOT / "tests" / "rules_extra" / f"{n}.yaml"), None)
                                                            for n in EXTRA])
def test_the_fast_card_play_chooses_as_the_plain_reading(name, players):
    r = rules(name, players)
    compared = 0
    for i in range(6):
        g = Game(r, seed=i)
        bot = HeuristicBot(random.Random(i))
        rng = random.Random(100 + i)
        while not g.finished and len(g.results) < 3:
            if g.phase == PLAY and len(legal := g.legal_moves()) > 1:
                want = oracle_play(g, legal)
                assert bot.choose(g) == want, (name, g.hand_moves)
                compared += 1
            g.apply(g.turn, bot.choose(g) if rng.random() < 0.6 else g.random_move(rng))  # mixed play: more positions
    assert compared >= 20


@pytest.mark.parametrize("name,players", table_setups())
def test_playing_a_legal_card_without_the_follow_check_leaves_the_game_as_apply_does(name, players):
    r = rules(name, players)
    for i in range(3):
        g = Game(r, seed=i)
        rng = random.Random(i)
        while not g.finished and len(g.results) < 3:
            code = g.random_move(rng)
            if g.phase == PLAY:
                other = g.clone()
                other.play_legal(g.turn, code)
                g.apply(g.turn, code)
                assert {k: v for k, v in vars(other).items() if not k.endswith("memo") and k != "rng"} == \
                    {k: v for k, v in vars(g).items() if not k.endswith("memo") and k != "rng"}
                assert other.rng.getstate() == g.rng.getstate()
            else:
                g.apply(g.turn, code)
