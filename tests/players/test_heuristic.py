"""The heuristic bot reads the rules it plays: its bids follow what a hand is worth under them (not a
variant's name), it plays to the points, and its boldness moves its bids; the first heuristic stays
a named bot."""
from __future__ import annotations

import random

import pytest
from conftest import rules

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine import BIDDING, PLAY, Game
from smear_dsl.players.botspec import check_bot
from smear_dsl.players.classic import ClassicBot
from smear_dsl.players.heuristic import HeuristicBot, card_worth
from smear_dsl.players.make import make_bot
from smear_dsl.players.worth import best_trump, hand_worth
from smear_dsl.sim.simulate import simulate


def _hand(*names: str) -> int:
    return sum(1 << C.parse_suited(n) for n in names)


def test_cinch_bids_what_hands_are_worth():
    """Cinch bids run to 14: the bots contract for what their hands hold and mostly make it (the first
    heuristic bid about 2 and made it 96% of the time)."""
    s = simulate(rules("cinch"), 40, seed=11, bot="heuristic")
    assert s["average_bid"] >= 6, s
    assert 0.55 <= s["bidder_made_rate"] <= 0.85, s
    old = simulate(rules("cinch"), 20, seed=11, bot="heuristic@1")
    assert old["average_bid"] < 3 and old["bidder_made_rate"] > 0.9, old


def test_worth_reads_the_points_not_the_name():
    """Both fives of trump's colour are 10 points in Cinch and nothing in Four Point: the same hand
    with them is worth more in one (held, not merely likely to be caught), (about) the same in the other."""
    base = ("AH", "KH", "QH", "3H", "7C", "9D", "8S", "4C", "6D")  # nine cards, as Cinch deals
    with_pedros = base[:-2] + ("5H", "5D")
    cinch, four = rules("cinch"), rules("four_point_ne_wisconsin")
    h = C.SUIT_CHARS.index("H")
    gain_cinch = hand_worth(cinch, _hand(*with_pedros), h).points - hand_worth(cinch, _hand(*base), h).points
    gain_four = hand_worth(four, _hand(*with_pedros), h).points - hand_worth(four, _hand(*base), h).points
    assert gain_cinch > 1, gain_cinch
    assert abs(gain_four) < 0.5, gain_four
    assert best_trump(cinch, _hand(*with_pedros)).trump == h


def test_a_stronger_hand_is_worth_more_and_surer():
    r = rules("four_point_ne_wisconsin")
    h = C.SUIT_CHARS.index("H")
    weak = hand_worth(r, _hand("8H", "4C", "9D", "TS", "3C", "6D"), h)
    strong = hand_worth(r, _hand("AH", "KH", "JH", "7H", "TH", "6D"), h)
    assert strong.points > weak.points + 1
    assert strong.chance(3) > weak.chance(3)
    assert 0.0 <= weak.chance(4) <= strong.chance(2) <= 1.0


@pytest.mark.parametrize("name", ["cinch", "pedro", "four_point_ne_wisconsin"])
def test_boldness_moves_bids_one_way(name):
    """On the same position, a bold bot never bids lower than a steady one, nor a steady one than a
    cautious one; and over many deals boldness does change some bids."""
    r = rules(name)
    differ = 0
    for seed in range(60):
        g = Game(r, seed=seed)
        if g.phase != BIDDING:
            continue
        picks = [HeuristicBot(random.Random(0), b).choose(g) for b in (-1.0, 0.0, 1.0)]
        vals = [0 if p == M.PASS else p - M.BID_BASE for p in picks]
        assert vals[0] <= vals[1] <= vals[2], (seed, vals)
        differ += vals[0] != vals[2]
    assert differ > 0
    assert make_bot("heuristic:bold").boldness == 1.0 and make_bot("heuristic:cautious").boldness == -1.0


def test_feeds_the_partners_sure_trick():
    """Following a partner whose card nobody left can beat, it throws the card worth most it may."""
    r = rules("cinch")
    seen = 0
    for seed in range(40):
        g = Game(r, seed=seed)
        bots = [HeuristicBot(random.Random(seed * 4 + s)) for s in range(4)]
        while not g.finished and len(g.results) < 3:
            if g.phase == PLAY and g.trick and g.trump >= 0:
                seat, t = g.turn, g.trump
                wk = r.trick_strength(t, g.led)
                win_i = max(range(len(g.trick)), key=lambda i: wk[g.trick[i]])
                played = sum(1 << c for _l, _w, cs in g.tricks for c in cs) | sum(1 << c for c in g.trick)
                out = r.deck.mask & ~played & ~g.hands[seat]
                top_left = max((wk[c] for c in C.bits(out)), default=-1)
                sure = top_left < wk[g.trick[win_i]] or len(g.trick) == g.n - 1
                legal = g.legal_moves()
                worth = card_worth(r, t)
                if r.side_of[g.trick_seats[win_i]] == r.side_of[seat] and sure and \
                        any(worth[c] >= 5 and wk[c] <= top_left for c in legal):
                    choice = bots[seat].choose(g)
                    assert worth[choice] >= 5, (seed, r.card_name(choice))
                    seen += 1
            g.apply(g.turn, bots[g.turn].choose(g))
    assert seen >= 3


def test_the_first_heuristic_is_a_named_bot():
    assert check_bot("heuristic@1") == "heuristic@1"
    bot = make_bot("heuristic@1", random.Random(1))
    assert isinstance(bot, ClassicBot) and bot.name == "heuristic@1"
    with pytest.raises(ValueError):
        check_bot("heuristic:reckless")


def test_simulate_counts_the_games_that_did_not_finish():
    """Random bots bid at random up to 14 in Cinch and are set again and again: many games outrun the
    hand limit, and simulate says how many (each game replayed from its seed must agree)."""
    from smear_dsl.sim.simulate import play_game
    r = rules("cinch")
    s = simulate(r, 12, seed=5, bot="random", max_hands=60)
    unfinished = sum(not play_game(r, 5 + i, "random", 60).finished for i in range(12))
    assert s["unfinished_games"] == unfinished > 0
    h = simulate(r, 12, seed=5, bot="heuristic", max_hands=60)
    assert h["unfinished_games"] == 0


def _best_by_each_suit(r, hand: int, bidder: bool):
    """best_trump's answer worked out suit by suit from the hand's own cards (no worth shared by place)."""
    from smear_dsl.players.worth import _held_worth, _suit_reads
    suits, refill = _suit_reads(r)
    held = [read for read in suits if hand & read[1]]
    best = None
    for s, trumps, tops in held if held and not refill else suits:
        w = _held_worth(r, s, hand & trumps, (hand & r.deck.mask).bit_count(), (hand & tops).bit_count(), 0, bidder)
        if best is None or w.points > best.points:
            best = w
    return best


@pytest.mark.parametrize("name,players", [("ten_point_jack_jick_joker", 4), ("cinch", 4), ("five_point_jick", 3),
                                          ("pedro", 5), ("four_point_ne_wisconsin", 4), ("shasta_sam", 2)])
def test_hands_alike_by_place_under_their_trumps_share_a_worth_to_the_float(name, players):
    """best_trump asks one worth for hands whose trumps sit at the same places of their suits' orders
    (worth._alike_suits): every answer is the one worked out from the hand's own cards, bit for bit."""
    from smear_dsl.players.worth import _alike_suits
    r = rules(name, players)
    assert _alike_suits(r) is not None
    rng = random.Random(3)
    cards = list(C.bits(r.deck.mask))
    for _ in range(300):
        hand = C.mask_of(rng.sample(cards, r.deal.hand_size))
        for bidder in (True, False):
            assert best_trump.__wrapped__(r, hand, 0, bidder) == _best_by_each_suit(r, hand, bidder)


def test_a_point_on_one_card_of_one_suit_keeps_suits_apart(tmp_path):
    """A point on the queen of spades whatever trump is (a house rule) reads spades unlike the other
    suits: no worth is shared by place, and best_trump still gives each hand's own answer."""
    from smear_dsl.compile.compiler import compile_rules
    from smear_dsl.language.load import load_spec
    from smear_dsl.players.worth import _alike_suits
    f = tmp_path / "lady.yaml"
    f.write_text("extends: four_point_ne_wisconsin@1\nname: Four Point with the Lady\n"
                 "description: Four Point with a point for the queen of spades.\n"
                 "points:\n  lady: {card: Q of S, to: winner}\n")
    r = compile_rules(load_spec(str(f)), 4, {})
    assert _alike_suits(r) is None
    rng = random.Random(4)
    cards = list(C.bits(r.deck.mask))
    for _ in range(100):
        hand = C.mask_of(rng.sample(cards, r.deal.hand_size))
        assert best_trump.__wrapped__(r, hand, 0, True) == _best_by_each_suit(r, hand, True)
