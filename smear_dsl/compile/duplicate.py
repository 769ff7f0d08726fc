"""Seeds, boards and commitments for tournaments: deals anyone can re-derive from a revealed seed.

Algorithms (documented so that `verify-tournament`, or anyone, can redo them):
- round seed: round r of a tournament with master seed m uses `sha256("{m}/round/{r}")` (hex);
- first dealer: a table with seed s starts with seat `random.Random("{s}/first-dealer").randrange(players)`;
- table seed: a table of round r plays with seed `sha256("{round_seed}/table/{t}")` (hex);
- duplicate boards: hand k of every table of a duplicate round is board k of the round: the
  deck shuffled by the keyed shuffle (shuffle.py) with `random.Random("{round_seed}/board/{k}")`,
  dealt in the rules' packets starting with seat 0 (as if seat n-1 dealt), so the same cards
  go to the same seat at every table, whoever deals there (redeals count as hands);
- commitment: `sha256(round_seed)` in hex, published when the round starts; the seed itself is
  revealed when the round ends.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.shuffle import keyed_shuffle


def commitment(seed: str) -> str:
    """The published commitment to a round seed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def round_seed(master: str, r: int) -> str:
    """The seed of round r of a tournament."""
    return hashlib.sha256(f"{master}/round/{r}".encode()).hexdigest()


def first_dealer(seed: str, players: int) -> int:
    """The first dealer of a table dealt with `seed`."""
    return random.Random(f"{seed}/first-dealer").randrange(players)


def table_seed(round_seed: str, table: int) -> str:
    """The seed a (non-duplicate) table of the round deals with."""
    return hashlib.sha256(f"{round_seed}/table/{table}".encode()).hexdigest()


def board(rules: CompiledRules, round_seed: str, k: int) -> tuple[list[list[int]], list[int]]:
    """Board k of a duplicate round: (each seat's cards, the stock), the same at every table."""
    order = keyed_shuffle(random.Random(f"{round_seed}/board/{k}"), rules.deck.cards, rules.deal.shuffle_plan)
    return rules.split_deal(order, rules.players - 1)  # as if seat n-1 dealt: seat 0 gets the first packet


def boards(rules: CompiledRules, round_seed: str) -> Callable[[int], tuple[list[list[int]], list[int]]]:
    """A deal source for Game: hand k gets board k."""
    return lambda k: board(rules, round_seed, k)
