"""What proves a club's stored rows intact, as integrity.py proves a table's.

Every club row carries a sum over its own fields (its `proof` column): the club's settings, rating model and
member count; each member's name and dates; each season's dates, head, game count and last digest;
each club table, seat and tournament; each game's seating, result, digest and the hash of its kept
record. The counts show a row deleted (members are numbered 1..n; a season's games 1..n, the last
one's digest kept on the season), and the games' digests chain their records (export.py), so an
edited record shows where it is read. A club is proven when it is read (clubs._load); a row that
does not hold is refused as damaged (DATA_LOSS), never served. Like the tables' hashes, these guard
against a changed or corrupted store, not against someone who rewrites the sums as well.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

N = 32  # hex digits kept of each SHA-256, as integrity.py keeps


def _sum(kind: str, *fields: Any) -> str:
    text = json.dumps([kind, *fields], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(("smear-club-row/1\x1f" + text).encode("utf-8", "surrogatepass")).hexdigest()[:N]


def club(cid: str, name: str, config_json: str, created: float, members: int) -> str:
    return _sum("club", cid, name, config_json, created, members)


def member(cid: str, number: int, name: str, joined: float, left: float | None) -> str:
    return _sum("member", cid, number, name, joined, left)


def season(cid: str, number: int, opened: float, closed: float | None, head: str | None, games: int,
           last: str | None, roster: str | None) -> str:
    return _sum("season", cid, number, opened, closed, head, games, last, roster)


def table(table_id: str, cid: str, opened: float, counted: int) -> str:
    return _sum("table", table_id, cid, opened, int(counted))


def seat(table_id: str, number: int, member_number: int) -> str:
    return _sum("seat", table_id, number, member_number)


def tournament(tid: str, cid: str, name: str, created: float) -> str:
    return _sum("tournament", tid, cid, name, created)


def game(cid: str, season_number: int, number: int, table_id: str, seats_json: str, result_json: str, digest: str,
         record_sha: str) -> str:
    return _sum("game", cid, season_number, number, table_id, seats_json, result_json, digest, record_sha)


def record_sha(record_json: str) -> str:
    """The hash of a game's kept record, as stored (its row's sum covers it)."""
    return hashlib.sha256(record_json.encode("utf-8", "surrogatepass")).hexdigest()[:N]


# The rows of each kind: (table, key columns, the columns its sum covers in order, the sum function).
ROWS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], Any]] = {
    "club": ("clubs", ("id",), ("id", "name", "config_json", "created", "members"), club),
    "member": ("club_members", ("club_id", "member"), ("club_id", "member", "name", "joined", "left_at"), member),
    "season": ("club_seasons", ("club_id", "season"),
               ("club_id", "season", "opened", "closed", "head", "games", "last", "roster"), season),
    "table": ("club_tables", ("table_id",), ("table_id", "club_id", "opened", "counted"), table),
    "seat": ("club_seats", ("table_id", "seat"), ("table_id", "seat", "member"), seat),
    "tournament": ("club_tournaments", ("tournament_id",), ("tournament_id", "club_id", "name", "created"), tournament),
    "game": ("club_games", ("club_id", "season", "game"),
             ("club_id", "season", "game", "table_id", "seats_json", "result_json", "digest", "record_sha"), game),
}


def legacy(conn) -> list[tuple[str, tuple]]:
    """Statements giving the club rows stored before these sums (a store from an older server) their
    counts and sums, once: they become as provable as new ones (what was in them then is trusted)."""
    out: list[tuple[str, tuple]] = []
    for cid, in conn.execute("SELECT id FROM clubs WHERE proof IS NULL").fetchall():
        n = conn.execute("SELECT COALESCE(MAX(member), 0) FROM club_members WHERE club_id = ?", (cid,)).fetchone()[0]
        out.append(("UPDATE clubs SET members = ? WHERE id = ?", (n, cid)))
        for number, in conn.execute("SELECT season FROM club_seasons WHERE club_id = ? AND proof IS NULL",
                                    (cid,)).fetchall():
            games, last = conn.execute(
                "SELECT COUNT(*), (SELECT digest FROM club_games WHERE club_id = ? AND season = ? ORDER BY game DESC "
                "LIMIT 1) FROM club_games WHERE club_id = ? AND season = ?", (cid, number, cid, number)).fetchone()
            out.append(("UPDATE club_seasons SET games = ?, last = ? WHERE club_id = ? AND season = ?",
                        (games, last, cid, number)))
    for (cid, number, game_no, text) in conn.execute(
            "SELECT club_id, season, game, record_json FROM club_games WHERE record_sha IS NULL").fetchall():
        out.append(("UPDATE club_games SET record_sha = ? WHERE club_id = ? AND season = ? AND game = ?",
                    (record_sha(text), cid, number, game_no)))
    return out


def legacy_sums(conn) -> list[tuple[str, tuple]]:
    """After legacy(): the sum of every club row that has none."""
    out: list[tuple[str, tuple]] = []
    for table_name, keys, cols, fn in ROWS.values():
        for row in conn.execute(f"SELECT {', '.join(cols)} FROM {table_name} WHERE proof IS NULL").fetchall():
            values = dict(zip(cols, row))
            out.append((f"UPDATE {table_name} SET proof = ? WHERE " + " AND ".join(f"{k} = ?" for k in keys),
                        (fn(*row), *(values[k] for k in keys))))
    return out
