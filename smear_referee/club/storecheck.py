"""`store check` of a club: every row against its proof and the counts (clubs._load, as the server reads it),
the rows of the tables already counted too, every kept record against its row's hash and the season's
chain of digests (export.py), each closed season's head; `deep` also re-referees every record and compares
the stored result with its verdict."""
from __future__ import annotations

from smear_referee.club.export import chain_next, chain_start, export_files, seal
from smear_referee.storage import clubproof as P
from smear_referee.storage import clubs as S
from smear_referee.storage.store import StoreDamaged


def club_ids(conn) -> list[str]:
    return [cid for (cid,) in conn.execute("SELECT id FROM clubs ORDER BY created, id").fetchall()]


def check_club(conn, cid: str, deep: bool = False) -> tuple[int, str | None]:
    """(games, what is wrong or None) for one club."""
    try:
        club = S._load(conn, cid)
        if club is None:
            return 0, None
        for table_id, opened, counted, proof in conn.execute(
                "SELECT table_id, opened, counted, proof FROM club_tables WHERE club_id = ? AND counted = 1", (cid,)):
            if proof != P.table(table_id, cid, opened, counted):
                return len(club.games), f"its table {table_id}'s stored row was changed"
        records = S._records(conn, cid)
    except StoreDamaged as e:
        return 0, e.reason
    by_game = {(season, game): record for season, game, record in records}
    for season, _opened, closed, head in club.seasons:
        digest = chain_start(cid, season)
        for g in club.games_of(season):
            digest = chain_next(digest, g.game, g.seats, by_game[(season, g.game)])
            if digest != g.digest:
                return len(club.games), f"season {season} game {g.game}: its record or seating is not what its " \
                                        "digest chains"
        members = club.rosters.get(season)
        sealed = digest if members is None else seal(cid, club.name, season, digest, club.config["settings"],
                                                     export_files(club.config["rule_files"]), members)
        if closed is not None and head != sealed:
            return len(club.games), f"season {season}: its published head is not the seal of its games' chain, " \
                                    "settings and roster"
    if deep:
        problem = _rereferee(club, by_game)
        if problem is not None:
            return len(club.games), problem
    return len(club.games), None


def _rereferee(club: S.StoredClub, by_game: dict) -> str | None:
    """Each kept record re-refereed: valid, and the scores and winner its row says."""
    from smear_dsl.errors import RecordError
    from smear_dsl.records.verify import verify
    for g in club.games:
        try:
            v = verify(by_game[(g.season, g.game)], allow_paths=False)
        except RecordError as e:
            return f"season {g.season} game {g.game}: its record cannot be read: {e}"
        if not v["valid"] or (v["scores"], v["winner"]) != (g.result.get("scores"), g.result.get("winner")):
            return f"season {g.season} game {g.game}: its record does not give the result stored for it"
    return None
