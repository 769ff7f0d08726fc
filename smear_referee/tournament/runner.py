"""`smear-dsl tournament run`: a whole bot tournament played through a local referee.

The runner is a director's client of the referee's Tournament service (on an embedded SQLite
file): the service pairs each round, commits to its seed, opens its tables (sealed together in
a duplicate round) and reveals the seed when the round ends; the runner seats a bot on every
seat token, each entrant with its own persona. At the end it exports the archive
(smear-tournament/1), writes it and an HTML standings report, and verifies the archive from
scratch. A house rule file (not shipped) is uploaded with the tournament and kept in the archive.
"""
from __future__ import annotations

import html
import json
import threading
import time
from pathlib import Path
from typing import Any

from smear_dsl.compiler import compile_rules
from smear_dsl.i18n import rules_title, tr_for
from smear_dsl.language import load_spec
from smear_dsl.record import carried_rules, verify

from .archive import archive_rules, findings, verify_archive


def run_tournament(rules_name: str, entrants: int, rounds: int, fmt: str = "swiss", duplicate: bool = False,
                   teams: bool = False, options: dict[str, str] | None = None, seed: str = "smear",
                   out: str = "tournament-out", bot: str = "heuristic", progress: bool = True,
                   hands_per_round: int = 0, jobs: int = 1, lang: str = "en") -> dict[str, Any]:
    """A whole bot tournament on a local referee, driven through its Tournament service as any
    director's client would: create, then for each round start it and seat a bot per entrant on
    every seat token, and at the end export the archive. Writes archive.json and standings.html.
    With `jobs` > 1 the referee runs in a process of its own and the bots in `jobs - 1` others; the
    results are the same (each bot decides from its own view and seed; the tables are independent)."""
    import grpc

    from ..api import referee_pb2 as pb
    from ..api import referee_pb2_grpc as pb_grpc
    from ..app import fresh_server
    from ..client import Persona, bearer
    from ..limits import Limits

    spec = load_spec(rules_name)
    rules = compile_rules(spec, None, options or {})
    if entrants < (rules.n_sides if teams else rules.players):
        raise ValueError(f"a table needs {rules.n_sides if teams else rules.players} entrants")
    names = [f"{'team' if teams else 'player'} {i + 1}" for i in range(entrants)]
    # Each entrant is its own player: its bot has its own seed, boldness and noise wherever it sits.
    personas = [Persona.for_entrant(seed, i, bot) for i in range(entrants)]
    # Our own referee (a house file may be slow to compile): in this process, or in its own.
    # A search bot is played by the referee (it needs the hidden game): here with hardly a pause before its
    # moves, as long a think as asked, and a core per process the bots would have had.
    limits = Limits(table_compile_seconds=60.0, bot_seconds=0.001, bot_search_ms=60_000.0,
                    bot_search_playouts=1_000_000, bot_searches=max(1, jobs - 1))
    server = fresh_server(out, limits, own_process=jobs > 1)
    channel = grpc.insecure_channel(server.target, options=[("grpc.max_receive_message_length", 512 << 20)])
    director = pb_grpc.TournamentStub(channel)
    bar = _bar(rounds * (entrants // (rules.n_sides if teams else rules.players))) if progress else None
    t0 = time.perf_counter()
    pool = _bot_pool(jobs - 1)  # started once: a process's start-up costs about a second
    try:
        created = director.CreateTournament(pb.CreateTournamentRequest(
            rules_name=spec.ref, rules_text=carried_rules(spec).get("rules_text", ""), options=options or {},
            players=rules.players, entrants=names, teams=teams, pairing=fmt, rounds=rounds, duplicate=duplicate,
            seed=seed, name=f"{spec.name} tournament", hands_per_round=hands_per_round))
        token = bearer(created.director_token)
        for r in range(rounds):
            started = director.StartRound(pb.StartRoundRequest(tournament_id=created.tournament_id), metadata=token)
            _play_round(server.target, started, r, personas, bar, pool, max(1, jobs - 1))
        archive = json.loads(director.ExportTournament(pb.ExportTournamentRequest(
            tournament_id=created.tournament_id), metadata=token).archive_json)
    except grpc.RpcError as e:
        raise ValueError(f"the referee refused: {e.details()}") from None
    finally:
        if pool is not None:
            pool.shutdown()
        if bar:
            bar[0].stop()
        channel.close()
        server.stop()
    return _write(archive, personas, Path(out), time.perf_counter() - t0, lang)


def _bot_pool(processes: int):
    """The processes that play the bots' seats (None: they play on threads of this process)."""
    if processes <= 1:
        return None
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"))


def _play_round(target: str, started, r: int, personas: list, bar, pool=None, processes: int = 1) -> None:
    """A bot on every seat token of the round, each playing as the persona of the entrant seated
    there: on threads here, or in `pool` with their tables shared out among `processes`."""
    tables = [(table.table_id, list(table.seat_tokens), [personas[table.seats[x]] for x in range(len(table.seat_tokens))])
              for table in started.tables]
    if pool is None or len(tables) < 2:
        done = _play_tables(target, r, tables)
        if bar:
            bar[0].advance(bar[1], done)
        return
    shares = [tables[k::processes] for k in range(processes) if tables[k::processes]]
    for done in pool.map(_play_tables, [target] * len(shares), [r] * len(shares), shares):
        if bar:
            bar[0].advance(bar[1], done)


def _play_tables(target: str, r: int, tables: list) -> int:
    """Every seat of these tables played at once, a thread per seat; how many tables."""
    from ..client import Client, play_seat
    threads = [threading.Thread(target=play_seat, args=(Client(target, tok), table_id),
                                kwargs={"seed": f"{r}/{x}", "persona": persona}, daemon=True)
               for table_id, tokens, seat_personas in tables for x, (tok, persona) in enumerate(zip(tokens, seat_personas))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(600)
    return len(tables)


def _write(archive: dict[str, Any], personas: list, outdir: Path, seconds: float, lang: str = "en") -> dict[str, Any]:
    """archive.json (with each entrant's bot) and standings.html; the archive, with `_stats` from a
    verification of the written file from scratch."""
    archive.pop("pending_rounds", None)
    for entrant in archive["entrants"]:
        entrant["bot"] = personas[entrant["id"]].describe()
    (outdir / "archive.json").write_text(json.dumps(archive, indent=1))
    (outdir / "standings.html").write_text(standings_html(archive, lang), encoding="utf-8")
    moves = sum(len(h["moves"]) for rnd in archive["rounds"] for tb in rnd["tables"] for h in tb["record"]["hands"])
    archive["_stats"] = {"seconds": round(seconds, 2), "moves": moves,
                         "moves_per_second": round(moves / seconds) if seconds else None,
                         "problems": verify_archive(json.loads((outdir / "archive.json").read_text())),
                         "findings": findings(archive)}
    return archive


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


def standings_html(archive: dict[str, Any], lang: str = "en") -> str:
    """The report a club pins on the wall, in its players' language: the rules, the standings, every
    round's seating and results, the boards compared across tables, and (folded away) the seeds."""
    e, spec = html.escape, _spec_of(archive)
    tr = tr_for(lang)
    t = tr.t
    title = rules_title(spec, lang) if spec else archive.get("title", archive["rules"])
    on_off = {"true": t("on"), "false": t("off")}
    options = ", ".join(f"{k} = {on_off.get(str(v).lower(), v)}" for k, v in archive["options"].items()) or t("none")
    rows = "".join(f"<tr><td>{s['rank']}</td><td>{e(s['name'])}</td><td>{s['games']}</td><td>{s['wins']}</td>"
                   f"<td>{s['points_for']}</td><td>{s['points_against']}</td><td>{s['difference']:+d}</td></tr>"
                   for s in archive["standings"])
    bots = "".join(f"<li>{e(x['name'])}: {e(x['bot'])}</li>" for x in archive["entrants"] if x.get("bot"))
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    audit = "".join(f"<li>{e(a['action'])} {e(names.get(a['entrant'], '?'))}: {e(a.get('reason', ''))}</li>"
                    for a in archive.get("audit", []))
    checks = "".join("<li>" + t("round {n}: commitment {hash}, seed {seed}", n=r["round"] + 1,
                                hash=f"<code>{r['commitment']}</code>", seed=f"<code>{e(r['seed'])}</code>") + "</li>"
                     for r in archive["rounds"])
    who = t("{n} teams", n=len(archive["entrants"])) if archive.get("teams") else \
        t("{n} entrants", n=len(archive["entrants"]))
    pairing = {"swiss": t("Swiss"), "round_robin": t("round robin")}.get(archive["pairing"], archive["pairing"])
    about = t("Rules {title} ({code}), {players} players, options: {options}.", title=f"<b>{e(title)}</b>",
              code=f"<code>{e(archive['rules'])}</code>", players=archive["players"], options=e(options)) + " " + \
        t("{who}, {rounds} rounds ({pairing}).", who=who, rounds=len(archive["rounds"]), pairing=e(pairing)) + \
        (" " + t("{n} hands a round.", n=archive["hands_per_round"]) if archive.get("hands_per_round") else "")
    director = t("The director's actions")
    head = "".join(f"<th>{x}</th>" for x in ("#", t("entrant"), t("games"), t("wins"), t("points for"), t("against"),
                                              t("difference")))
    return (f"<!DOCTYPE html><html lang='{tr.lang}'><head><meta charset='utf-8'><title>" + e(archive["name"]) +
            "</title><style>body{font:15px system-ui;max-width:56rem;margin:2rem auto;padding:0 1rem}"
            "table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.25em .6em;"
            "text-align:left}td.won{background:#e6f4e6}code{font-size:12px;word-break:break-all}</style></head><body>"
            f"<h1>{e(archive['name'])}</h1><p>{about}</p><h2>" + t("Standings") + "</h2><p>"
            + t("Ranked by wins, then point difference, then points for. Points against: the best opposing final "
                "score of each game, counted from zero.") + f"</p><table><tr>{head}</tr>{rows}</table>"
            "<h2>" + t("Rounds") + f"</h2>{_rounds_html(archive, tr)}{_comparisons_html(archive, tr)}"
            + (f"<h2>{director}</h2><ul>{audit}</ul>" if audit else "")
            + ("<h2>" + t("Players") + f"</h2><ul>{bots}</ul>" if bots else "")
            + "<details><summary>" + t("Verification") + "</summary><p>"
            + t("Each round's seed was committed to (SHA-256) before its first deal and revealed after its last; "
                "{command} re-deals every game from these seeds and recomputes everything above.",
                command="<code>smear-dsl verify-tournament archive.json</code>")
            + f"</p><ul>{checks}</ul></details></body></html>\n")


def _spec_of(archive: dict[str, Any]):
    """The tournament's rules, for their name and version in the reader's language (None if they do not load)."""
    from smear_dsl.errors import RecordError
    try:
        return archive_rules(archive).spec
    except RecordError:
        return None


def _rounds_html(archive: dict[str, Any], tr) -> str:
    """Every round: each table's sides, their scores and who won."""
    e, t = html.escape, tr.t
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    n_sides = max((len(x["result"]["scores"]) for r in archive["rounds"] for x in r["tables"]), default=0)
    out = ""
    for rnd in archive["rounds"]:
        lines = ""
        for table in rnd["tables"]:
            res = table["result"]
            sides = [[names.get(u, "?") for x, u in enumerate(table["seats"]) if x % len(res["scores"]) == p]
                     for p in range(len(res["scores"]))]
            cells = "".join(f"<td{' class=won' if res['winner'] == p else ''}>{e(' & '.join(dict.fromkeys(side)))}"
                            f" <b>{score}</b></td>" for p, (side, score) in enumerate(zip(sides, res["scores"])))
            verdict = t("won by {who}", who=e(" & ".join(dict.fromkeys(sides[res["winner"]])))) \
                if res["winner"] is not None else (t("no winner") if res["finished"] else t("unfinished"))
            name = t("Table {n}", n=table["table"] + 1)
            lines += f"<tr><td>{name}</td>{cells}<td>{verdict}</td></tr>"
        heading = t("Round {n} (duplicate: the same boards at every table)", n=rnd["round"] + 1) if rnd["duplicate"] \
            else t("Round {n}", n=rnd["round"] + 1)
        out += (f"<h3>{heading}</h3><table><tr><th></th>"
                + "".join("<th>" + t("Side {n}", n=p) + "</th>" for p in range(n_sides))
                + "<th>" + t("result") + f"</th></tr>{lines}</table>")
    return out


def _comparisons_html(archive: dict[str, Any], tr) -> str:
    """Duplicate boards: who bid each at every table, and what it did to the scores."""
    e, t = html.escape, tr.t
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    comps = ""
    for row in archive.get("duplicate_comparisons", []):
        cells = ""
        for x in row["tables"]:
            if x["bid"]:
                did = t("bid {n} made", n=x["bid"]) if x["made"] else t("bid {n} set", n=x["bid"])
            else:
                did = t("no bid")
            table, bidder = t("Table {n}", n=x["table"] + 1), names.get(x["bidder_entrant"]) or t("nobody")
            cells += f"<td>{table}: {e(bidder)} {did}, {' / '.join(f'{d:+d}' for d in x['delta'])}</td>"
        board = t("round {n} board {b}", n=row["round"] + 1, b=row["board"] + 1)
        comps += f"<tr><td>{board}</td>{cells}</tr>"
    if not comps:
        return ""
    return ("<h2>" + t("The same deals across tables") + "</h2><p>"
            + t("Each board was dealt to the same seats at every table: who bid it, and the score change of each side.")
            + "</p><table>" + comps + "</table>")


def _bar(total: int):
    import sys

    from smear_dsl.simulate import progress_bar
    return progress_bar("tables", total) if sys.stderr.isatty() else None
