"""`smear-dsl tournament run`: a whole bot tournament played through a local referee.

The runner is a director's client of the referee's Tournament service (on an embedded SQLite
file): the service pairs each round, commits to its seed, opens its tables (sealed together in
a duplicate round) and reveals the seed when the round ends; the runner seats a bot on every
seat token, each entrant with its own persona. At the end it exports the archive
(smear-tournament/1), writes it and an HTML standings report, and verifies the archive from
scratch. A house rule file (not shipped) is uploaded with the tournament and kept in the archive.
"""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.language.load import load_spec
from smear_dsl.records.verify import carried_rules
from smear_referee.tournament.archive import findings, verify_archive
from smear_referee.tournament.report import standings_html


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

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.app import fresh_server
    from smear_referee.clients.client import Persona, bearer
    from smear_referee.limits import Limits

    spec = load_spec(rules_name)
    rules = compile_rules(spec, None, options or {})
    if entrants < (rules.n_sides if teams else rules.players):
        raise ValueError(f"a table needs {rules.n_sides if teams else rules.players} entrants")
    names = [f"{'team' if teams else 'player'} {i + 1}" for i in range(entrants)]
    # Each entrant is its own player: its bot has its own seed, boldness and noise wherever it sits.
    personas = [Persona.for_entrant(seed, i, bot) for i in range(entrants)]
    # What the bots compile the rules from to bid by their hands' worth (house rules too, which a seat
    # cannot ask the referee for): picklable, for the bots' processes.
    source = (rules_name, rules.players, tuple(sorted((options or {}).items())))
    # Our own referee (a house file may be slow to compile): in this process, or in its own.
    # A search bot is played by the referee (it needs the hidden game): here with hardly a pause before its
    # moves, as long a think as asked, and a core per process the bots would have had.
    limits = Limits(table_compile_seconds=60.0, bot_seconds=0.001, bot_search_ms=60_000.0,
                    bot_search_playouts=1_000_000, bot_searches=max(1, jobs))
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
            _play_round(server.target, started, r, personas, bar, pool, max(1, jobs - 1), source)
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


def _play_round(target: str, started, r: int, personas: list, bar, pool=None, processes: int = 1,
                source: tuple | None = None) -> None:
    """A bot on every seat token of the round, each playing as the persona of the entrant seated
    there: on threads here, or in `pool` with their tables shared out among `processes`."""
    tables = [(table.table_id, list(table.seat_tokens), [personas[table.seats[x]] for x in range(len(table.seat_tokens))])
              for table in started.tables]
    if pool is None or len(tables) < 2:
        done = _play_tables(target, r, tables, source)
        if bar:
            bar[0].advance(bar[1], done)
        return
    shares = [tables[k::processes] for k in range(processes) if tables[k::processes]]
    for done in pool.map(_play_tables, [target] * len(shares), [r] * len(shares), shares, [source] * len(shares)):
        if bar:
            bar[0].advance(bar[1], done)


def _play_tables(target: str, r: int, tables: list, source: tuple | None = None) -> int:
    """Every seat of these tables played at once, a thread per seat; how many tables."""
    from smear_referee.clients.client import Client, play_seat, source_rules
    rules = source_rules(*source) if source else None
    threads = [threading.Thread(target=play_seat, args=(Client(target, tok), table_id),
                                kwargs={"seed": f"{r}/{x}", "persona": persona, "rules": rules}, daemon=True)
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


def _bar(total: int):
    import sys

    from smear_dsl.sim.simulate import progress_bar
    return progress_bar("tables", total) if sys.stderr.isatty() else None
