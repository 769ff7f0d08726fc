"""A rule file using most of the language (jick, equal jokers, named trump, open bidding,
discard/refill phases) plays complete, verifiable games; and hand-checked rule details."""
from __future__ import annotations

import json
import random

import pytest
from conftest import ROOT, RULE_FILES, rules

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError
from smear_dsl.language.load import load_spec

SINK = str(ROOT / "tests" / "rules_extra" / "ten_point_sketch.yaml")


@pytest.mark.parametrize("players", [4, 6])
def test_kitchen_sink_games_play_to_the_end_and_verify(players):
    """The file lives outside rules/, so its records carry it (`rules_text`, as RECORD_FORMAT.md says)."""
    from smear_dsl.records import verify as record
    spec = load_spec(SINK)
    r = compile_rules(spec, players, {})
    assert r.n_sides == (3 if players == 6 else 2)
    text = open(SINK, encoding="utf-8").read()
    rng = random.Random(5)
    for seed in range(6):
        game = Game(r, seed=seed)
        while not game.finished and len(game.results) < 60:
            legal = game.legal_moves()
            assert legal
            game.apply(game.turn, rng.choice(legal))
        verdict = record.verify({**json.loads(json.dumps(game.to_record())), "rules_text": text}, allow_paths=False)
        assert verdict["valid"], verdict["error"]
        assert verdict["scores"] == game.scores


def test_jick_and_equal_jokers_card_order():
    r = compile_rules(load_spec(SINK), 4, {"joker_tie": "last"})
    hearts = 1
    key = r.deck.win_key[hearts * 4 + hearts]
    jh, jd, bj, rj, th = r.deck.id_of["JH"], r.deck.id_of["JD"], r.deck.id_of["BJ"], r.deck.id_of["RJ"], r.deck.id_of["TH"]
    assert key[jh] > key[jd] > key[bj] == key[rj] > key[th]
    assert r.deck.eff_suit[hearts + 1][jd] == hearts  # the jick is a heart when hearts are trump
    assert r.play.equal_last


def test_smudge_style_special_bid_needs_all_tricks():
    spec = load_spec(SINK)
    r = compile_rules(spec, 4, {})
    env = {"bid": 10, "points": 9, "tricks": 7, "total_tricks": 8, "score": 0, "target": 21, "dealer": False,
           "bidder": True}
    assert r.scoring.made(env) is False
    env["tricks"] = 8
    assert r.scoring.made(env) is True


def test_four_point_hand_by_hand():
    """Widow 0, dealer 3: seat 0 bids 2, the rest pass; seat 0 leads AS (spades trump).
    Worked out by hand: see the comments per trick."""
    r = rules("four_point_ne_wisconsin", 4)
    deal = (["AS KS 7S TH 9D 8C", "QS JH 7H AD KC 9C", "JS 9S 8H QD 7D TC", "TS AH KH JD 8D QC"],
            "8S QH 9H KD TD 7C JC AC")
    g = Game(r, seed=0, first_dealer=3, auto_deal=False)
    g.start_hand(([[r.deck.id_of[c] for c in h.split()] for h in deal[0]], [r.deck.id_of[c] for c in deal[1].split()]))
    g.apply(0, M.BID_BASE + 2)
    for seat in (1, 2, 3):
        g.apply(seat, M.PASS)
    with pytest.raises(MoveError) as e:
        g.apply(1, r.deck.id_of["QS"])
    assert e.value.code == "WRONG_TURN"
    plays = [
        "AS QS JS TS",   # seat 0 wins: High (AS) to side 0; side 0 takes JS (Jack), TS 10, AS 4, QS 2
        "7S KC 9S AH",   # 7S leads trump: seat 1 has no spade left (QS gone) -> KC; seat 2 9S wins; Low (7S) to side 0
        "8H 8D JH QC",   # seat 2 leads 8H; seat 3 has hearts (AH gone, KH left) but plays 8D?  -> refused below
    ]
    for card, seat in zip(plays[0].split(), (0, 1, 2, 3)):
        g.apply(seat, r.deck.id_of[card])
    assert g.turn == 0 and g.trump == 0
    for card, seat in zip(plays[1].split(), (0, 1, 2, 3)):
        g.apply(seat, r.deck.id_of[card])
    assert g.turn == 2  # 9S is the highest trump of the trick
    g.apply(2, r.deck.id_of["8H"])
    with pytest.raises(MoveError) as e:
        g.apply(3, r.deck.id_of["8D"])  # holds KH: must follow hearts or trump
    assert e.value.code == "MUST_FOLLOW_SUIT"
    assert g.turn == 3 and (g.hands[3] >> r.deck.id_of["8D"]) & 1


def test_view_shows_only_own_hand():
    r = rules("cutthroat_canadian", 3)
    g = Game(r, seed=11)
    for seat in range(3):
        v = g.view(seat)
        own = set(v["hand"])
        assert len(own) == 6
        for other in range(3):
            if other != seat:
                assert not own & {r.card_name(c) for c in range(64) if (g.hands[other] >> c) & 1}
    spectator = json.dumps(g.view(None))
    assert '"hand"' not in spectator and "legal" not in spectator


@pytest.mark.parametrize("joker_tie", ["first", "last"])
def test_highest_and_lowest_follow_the_card_order_with_jick_and_equal_jokers(joker_tie):
    """The selectors' quick scan of a trump-only set agrees with the definition (the extreme card
    in the trump's card order, the lower card id among equals), jick and jokers included."""
    from smear_dsl import cards as C
    r = compile_rules(load_spec(SINK), 4, {"joker_tie": joker_tie})
    high = next(p for p in r.points.entries if p.name == "high")  # highest(played where card.trump)
    low = next(p for p in r.points.entries if p.name == "low")    # lowest(dealt where card.trump)
    rng = random.Random(9)
    for _ in range(3000):
        trump = rng.randrange(4)
        played = sum(1 << c for c in r.deck.cards if rng.random() < 0.35)
        dealt = played | sum(1 << c for c in r.deck.cards if rng.random() < 0.35)
        env = {**r.tables.static, "played": played, "dealt": dealt, "held": played, "trump": trump, "bid": 2}
        key = r.tables.order_key[trump + 1].__getitem__
        trumps = r.deck.trump_mask[trump + 1]
        want_high = max(C.bits(played & trumps), key=key) if played & trumps else -1
        want_low = min(C.bits(dealt & trumps), key=key) if dealt & trumps else -1
        assert (high.card(env), low.card(env)) == (want_high, want_low)


@pytest.mark.parametrize("stem", RULE_FILES + [SINK])
def test_scoring_shortcuts_award_what_the_point_selectors_say(stem):
    """Scoring looks fixed cards up per trump and scans for `highest/lowest(S where card.trump)`;
    a twin that evaluates every point's selector closure instead must score every hand alike."""
    import copy
    import dataclasses

    from smear_dsl.compile.compiled import POINT_EACH, POINT_EXPR, POINT_GIFT, POINT_MOST, POINT_TRICKS, POINT_TURNED

    def closure(p):  # the Game point, the gift and points per card or trick have no card selector to evaluate
        if p[0] in (POINT_MOST, POINT_GIFT, POINT_EACH, POINT_TRICKS):
            return p
        return (POINT_TURNED, p[1], None) + p[3:] if p[0] == POINT_TURNED else (POINT_EXPR,) + p[1:]
    spec = load_spec(stem)
    for players in spec.players:
        fast = compile_rules(spec, players)
        points = copy.copy(fast.points)  # the same points, with the lookups replaced by their closures
        object.__setattr__(points, "plan", tuple(map(closure, fast.points.plan)))
        slow = dataclasses.replace(fast, points=points)
        assert slow.points.plan != fast.points.plan or all(p[0] in (POINT_MOST, POINT_EXPR, POINT_GIFT, POINT_EACH,
                                                                    POINT_TRICKS) for p in fast.points.plan)
        for seed in range(3):
            games, rngs = [Game(x, seed=seed, hand_limit=40) for x in (fast, slow)], [random.Random(seed), random.Random(seed)]
            a, b = games
            while not a.finished:
                a.apply(a.turn, a.random_move(rngs[0]))
                b.apply(b.turn, b.random_move(rngs[1]))
            # (when a point fell may differ: a looked-up card falls with its trick, an evaluated one at the end)
            assert [x._replace(fell=None) for x in a.results] == [x._replace(fell=None) for x in b.results]
            assert a.results


def _two_player_jokers(tmp_path, tie: str):
    """Six Point for two players (two equal jokers), to reach the two-seat trick shortcut with ties."""
    f = tmp_path / "six_point_heads_up.yaml"
    f.write_text("extends: six_point_ne_wisconsin\nname: Six Point heads-up\nplayers: 2\n", encoding="utf-8")
    return compile_rules(load_spec(str(f)), 2, {"joker_tie": tie})


@pytest.mark.parametrize("setup", ["cutthroat2", "cutthroat3", "heads_up_first", "heads_up_last", "sink4"])
def test_every_trick_goes_to_the_highest_card_with_ties_by_play_order(setup, tmp_path):
    """Each completed trick's winner is the card with the highest key for the led suit; of equal keys
    (the two jokers) the first played wins, or with `equal_trumps: last` the last played."""
    r = {"cutthroat2": lambda: compile_rules(load_spec("cutthroat_canadian"), 2),
         "cutthroat3": lambda: compile_rules(load_spec("cutthroat_canadian"), 3),
         "heads_up_first": lambda: _two_player_jokers(tmp_path, "first"),
         "heads_up_last": lambda: _two_player_jokers(tmp_path, "last"),
         "sink4": lambda: compile_rules(load_spec(SINK), 4)}[setup]()
    rng = random.Random(11)
    checked = ties = 0
    for seed in range(12):
        g = Game(r, seed=seed, hand_limit=25)
        while not g.finished:
            before = (len(g.results), len(g.tricks))
            g.apply(g.turn, g.random_move(rng))
            if len(g.results) != before[0] or len(g.tricks) == before[1]:
                continue  # no trick completed within this hand (the one that ends a hand is scored, then cleared)
            leader, winner, cards = g.tricks[-1]
            led = r.deck.eff_suit[g.trump + 1][cards[0]]
            keys = [r.deck.win_key[g.trump * 4 + led][c] for c in cards]
            top = max(keys)
            at = [i for i, k in enumerate(keys) if k == top]
            ties += len(at) > 1
            assert winner == (leader + (at[-1] if r.play.equal_last else at[0])) % r.players
            checked += 1
    assert checked > 100
    if setup.startswith("heads_up"):
        assert ties, "no trick had both jokers: the tie rule went untested"


@pytest.mark.parametrize("stem", [s for s in RULE_FILES if load_spec(s).play.lead_rules] + [SINK])
def test_lead_mask_shortcuts_agree_with_every_rule_tested_card_by_card(stem):
    """The legal leads skip rules by guards (trick number, nothing discarded, no discard of the lead's
    suit) and test suit by suit; every card tested against every active lead rule must agree."""
    from smear_dsl import cards as C
    from smear_dsl.engine import PLAY
    spec = load_spec(stem)
    for players in spec.players:
        r = compile_rules(spec, players, {o.name: o.domain()[-1] for o in spec.options})
        rng = random.Random(players)
        leads = 0
        for seed in range(40):
            g = Game(r, seed=seed, hand_limit=3)
            while not g.finished:
                if g.phase == PLAY and not g.trick:
                    seat, hand = g.turn, g.hands[g.turn]
                    want = 0
                    for c in C.bits(hand):
                        if g.trump < 0 and not r.play.trump_named and c >= C.N_SUITED:
                            continue  # a joker cannot fix trump
                        env = {**g.lead_env(seat, hand, g.discarded[seat], g.trick_no), "lead": c}
                        if not any(chk.forbid(env) for chk in r.play.lead_checks):
                            want |= 1 << c
                    g.forget_caches()
                    assert sum(1 << c for c in g.legal_moves()) == want
                    leads += 1
                g.apply(g.turn, g.random_move(rng))
        assert leads > 100


MOON = str(ROOT / "tests" / "rules_extra" / "moon_alone.yaml")


def _play_hand(rules_, hands: list[list[str]], stock: list[str], bids: list[dict], plays: list[list[str]]) -> Game:
    """Deal these cards (dealer 0), play these bids, then each seat's cards in the order given
    (the bidder leads); every move goes through the engine's checks."""
    from smear_dsl.moves import from_dict as parse_move
    from smear_dsl.records.verify import parse_deal
    g = Game(rules_, seed=0, first_dealer=0, auto_deal=False)
    g.start_hand(parse_deal(rules_, {"hands": hands, "stock": stock}))
    for b in bids:
        g.apply_action(*parse_move(rules_, b))
    order = [list(p) for p in plays]
    while not g.hand_over:
        seat = g.turn
        g.apply_action(*parse_move(rules_, {"seat": seat, "action": "play", "card": order[seat].pop(0)}))
    return g


MOON_BIDS = [{"seat": 1, "action": "bid", "value": 4}]  # the top bid: the bidding ends there
MOON_STOCK = ["JD", "TD", "9D", "8D", "7D", "9C", "8C", "7C"]


def test_tricks_per_player_the_bidder_alone_takes_every_trick():
    """bidder_tricks counts the bidding player's own tricks: a bid of 4 in moon_alone is made only
    when the bidder (seat 1) takes all six tricks alone, even though the partner's trick counts for
    the side (and plain Four Point calls the same hand made)."""
    moon = compile_rules(load_spec(MOON), 4, {})
    alone = _play_hand(moon, [["AD", "AC", "KC", "QC", "JC", "TC"], ["AS", "KS", "QS", "JS", "TS", "9S"],
                              ["TH", "9H", "8H", "7H", "KD", "QD"], ["8S", "7S", "AH", "KH", "QH", "JH"]], MOON_STOCK,
                       MOON_BIDS, [["AD", "AC", "KC", "QC", "JC", "TC"], ["AS", "KS", "QS", "JS", "TS", "9S"],
                                   ["TH", "9H", "8H", "7H", "KD", "QD"], ["8S", "7S", "AH", "KH", "QH", "JH"]])
    assert [w for _l, w, _c in alone.tricks] == [1] * 6
    assert alone.results[-1].made and alone.results[-1].scores == [0, 8]
    helped_deal = [["AD", "AC", "KC", "QC", "JC", "TC"], ["AS", "KS", "QS", "JS", "TS", "7H"],
                   ["KH", "QH", "JH", "TH", "9H", "8H"], ["9S", "8S", "7S", "KD", "QD", "AH"]]
    helped_plays = [["AD", "AC", "KC", "QC", "JC", "TC"], ["AS", "KS", "QS", "JS", "TS", "7H"],
                    ["8H", "9H", "TH", "JH", "QH", "KH"], ["9S", "8S", "7S", "KD", "QD", "AH"]]
    helped = _play_hand(moon, helped_deal, MOON_STOCK, MOON_BIDS, helped_plays)
    assert [w for _l, w, _c in helped.tricks] == [1, 1, 1, 1, 1, 3]  # the partner took the last trick
    assert not helped.results[-1].made and helped.results[-1].scores == [0, -4]
    plain = _play_hand(rules("four_point_ne_wisconsin", 4), helped_deal, MOON_STOCK, MOON_BIDS, helped_plays)
    assert plain.results[-1].made  # the side took every point: made in plain Four Point


def test_moon_alone_games_score_by_the_bidders_own_tricks():
    """Random games under moon_alone: on every hand bid at 4, `made` is exactly whether the bidder's
    own tricks are all the tricks (counted here from the hand's tricks)."""
    moon = compile_rules(load_spec(MOON), 4, {})
    rng, checked = random.Random(5), 0
    for seed in range(40):
        g = Game(moon, seed=seed, auto_deal=False, hand_limit=12)
        while not g.finished:
            g.start_hand()
            while not g.hand_over:
                g.apply(g.turn, g.random_move(rng))
            r = g.results[-1]
            if r.bid == 4 and g.tricks:
                mine = sum(w == g.bidder for _l, w, _c in g.tricks)
                assert r.made == (mine == len(g.tricks)), (seed, mine)
                checked += 1
    assert checked >= 20


DEFS = str(ROOT / "tests" / "rules_extra" / "named_definitions.yaml")


def test_named_definitions_play_exactly_as_the_expressions_they_name():
    """named_definitions.yaml says Four Point's lead rule through `define:` names: on the same deals
    and the same random moves, every legal-move list and every hand result is Four Point's."""
    said = compile_rules(load_spec(DEFS), 4, {"widow": 2})
    plain = rules("four_point_ne_wisconsin", 4, widow=2)
    refused = 0
    for seed in range(30):
        a, b = Game(said, seed=seed, hand_limit=6), Game(plain, seed=seed, hand_limit=6)
        rng = random.Random(seed)
        while not a.finished:
            legal = a.legal_moves()
            assert legal == b.legal_moves()
            refused += a.phase == 2 and not a.trick and len(legal) < bin(a.hands[a.turn]).count("1")
            move = rng.choice(legal)
            a.apply(a.turn, move)
            b.apply(b.turn, move)
        assert [r.to_json() for r in a.results] == [r.to_json() for r in b.results]
    assert refused  # the defined rule did refuse some leads


def test_definitions_are_read_by_name_and_defined_once_in_explain():
    from smear_dsl.sheets.explain import render
    text = render(load_spec(DEFS))
    assert "when *trump lead refused* (`trump_lead_refused`)" in text
    defs = text.split("## Definitions")[1]
    assert "*buried suit*: the player discarded a card of the suit led" in defs
    assert "*trump lead refused*: it is the first trick, *buried suit* and *something else*" in defs


@pytest.mark.parametrize("define,use,message,where", [
    ("buried: any(discarded where card.suit == lead.suit)", "made: buried", "unknown name `discarded` in scoring.made",
     "this uses the definition `buried` (line 4)"),
    ("a: b and true\n  b: a", "made: points >= bid", "definition `a` uses itself: a -> b -> a", None),
    ("widow: 3", "made: points >= bid", "`widow` is already a name", None),
    ("Bad: 1", "made: points >= bid", "a definition's name is lower case", None),
    ("half: bid //", "made: points >= half", "bad expression", None),
])
def test_definition_mistakes_are_located(tmp_path, define, use, message, where):
    from smear_dsl.errors import RuleError
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: four_point_ne_wisconsin\nname: House\ndefine:\n  {define}\nscoring:\n  {use}\n")
    with pytest.raises(RuleError) as e:
        load_spec(str(f))
    shown = "\n".join(d.format() for d in e.value.diagnostics)
    assert message in shown and "house.yaml:" in shown
    if where:
        assert where in shown


MUST_TRUMP = str(ROOT / "tests" / "rules_extra" / "must_trump.yaml")
RANK_ORDER = "AKQJT98765432"


def _expected_follow(names: list[str], trick: list[str], trump: str) -> set[str]:
    """must_trump.yaml's legal follows, worked out from card names alone (an oracle independent of
    the engine): follow suit or trump; void in the suit led, trump if able; over a winning trump,
    play higher if able; a rule that would forbid every card forbids none."""
    led = trick[0][-1]

    def key(c):
        return 200 - RANK_ORDER.index(c[0]) if c[-1] == trump else 100 - RANK_ORDER.index(c[0]) if c[-1] == led else 0
    winning = max(trick, key=key)  # the first of equal keys: equal cards do not exist in one deck
    base = {c for c in names if c[-1] in (led, trump)} if any(c[-1] == led for c in names) else set(names)
    can_win = any(key(c) > key(winning) for c in base)

    def forbidden(c):
        must_trump = c[-1] != trump and c[-1] != led and any(x[-1] == trump for x in base)
        over = c[-1] == trump and winning[-1] == trump and key(c) <= key(winning) and can_win
        return must_trump or over
    allowed = {c for c in base if not forbidden(c)}
    return allowed or base


@pytest.mark.parametrize("players", [2, 3])
def test_follow_rules_judge_every_card_played(players):
    """must_trump.yaml on random games: at every follow the engine's legal cards are the oracle's,
    a refused card gets the rule's own code, and the records verify."""
    from smear_dsl.records.verify import carried_rules, verify
    spec = load_spec(MUST_TRUMP)
    r = compile_rules(spec, players, {})
    rng, follows, refusals = random.Random(players), 0, {"MUST_TRUMP": 0, "MUST_OVERTRUMP": 0}
    for seed in range(25):
        g = Game(r, seed=seed, hand_limit=8)
        while not g.finished:
            if g.phase == 2 and g.trick:
                names = [r.card_name(c) for c in M_bits(g.hands[g.turn])]
                trick = [r.card_name(c) for c in g.trick]
                legal = {r.card_name(c) for c in g.legal_moves()}
                assert legal == _expected_follow(names, trick, "SHDC"[g.trump]), (names, trick)
                follows += 1
                for c in sorted(set(names) - legal):
                    with pytest.raises(MoveError) as e:
                        g.clone().apply(g.turn, r.deck.id_of[c])
                    if e.value.code in refusals:
                        refusals[e.value.code] += 1
            g.apply(g.turn, g.random_move(rng))
        record = g.to_record()
        record.update(carried_rules(spec))  # a rule file outside rules/ travels in the record
        assert verify(record)["valid"]
    assert follows > 100 and all(refusals.values()), refusals


def M_bits(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def test_hands_of_unequal_size_end_when_the_first_player_runs_out(tmp_path):
    """A count that depends on the hand can leave hands of different sizes at play (here the
    dealer takes the whole stock): the hand ends when the first player runs out, never stuck."""
    f = tmp_path / "rob.yaml"
    f.write_text("extends: four_point_ne_wisconsin\nname: Dealer robs\nphases:\n"
                 "  - take: {who: dealer, count: count(stock)}\n")
    r = compile_rules(load_spec(str(f)), 4, {})
    rng = random.Random(2)
    for seed in range(20):
        g = Game(r, seed=seed, auto_deal=False, hand_limit=10)
        while not g.finished:
            g.start_hand()
            while not g.hand_over:
                g.apply(g.turn, g.random_move(rng))
            if g.tricks:
                assert len(g.tricks) == min(map(int.bit_count, g.held)) == 6
                assert sorted(map(int.bit_count, g.held)) == [6, 6, 6, 14]  # the dealer robbed the stock


def test_when_the_lead_rules_forbid_every_card_none_applies():
    """Seat 0 discards QS and QC and is refilled with JS and JC: it holds only spades and clubs,
    both discarded, so the house rule would forbid every lead; a player always has a card to play."""
    r = compile_rules(load_spec(str(ROOT / "tests" / "rules_extra" / "no_lead_left.yaml")), 6, {})
    g = Game(r, seed=0, first_dealer=5, auto_deal=False)
    hands = ["AS KS AC KC QS QC", "AH KH JH 2H 3D 4D", "AD KD QD TD 9D 8D", "TS 9S 8S 7S 6S 5S",
             "TC 9C 8C 7C 6C 5C", "TH 9H 8H 7H 6H 5H"]
    ids = [[r.deck.id_of[c] for c in h.split()] for h in hands]
    front = [r.deck.id_of[c] for c in "JS JC".split()]
    used = {c for h in ids for c in h} | set(front)
    g.start_hand((ids, front + [c for c in r.deck.cards if c not in used]))
    g.apply(0, M.BID_BASE + 3)
    for seat in range(1, 6):
        g.apply(seat, M.PASS)
    g.apply(0, M.TRUMP_BASE + 1)  # hearts
    g.apply(0, M.DISCARD_FLAG | (1 << r.deck.id_of["QS"]) | (1 << r.deck.id_of["QC"]))
    for seat in range(1, 5):
        g.apply(seat, M.DISCARD_FLAG)
    g.apply(5, g.random_move(random.Random(1)))   # the dealer robs the pack and comes down to six
    assert g.turn == 0 and g.hands[0] == C.mask_of(r.deck.id_of[c] for c in "AS KS AC KC JS JC".split())
    assert sorted(g.legal_moves()) == sorted(C.bits(g.hands[0]))   # every card, though each is "forbidden"
    g.apply(0, r.deck.id_of["JS"])
    assert g.trick == [r.deck.id_of["JS"]]
