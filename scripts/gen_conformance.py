"""Write the project's own conformance corpus: tests/conformance/NNN_what.json + .expected.json.

Each case is a seeded game played by the engine's bots (so it is a legal record), optionally
broken on purpose in one place. The intent of each break is stated independently of the
verifier: "this move, made by the wrong seat, must be WRONG_TURN at hand h, move m". The
script verifies every case and refuses to write one whose verdict does not match its intent,
so the checked-in verdicts are the verifier's answers to questions whose answers were known.
Together the cases cover every error code of RECORD_FORMAT.md, valid finished and unfinished
games of every shipped rule file, void hands, and a self-contained record (`rules_text`).

Usage: python scripts/gen_conformance.py [--out tests/conformance]
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl import cards as C  # noqa: E402
from smear_dsl import moves as M  # noqa: E402
from smear_dsl.compile.compiler import compile_rules  # noqa: E402
from smear_dsl.engine import STEP, Game  # noqa: E402
from smear_dsl.errors import ERROR_CODES  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_dsl.language.paths import rule_names  # noqa: E402
from smear_dsl.players.classic import ClassicBot as HeuristicBot  # noqa: E402  (the corpus was dealt with the first heuristic)
from smear_dsl.players.heuristic import RandomBot  # noqa: E402
from smear_dsl.records.verify import verify  # noqa: E402

Record = dict[str, Any]


def play(rules_name: str, players: int | None, options: dict, seed: int, bot: str = "heuristic",
         stop: Callable[[Game], bool] | None = None, max_hands: int = 60) -> tuple[Game, Record]:
    """A seeded game by bots until it ends, `stop(game)` holds, or `max_hands` hands were played."""
    rules = compile_rules(load_spec(rules_name), players, options)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    bots = [(HeuristicBot if bot == "heuristic" else RandomBot)(random.Random(seed * 31 + s)) for s in range(rules.players)]
    while not game.finished and len(game.results) < max_hands:
        if stop is not None and stop(game):
            break
        game.apply(game.turn, bots[game.turn].choose(game) if rng.random() < 0.95 else game.random_move(rng))
    return game, json.loads(json.dumps(game.to_record()))


def done_hands(rec: Record) -> list[int]:
    """Indices of hands that are complete and not the last one (so a change there is checked)."""
    return list(range(len(rec["hands"]) - 1))


def moves_where(rec: Record, hand: int, pred: Callable[[dict], bool]) -> list[int]:
    return [i for i, m in enumerate(rec["hands"][hand]["moves"]) if pred(m)]


def cut(rec: Record, hand: int, move: int | None) -> Record:
    """The record up to and including move `move` of hand `hand` (the place of the break)."""
    out = copy.deepcopy(rec)
    out["hands"] = out["hands"][:hand + 1]
    if move is not None:
        out["hands"][hand]["moves"] = out["hands"][hand]["moves"][:move + 1]
    return out


class Corpus:
    def __init__(self) -> None:
        self.cases: list[tuple[str, Record, dict]] = []

    def add(self, what: str, rec: Record, code: str | None, hand: int | None = None, move: int | None = None,
            finished: bool | None = None) -> None:
        """Keep the case only if its verdict is what the break intends."""
        verdict = verify(rec)
        err = verdict["error"]
        if code is None:
            assert verdict["valid"], (what, err)
            if finished is not None:
                assert verdict["finished"] == finished, what
        else:
            assert err is not None and (err["code"], err["hand"], err["move"]) == (code, hand, move), \
                (what, err, (code, hand, move))
        self.cases.append((what, rec, verdict))

    def write(self, out: Path) -> None:
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        for i, (what, rec, verdict) in enumerate(self.cases, 1):
            stem = f"{i:03d}_{what}"
            (out / f"{stem}.json").write_text(json.dumps(rec, indent=1) + "\n")
            (out / f"{stem}.expected.json").write_text(json.dumps(verdict, indent=1) + "\n")


SEEDS = [("four_point_ne_wisconsin", 4, {"widow": 2}), ("cutthroat_canadian", 3, {}),
         ("four_point_ne_wisconsin", 4, {"widow": 0}), ("cutthroat_canadian", 2, {})]


def valid_cases(corpus: Corpus) -> None:
    for name in rule_names():
        spec = load_spec(name)
        for players in spec.players[:2]:
            game, rec = play(name, players, {}, seed=len(corpus.cases) + 7)
            corpus.add(f"valid_{name}_{players}p_{'finished' if game.finished else 'long'}", rec, None,
                       finished=game.finished)
    for widow in range(4):
        for opts in ({}, {"win_only_on_bid": True, "defense_cap": True}):
            game, rec = play("four_point_ne_wisconsin", 4, {"widow": widow, **opts}, seed=100 + widow)
            corpus.add(f"valid_four_point_widow{widow}{'_house' if opts else ''}", rec, None, finished=game.finished)
    # Unfinished games: stopped mid-bidding, mid-discard, mid-trick.
    for name, players, opts in SEEDS:
        for k, when in enumerate((lambda g: len(g.results) == 2 and len(g.hand_moves) == 1,
                                  lambda g: len(g.results) == 1 and g.phase == 2 and len(g.trick) == 1)):
            game, rec = play(name, players, opts, seed=200 + k, stop=when)
            corpus.add(f"valid_{name}_{players}p_in_progress", rec, None, finished=False)
    # Random bots pass a lot: a game with void hands (everyone passed).
    for seed in range(300, 400):
        game, rec = play("four_point_ne_wisconsin", 4, {"widow": 1}, seed=seed, bot="random", max_hands=12)
        if any(all(m["action"] == "pass" for m in h["moves"]) for h in rec["hands"][:-1]):
            corpus.add("valid_void_hands", rec, None)
            break
    # A self-contained record: its rules travel in `rules_text`.
    text = (ROOT / "tests" / "rules_extra" / "ten_point_sketch.yaml").read_text()
    spec_path = str(ROOT / "tests" / "rules_extra" / "ten_point_sketch.yaml")
    game, rec = play(spec_path, 4, {}, seed=5)
    rec["rules"] = "ten_point_sketch"
    rec["rules_text"] = text
    corpus.add("valid_rules_text", rec, None, finished=game.finished)


def broken_cases(corpus: Corpus) -> None:
    for name, players, opts in SEEDS:
        tag = f"{name}_{players}p"
        game, rec = play(name, players, opts, seed=17)
        assert game.finished and len(rec["hands"]) >= 4, tag
        h = done_hands(rec)[1]
        moves = rec["hands"][h]["moves"]

        # BAD_RECORD: an action that does not exist; a bid whose value is not a number.
        corpus.add(f"bad_record_action_{tag}", _set(cut(rec, h, 3), h, 3, action="jump"), "BAD_RECORD", h, 3)
        bids = moves_where(rec, h, lambda m: m["action"] == "bid")
        if bids:
            corpus.add(f"bad_record_value_{tag}", _set(cut(rec, h, bids[0]), h, bids[0], value="3"), "BAD_RECORD", h,
                       bids[0])
        # BAD_DEAL: a card dealt twice.
        bad = cut(rec, h, 0)
        bad["hands"][h]["deal"]["hands"][0][0] = bad["hands"][h]["deal"]["hands"][1][0]
        corpus.add(f"bad_deal_{tag}", bad, "BAD_DEAL", h, None)
        # GAME_OVER: a hand after the end.
        over = copy.deepcopy(rec)
        over["hands"].append(copy.deepcopy(rec["hands"][-1]))
        corpus.add(f"game_over_{tag}", over, "GAME_OVER", len(rec["hands"]), 0)
        # HAND_OVER: a move after the last trick of a finished hand.
        extra = cut(rec, h + 1, None)
        extra["hands"][h]["moves"].append({"seat": 0, "action": "pass"})
        corpus.add(f"hand_over_{tag}", extra, "HAND_OVER", h, len(moves))
        # HAND_INCOMPLETE: a hand that stops before its last trick, with another after it.
        short = cut(rec, h + 1, None)
        short["hands"][h]["moves"].pop()
        corpus.add(f"hand_incomplete_{tag}", short, "HAND_INCOMPLETE", h, len(moves) - 1)
        # WRONG_TURN: the move of the seat after the one to act.
        m = 1
        corpus.add(f"wrong_turn_{tag}", _set(cut(rec, h, m), h, m, seat=(moves[m]["seat"] + 1) % players),
                   "WRONG_TURN", h, m)
        # WRONG_PHASE: a card played while the bidding runs.
        s = moves[0]["seat"]
        card = rec["hands"][h]["deal"]["hands"][s][0]
        corpus.add(f"wrong_phase_{tag}", _replace(cut(rec, h, 0), h, 0, {"seat": s, "action": "play", "card": card}),
                   "WRONG_PHASE", h, 0)
        # BID_OUT_OF_RANGE and BID_TOO_LOW.
        rules = compile_rules(load_spec(name), players, opts)
        corpus.add(f"bid_out_of_range_{tag}",
                   _replace(cut(rec, h, 0), h, 0, {"seat": s, "action": "bid", "value": rules.bidding.max + 1}),
                   "BID_OUT_OF_RANGE", h, 0)
        low = _bid_too_low(rec, rules)
        if low:
            corpus.add(f"bid_too_low_{tag}", *low)
        # CARD_NOT_IN_HAND: a card another seat holds.
        plays = moves_where(rec, h, lambda m: m["action"] == "play")
        p = plays[2]
        who = moves[p]["seat"]
        played = {mv["card"] for mv in moves[:p] if mv["action"] == "play"}
        other = next(c for c in rec["hands"][h]["deal"]["hands"][(who + 1) % players] if c not in played)
        corpus.add(f"card_not_in_hand_{tag}", _set(cut(rec, h, p), h, p, card=other), "CARD_NOT_IN_HAND", h, p)
        # MUST_FOLLOW_SUIT: a side card while holding the suit led.
        follow = _must_follow(rec, rules)
        if follow:
            corpus.add(f"must_follow_suit_{tag}", *follow)
        # BAD_DISCARD: too few cards thrown from the widow.
        if opts.get("widow"):
            discards = [(hi, mi) for hi in done_hands(rec)
                        for mi in moves_where(rec, hi, lambda m: m["action"] == "discard")]
            hi, mi = discards[0]
            thrown = rec["hands"][hi]["moves"][mi]["cards"]
            corpus.add(f"bad_discard_{tag}", _set(cut(rec, hi, mi), hi, mi, cards=thrown[:-1]), "BAD_DISCARD", hi, mi)
    corpus.add("trump_discarded_four_point_widow3", *_trump_discarded())


def beg_cases(corpus: Corpus) -> None:
    """Begging (all_fours): the dealer answering a beg by standing, the eldest giving, an unknown
    choice, and a gift that would put the beggar out (the dealer must run the cards)."""
    for seed in range(40, 200):
        game, rec = play("all_fours", 2, {}, seed=seed)
        begs = [(h, i) for h in done_hands(rec) for i in moves_where(rec, h, lambda m: m.get("choice") == "beg")]
        gifts = [(h, i) for h, i in begs if rec["hands"][h]["moves"][i + 1]["choice"] == "give"]
        if game.finished and begs and gifts:
            break
    h, i = begs[0]
    dealer = rec["hands"][h]["moves"][i + 1]["seat"]
    corpus.add("choice_not_allowed_dealer_stands", _set(cut(rec, h, i + 1), h, i + 1, choice="stand"),
               "CHOICE_NOT_ALLOWED", h, i + 1)
    corpus.add("choice_not_allowed_eldest_gives", _set(cut(rec, h, i), h, i, choice="give"), "CHOICE_NOT_ALLOWED", h, i)
    corpus.add("bad_record_choice", _set(cut(rec, h, i), h, i, choice="pass"), "BAD_RECORD", h, i)
    corpus.add("wrong_turn_dealer_begs", _set(cut(rec, h, i), h, i, seat=dealer), "WRONG_TURN", h, i)
    # A gift the dealer may not give: a game where the eldest begged at 6 of 7 and the dealer ran.
    for seed in range(200, 600):
        game, rec = play("all_fours", 2, {}, seed=seed)
        for h in done_hands(rec):
            moves = rec["hands"][h]["moves"]
            before = verify(dict(rec, hands=rec["hands"][:h]))["scores"]
            if len(moves) > 1 and moves[0].get("choice") == "beg" and moves[1].get("choice") == "run" \
                    and before[moves[0]["seat"] % 2] == 6:
                corpus.add("choice_not_allowed_gift_would_win", _set(cut(rec, h, 1), h, 1, choice="give"),
                           "CHOICE_NOT_ALLOWED", h, 1)
                return
    raise AssertionError("no game has a beg at 6 points")


def _set(rec: Record, hand: int, move: int, **fields: Any) -> Record:
    rec["hands"][hand]["moves"][move].update(fields)
    return rec


def _replace(rec: Record, hand: int, move: int, new: dict) -> Record:
    rec["hands"][hand]["moves"][move] = new
    return rec


def _bid_too_low(rec: Record, rules) -> tuple | None:
    """A later bidder bids the highest bid so far (not the dealer, who may match in some rules)."""
    for h in done_hands(rec):
        moves, dealer = rec["hands"][h]["moves"], rec["hands"][h]["dealer"]
        high = 0
        for m, mv in enumerate(moves):
            if mv["action"] not in ("bid", "pass"):
                break
            if high and mv["seat"] != dealer:
                return _replace(cut(rec, h, m), h, m, {"seat": mv["seat"], "action": "bid", "value": high}), \
                    "BID_TOO_LOW", h, m
            if mv["action"] == "bid":
                high = mv["value"]
    return None


def _must_follow(rec: Record, rules) -> tuple | None:
    """A follower that held the suit led (plain suits only, no jacks or jokers) plays another side suit."""
    for h in done_hands(rec):
        hand = rec["hands"][h]
        held = [list(cards) for cards in hand["deal"]["hands"]]
        moves = hand["moves"]
        for mv in moves:
            if mv["action"] == "discard":
                held[mv["seat"]] = [c for c in held[mv["seat"]] if c not in mv["cards"]]
        trump, trick = None, []
        for m, mv in enumerate(moves):
            if mv["action"] != "play":
                continue
            if trump is None:
                trump = mv["card"][-1]
            if len(trick) == rules.players:
                trick = []
            if trick:
                led = trick[0][-1]
                mine = held[mv["seat"]]
                plain = [c for c in mine if c[0] not in "JW" and len(c) == 2]
                if led != trump and any(c[-1] == led for c in plain) and \
                        not any(c[-1] == led for c in mine if c[0] == "J"):
                    side = [c for c in plain if c[-1] not in (led, trump)]
                    if side:
                        return _set(cut(rec, h, m), h, m, card=side[0]), "MUST_FOLLOW_SUIT", h, m
            trick.append(mv["card"])
            held[mv["seat"]].remove(mv["card"]) if mv["card"] in held[mv["seat"]] else None
    return None


def _trump_discarded() -> tuple:
    """Four Point, widow 3: the bidder throws a card of suit X, keeps X and other suits, then leads X."""
    for seed in range(1000):
        rules = compile_rules(load_spec("four_point_ne_wisconsin"), 4, {"widow": 3})
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while game.expected_action() != "discard" and not game.finished:
            game.apply(game.turn, game.random_move(rng))
        if game.finished:
            continue
        seat = game.turn
        for code in game.legal_moves():
            thrown = code ^ M.DISCARD_FLAG
            kept = game.hands[seat] & ~thrown
            for suit in range(4):
                suit_mask = sum(1 << c for c in rules.deck.cards if C.suit_of(c) == suit)
                if thrown & suit_mask and kept & suit_mask and kept & ~suit_mask:
                    game.apply(seat, code)
                    rec = json.loads(json.dumps(game.to_record()))
                    h = len(rec["hands"]) - 1
                    lead = rules.card_name(next(iter(C.bits(kept & suit_mask))))
                    rec["hands"][h]["moves"].append({"seat": seat, "action": "play", "card": lead})
                    return rec, "TRUMP_DISCARDED", h, len(rec["hands"][h]["moves"]) - 1
    raise SystemExit("no seed gives a TRUMP_DISCARDED case")


FOLLOW_RULES = {  # a house rule per follow-rule code (play.follow_rules), on Cutthroat for 3
    "MUST_TRUMP": "not play.trump and play.suit != lead.suit and any(legal where card.trump)",
    "MUST_OVERTRUMP": "play.trump and winning.trump and not wins and can_win",
    "MUST_HEAD_TRICK": "not wins and can_win",
    "PLAY_FORBIDDEN": "trick == 1 and play.rank == A",
}


def follow_rule_cases(corpus: Corpus) -> None:
    """Records of games under house rules with a follow rule (carried in `rules_text`): one valid
    game each, and the same game with a card the rule forbids played at the first chance."""
    from smear_dsl.language.load import spec_from_text
    for code, forbid in FOLLOW_RULES.items():
        stem = f"follow_{code.lower()}"
        text = (f"extends: cutthroat_canadian\nname: Cutthroat with {code}\nplay:\n  follow_rules:\n"
                f"    - forbid: {forbid}\n      code: {code}\n")
        rules = compile_rules(spec_from_text(text, f"{stem}.yaml", known_parents_only=True), 3, {})
        for seed in range(200):
            game, rng, broken = Game(rules, seed=seed, hand_limit=6), random.Random(seed), None
            while not game.finished:
                hand = game.hands[game.turn]
                if broken is None and game.phase == 2 and game.trick:
                    base = hand & game.follow_ok if hand & game.led_mask else hand
                    forbidden = base & ~sum(1 << c for c in game.legal_moves())
                    if forbidden:
                        rec = json.loads(json.dumps(game.to_record()))
                        h = len(rec["hands"]) - 1
                        card = rules.card_name(next(iter(C.bits(forbidden))))
                        rec["hands"][h]["moves"].append({"seat": game.turn, "action": "play", "card": card})
                        broken = (rec, h, len(rec["hands"][h]["moves"]) - 1)
                game.apply(game.turn, game.random_move(rng))
            if broken is not None:
                break
        assert broken is not None, f"no game breaks {code}"
        valid = game.to_record()
        for rec in (valid, broken[0]):
            rec["rules"], rec["rules_text"] = stem, text
        corpus.add(f"valid_{stem}", valid, None)  # ended by the hand limit, which a record does not carry
        corpus.add(f"{stem}", broken[0], code, broken[1], broken[2])


def _undertrump(game: Game) -> int:
    """Cards the follow rules forbid the seat to act (Trinidad: an undertrump while holding a plain card)."""
    hand = game.hands[game.turn]
    base = hand & game.follow_ok if hand & game.led_mask else hand
    return base & ~sum(1 << c for c in game.legal_moves())


def _trump_over_the_suit_led(game: Game) -> int:
    """Don (follow suit): a trump played by a seat that holds the suit led (another suit than trump)."""
    hand = game.hands[game.turn]
    if not hand & game.led_mask or game.trump < 0:
        return 0
    return hand & game.rules.trumps(game.trump) & ~game.led_mask


def shipped_refusal_cases(corpus: Corpus) -> None:
    """The refusals the family's newer files add: Trinidad's undertrump (a follow rule of a shipped
    file) and Don's follow-suit (no trumping while holding the suit led)."""
    for name, players, code, pick in (("all_fours_trinidad", 4, "PLAY_FORBIDDEN", _undertrump),
                                      ("don", 4, "MUST_FOLLOW_SUIT", _trump_over_the_suit_led)):
        rules = compile_rules(load_spec(name), players, {})
        broken = None
        for seed in range(300):
            game, rng = Game(rules, seed=seed), random.Random(seed)
            while not game.finished and broken is None:
                if game.phase == 2 and game.trick:
                    bad = pick(game)
                    if bad:
                        rec = json.loads(json.dumps(game.to_record()))
                        h = len(rec["hands"]) - 1
                        card = rules.card_name(next(iter(C.bits(bad))))
                        rec["hands"][h]["moves"].append({"seat": game.turn, "action": "play", "card": card})
                        broken = (rec, h, len(rec["hands"][h]["moves"]) - 1)
                        break
                game.apply(game.turn, game.random_move(rng))
            if broken is not None:
                break
        assert broken is not None, f"no game of {name} breaks {code}"
        corpus.add(f"{code.lower()}_{name}_{players}p", broken[0], code, broken[1], broken[2])


def trump_in_turn_cases(corpus: Corpus) -> None:
    """Trump named in turn (tests/rules_extra/trump_in_turn.yaml, carried in `rules_text`): a game whose
    second hand sees three passes and the dealer forced to name trump, and that hand with the dealer
    passing too, which must be WRONG_PHASE (everyone else passed: the dealer must name trump)."""
    path = ROOT / "tests" / "rules_extra" / "trump_in_turn.yaml"
    text = path.read_text()
    rules = compile_rules(load_spec(str(path)), 4, {})
    game, rng, broken = Game(rules, seed=11), random.Random(11), None
    while not game.finished:
        if len(game.results) == 1 and game.phase == STEP and game.turn != game.dealer:  # hand 2: all but the dealer pass
            game.apply(game.turn, M.PASS)
            continue
        if broken is None and len(game.results) == 1 and game.phase == STEP:
            rec = json.loads(json.dumps(game.to_record()))
            rec["hands"][1]["moves"].append({"seat": game.turn, "action": "pass"})
            broken = (rec, 1, len(rec["hands"][1]["moves"]) - 1)
        game.apply(game.turn, game.random_move(rng))
    valid = game.to_record()
    for rec in (valid, broken[0]):
        rec["rules"], rec["rules_text"] = "trump_in_turn", text
    corpus.add("valid_trump_in_turn", valid, None, finished=game.finished)
    corpus.add("wrong_phase_dealer_must_name_trump", broken[0], "WRONG_PHASE", broken[1], broken[2])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "tests" / "conformance"))
    args = ap.parse_args()
    corpus = Corpus()
    valid_cases(corpus)
    broken_cases(corpus)
    follow_rule_cases(corpus)
    shipped_refusal_cases(corpus)
    beg_cases(corpus)
    trump_in_turn_cases(corpus)
    covered = {v["error"]["code"] for _w, _r, v in corpus.cases if v["error"]}
    missing = set(ERROR_CODES) - covered
    assert not missing, f"no case for {sorted(missing)}"
    corpus.write(Path(args.out))
    print(f"{len(corpus.cases)} cases written to {args.out}; every error code covered")


if __name__ == "__main__":
    main()
