"""A made-up club season played by bots, as an export: for the demo, the benchmark and the tests. Each
member plays as one bot throughout (the first half today's heuristic, the rest the first one), so a
working ladder must rank today's heuristic's members above the others'."""
from __future__ import annotations

import random
from typing import Any

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.language.load import load_spec
from smear_dsl.players.make import make_bot
from smear_referee.club.export import build_export
from smear_referee.club.ratings import RatingSettings

WEAK = "heuristic@1"  # the first heuristic: plays a real game (games end), but worse than today's


def member_id(i: int) -> str:
    return f"m{i + 1:04d}"


def sample_export(games: int, members: int = 8, rules: str = "four_point_ne_wisconsin", seed: str = "club",
                  seasons: int = 1, guest_every: int = 5, settings: RatingSettings | None = None,
                  hand_limit: int = 20) -> list[dict[str, Any]]:
    """`games` games over `seasons` seasons of `rules` at its default seats, each to its end or `hand_limit`
    hands (bidders set again and again could keep a game going for ever); every `guest_every`-th
    game has a guest in one seat; members 1..members/2 play today's heuristic, the others the first one."""
    spec = load_spec(rules)
    compiled = compile_rules(spec)
    n = compiled.players
    if members < n:
        raise ValueError(f"{rules} seats {n}: a club needs at least {n} members to fill a table")
    rng = random.Random(seed)
    strong = {member_id(i) for i in range(members // 2)}
    per_season = [games // seasons + (1 if s < games % seasons else 0) for s in range(seasons)]
    out, k = [], 0
    for s, count in enumerate(per_season):
        played = []
        for _ in range(count):
            seats: list[str | None] = [member_id(i) for i in rng.sample(range(members), n)]
            if guest_every and k % guest_every == guest_every - 1:
                seats[rng.randrange(n)] = None
            game = Game(compiled, seed=f"{seed}/{k}", hand_limit=hand_limit)
            bots = [make_bot("heuristic" if m in strong else WEAK, random.Random(f"{seed}/{k}/{i}"))
                    for i, m in enumerate(seats)]
            while not game.finished:
                game.apply(game.turn, bots[game.turn].choose(game))
            played.append({"seats": seats, "record": game.to_record()})
            k += 1
        out.append({"season": s + 1, "closed": s < seasons - 1, "games": played})
    member_list = [{"id": member_id(i), "name": f"Player {i + 1}"} for i in range(members)]
    rule_files = [{"rules": spec.ref, "rules_sha256": spec.sha256}]
    return build_export("Sample club", settings or RatingSettings(), rule_files, member_list, out)
