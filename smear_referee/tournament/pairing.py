"""Table assignments for a round: who sits at which table and in which seat.

- Round robin with two units per table (team against team, or heads-up): the circle method,
  so over n-1 rounds every pair meets exactly once.
- Otherwise (and for Swiss) a seeded greedy: entrants are taken in order (Swiss: by standings;
  round robin: a fixed seeded order) and each table is filled with the entrants who have met
  the table's members least often so far.
- Seats rotate: at each table the units are placed so that, first, no two individual entrants
  are partners again while another seating avoids it (partners share every result, so the same
  pair partnered every round would stand level in the standings), then each takes the position
  it has held least often (ties broken by the round number), so nobody keeps the dealer's-left seat.
A unit is one entrant; with fixed teams it fills every seat of one side.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations


def circle_round(entrants: list[int], r: int) -> list[list[int]]:
    """Round r (0-based) of the circle method for pairs; an odd count gets a bye (-1)."""
    players = list(entrants) + ([-1] if len(entrants) % 2 else [])
    n = len(players)
    fixed, rest = players[0], players[1:]
    rest = rest[-(r % (n - 1)):] + rest[:-(r % (n - 1))] if r % (n - 1) else rest
    order = [fixed] + rest
    pairs = [[order[i], order[n - 1 - i]] for i in range(n // 2)]
    return [p for p in pairs if -1 not in p]


def greedy_tables(order: list[int], per_table: int, met: Counter) -> list[list[int]]:
    """Fill tables of `per_table` units in `order`, each with those who met its members least."""
    left = list(order)
    tables = []
    while len(left) >= per_table:
        table = [left.pop(0)]
        while len(table) < per_table:
            best = min(range(len(left)), key=lambda i: (sum(met[frozenset((left[i], x))] for x in table), i))
            table.append(left.pop(best))
        tables.append(table)
    return tables  # the rest (fewer than a table) sit out this round


def assign_positions(table: list[int], positions: int, history: dict[int, Counter], r: int,
                     partners: Counter | None = None, n_sides: int = 0) -> list[int]:
    """Order the units of a table over its positions: fewest repeated partnerships (position p and q
    are partners when p = q mod n_sides), then each taking the position it has held least."""
    best, best_cost = list(table), None
    candidates = _permutations(table) if len(table) <= 6 else [table[r % len(table):] + table[:r % len(table)]]
    for perm in candidates:
        again = sum(partners[frozenset((a, b))] for (i, a), (j, b) in combinations(enumerate(perm), 2)
                    if i % n_sides == j % n_sides) if partners is not None and n_sides else 0
        cost = sum(history[u][p] for p, u in enumerate(perm))
        key = (again, cost, (sum(i * u for i, u in enumerate(perm)) + r) % 7)
        if best_cost is None or key < best_cost:
            best, best_cost = list(perm), key
    return best


def _permutations(items: list[int]) -> list[tuple[int, ...]]:
    from itertools import permutations
    return list(permutations(items))


def pair_round(fmt: str, units: list[int], per_table: int, r: int, seed: str, standings_order: list[int] | None,
               met: Counter, positions_held: dict[int, Counter], partners: Counter | None = None,
               n_sides: int = 0) -> list[list[int]]:
    """The tables of round r: each a list of units in position order. With `n_sides` smaller than
    `per_table` (individual entrants in partnerships) `partners` counts who partnered whom so far."""
    if fmt == "round_robin" and per_table == 2:
        tables = circle_round(units, r)
    elif fmt == "swiss" and standings_order is not None and r > 0:
        tables = greedy_tables(standings_order, per_table, met)
    else:
        order = list(units)
        random.Random(f"{seed}/order/{r}").shuffle(order)
        tables = greedy_tables(order, per_table, met)
    out = []
    for t in tables:
        placed = assign_positions(t, per_table, positions_held, r, partners, n_sides)
        for p, u in enumerate(placed):
            positions_held[u][p] += 1
        if partners is not None and n_sides:
            for (i, a), (j, b) in combinations(enumerate(placed), 2):
                if i % n_sides == j % n_sides:
                    partners[frozenset((a, b))] += 1
        for a, b in combinations(placed, 2):
            met[frozenset((a, b))] += 1
        out.append(placed)
    return out
