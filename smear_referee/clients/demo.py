"""`smear-dsl demo`: served games. Start the referee on an embedded SQLite file, seat bots at a table
for each named game, play them to the end through gRPC while a spectator narrates the live
events, then export each record and verify it (through the service and locally)."""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from rich.console import Console

from smear_dsl.compile.lint import check_all_setups
from smear_dsl.i18n import signed
from smear_dsl.language.load import load_spec
from smear_dsl.language.versions import is_known
from smear_dsl.records.verify import verify
from smear_referee.clients.terminal import card, move_text


def parse_game(text: str) -> tuple[str, int | None, dict[str, str]]:
    """`RULES[:k=v,...][@PLAYERS]` -> (rules, players or None, options). RULES may name a version
    (`name@1`): a last `@N` is the number of players unless it is a version of the rules and no
    options come between (`name@1` is version 1; `name@1@4` version 1 with 4 players)."""
    rest, at, players = text.rpartition("@")
    if not (at and players.isascii() and players.isdigit()) or (":" not in rest and "@" not in rest and is_known(text)):
        rest, players = text, ""
    name, _, opts = rest.partition(":")
    options = dict(o.split("=", 1) for o in opts.split(",") if "=" in o)
    return name, int(players) if players else None, options


def narrate_event(ev) -> str | None:
    """One live event as a line of the log (None for events not worth a line), as a person reads it:
    seats and sides counted from 1, moves in the table's words (terminal.move_text)."""
    kind = ev.WhichOneof("kind")
    if kind == "hand_started":
        return f"[bold]hand {ev.hand_started.hand + 1}[/bold]: seat {ev.hand_started.dealer + 1} deals"
    if kind == "move":
        if ev.move.move.WhichOneof("action") == "play":
            return None  # the trick's line shows its cards
        return f"  seat {ev.move.seat + 1} {move_text(ev.move.move, told=True)}"
    if kind == "trick_won":
        return f"  trick {' '.join(card(c) for c in ev.trick_won.cards)} → seat {ev.trick_won.winner + 1}"
    if kind == "hand_scored":
        r = json.loads(ev.hand_scored.result_json)
        if r["points"] is None:  # a void hand: everyone passed
            return f"  nobody bid; scores {_scores(r['scores'])}"
        points = ", ".join(f"{k} → {_sides(v)}" for k, v in r["points"].items())
        if r["bidder"] is None:  # a game without bidding
            return f"  {points}; scores {_scores(r['scores'])}"
        return (f"  seat {r['bidder'] + 1} bid {r['bid']}: {'made' if r['made'] else 'set'}; {points}; "
                f"scores {_scores(r['scores'])}")
    if kind == "game_over":
        over = ev.game_over
        winner = f"side {over.winner + 1} wins" if over.HasField("winner") else "nobody wins"
        return f"[bold green]game over[/bold green]: {winner}, scores {_scores(list(over.scores))}"
    return None


def _sides(got) -> str:
    """Who won a point: a side, or (a point per card or per trick) each side's total."""
    if isinstance(got, list):
        return " / ".join(f"side {s + 1} {v}" for s, v in enumerate(got) if v) or "nobody"
    return "nobody" if got is None else f"side {got + 1}"


def _scores(scores: list[int]) -> str:
    """`7, −2`: side by side, with a real minus sign."""
    return ", ".join(signed(s) for s in scores)


def run_demo(games: list[tuple[str, int | None, dict[str, str]]], out_dir: str = "demo-out", seed: int = 2026,
             web: int | None = None, serve: bool = False) -> int:
    """Play and narrate the games through a fresh referee; with `web`, browsers can watch and play on
    its web port meanwhile (and, with `serve`, after the games until Ctrl-C)."""
    from smear_referee.app import PortInUse, fresh_server

    console = Console(highlight=False)
    out = Path(out_dir)
    try:
        server = fresh_server(out_dir, web=web)
    except PortInUse:
        if not web:
            raise
        server = fresh_server(out_dir, web=0)  # the asked-for web port is taken: any free one
    console.print(f"referee listening on {server.target} (tables in {server.db})")
    if web is not None:
        console.print(f"[bold]web client: {server.url}[/bold] (open it to watch these tables, or to play)")
    status = 0
    try:
        for i, (name, players, options) in enumerate(games):
            status = _play_game(console, server, out, name, players, options, f"{seed}-{i}", seed + 10 * i) or status
        if serve and web is not None:
            console.print(f"[bold]the referee keeps serving at {server.url}[/bold]: open a table in the lobby and "
                          "fill it with bots; Ctrl-C stops it")
            _wait_for_ctrl_c()
    finally:
        server.stop()
    return status


def _wait_for_ctrl_c() -> None:
    import signal
    import time
    # A process started in the background by a shell without job control inherits SIGINT ignored,
    # and Python then leaves it so: the promised Ctrl-C (or a test's SIGINT) must still stop it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


def _play_game(console: Console, server, out: Path, name: str, players: int | None, options: dict[str, str],
               table_seed: str, bot_seed: int) -> int:
    """One narrated bot game through the referee, its record written and verified twice; 1 if they disagree."""
    from smear_referee.clients.client import Client, play_seat
    lobby = Client(server.target)
    spec = load_spec(name)
    problems = check_all_setups(spec)
    players = players or spec.players[0]
    created = lobby.create_table(name, options, players, seed=table_seed)
    tid = created.table_id
    console.rule(f"[bold]{spec.name}[/bold] - table {tid}, {players} bots, options {dict(created.table.options) or 'none'}")
    console.print(f"compiled {spec.stem}: {len(spec.points)} points, "
                  f"{'no problems' if not problems else str(len(problems)) + ' problems'} in every table setup")
    seats = [lobby.join(tid, s).token for s in range(players)]
    watcher = Client(server.target, lobby.join(tid).token)
    finals: dict[int, Any] = {}

    def run_seat(s: int) -> None:
        finals[s] = play_seat(Client(server.target, seats[s]), tid, "heuristic", seed=bot_seed + s)
    threads = [threading.Thread(target=run_seat, args=(s,), daemon=True) for s in range(players)]
    for th in threads:
        th.start()
    for ev in watcher.watch(tid, after_seq=0):
        line = narrate_event(ev)
        if line:
            console.print(line)
        if ev.WhichOneof("kind") == "game_over":
            break
    for th in threads:
        th.join(60)
    record, complete = Client(server.target, created.host_token).record(tid)
    path = out / f"{spec.stem}.json"
    path.write_text(json.dumps(record, indent=1))
    served = lobby.verify(record)
    local = verify(json.loads(path.read_text()))
    final = finals.get(0)
    same = (complete and served == local and local["valid"] and final is not None
            and local["scores"] == list(final.scores))
    won = "nobody won" if local["winner"] is None else f"side {local['winner'] + 1} won"
    console.print(f"record written to {path}; VerifyRecord and smear-dsl verify: valid={local['valid']} "
                  f"finished={local['finished']}, {won}, scores {_scores(local['scores'])} -> "
                  + ("[green]matches the game[/green]" if same else "[red]DOES NOT MATCH[/red]"))
    return 0 if same else 1
