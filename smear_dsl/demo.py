"""`smear-dsl demo`: compile the named rule files, play a bot game of each, narrate, write and verify the records."""
from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console

from .compiler import check_all_setups, compile_rules
from .errors import OptionError
from .language import load_spec
from .narrate import narrate
from .record import verify
from .simulate import play_game

def parse_game(text: str) -> tuple[str, int | None, dict[str, str]]:
    """`RULES[:k=v,...][@PLAYERS]` -> (rules, players or None, options)."""
    text, _, players = text.partition("@")
    name, _, opts = text.partition(":")
    options = dict(o.split("=", 1) for o in opts.split(",") if "=" in o)
    if not players:
        return name, None, options
    if not players.isdigit():
        raise OptionError(f"`@{players}`: the number of players is a whole number")
    return name, int(players), options


def run_demo(games: list[tuple[str, int | None, dict[str, str]]], out_dir: str = "demo-out", seed: int = 2026) -> int:
    console = Console(highlight=False)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    for i, (name, players, options) in enumerate(games):
        spec = load_spec(name)
        problems = check_all_setups(spec)
        players = players or spec.players[0]
        console.rule(f"[bold]{spec.name}[/bold] — {players} players, options {options or 'defaults'}")
        console.print(f"compiled {spec.path}: {len(spec.points)} points, "
                      f"{'no problems' if not problems else str(len(problems)) + ' problems'} in every table setup")
        rules = compile_rules(spec, players, options)
        game = play_game(rules, seed + i, bot="heuristic", rng=random.Random(seed + i))
        record = game.to_record()
        for line in narrate(record):
            console.print(line)
        path = out / f"{spec.stem}.json"
        path.write_text(json.dumps(record, indent=1))
        verdict = verify(json.loads(path.read_text()))
        same = verdict["valid"] and verdict["scores"] == game.scores and verdict["winner"] == game.winner
        console.print(f"record written to {path}; smear-dsl verify: valid={verdict['valid']} finished={verdict['finished']} "
                      f"winner={verdict['winner']} scores={verdict['scores']} -> "
                      + ("[green]matches the game[/green]" if same else "[red]DOES NOT MATCH[/red]"))
        status = status or (0 if same else 1)
    return status
