"""A lobby read from the store: what ListTables answers on a replica, where the tables are spread
over every replica's memory. Each line is built from the stored rows alone (no game is replayed),
so a listing costs a few indexed queries, bounded by Limits.list_tables.
"""
from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from smear_dsl.errors import OptionError, RuleError
from smear_dsl.i18n import rules_title
from smear_referee.api import referee_pb2 as pb
from smear_referee.storage.store import StoreDown
from smear_referee.tables import seen
from smear_referee.tables.rulesets import compiled, rules_spec
from smear_referee.tables.table import option_text, place

if TYPE_CHECKING:
    from smear_referee.tables.registry import Tables

LOBBY_SQL = ("SELECT t.id, t.rules_name, t.rules_text, t.players, t.options_json, t.created, t.finished, t.outcome_json, "
             "(SELECT max(version) FROM moves m WHERE m.table_id = t.id), "
             "(SELECT state_json FROM snapshots s WHERE s.table_id = t.id), t.turn_seconds "
             "FROM tables t WHERE t.seal IS NULL AND (t.finished = 0 OR ? = 1) ORDER BY t.finished, t.created DESC LIMIT ?")


async def stored_lobby(tables: Tables, include_finished: bool, limit: int, lang: str = "en") -> list[pb.TableInfo]:
    """Unfinished tables first, each group newest first, never a duplicate round's: those this
    replica holds as they are in memory, the others as stored (read in a worker thread)."""
    try:
        rows, seats = await asyncio.to_thread(_rows, tables, include_finished, limit)
    except tables.store.backend.Error as e:
        raise StoreDown(f"the database did not answer: {(str(e).strip().splitlines() or [''])[0][:200]}") from None
    out = []
    for tid, rules_name, rules_text, players, options, created, finished, outcome, version, state, clock in rows:
        held = tables.tables.get(tid)
        if held is not None:
            out.append(seen.info(held, spectators_allowed=held.spectators < tables.limits.spectators_per_table, lang=lang))
            continue
        try:
            spec = rules_spec(rules_name, rules_text)
            table_rules = compiled(spec, players, json.loads(options))
        except (RuleError, OptionError, ValueError):
            continue  # a damaged table: its owner answers for it
        taken, names, people, watching = [False] * players, [""] * players, [False] * players, 0
        bots: dict[int, str] = {}
        for role, seat, name in seats[tid]:  # seated as a table in memory seats them (table.place)
            if not place(role, seat, name or "", taken, names, people, bots) and role == "spectator":
                watching += 1
        scores = json.loads(outcome)["scores"] if finished and outcome else \
            json.loads(state)["scores"] if state else [0] * table_rules.n_sides
        out.append(pb.TableInfo(table_id=tid, rules=spec.ref, title=rules_title(spec, lang), players=players,
                                options={k: option_text(v) for k, v in table_rules.options.items()}, seat_taken=taken,
                                finished=bool(finished), seat_names=names, started=bool(version), spectators=watching,
                                spectators_allowed=watching < tables.limits.spectators_per_table,
                                house_rules=rules_text is not None, created=created, version=version or 0,
                                scores=scores, rules_sha256=spec.sha256, turn_seconds=clock or 0,
                                seat_bots=[bots.get(s, "") for s in range(players)],
                                names=seen.rule_names(spec, lang),
                                seat_here=[False] * players))  # who is at the table: only its owner knows
    return out


def _rows(tables: Tables, include_finished: bool, limit: int) -> tuple[list[tuple], dict[str, list]]:
    """The lobby's table rows, and each one's (role, seat, name) tokens."""
    conn = tables.store.backend.connect()
    try:
        rows = conn.execute(LOBBY_SQL, (int(include_finished), limit)).fetchall()
        ids = [row[0] for row in rows]
        seats: dict[str, list[tuple[str, int | None, str]]] = {tid: [] for tid in ids}
        if ids:
            marks = ", ".join("?" * len(ids))
            for tid, role, seat, name in conn.execute(
                    f"SELECT table_id, role, seat, name FROM tokens WHERE table_id IN ({marks})", tuple(ids)):
                seats[tid].append((role, seat, name or ""))
        return rows, seats
    finally:
        conn.close()
