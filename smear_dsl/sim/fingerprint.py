"""A rule file's behaviour in one hash: what a version of a shipped rule promises never to change.

A version promises its play (docs/rule-language.md, "Versions"): the legal moves, the scoring and
the end of a game, at every seat count and option value. So for every seat count the rules allow,
and for the defaults and each option set alone to each of its other values (ints: their ends), a
few seeded games are played; the hash covers, at every decision, the legal moves (the set, not
their order) and the move taken, each hand's result (points, deltas, scores), and each game's end
(scores, winner, hands). Half the games bid at random, half bid low and rarely, so that games also
reach their end; most of those start just short of the target, so that a changed target, win
condition or tie rule shows; some keep their trumps, so that the edge cases of hands where few
trumps fall show too. Bots are not used: a better bot must not
look like a change of rules. What a seat sees is not hashed (the view tests guard it), so a
presentation change (discards shown face up) needs no new version.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import STEP, Game
from smear_dsl.language.spec import RuleSpec

# Games per setup, by how they are played: at random; at random but keeping trumps (so hands where
# few trumps fall, and their edge cases, are common); bidding low; bidding low from near the end.
POLICIES = (("random", 8), ("shy", 8), ("low", 4), ("near", 24))
HANDS = 25  # a random-bidding game is cut after this many hands (random bids can keep a game going)
LONG_HANDS = 150  # a low-bidding game is played to its end, or to this many hands


def setups(spec: RuleSpec) -> Iterator[tuple[int, dict[str, Any]]]:
    """(players, options) of every setup the fingerprint plays."""
    singles: list[dict[str, Any]] = [{}]
    for o in spec.options:
        if o.type == "bool":
            singles.append({o.name: not o.default})
        elif o.type == "choice":
            singles += [{o.name: c} for c in o.choices if c != o.default]
        else:
            singles += [{o.name: v} for v in sorted(v for v in {o.min, o.max} - {o.default} if v is not None)]
    for players in spec.players:
        for options in singles:
            yield players, options


def fingerprint(spec: RuleSpec) -> str:
    """The hash of `spec`'s behaviour (24 hex digits)."""
    h = hashlib.sha256()
    for players, options in setups(spec):
        rules = compile_rules(spec, players, options)
        s = 0
        for policy, count in POLICIES:
            for _ in range(count):
                h.update(f"|{players}|{sorted(options.items())}|{s}|".encode())
                _game(rules, s, h, policy)
                s += 1
    return h.hexdigest()[:24]


def _move(game: Game, rng: random.Random, policy: str) -> int:
    """A random legal move, but a low bidder passes when it may (3 times in 4), else bids the least it
    can, and a shy player follows with a plain card when it may (9 times in 10)."""
    action = game.expected_action()
    if policy in ("low", "near") and action == "bid":
        legal = game.legal_moves()
        if M.PASS in legal and (len(legal) == 1 or rng.random() < 0.75):
            return M.PASS
        return min(c for c in legal if c != M.PASS)
    if policy == "shy" and action == "play" and game.trump >= 0 and rng.random() < 0.9:
        trumps = game.rules.trumps(game.trump)
        plain = [c for c in game.legal_moves() if not (trumps >> c) & 1]
        if plain:
            return plain[int(rng.random() * len(plain))]
    return game.random_move(rng)


def _result(game: Game) -> bytes:
    """The last hand's result as hashed: its verdict entry without `points_won`, which only says when
    each point fell (the points, deltas and scores it comes to are hashed, and a tie-break it decides
    shows in the game's end)."""
    out = game.results[-1].to_json()
    out.pop("points_won", None)
    return json.dumps(out, sort_keys=True, default=str).encode()


def _game(rules, seed: int, h, policy: str) -> None:
    game = Game(rules, seed=f"fingerprint-{seed}", first_dealer=seed % rules.players)
    if policy == "near" and rules.end.target:  # each side a few points short of the target
        game.start_scores([rules.end.target - 1 - (seed * 7 + side * 3) % 3 for side in range(rules.n_sides)])
        h.update(f"from {game.scores}".encode())
    rng = random.Random(seed)
    cap = LONG_HANDS if policy in ("low", "near") else HANDS
    steps, scored = 0, 0
    while not game.finished and len(game.results) < cap and steps < 100_000:
        steps += 1
        if len(game.results) != scored:
            scored = len(game.results)
            h.update(_result(game))
        if not (game.phase == STEP and game.expected_action() == "discard"):  # discards: too many to list
            h.update(repr(sorted(game.legal_moves())).encode())
        code = _move(game, rng, policy)
        h.update(f"{game.turn}:{code};".encode())
        game.apply(game.turn, code)
    if len(game.results) != scored:
        h.update(_result(game))
    h.update(f"end {list(game.scores)} {game.winner} {len(game.results)} {game.finished}".encode())
