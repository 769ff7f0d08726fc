"""`smear-dsl simulate --compare A B`: what a house rule changes, measured on the same deals.

Game i of both arms uses seed `seed + i`, so with the same deck both arms see the same
sequence of deals (bots draw from their own generators). Every figure is a ratio of
per-game sums (made hands / scored hands, ...), so games are the independent units: the
95% intervals use the delta method for ratio estimators, and the B - A interval pairs
each game of B with the game of A on the same seed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.sim.parallel import run_games
from smear_dsl.sim.simulate import play_game

Z95 = 1.959964
WHO = {"bidder": "to the bidder's side", "others": "to the other side(s)", "nobody": "to no one"}


@dataclass(frozen=True)
class Metric:
    """One compared figure: per-game numerators `ys` over denominators `xs` for each arm."""

    key: str
    label: str
    a: tuple[tuple[float, float], ...]  # (y, x) per game
    b: tuple[tuple[float, float], ...]
    percent: bool = True


def game_stats(game, rules: CompiledRules) -> dict[str, float]:
    """The per-game sums every metric is built from."""
    out: dict[str, float] = {"hands": len(game.results), "scored": 0, "void": 0, "made": 0, "bid": 0,
                             "finished": float(game.finished), "one": 1.0}
    for p in rules.points.entries:
        for who in WHO:
            out[f"point:{p.name}:{who}"] = 0
    for s in range(rules.n_sides):
        out[f"win:{s}"] = float(game.finished and game.winner == s)
    for res in game.results:
        if res.bidder is None:
            out["void"] += 1
            continue
        out["scored"] += 1
        out["made"] += bool(res.made)
        out["bid"] += res.bid
        mine = rules.side_of[res.bidder]
        for name, side in res.points.items():
            if isinstance(side, list):  # a point per card or per trick: the bidder's if it took any of it
                side = mine if side[mine] else next((s for s, v in enumerate(side) if v), None)
            out[f"point:{name}:{'nobody' if side is None else 'bidder' if side == mine else 'others'}"] += 1
    return out


def arm_game(rules: CompiledRules, i: int, seed: int, bot: str, max_hands: int) -> dict[str, float]:
    """Game `i` of an arm: from seed + i alone, so both arms deal alike and any process plays it alike."""
    return game_stats(play_game(rules, seed + i, bot, max_hands), rules)


def run_arm(rules: CompiledRules, games: int, seed: int, bot: str, max_hands: int, jobs: int = 1) -> list[dict[str, float]]:
    return run_games(rules, arm_game, games, (seed, bot, max_hands), jobs)


def ratio_ci(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(estimate, low, high) of sum(y) / sum(x) over independent games (delta method)."""
    n = len(pairs)
    sx = sum(x for _y, x in pairs)
    if n == 0 or sx == 0:
        return math.nan, math.nan, math.nan
    r = sum(y for y, _x in pairs) / sx
    xbar = sx / n
    z = [(y - r * x) / xbar for y, x in pairs]
    se = math.sqrt(sum(v * v for v in z) / (n * max(1, n - 1)))
    return r, r - Z95 * se, r + Z95 * se


def paired_diff_ci(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(B - A, low, high) for two ratio estimates on the same games (paired by seed)."""
    n = len(a)
    sxa, sxb = sum(x for _y, x in a), sum(x for _y, x in b)
    if n == 0 or sxa == 0 or sxb == 0:
        return math.nan, math.nan, math.nan
    ra, rb = sum(y for y, _x in a) / sxa, sum(y for y, _x in b) / sxb
    xa, xb = sxa / n, sxb / n
    d = [(yb - rb * xb_) / xb - (ya - ra * xa_) / xa for (ya, xa_), (yb, xb_) in zip(a, b)]
    mean = sum(d) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in d) / (n * max(1, n - 1)))
    return rb - ra, rb - ra - Z95 * se, rb - ra + Z95 * se


def compare(ra: CompiledRules, rb: CompiledRules, games: int, seed: int, bot: str = "heuristic",
            max_hands: int = 200, jobs: int = 1) -> dict[str, Any]:
    """Play `games` games of each arm on the same seeds (on `jobs` processes, with the same result
    whatever their number); return every metric with its intervals."""
    sa = run_arm(ra, games, seed, bot, max_hands, jobs)
    sb = run_arm(rb, games, seed, bot, max_hands, jobs)

    def pairs(stats, y, x):
        return [(g.get(y, 0.0), g.get(x, 0.0)) for g in stats]

    defs = [("bidder_made", "bidder makes the bid", "made", "scored", True),
            ("average_bid", "average winning bid", "bid", "scored", False),
            ("hands_per_game", "hands per game", "hands", "one", False),
            ("void_hands", "hands nobody bid", "void", "hands", True),
            ("finished", "games finished", "finished", "one", True)]
    points = [p.name for p in ra.points.entries] + [p.name for p in rb.points.entries if p.name not in {q.name for q in ra.points.entries}]
    defs += [(f"point:{p}:{who}", f"{p} {said}", f"point:{p}:{who}", "scored", True) for p in points
             for who, said in WHO.items()]
    sides = max(ra.n_sides, rb.n_sides)
    side_word = "side" if ra.n_sides < ra.players else "seat"
    defs += [(f"win:{s}", f"{side_word} {s + 1} wins", f"win:{s}", "finished", True) for s in range(sides)]  # people count from 1
    rows = []
    for key, label, y, x, percent in defs:
        pa, pb = pairs(sa, y, x), pairs(sb, y, x)
        a, b, d = ratio_ci(pa), ratio_ci(pb), paired_diff_ci(pa, pb)
        rows.append({"key": key, "label": label, "percent": percent, "a": _trip(a), "b": _trip(b), "diff": _trip(d),
                     "significant": bool(not math.isnan(d[1]) and (d[1] > 0 or d[2] < 0))})
    return {"a": _arm(ra), "b": _arm(rb), "games": games, "seed": seed, "bot": bot, "max_hands": max_hands,
            "same_deck": ra.deck.cards == rb.deck.cards, "metrics": rows}


def _arm(r: CompiledRules) -> dict[str, Any]:
    return {"rules": r.ref, "players": r.players, "options": dict(r.options)}


def _trip(t: tuple[float, float, float]) -> list[float | None]:
    return [None if math.isnan(v) else round(v, 5) for v in t]


def label_of(arm: dict[str, Any], other: dict[str, Any]) -> str:
    """A short name for an arm: its rules, and the options in which it differs from the other arm."""
    diff = {k: v for k, v in arm["options"].items() if other["options"].get(k) != v}
    name = arm["rules"] if arm["rules"] != other["rules"] or not diff else ""
    opts = ", ".join(f"{k}={_show(v)}" for k, v in diff.items())
    return (name + (" " if name and opts else "") + opts) or arm["rules"]


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _fmt(v: float | None, percent: bool, signed: bool = False) -> str:
    if v is None:
        return "-"
    if percent:
        return f"{100 * v:+.1f}%" if signed else f"{100 * v:.1f}%"
    return f"{v:+.2f}" if signed else f"{v:.2f}"


def title_of(result: dict[str, Any]) -> str:
    """The two arms, each named once: `some_rules: A widow=0, B widow=3` when only
    options differ, `A: one_file, B: another_file` when the rules do."""
    a, b = result["a"], result["b"]
    la, lb = label_of(a, b), label_of(b, a)
    if a["rules"] == b["rules"] and la != a["rules"]:
        return f"{a['rules']}: A {la}, B {lb}"
    return f"A: {la}, B: {lb}"


def render_text(result: dict[str, Any]) -> str:
    """The comparison as a plain table (one line per metric)."""
    head = (f"{title_of(result)}\n{result['games']} games per arm on the same seeds (from {result['seed']}), "
            f"{result['bot']} bots, {result['a']['players']} players"
            + ("" if result["same_deck"] else "; the decks differ, so the deals do not match") + "\n")
    lines = [f"{'':32}{'A':>18}{'B':>18}   B - A (95% CI)"]
    for m in result["metrics"]:
        p = m["percent"]
        a = f"{_fmt(m['a'][0], p)} ±{_half(m['a'], p)}"
        b = f"{_fmt(m['b'][0], p)} ±{_half(m['b'], p)}"
        d = m["diff"]
        star = " *" if m["significant"] else ""
        lines.append(f"{m['label']:<32}{a:>18}{b:>18}   {_fmt(d[0], p, True)} "
                     f"[{_fmt(d[1], p, True)}, {_fmt(d[2], p, True)}]{star}")
    lines.append("* the 95% interval of B - A excludes 0")
    return head + "\n".join(lines)


def _half(t: list[float | None], percent: bool) -> str:
    if t[1] is None or t[0] is None:
        return "-"
    h = t[0] - t[1]
    return f"{100 * h:.1f}%" if percent else f"{h:.2f}"


def plot(result: dict[str, Any], path: str) -> None:
    """Side-by-side bars with 95% intervals for every metric, saved as a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = [m for m in result["metrics"] if m["percent"] and m["a"][0] is not None and m["b"][0] is not None]
    counts = [m for m in result["metrics"] if not m["percent"] and m["a"][0] is not None and m["b"][0] is not None]
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.42 * max(len(rates), 6) + 1.6),
                             gridspec_kw={"width_ratios": [3, 1.4]})
    for ax, group, scale, unit in ((axes[0], rates, 100, "%"), (axes[1], counts, 1, "")):
        ys = list(range(len(group)))
        for offset, arm, color, label in ((-0.2, "a", "#4C72B0", "A"), (0.2, "b", "#DD8452", "B")):
            vals = [m[arm][0] * scale for m in group]
            err = [[(m[arm][0] - m[arm][1]) * scale for m in group], [(m[arm][2] - m[arm][0]) * scale for m in group]]
            ax.barh([y + offset for y in ys], vals, height=0.4, xerr=err, color=color, label=label, capsize=2)
        ax.set_yticks(ys)
        ax.set_yticklabels([m["label"] + (" *" if m["significant"] else "") for m in group])
        ax.invert_yaxis()
        ax.grid(axis="x", alpha=0.3)
        if unit:
            ax.set_xlabel("percent (95% interval)")
    axes[0].legend(loc="lower right", fontsize=8)
    axes[1].set_xlabel("value (95% interval)")
    fig.suptitle(f"{title_of(result)} - {result['games']} games each on the same deals ({result['bot']} bots); "
                 "* = B - A differs at 95%", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
