"""Play many bot games and summarise them: speed, bidding, points, wins."""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.engine import Game
from smear_dsl.players.make import make_bot
from smear_dsl.records.verify import carried_rules
from smear_dsl.sim.parallel import run_games


def play_game(rules: CompiledRules, seed: int | None, bot: str = "random", max_hands: int = 1000,
              rng: random.Random | None = None) -> Game:
    """One complete game between bots (stops unfinished after `max_hands` hands); the bots draw from
    `rng`, by default one seeded from `seed` apart from the deal's."""
    game = Game(rules, seed=seed)
    rng = rng or random.Random(None if seed is None else f"{seed}:bots")
    if bot == "random":
        while not game.finished and len(game.results) < max_hands:
            game.apply(game.turn, game.random_move(rng))
        return game
    players = [make_bot(bot, random.Random(rng.random())) for _ in range(rules.players)]
    while not game.finished and len(game.results) < max_hands:
        game.apply(game.turn, players[game.turn].choose(game))
    return game


def game_summary(rules: CompiledRules, i: int, base: int, bot: str, max_hands: int, record_dir: str | None,
                 carried: dict[str, Any]) -> tuple:
    """Game `i` of a run from seed `base`, played from its own seed (base + i) alone, so any process
    plays it alike: (moves, hands, void, scored, contracts, made, bid total, points awarded, winner,
    finished); its record is written to `record_dir` if given."""
    game = play_game(rules, base + i, bot, max_hands)
    void = scored = contracts = made = bids = 0
    awarded: Counter[str] = Counter()
    for res in game.results:
        if res.points is None:  # thrown in (everyone passed, a redeal)
            void += 1
            continue
        scored += 1
        if res.bidder is not None:  # `bidding: none` has no bidder
            contracts += 1
            made += bool(res.made)
            bids += res.bid or 0
        awarded.update(name for name, side in res.points.items() if side is not None and side != [0] * len(res.delta))
    if record_dir:
        Path(record_dir, f"game-{i:05d}.json").write_text(json.dumps({**game.to_record(), **carried}))
    return (game.moves_played, len(game.results), void, scored, contracts, made, bids, dict(awarded), game.winner,
            game.finished)


def simulate(rules: CompiledRules, games: int, seed: int | None = None, bot: str = "heuristic", max_hands: int = 1000,
             record_dir: str | None = None, progress: bool = False, jobs: int = 1) -> dict[str, Any]:
    """Run `games` games and return the summary (see `smear-dsl simulate --json`); `jobs` processes
    play them, with the same summary whatever their number (timings aside)."""
    base = seed if seed is not None else random.SystemRandom().randrange(1 << 62)
    hands = moves = scored = contracts = made = bids_total = void = unfinished = 0
    awarded: Counter[str] = Counter()
    wins: Counter[int] = Counter()
    carried: dict[str, Any] = {}
    if record_dir:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
        carried = carried_rules(rules.spec)  # a house rule file travels with its records
    bar = progress_bar("games", games) if progress else None
    t0 = time.perf_counter()
    per_game = run_games(rules, game_summary, games, (base, bot, max_hands, record_dir, carried), jobs,
                         (lambda n: bar[0].advance(bar[1], n)) if bar else None)
    for g_moves, g_hands, g_void, g_scored, g_contracts, g_made, g_bids, g_awarded, winner, finished in per_game:
        moves, hands, void, scored = moves + g_moves, hands + g_hands, void + g_void, scored + g_scored
        contracts, made, bids_total = contracts + g_contracts, made + g_made, bids_total + g_bids
        awarded.update(g_awarded)
        if finished:
            wins[winner] += 1
        else:
            unfinished += 1
    seconds = time.perf_counter() - t0
    if bar:
        bar[0].stop()
    side_word = "side" if rules.n_sides < rules.players else "seat"
    return {
        "rules": rules.ref, "players": rules.players, "options": rules.options, "bot": bot, "seed": base, "jobs": jobs,
        "games": games, "hands": hands, "moves": moves, "seconds": round(seconds, 4),
        "moves_per_second": round(moves / seconds) if seconds else None,
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "scored_hands": scored, "void_hands": void,
        "bidder_made_rate": round(made / contracts, 4) if contracts else None,
        "average_bid": round(bids_total / contracts, 3) if contracts else None,
        "point_award_rate": {p.name: round(awarded[p.name] / scored, 4) if scored else None for p in rules.points.entries},
        "wins_by": side_word, "wins": {str(s): wins[s] for s in range(rules.n_sides)},
        "unfinished_games": unfinished, "hands_per_game": round(hands / games, 2) if games else None,
        "max_hands": max_hands,
        "warning": (f"{unfinished} of {games} games did not finish within {max_hands} hands: these figures describe "
                    "games cut short" + (" (random bots rarely finish a game; try --bot heuristic)" if bot == "random"
                                         else "")) if unfinished * 2 > games else None,
    }


def progress_bar(what: str, total: int):
    """A progress bar on standard error that says what its times are: `games ━━━ 12/100 elapsed 0:00:03
    remaining 0:00:21`. Returns (progress, task)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    p = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TextColumn("elapsed"), TimeElapsedColumn(),
                 TextColumn("remaining"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    p.start()
    return p, p.add_task(what, total=total)


def render_summary(s: dict[str, Any]) -> str:
    """A readable multi-line summary."""
    lines = [
        f"{s['rules']} ({s['players']} players, {_options(s['options'])}, {s['bot']} bots, seed {s['seed']})",
        f"  games {s['games']}  hands {s['hands']}  moves {s['moves']}  in {s['seconds']:.2f} s "
        f"({s['moves_per_second']:,} moves/s, {s['games_per_second']} games/s)",
        f"  scored hands {s['scored_hands']}, void hands {s['void_hands']}, hands per game {s['hands_per_game']}",
        *([f"  bidder makes it {100 * (s['bidder_made_rate'] or 0):.1f}% of scored hands, average bid {s['average_bid']}"]
          if s["average_bid"] is not None else []),
        "  points awarded: " + ", ".join(f"{k} {100 * (v or 0):.1f}%" for k, v in s["point_award_rate"].items()),
        f"  wins by {s['wins_by']}: " + ", ".join(f"{int(k) + 1}: {v}" for k, v in s["wins"].items())
        + (f"  (unfinished: {s['unfinished_games']})" if s["unfinished_games"] else ""),
    ]
    if s.get("warning"):
        lines.append(f"  warning: {s['warning']}")
    return "\n".join(lines)


def _options(options: dict[str, Any]) -> str:
    """`options widow=2, defense_cap=false` as a person writes them on the command line."""
    if not options:
        return "no options"
    return "options " + ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
