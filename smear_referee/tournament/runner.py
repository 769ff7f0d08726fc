"""`smear-dsl tournament run`: a whole bot tournament played through a local referee.

The referee runs on an embedded SQLite file; each round is paired, its seed committed to
(SHA-256) before any table starts, every table created on the referee with its derived seed
(the round's boards in a duplicate round), bots play every seat through gRPC, results come
back as the tables' records, and the seed is revealed when the round ends. At the end the
archive (smear-tournament/1) and an HTML standings report are written, and the archive is
verified from scratch.
"""
from __future__ import annotations

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
from smear_dsl.record import carried_rules, verify

from . import standings as S
from .archive import FORMAT, outcome, verify_archive
from .pairing import pair_round


def run_tournament(rules_name: str, entrants: int, rounds: int, fmt: str = "swiss", duplicate: bool = False,
                   teams: bool = False, options: dict[str, str] | None = None, seed: str = "smear",
                   out: str = "tournament-out", bot: str = "heuristic", progress: bool = True,
                   hands_per_round: int = 0) -> dict[str, Any]:
    from smear_referee.app import fresh_server
    from smear_referee.client import Client, Persona, play_seat
    from smear_referee.limits import Limits

    spec = load_spec(rules_name)
    rules = compile_rules(spec, None, options or {})
    carried = carried_rules(spec)  # a house rule file is uploaded to the referee and kept in the archive
    n_sides = rules.n_sides
    per_table = n_sides if teams else rules.players
    if teams and n_sides == rules.players:
        raise ValueError("these rules have no partnerships: entrants are players")
    if entrants < per_table:
        raise ValueError(f"a table needs {per_table} entrants")
    names = [f"{'team' if teams else 'player'} {i + 1}" for i in range(entrants)]
    # Each entrant is its own player: its bot has its own seed, boldness and noise wherever it sits.
    personas = [Persona.for_entrant(seed, i, bot) for i in range(entrants)]
    outdir = Path(out)
    server = fresh_server(out, Limits(upload_tables_per_address=1_000_000, tables_per_address=1_000_000,
                                      table_compile_seconds=60.0))  # our own referee: no stranger's budget
    lobby = Client(server.target)
    met: Counter = Counter()
    partners: Counter = Counter()
    held: dict[int, Counter] = defaultdict(Counter)
    archive: dict[str, Any] = {"format": FORMAT, "name": f"{spec.name} tournament", "rules": spec.stem,
                               "title": spec.name, **carried,
                               "players": rules.players, "options": {k: v for k, v in rules.options.items()},
                               "entrants": [{"id": i, "name": n, "bot": personas[i].describe()}
                                            for i, n in enumerate(names)],
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
            tables = pair_round(fmt, list(range(entrants)), per_table, r, seed, S.order_for_swiss(standings), met, held,
                                partners, 0 if teams else n_sides)
            rnd: dict[str, Any] = {"round": r, "duplicate": duplicate, "commitment": commitment(rs), "tables": []}
            played = []
            for t, units in enumerate(tables):
                seats = [units[x % n_sides] if teams else units[x] for x in range(rules.players)]
                tseed = rs if duplicate else table_seed(rs, t)
                created = lobby.create_table(spec.stem, options or {}, rules.players, seed=tseed, duplicate=duplicate,
                                             hand_limit=hands_per_round, rules_text=carried.get("rules_text"))
                tokens = [lobby.join(created.table_id, x).token for x in range(rules.players)]
                played.append((t, units, seats, created, tokens))
            threads = []
            for _t, _units, seats, created, tokens in played:
                for x, tok in enumerate(tokens):
                    th = threading.Thread(target=play_seat, args=(Client(server.target, tok), created.table_id),
                                          kwargs={"seed": f"{r}/{x}", "persona": personas[seats[x]]}, daemon=True)
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
    """The report a club pins on the wall: the rules, the standings, every round's seating and
    results, the boards compared across tables, and (folded away) the seeds to check it all."""
    e = html.escape
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    n_sides = max((len(t["result"]["scores"]) for r in archive["rounds"] for t in r["tables"]), default=0)
    options = ", ".join(f"{k} = {v}" for k, v in archive["options"].items()) or "none"
    rows = "".join(f"<tr><td>{s['rank']}</td><td>{e(s['name'])}</td><td>{s['games']}</td><td>{s['wins']}</td>"
                   f"<td>{s['points_for']}</td><td>{s['points_against']}</td><td>{s['difference']:+d}</td></tr>"
                   for s in archive["standings"])
    rounds = ""
    for rnd in archive["rounds"]:
        lines = ""
        for t in rnd["tables"]:
            res = t["result"]
            sides = [[names.get(u, "?") for x, u in enumerate(t["seats"]) if x % len(res["scores"]) == p]
                     for p in range(len(res["scores"]))]
            cells = "".join(f"<td{' class=won' if res['winner'] == p else ''}>{e(' & '.join(dict.fromkeys(side)))}"
                            f" <b>{score}</b></td>" for p, (side, score) in enumerate(zip(sides, res["scores"])))
            verdict = "won by " + e(" & ".join(dict.fromkeys(sides[res["winner"]]))) if res["winner"] is not None \
                else ("no winner" if res["finished"] else "unfinished")
            lines += f"<tr><td>table {t['table'] + 1}</td>{cells}<td>{verdict}</td></tr>"
        rounds += (f"<h3>Round {rnd['round'] + 1}{' (duplicate: the same boards at every table)' if rnd['duplicate'] else ''}"
                   f"</h3><table><tr><th></th>{''.join(f'<th>side {p}</th>' for p in range(n_sides))}<th>result</th></tr>"
                   f"{lines}</table>")
    comps = ""
    for row in archive.get("duplicate_comparisons", []):
        cells = "".join(f"<td>table {t['table'] + 1}: {e(names.get(t['bidder_entrant'], 'nobody'))} "
                        f"{'bid ' + str(t['bid']) + (' made' if t['made'] else ' set') if t['bid'] else 'no bid'}, "
                        f"{' / '.join(f'{d:+d}' for d in t['delta'])}</td>" for t in row["tables"])
        comps += f"<tr><td>round {row['round'] + 1} board {row['board'] + 1}</td>{cells}</tr>"
    if comps:
        comps = ("<h2>The same deals across tables</h2><p>Each board was dealt to the same seats at every table: "
                 "who bid it, and the score change of each side.</p><table>" + comps + "</table>")
    bots = "".join(f"<li>{e(x['name'])}: {e(x['bot'])}</li>" for x in archive["entrants"] if x.get("bot"))
    audit = "".join(f"<li>{e(a['action'])} {e(names.get(a['entrant'], '?'))}: {e(a.get('reason', ''))}</li>"
                    for a in archive.get("audit", []))
    checks = "".join(f"<li>round {r['round'] + 1}: commitment <code>{r['commitment']}</code>, seed <code>"
                     f"{e(r['seed'])}</code></li>" for r in archive["rounds"])
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" + e(archive["name"]) + "</title>"
            "<style>body{font:15px system-ui;max-width:56rem;margin:2rem auto;padding:0 1rem}"
            "table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.25em .6em;"
            "text-align:left}td.won{background:#e6f4e6}code{font-size:12px;word-break:break-all}</style></head><body>"
            f"<h1>{e(archive['name'])}</h1><p>Rules <b>{e(archive.get('title', archive['rules']))}</b> "
            f"(<code>{e(archive['rules'])}</code>), {archive['players']} players, options: {e(options)}. "
            f"{len(archive['entrants'])} {'teams' if archive.get('teams') else 'entrants'}, {len(archive['rounds'])} "
            f"rounds ({e(archive['pairing'].replace('_', ' '))})"
            + (f", {archive['hands_per_round']} hands a round" if archive.get("hands_per_round") else "")
            + ".</p><h2>Standings</h2><p>Ranked by wins, then point difference, then points for. Points against: the "
            "best opposing final score of each game, counted from zero.</p><table><tr><th>#</th><th>entrant</th>"
            f"<th>games</th><th>wins</th><th>for</th><th>against</th><th>diff</th></tr>{rows}</table>"
            f"<h2>Rounds</h2>{rounds}{comps}"
            + (f"<h2>Director's actions</h2><ul>{audit}</ul>" if audit else "")
            + (f"<h2>Players</h2><ul>{bots}</ul>" if bots else "")
            + "<details><summary>Verification</summary><p>Each round's seed was committed to (SHA-256) before its "
            "first deal and revealed after its last; <code>smear-dsl verify-tournament archive.json</code> re-deals "
            f"every game from these seeds and recomputes everything above.</p><ul>{checks}</ul></details>"
            "</body></html>\n")


def _bar(total: int):
    import sys

    from smear_dsl.simulate import progress_bar
    return progress_bar("tables", total) if sys.stderr.isatty() else None
