"""Property-based tests over random games of every rule file in rules/ (hypothesis)."""
from __future__ import annotations

import json
import random

import pytest
from conftest import examples, rules, table_setups
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine import HAND_DONE, Game
from smear_dsl.errors import MoveError
from smear_dsl.records.verify import verify

SETUPS = table_setups()
MAX_HANDS = 12


def all_codes(game: Game) -> list[int]:
    """Every move code that could be submitted now: all cards, pass, bids, trumps, sampled discards."""
    r = game.rules
    codes = list(r.deck.cards) + [M.PASS] + [M.BID_BASE + v for v in range(0, r.bidding.max + 3)]
    codes += [M.TRUMP_BASE + s for s in range(4)] + [M.CHOOSE_BASE + i for i in range(len(M.CHOICES))]
    hand = list(C.bits(game.hands[game.turn])) if game.phase != HAND_DONE else []
    for k in range(0, 4):
        for i in range(0, max(1, len(hand) - k + 1), 2):
            codes.append(M.DISCARD_FLAG | C.mask_of(hand[i:i + k]))
    return codes


def snapshot(game: Game):
    keys = ("hands", "stock", "phase", "turn", "high", "bidder", "trump", "trick", "trick_seats", "scores",
            "discarded", "tricks", "step", "queue", "bids", "moves_played", "finished", "turn_card", "gift_side",
            "turned_down", "dealt")
    return json.dumps({k: getattr(game, k, None) for k in keys}, default=str) + str(len(game.results))


def check_card_conservation(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the stock, the trick, won tricks, discards,
    or turned up and set aside when the cards were run (begging)."""
    places = list(game.hands) + [C.mask_of(game.stock), C.mask_of(game.trick), C.mask_of(game.turned_down)]
    places += list(game.taken()) + list(game.discarded)
    taken = 0
    for m in places:
        assert taken & m == 0, "a card is in two places"
        taken |= m
    assert taken == game.rules.deck.mask, "a card is missing"


def check_view_hides(game: Game) -> None:
    """No view shows another seat's card or a stock card, except what the table sees: cards played,
    the turned-up trump card, and with a face-up stock its top card and every card drawn from it."""
    r = game.rules
    dealt_stock = game.record_hands[-1][2] if game.record_hands else []
    seen = set()  # stock cards the whole table has seen
    if r.deal.turn_up and dealt_stock:
        seen.add(dealt_stock[0])
        seen |= {game.turn_card, *game.turned_down}  # turned up while begging: everyone saw them
    if r.deal.stock_face_up:
        seen |= set(dealt_stock) - set(game.stock)  # drawn face up (California Jack has no phases)
        seen |= set(game.stock[:1])
    for seat in [None, *range(game.n)]:
        text = json.dumps(game.view(seat))
        for other in range(game.n):
            if other == seat:
                continue
            public = game.played_mask | C.mask_of(game.trick) | C.mask_of(seen)
            for c in C.bits(game.hands[other] & ~public):
                assert f'"{r.card_name(c)}"' not in text or (seat is not None and (game.hands[seat] >> c) & 1), \
                    f"seat {seat} sees {r.card_name(c)} of seat {other}"
        for c in game.stock:
            assert f'"{r.card_name(c)}"' not in text or c in seen, "the stock is visible"
        assert "seed" not in text


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32), widow=st.integers(0, 3))
def test_random_games_keep_every_invariant(setup, seed, widow):
    check_random_game(*setup, seed, widow)


@pytest.mark.parametrize("setup", SETUPS, ids=[f"{n}-{p}p" for n, p in SETUPS])
def test_every_rule_file_and_seat_count_keeps_every_invariant(setup):
    """The same checks, once for every rule file and seat count (hypothesis samples among them)."""
    check_random_game(*setup, seed=sum(map(ord, setup[0])) + setup[1], widow=2, max_hands=3)


def check_random_game(name, players, seed, widow, max_hands=MAX_HANDS):
    opts = {"widow": widow} if any(o.name == "widow" for o in rules(name, players).spec.options) else {}
    r = rules(name, players, **opts)
    game = Game(r, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.finished and len(game.results) < max_hands:
        legal = game.legal_moves()
        assert legal, "no legal move although the game is not over"
        check_card_conservation(game)
        if steps % 7 == 0:
            check_view_hides(game)
        seat = game.turn
        # Every other move is refused with a code and changes nothing.
        legal_set = set(legal)
        before = snapshot(game)
        for code in rng.sample(all_codes(game), 12):
            if code in legal_set:
                continue
            try:
                game.apply(seat, code)
            except MoveError as e:
                assert e.code
            else:
                raise AssertionError(f"illegal move {M.describe(code, r.card_name)} was accepted")
            assert snapshot(game) == before
        other = (seat + 1) % game.n
        try:
            game.apply(other, legal[0])
            raise AssertionError("a move out of turn was accepted")
        except MoveError as e:
            assert e.code == "WRONG_TURN"
        assert snapshot(game) == before
        # Every legal move is accepted (checked on a copy), then one is played.
        for code in rng.sample(legal, min(3, len(legal))):
            game.clone().apply(seat, code)
        game.apply(seat, rng.choice(legal))
        steps += 1
    if game.finished:
        assert game.legal_moves() == []
    verdict = verify(json.loads(json.dumps(game.to_record())))
    assert verdict["valid"], verdict["error"]
    assert verdict["scores"] == game.scores
    assert verdict["finished"] == game.finished and verdict["winner"] == game.winner
    assert len(verdict["hands"]) == len(game.results)
    assert verdict["hands"] == [h.to_json() for h in game.results]


@settings(max_examples=examples(15), deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_seeded_games_are_deterministic(setup, seed):
    name, players = setup
    r = rules(name, players)
    a, b = Game(r, seed=seed), Game(r, seed=seed)
    ra, rb = random.Random(seed), random.Random(seed)
    for _ in range(60):
        if a.finished:
            break
        ma, mb = a.random_move(ra), b.random_move(rb)
        assert ma == mb
        a.apply(a.turn, ma)
        b.apply(b.turn, mb)
    assert a.to_record() == b.to_record()


def test_random_move_samples_every_legal_move():
    """random_move (used by bots and the benchmark) reaches every legal move, about equally often."""
    checked = 0
    for i, (name, players) in enumerate(SETUPS):
        widow = {"widow": 2} if any(o.name == "widow" for o in rules(name, players).spec.options) else {}
        game = Game(rules(name, players, **widow), seed=100 + i)
        rng = random.Random(i)
        for _ in range(60):
            if game.finished:
                break
            legal = game.legal_moves()
            if 1 < len(legal) <= 30:
                draws = 40 * len(legal)
                counts: dict[int, int] = {}
                for _ in range(draws):
                    code = game.random_move(rng)
                    counts[code] = counts.get(code, 0) + 1
                assert set(counts) == set(legal), f"{name}: random_move missed or invented moves"
                assert min(counts.values()) >= 10, f"{name}: far from uniform: {sorted(counts.values())}"
                checked += 1
            game.apply(game.turn, rng.choice(legal))
    assert checked > 20
