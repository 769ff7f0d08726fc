"""Standings, computed from game results alone, so anyone can recompute them from the archive.

For each game an entrant (a unit: a player, or a fixed team holding one side) gets:
- a win if its side won the game (an unfinished game has no winner);
- points for: its side's final score; points against: the best opposing final score, counted from
  zero (opponents who ended below zero scored nothing against it), so it is never negative.
Order: wins, then point difference (for - against), then points for, then entrant number.
Director actions from the audit log: `adjust` adds wins and points on top; `forfeit` makes the
entrant lose that round (its game there counts with no win and no points for; if it did not
play, it is charged a lost game).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from smear_dsl.records.verify import verify


@dataclass
class Line:
    entrant: int
    name: str
    games: int = 0
    wins: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "difference": self.difference}


def game_lines(seats: list[int], scores: list[int], winner: int | None) -> dict[int, tuple[int, int, int]]:
    """Per entrant of one game (seats[x] sits at seat x, on side x mod the number of sides):
    (win, points for, points against)."""
    sides = len(scores)
    out = {}
    for x, u in enumerate(seats):
        p = x % sides
        against = max(0, max((s for q, s in enumerate(scores) if q != p), default=0))
        out[u] = (1 if winner == p else 0, scores[p], against)
    return out


def compute(names: list[str], games: list[dict[str, Any]], audit: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings rows, best first. `games`: {"seats": [entrant per seat], "scores": [...], "winner": side or None}."""
    lines = {i: Line(i, n) for i, n in enumerate(names)}
    forfeits = {(e["entrant"], e.get("round")) for e in audit if e.get("action") == "forfeit"}
    charged = set()
    for g in games:
        for u, (win, pf, pa) in game_lines(g["seats"], g["scores"], g["winner"]).items():
            if (u, g.get("round")) in forfeits:
                win, pf = 0, 0
                charged.add((u, g.get("round")))
            line = lines[u]
            line.games += 1
            line.wins += win
            line.points_for += pf
            line.points_against += pa
    for u, _r in forfeits - charged:
        lines[u].games += 1
    for entry in audit:
        if entry.get("action") == "adjust":
            line = lines[entry["entrant"]]
            line.wins += entry.get("wins", 0)
            line.points_for += entry.get("points", 0)
    ordered = sorted(lines.values(), key=lambda x: (-x.wins, -x.difference, -x.points_for, x.entrant))
    return [{"rank": i + 1, **x.to_json()} for i, x in enumerate(ordered)]


def order_for_swiss(standings: list[dict[str, Any]]) -> list[int]:
    return [row["entrant"] for row in standings]


def comparisons(archive: dict[str, Any]) -> list[dict[str, Any]]:
    """Duplicate rounds: for each board, what each table made of it (bidder's entrant, bid, result)."""
    out = []
    for rnd in archive["rounds"]:
        if not rnd["duplicate"]:
            continue
        n_boards = min(len(tb["record"]["hands"]) for tb in rnd["tables"])
        scored = [verify(tb["record"])["hands"] for tb in rnd["tables"]]  # once per table, not per board
        for k in range(n_boards):
            row = {"round": rnd["round"], "board": k, "tables": []}
            for tb, hands in zip(rnd["tables"], scored):
                if k < len(hands):
                    h = hands[k]
                    bidder = tb["seats"][h["bidder"]] if h["bidder"] is not None and h["bidder"] < len(tb["seats"]) else None
                    row["tables"].append({"table": tb["table"], "bidder_entrant": bidder, "bid": h["bid"],
                                          "made": h["made"], "delta": h["delta"]})
            out.append(row)
    return out
