"""Any bot from its name: `random`, `heuristic` (`:bold`, `:cautious`), `heuristic@1`, or `search[:BUDGET]`
(players/botspec.py reads the names)."""
from __future__ import annotations

import random

from smear_dsl.players.botspec import check_bot, parse_budget
from smear_dsl.players.classic import ClassicBot
from smear_dsl.players.heuristic import BOLDNESS, HeuristicBot, RandomBot
from smear_dsl.players.search import SearchBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "heuristic@1": ClassicBot}


def make_bot(kind: str, rng: random.Random | None = None):
    """A player for `kind` (a name botspec.check_bot accepts), drawing from `rng`."""
    if kind in BOTS:
        return BOTS[kind](rng)
    if kind.startswith("heuristic:"):
        return HeuristicBot(rng, BOLDNESS[check_bot(kind).partition(":")[2]])
    budget = parse_budget(check_bot(kind))
    if budget is None:  # check_bot accepts a search spec or the names above only
        raise ValueError(f"unknown bot {kind!r}")
    return SearchBot(rng, budget)
