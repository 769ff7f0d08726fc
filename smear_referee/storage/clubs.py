"""A club as the store keeps it: its settings, members, seasons, the club tables with the members seated at
them, and each finished club game in order (seating, result, record and the digest chained to the game
before it). Statements for the writer and reads for the reading threads, like store.py's for tables.

Every row carries its proof (clubproof.py), checked with the counts that show a deleted row as the club is
read: a row edited or deleted in the store is refused as damaged, never served. The records are proven where
they are read (records_of: each against its row's hash of it), and the export's chain (export.py) chains them.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from smear_referee.storage import clubproof as P
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
    config_json: str = ""  # the settings as stored (the club row's proof covers this text)
    rosters: dict[int, list] = field(default_factory=dict)  # season -> the roster its sealed head covers (closed since)

    def games_of(self, season: int) -> list[ClubGame]:
        """The season's games in order."""
        return [g for g in self.games if g.season == season]


def row_hash(digest: str, seats: list, result: dict) -> str:
    """What a game row is checked by when read: its digest, seating and result together."""
    text = json.dumps({"seats": seats, "result": result}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(digest.encode() + text.encode()).hexdigest()[:32]


def _season_row(cid: str, season: int, opened: float, closed: float | None, head: str | None, games: int,
                last: str | None, roster: str | None = None) -> tuple[str, tuple]:
    """A season's row as it is now (an upsert: its games, last digest, close, head and roster change)."""
    return ("INSERT INTO club_seasons (club_id, season, opened, closed, head, games, last, roster, proof) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club_id, season) DO UPDATE SET closed = excluded.closed, "
            "head = excluded.head, games = excluded.games, last = excluded.last, roster = excluded.roster, "
            "proof = excluded.proof",
            (cid, season, opened, closed, head, games, last, roster,
             P.season(cid, season, opened, closed, head, games, last, roster)))


def _club_row(club: StoredClub, members: int) -> tuple[str, tuple]:
    return ("UPDATE clubs SET members = ?, proof = ? WHERE id = ?",
            (members, P.club(club.id, club.name, club.config_json, club.created, members), club.id))


def create_club(cid: str, name: str, config: dict[str, Any], created: float, director_hash: str) -> Statements:
    text = json.dumps(config)
    return [("INSERT INTO clubs (id, name, config_json, created, members, proof) VALUES (?, ?, ?, ?, 0, ?)",
             (cid, name, text, created, P.club(cid, name, text, created, 0))),
            _season_row(cid, 1, created, None, None, 0, None),
            *Store.add_token(cid, director_hash, "club_director", None)]


def add_member(club: StoredClub, number: int, name: str, joined: float, token_hash: str) -> Statements:
    """Member `number` (the next: members are numbered 1..n, the club row counting them) joins."""
    cid = club.id
    return [("INSERT INTO club_members (club_id, member, name, joined, proof) VALUES (?, ?, ?, ?, ?)",
             (cid, number, name, joined, P.member(cid, number, name, joined, None))),
            _club_row(club, number),
            *Store.add_token(cid, token_hash, "member", number)]


def leave(club: StoredClub, number: int, at: float, shown_as: str) -> Statements:
    """The member leaves: their name is cleared from the store too (the seats they took at the club's tables
    are named `shown_as`, their member id), and their token no longer works."""
    cid = club.id
    joined = next(j for n, _name, j, _left in club.members if n == number)
    return [("UPDATE club_members SET name = '', left_at = ?, proof = ? WHERE club_id = ? AND member = ?",
             (at, P.member(cid, number, "", joined, at), cid, number)),
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
    return [("INSERT INTO club_tables (table_id, club_id, opened, counted, proof) VALUES (?, ?, ?, 0, ?)",
             (table_id, cid, at, P.table(table_id, cid, at, 0)))]


def add_tournament(cid: str, tid: str, name: str, at: float) -> Statements:
    """A tournament opened in the club (written with the tournament, in one transaction)."""
    return [("INSERT INTO club_tournaments (tournament_id, club_id, name, created, proof) VALUES (?, ?, ?, ?, ?)",
             (tid, cid, name, at, P.tournament(tid, cid, name, at)))]


def seat_member(table_id: str, seat: int, number: int) -> Statements:
    return [("INSERT INTO club_seats (table_id, seat, member, proof) VALUES (?, ?, ?, ?)",
             (table_id, seat, number, P.seat(table_id, seat, number)))]


def add_game(club: StoredClub, g: ClubGame, record: dict[str, Any]) -> Statements:
    """A finished game, its season's count and last digest, and its table marked as counted, in one transaction."""
    cid = club.id
    seats, result, text = json.dumps(g.seats), json.dumps(g.result), json.dumps(record, separators=(",", ":"))
    sha = P.record_sha(text)
    _season, opened, closed, head = next(s for s in club.seasons if s[0] == g.season)
    table_opened = next(opened for tid, opened, _seated in club.tables if tid == g.table_id)
    return [("INSERT INTO club_games (club_id, season, game, table_id, seats_json, result_json, record_json, digest, "
             "row_hash, record_sha, proof) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (cid, g.season, g.game, g.table_id, seats, result, text, g.digest, row_hash(g.digest, g.seats, g.result),
              sha, P.game(cid, g.season, g.game, g.table_id, seats, result, g.digest, sha))),
            _season_row(cid, g.season, opened, closed, head, g.game, g.digest),
            ("UPDATE club_tables SET counted = 1, proof = ? WHERE table_id = ?",
             (P.table(g.table_id, cid, table_opened, 1), g.table_id))]


def close_season(club: StoredClub, season: int, head: str, at: float, roster: list) -> Statements:
    """The season closed with its sealed head and the roster the head covers; the next one opened."""
    games = club.games_of(season)
    opened = next(o for s, o, _c, _h in club.seasons if s == season)
    return [_season_row(club.id, season, opened, at, head, len(games), games[-1].digest if games else None,
                        json.dumps(roster)),
            _season_row(club.id, season + 1, at, None, None, 0, None)]


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
    """(season, game, record) of every game of the club, in order: for its export (StoreDamaged for a record
    that is not the one its row's hash names)."""
    return _reading(store, lambda conn: _records(conn, cid))


def _records(conn, cid: str) -> list[tuple[int, int, dict[str, Any]]]:
    out = []
    for season, game, text, sha in conn.execute("SELECT season, game, record_json, record_sha FROM club_games "
                                                "WHERE club_id = ? ORDER BY season, game", (cid,)).fetchall():
        try:
            if P.record_sha(text) != sha:  # the row's proof covers record_sha (checked as the club is read)
                raise ValueError
            out.append((season, game, json.loads(text)))
        except ValueError:
            raise StoreDamaged(cid, f"season {season} game {game}: its stored record was changed", "club") from None
    return out


def _load(conn, cid: str) -> StoredClub | None:
    """The club as stored, every row proven (clubproof.py): StoreDamaged naming the first that does not hold."""
    row = conn.execute("SELECT name, config_json, created, members, proof FROM clubs WHERE id = ?", (cid,)).fetchone()
    if row is None:
        return None
    name, config_json, created, members, proof = row

    def damaged(why: str) -> StoreDamaged:
        return StoreDamaged(cid, why, "club")
    if proof != P.club(cid, name, config_json, created, members):
        raise damaged("its stored name, settings or rating model were changed")
    try:
        club = StoredClub(cid, name, json.loads(config_json), created, config_json=config_json)
    except ValueError:
        raise damaged("its stored settings do not read") from None
    for number, mname, joined, left, proof in conn.execute(
            "SELECT member, name, joined, left_at, proof FROM club_members WHERE club_id = ? ORDER BY member", (cid,)):
        if proof != P.member(cid, number, mname, joined, left):
            raise damaged(f"member {number}'s stored name or dates were changed")
        club.members.append((number, mname, joined, left))
    if [m[0] for m in club.members] != list(range(1, members + 1)):
        raise damaged(f"it has {members} members, but the store holds members {[m[0] for m in club.members]}")
    tips: dict[int, tuple[int, str | None]] = {}
    for number, opened, closed, head, games, last, roster, proof in conn.execute(
            "SELECT season, opened, closed, head, games, last, roster, proof FROM club_seasons WHERE club_id = ? "
            "ORDER BY season", (cid,)):
        if proof != P.season(cid, number, opened, closed, head, games, last, roster):
            raise damaged(f"season {number}'s stored dates, head, roster or game count were changed")
        club.seasons.append((number, opened, closed, head))
        tips[number] = (games, last)
        if roster is not None:
            try:
                club.rosters[number] = json.loads(roster)
            except ValueError:
                raise damaged(f"season {number}'s stored roster does not read") from None
    if [x[0] for x in club.seasons] != list(range(1, len(club.seasons) + 1)) or not club.seasons or \
            any(x[2] is None for x in club.seasons[:-1]) or club.seasons[-1][2] is not None:
        raise damaged("its seasons are not 1, 2, ... with only the last one open")
    _load_games(conn, club, tips, damaged)
    for tid, tname, tcreated, proof in conn.execute(
            "SELECT tournament_id, name, created, proof FROM club_tournaments WHERE club_id = ? ORDER BY created DESC, "
            "tournament_id", (cid,)):
        if proof != P.tournament(tid, cid, tname, tcreated):
            raise damaged(f"its tournament {tid}'s stored row was changed")
        club.tournaments.append((tid, tname, tcreated))
    _load_tables(conn, club, damaged)
    return club


def _load_games(conn, club: StoredClub, tips: dict[int, tuple[int, str | None]], damaged) -> None:
    """Each game row against its proof (and its older row hash); each season's games numbered 1..n, as many as
    its row counts, the last one's digest the one it keeps."""
    cid = club.id
    for season, game, table_id, seats, result, digest, check, sha, proof in conn.execute(
            "SELECT season, game, table_id, seats_json, result_json, digest, row_hash, record_sha, proof "
            "FROM club_games WHERE club_id = ? ORDER BY season, game", (cid,)):
        try:
            g = ClubGame(season, game, table_id, json.loads(seats), json.loads(result), digest)
        except ValueError:
            g = None
        if g is None or row_hash(digest, g.seats, g.result) != check or \
                proof != P.game(cid, season, game, table_id, seats, result, digest, sha):
            raise damaged(f"season {season} game {game}: its stored seating or result was changed")
        club.games.append(g)
    for season, (games, last) in tips.items():
        held = club.games_of(season)
        if [g.game for g in held] != list(range(1, games + 1)) or (held[-1].digest if held else None) != last:
            raise damaged(f"season {season} has {games} games, but the store holds games {[g.game for g in held]}")
    if any(g.season not in tips for g in club.games):
        raise damaged("the store holds games of a season the club does not have")


def _load_tables(conn, club: StoredClub, damaged) -> None:
    """The club's tables not yet counted, with the members seated at them, each row against its proof (the
    counted ones' rows are proven by `store check`: club/storecheck.py)."""
    cid = club.id
    seated: dict[str, dict[int, int]] = {}
    for table_id, opened, counted, proof in conn.execute(
            "SELECT table_id, opened, counted, proof FROM club_tables WHERE club_id = ? AND counted = 0 "
            "ORDER BY opened, table_id", (cid,)).fetchall():
        if proof != P.table(table_id, cid, opened, counted):
            raise damaged(f"its table {table_id}'s stored row was changed")
        seated[table_id] = {}
        club.tables.append((table_id, opened, seated[table_id]))
    if seated:
        marks = ", ".join("?" * len(seated))
        for table_id, seat, member, proof in conn.execute(
                f"SELECT table_id, seat, member, proof FROM club_seats WHERE table_id IN ({marks})", tuple(seated)):
            if proof != P.seat(table_id, seat, member):
                raise damaged(f"seat {seat + 1} of its table {table_id} was given to another member in the store")
            seated[table_id][seat] = member
