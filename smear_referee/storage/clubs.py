"""A club as the store keeps it: its settings, members, seasons, the club tables with the members seated at
them, and each finished club game in order (seating, result, record and the digest chained to the game
before it). Statements for the writer and reads for the reading threads, like store.py's for tables.

A game row carries a hash of its digest, seating and result, checked as it is read: a row whose seating or
result was edited in the store is refused as damaged, and the export's chain (export.py) proves the records.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from smear_referee.storage.store import Store, StoreDamaged, _reading

Statements = list[tuple[str, tuple]]


@dataclass(frozen=True)
class ClubGame:
    """A finished club game as the ladder reads it (its record is read only for an export)."""

    season: int
    game: int  # from 1 within its season
    table_id: str
    seats: list[str | None]
    result: dict[str, Any]  # scores, winner, and what rating needs: key, side_of, rated
    digest: str


@dataclass
class StoredClub:
    id: str
    name: str
    config: dict[str, Any]  # rule_files, settings
    created: float
    members: list[tuple[int, str, float, float | None]] = field(default_factory=list)  # (number, name, joined, left)
    seasons: list[tuple[int, float, float | None, str | None]] = field(default_factory=list)  # (season, opened, closed, head)
    games: list[ClubGame] = field(default_factory=list)
    tables: list[tuple[str, float, dict[int, int]]] = field(default_factory=list)  # uncounted: (table id, opened, seat -> member)
    tournaments: list[tuple[str, str, float]] = field(default_factory=list)  # (tournament id, name, created), newest first

    def games_of(self, season: int) -> list[ClubGame]:
        """The season's games in order."""
        return [g for g in self.games if g.season == season]


def row_hash(digest: str, seats: list, result: dict) -> str:
    """What a game row is checked by when read: its digest, seating and result together."""
    text = json.dumps({"seats": seats, "result": result}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(digest.encode() + text.encode()).hexdigest()[:32]


def create_club(cid: str, name: str, config: dict[str, Any], created: float, director_hash: str) -> Statements:
    return [("INSERT INTO clubs (id, name, config_json, created) VALUES (?, ?, ?, ?)",
             (cid, name, json.dumps(config), created)),
            ("INSERT INTO club_seasons (club_id, season, opened) VALUES (?, 1, ?)", (cid, created)),
            *Store.add_token(cid, director_hash, "club_director", None)]


def add_member(cid: str, number: int, name: str, joined: float, token_hash: str) -> Statements:
    return [("INSERT INTO club_members (club_id, member, name, joined) VALUES (?, ?, ?, ?)", (cid, number, name, joined)),
            *Store.add_token(cid, token_hash, "member", number)]


def leave(cid: str, number: int, at: float, shown_as: str) -> Statements:
    """The member leaves: their name is cleared from the store too (the seats they took at the club's tables
    are named `shown_as`, their member id), and their token no longer works."""
    return [("UPDATE club_members SET name = '', left_at = ? WHERE club_id = ? AND member = ?", (at, cid, number)),
            ("DELETE FROM tokens WHERE table_id = ? AND role = 'member' AND seat = ?", (cid, number)),
            ("UPDATE tokens SET name = ? WHERE role = 'seat' AND EXISTS (SELECT 1 FROM club_seats s JOIN club_tables c "
             "ON c.table_id = s.table_id WHERE c.club_id = ? AND s.member = ? AND s.table_id = tokens.table_id "
             "AND s.seat = tokens.seat)", (shown_as, cid, number))]


def members_of(store: Store, cid: str) -> list[tuple[int, str, float, float | None]]:
    """(number, name, joined, left) of the club's members: what a page naming them needs, without its games."""
    return _reading(store, lambda conn: [tuple(r) for r in conn.execute(
        "SELECT member, name, joined, left_at FROM club_members WHERE club_id = ? ORDER BY member", (cid,))])


def seats_of(store: Store, cid: str, number: int) -> list[tuple[str, int]]:
    """(table id, seat) of every seat a member took at the club's tables."""
    return _reading(store, lambda conn: [tuple(r) for r in conn.execute(
        "SELECT s.table_id, s.seat FROM club_seats s JOIN club_tables c ON c.table_id = s.table_id "
        "WHERE c.club_id = ? AND s.member = ?", (cid, number)).fetchall()])


def open_table(cid: str, table_id: str, at: float) -> Statements:
    return [("INSERT INTO club_tables (table_id, club_id, opened, counted) VALUES (?, ?, ?, 0)", (table_id, cid, at))]


def add_tournament(cid: str, tid: str, name: str, at: float) -> Statements:
    """A tournament opened in the club (written with the tournament, in one transaction)."""
    return [("INSERT INTO club_tournaments (tournament_id, club_id, name, created) VALUES (?, ?, ?, ?)",
             (tid, cid, name, at))]


def seat_member(table_id: str, seat: int, number: int) -> Statements:
    return [("INSERT INTO club_seats (table_id, seat, member) VALUES (?, ?, ?)", (table_id, seat, number))]


def add_game(cid: str, g: ClubGame, record: dict[str, Any]) -> Statements:
    """A finished game, and its table marked as counted, in one transaction."""
    return [("INSERT INTO club_games (club_id, season, game, table_id, seats_json, result_json, record_json, digest, "
             "row_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (cid, g.season, g.game, g.table_id, json.dumps(g.seats), json.dumps(g.result),
              json.dumps(record, separators=(",", ":")), g.digest, row_hash(g.digest, g.seats, g.result))),
            ("UPDATE club_tables SET counted = 1 WHERE table_id = ?", (g.table_id,))]


def close_season(cid: str, season: int, head: str, at: float) -> Statements:
    return [("UPDATE club_seasons SET closed = ?, head = ? WHERE club_id = ? AND season = ?", (at, head, cid, season)),
            ("INSERT INTO club_seasons (club_id, season, opened) VALUES (?, ?, ?)", (cid, season + 1, at))]


def load_club(store: Store, cid: str) -> StoredClub | None:
    """The club without its records (StoreDamaged naming a game row that does not hold), or None."""
    return _reading(store, lambda conn: _load(conn, cid))


def clubs_to_count(store: Store) -> list[str]:
    """The clubs with a club table finished and not yet counted, but for a duplicate round's whose twins still
    play (it waits for them: Tables.sealed), so a club is not read again and again while it waits."""
    return _reading(store, lambda conn: [cid for (cid,) in conn.execute(
        "SELECT DISTINCT c.club_id FROM club_tables c JOIN tables t ON t.id = c.table_id WHERE c.counted = 0 "
        "AND t.finished = 1 AND (t.seal IS NULL OR NOT EXISTS (SELECT 1 FROM tables u WHERE u.seal = t.seal "
        "AND u.finished = 0)) LIMIT 1000").fetchall()])


def club_of_table(store: Store, table_id: str) -> str | None:
    """The club a table was opened in, if any."""
    rows = _reading(store, lambda conn: conn.execute("SELECT club_id FROM club_tables WHERE table_id = ?",
                                                     (table_id,)).fetchall())
    return rows[0][0] if rows else None


def records_of(store: Store, cid: str) -> list[tuple[int, int, dict[str, Any]]]:
    """(season, game, record) of every game of the club, in order: for its export."""
    def read(conn) -> list:
        out = []
        for season, game, text in conn.execute("SELECT season, game, record_json FROM club_games WHERE club_id = ? "
                                               "ORDER BY season, game", (cid,)).fetchall():
            try:
                out.append((season, game, json.loads(text)))
            except ValueError:
                raise StoreDamaged(cid, f"season {season} game {game}: its stored record does not read",
                                   "club") from None
        return out
    return _reading(store, read)


def _load(conn, cid: str) -> StoredClub | None:
    row = conn.execute("SELECT name, config_json, created FROM clubs WHERE id = ?", (cid,)).fetchone()
    if row is None:
        return None
    try:
        club = StoredClub(cid, row[0], json.loads(row[1]), row[2])
    except ValueError:
        raise StoreDamaged(cid, "its stored settings do not read", "club") from None
    club.members = [tuple(r) for r in conn.execute(
        "SELECT member, name, joined, left_at FROM club_members WHERE club_id = ? ORDER BY member", (cid,))]
    club.seasons = [tuple(r) for r in conn.execute(
        "SELECT season, opened, closed, head FROM club_seasons WHERE club_id = ? ORDER BY season", (cid,))]
    for season, game, table_id, seats, result, digest, check in conn.execute(
            "SELECT season, game, table_id, seats_json, result_json, digest, row_hash FROM club_games "
            "WHERE club_id = ? ORDER BY season, game", (cid,)):
        try:
            g = ClubGame(season, game, table_id, json.loads(seats), json.loads(result), digest)
        except ValueError:
            g = None
        if g is None or row_hash(digest, g.seats, g.result) != check:
            raise StoreDamaged(cid, f"season {season} game {game}: its stored seating or result was changed", "club")
        club.games.append(g)
    club.tournaments = [tuple(r) for r in conn.execute(
        "SELECT tournament_id, name, created FROM club_tournaments WHERE club_id = ? ORDER BY created DESC, "
        "tournament_id", (cid,))]
    seated: dict[str, dict[int, int]] = {}
    for table_id, opened in conn.execute("SELECT table_id, opened FROM club_tables WHERE club_id = ? AND counted = 0 "
                                         "ORDER BY opened, table_id", (cid,)).fetchall():
        seated[table_id] = {}
        club.tables.append((table_id, opened, seated[table_id]))
    if seated:
        marks = ", ".join("?" * len(seated))
        for table_id, seat, member in conn.execute(f"SELECT table_id, seat, member FROM club_seats WHERE table_id IN "
                                                   f"({marks})", tuple(seated)):
            seated[table_id][seat] = member
    return club
