"""The keyed shuffle: re-implemented from its documented description, and checked for uniformity."""
from __future__ import annotations

import random
import struct
from collections import Counter

from smear_dsl.compile.shuffle import keyed_shuffle


def reference_shuffle(seed: int, deck: list[int]) -> list[int]:
    """The algorithm exactly as shuffle.py's docstring states it, with plain ints and struct."""
    n = len(deck)
    bits = random.Random(seed).getrandbits(64 * n)
    keyed = []
    for i, card in enumerate(deck):
        word = (bits >> (64 * i)) & (2**64 - 1)
        word = (word & 0x000F_FFFF_FFFF_FF00) | 0x3FF0_0000_0000_0000 | card
        (key,) = struct.unpack("<d", struct.pack("<Q", word))
        assert 1.0 <= key < 2.0
        keyed.append((key, card))
    return [card for _key, card in sorted(keyed)]


def test_matches_the_documented_algorithm():
    for deck in (list(range(52)), list(range(52)) + [52, 53], [0, 12, 25, 38, 51, 52]):
        for seed in range(50):
            assert list(keyed_shuffle(random.Random(seed), tuple(deck))) == reference_shuffle(seed, deck)


def test_is_a_permutation_and_reproducible():
    deck = tuple(range(54))
    a = keyed_shuffle(random.Random(7), deck)
    assert sorted(a) == list(deck)
    assert a == keyed_shuffle(random.Random(7), deck)
    assert a != keyed_shuffle(random.Random(8), deck)


def test_every_order_of_four_cards_about_equally_often():
    counts = Counter(bytes(keyed_shuffle(random.Random(seed), (3, 9, 20, 40))) for seed in range(24_000))
    assert len(counts) == 24
    expected = 1000
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 60  # 23 degrees of freedom: p < 1e-4 to fail by chance


def test_a_seeded_game_deals_the_reference_shuffle_in_packets_from_the_dealers_left():
    """Game.start_hand's deal: hand k of seat s is the packets the documented shuffle and
    CompiledRules.split_deal give it (the stock is the rest, in shuffled order)."""
    from smear_dsl.compile.compiler import compile_rules
    from smear_dsl.engine import Game
    from smear_dsl.language.load import load_spec
    for stem, players in (("cutthroat_canadian", 3), ("four_point_ne_wisconsin", 4), ("five_point_jick", 5)):
        rules = compile_rules(load_spec(stem), players)
        for seed in range(5):
            dealer = seed % players
            game = Game(rules, seed=seed, first_dealer=dealer)
            order = reference_shuffle(seed, list(rules.deck.cards))
            hands, stock = rules.split_deal(order, dealer)
            _dealer, got_hands, got_stock, _moves = game.record_hands[0]
            assert [list(h) for h in got_hands] == hands and list(got_stock) == stock
            # Packets go clockwise from the dealer's left: that seat's first card is the deck's first.
            assert hands[(dealer + 1) % players][0] == order[0]
