"""`smear-dsl tournament run`: a whole bot tournament played through a local referee.

The referee runs on an embedded SQLite file; each round is paired, its seed committed to
(SHA-256) before any table starts, every table created on the referee with its derived seed
(the round's boards in a duplicate round), bots play every seat through gRPC, results come
back as the tables' records, and the seed is revealed when the round ends. At the end the
archive (smear-tournament/1) and an HTML standings report are written, and the archive is
verified from scratch.
"""
from __future__ import annotations

import hashlib
import html
import json
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from smear_dsl.compiler import compile_rules
from smear_dsl.duplicate import commitment, round_seed, table_seed
from smear_dsl.language import load_spec
from smear_dsl.record import verify

from . import standings as S
from .archive import FORMAT, outcome, verify_archive
from .pairing import pair_round


def run_tournament(rules_name: str, entrants: int, rounds: int, fmt: str = "swiss", duplicate: bool = False,
                   teams: bool = False, options: dict[str, str] | None = None, seed: str = "smear",
                   out: str = "tournament-out", bot: str = "heuristic", progress: bool = True,
                   hands_per_round: int = 0) -> dict[str, Any]:
    from server.app import fresh_server
    from server.client import Client, play_seat

    spec = load_spec(rules_name)
    rules = compile_rules(spec, None, options or {})
    n_sides = rules.n_sides
    per_table = n_sides if teams else rules.players
    if teams and n_sides == rules.players:
        raise ValueError("these rules have no partnerships: entrants are players")
    if entrants < per_table:
        raise ValueError(f"a table needs {per_table} entrants")
    names = [f"{'team' if teams else 'player'} {i + 1}" for i in range(entrants)]
    outdir = Path(out)
    server = fresh_server(out)
    lobby = Client(server.target)
    met: Counter = Counter()
    held: dict[int, Counter] = defaultdict(Counter)
    archive: dict[str, Any] = {"format": FORMAT, "name": f"{spec.name} tournament", "rules": spec.stem,
                               "players": rules.players, "options": {k: v for k, v in rules.options.items()},
                               "entrants": [{"id": i, "name": n} for i, n in enumerate(names)],
                               "pairing": fmt, "teams": teams, "hands_per_round": hands_per_round,
                               "rounds": [], "audit": [], "standings": []}
    games: list[dict[str, Any]] = []
    standings = S.compute(names, games, [])
    bar = _bar(rounds * (entrants // per_table)) if progress else None
    t0 = time.perf_counter()
    moves = 0
    try:
        for r in range(rounds):
            rs = round_seed(seed, r)
            tables = pair_round(fmt, list(range(entrants)), per_table, r, seed, S.order_for_swiss(standings), met, held)
            rnd: dict[str, Any] = {"round": r, "duplicate": duplicate, "commitment": commitment(rs), "tables": []}
            played = []
            for t, units in enumerate(tables):
                seats = [units[x % n_sides] if teams else units[x] for x in range(rules.players)]
                tseed = rs if duplicate else table_seed(rs, t)
                created = lobby.create_table(spec.stem, options or {}, rules.players, seed=tseed, duplicate=duplicate,
                                             hand_limit=hands_per_round)
                tokens = [lobby.join(created.table_id, x).token for x in range(rules.players)]
                played.append((t, units, seats, created, tokens))
            threads = []
            for _t, _units, _seats, created, tokens in played:
                for x, tok in enumerate(tokens):
                    bot_seed = int(hashlib.sha256(f"{seed}/{r}/{created.table_id}/{x}".encode()).hexdigest()[:8], 16)
                    th = threading.Thread(target=play_seat, args=(Client(server.target, tok), created.table_id, bot,
                                                                  bot_seed), daemon=True)
                    th.start()
                    threads.append((created.table_id, th))
            done_tables: set[str] = set()
            for tid, th in threads:
                th.join(600)
                if tid not in done_tables and all(not t2.is_alive() for t3, t2 in threads if t3 == tid):
                    done_tables.add(tid)
                    if bar:
                        bar[0].advance(bar[1])
            for t, units, seats, created, _tokens in played:
                record, complete = Client(server.target, created.host_token).record(created.table_id)
                verdict = lobby.verify(record)
                moves += sum(len(h["moves"]) for h in record["hands"])
                winner = outcome(verdict, hands_per_round)
                result = {"scores": verdict["scores"], "winner": winner, "finished": verdict["finished"]}
                rnd["tables"].append({"table": t, "table_id": created.table_id, "units": units, "seats": seats,
                                      "record": record, "result": result})
                games.append({"round": r, "seats": seats, "scores": verdict["scores"], "winner": winner})
            rnd["seed"] = rs  # revealed once every table of the round is over
            archive["rounds"].append(rnd)
            standings = S.compute(names, games, archive["audit"])
    finally:
        if bar:
            bar[0].stop()
        server.stop()
    seconds = time.perf_counter() - t0
    archive["standings"] = standings
    archive["duplicate_comparisons"] = comparisons(archive) if duplicate else []
    (outdir / "archive.json").write_text(json.dumps(archive, indent=1))
    (outdir / "standings.html").write_text(standings_html(archive))
    archive["_stats"] = {"seconds": round(seconds, 2), "moves": moves,
                         "moves_per_second": round(moves / seconds) if seconds else None,
                         "problems": verify_archive(json.loads((outdir / "archive.json").read_text()))}
    return archive


def comparisons(archive: dict[str, Any]) -> list[dict[str, Any]]:
    """Duplicate rounds: for each board, what each table made of it (bidder's entrant, bid, result)."""
    out = []
    for rnd in archive["rounds"]:
        if not rnd["duplicate"]:
            continue
        n_boards = min(len(t["record"]["hands"]) for t in rnd["tables"])
        scored = [verify(t["record"])["hands"] for t in rnd["tables"]]  # once per table, not per board
        for k in range(n_boards):
            row = {"round": rnd["round"], "board": k, "tables": []}
            for t, hands in zip(rnd["tables"], scored):
                if k < len(hands):
                    h = hands[k]
                    bidder = t["seats"][h["bidder"]] if h["bidder"] is not None and h["bidder"] < len(t["seats"]) else None
                    row["tables"].append({"table": t["table"], "bidder_entrant": bidder, "bid": h["bid"],
                                          "made": h["made"], "delta": h["delta"]})
            out.append(row)
    return out


def standings_html(archive: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{s['rank']}</td><td>{html.escape(s['name'])}</td><td>{s['games']}</td><td>{s['wins']}</td>"
                   f"<td>{s['points_for']}</td><td>{s['points_against']}</td><td>{s['difference']}</td></tr>"
                   for s in archive["standings"])
    comps = ""
    for row in archive.get("duplicate_comparisons", []):
        names = {e["id"]: e["name"] for e in archive["entrants"]}
        cells = "".join(f"<td>table {t['table'] + 1}: {html.escape(names.get(t['bidder_entrant'], 'nobody'))} "
                        f"{'bid ' + str(t['bid']) + (' made' if t['made'] else ' set') if t['bid'] else 'no bid'}, "
                        f"{t['delta']}</td>" for t in row["tables"])
        comps += f"<tr><td>round {row['round'] + 1} board {row['board'] + 1}</td>{cells}</tr>"
    if comps:
        comps = ("<h2>The same deals across tables</h2><p>Each board was dealt to the same seats at every table; "
                 "who bid it, and the score changes by side.</p><table>" + comps + "</table>")
    rounds = "".join(f"<li>round {r['round'] + 1}: commitment <code>{r['commitment']}</code>, seed <code>"
                     f"{html.escape(r['seed'])}</code>, {len(r['tables'])} tables"
                     f"{' (duplicate)' if r['duplicate'] else ''}</li>" for r in archive["rounds"])
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>"
            + html.escape(archive["name"]) + "</title><style>body{font:15px system-ui;max-width:50rem;margin:2rem auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em}</style></head><body>"
            f"<h1>{html.escape(archive['name'])}</h1><p>Rules <code>{archive['rules']}</code>, "
            f"{len(archive['entrants'])} entrants, {len(archive['rounds'])} rounds ({archive['pairing']}). Ranked by wins, "
            "then point difference, then points for.</p><table><tr><th>#</th><th>entrant</th><th>games</th><th>wins</th>"
            f"<th>for</th><th>against</th><th>diff</th></tr>{rows}</table>{comps}<h2>Rounds</h2><ul>{rounds}</ul>"
            "</body></html>\n")


def _bar(total: int):
    import sys

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    if not sys.stderr.isatty():
        return None
    p = Progress("tables", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                 transient=True)
    p.start()
    return p, p.add_task("tables", total=total)
