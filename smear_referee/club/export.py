"""A club's seasons as one document (smear-club/1), and its verification from scratch.

An export is JSON Lines: its first line holds the club's rating settings, its rule files (pinned: name@version and the text's
sha256) and its members (a pseudonymous id each; the display name, unless the member left); then a
line per game in order, season by season: its seating (member ids; null for a guest or a bot), its
game record (smear-record/1), its claimed result and a digest chained to the game before it; after
each season's games a line with its head digest and the ratings as the club computed them. Lines,
so a long season is written as it is played and verified without holding it all. `verify_export` re-referees every record,
re-follows the chain and recomputes every rating from scratch, and names each mismatch: a changed
record, a dropped or reordered game, a game credited to another member, an edited rating.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from smear_dsl.errors import SmearError
from smear_dsl.records.verify import rules_for, verify
from smear_referee.club.ratings import FAMILY, RatedGame, Ratings, RatingSettings, rate, ratings_json, season_start
from smear_referee.errors import RefereeError

FORMAT = "smear-club/1"


def canonical(value: Any) -> bytes:
    """The bytes a digest is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_start(club: str, season: int) -> str:
    """The digest a season's chain starts from (names the club and the season, so no game moves between them)."""
    return hashlib.sha256(canonical({"format": FORMAT, "club": club, "season": season})).hexdigest()


def chain_next(prev: str, game: int, seats: list | None, record: dict | None) -> str:
    """The digest of game `game` after the digest `prev`: a change to it or to any game before it shows."""
    return hashlib.sha256(prev.encode() + canonical({"game": game, "seats": seats, "record": record})).hexdigest()


HEAD_FORMAT = "smear-club-head/2"


def export_files(rule_files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A club's rule files (as its settings keep them) as its export lists them, and its sealed heads cover them."""
    return [{"rules": f["rules"], "rules_sha256": f["rules_sha256"], "name": f["name"], "house_rules": f["house_rules"]}
            for f in rule_files]


def name_hash(club: str, member: str, name: str | None) -> str | None:
    """What a season's head covers of a member's name (None: no name, a member who left): the name
    itself stays out of a closed season's roster, so it can be cleared when the member leaves."""
    if not name:
        return None
    return hashlib.sha256(canonical({"club": club, "member": member, "name": name})).hexdigest()[:32]


def roster(club: str, names: dict[str, str | None]) -> list[list[Any]]:
    """Who the club's members are as a season closes: [member id, name_hash] each, in id order."""
    return [[mid, name_hash(club, mid, n)] for mid, n in sorted(names.items())]


def seal(club: str, name: Any, season: int, tip: str, settings: Any, rule_files: Any, members: Any) -> str:
    """A season's head (smear-club-head/2): where its chain of games ends (`tip`), and the club's name, rating
    model and parameters, rule files and roster it was played under, so changing any of them shows against
    the head the club published."""
    return hashlib.sha256(canonical({"format": HEAD_FORMAT, "club": club, "name": name, "season": season, "tip": tip,
                                     "settings": settings, "rule_files": rule_files, "roster": members})).hexdigest()


@dataclass(frozen=True)
class ClubFiles:
    """The club's rule files as its config or an export's header lists them: what a game may be played under,
    and the name its rating is kept under (a house rule file's record names it only as an upload)."""

    pinned: frozenset[tuple[Any, Any]] = frozenset()  # (rules, sha256) of each file
    house: dict[str, str] = field(default_factory=dict)  # sha256 of a house rule file's text -> the club's name for it

    @classmethod
    def of(cls, rule_files: Any) -> ClubFiles:
        files = [f for f in rule_files if isinstance(f, dict)] if isinstance(rule_files, list) else []
        return cls(frozenset((f.get("rules"), f.get("rules_sha256")) for f in files),
                   {f["rules_sha256"]: f["name"] for f in files if f.get("house_rules") is True
                    and isinstance(f.get("rules_sha256"), str) and isinstance(f.get("name"), str)})

    def allows(self, verdict: dict, record: dict) -> bool:
        """Whether the game was played under one of the club's files (a house file: by its text's hash)."""
        sha = record.get("rules_sha256")
        return (verdict["rules"], sha) in self.pinned or (verdict["rules"], None) in self.pinned or sha in self.house

    def key(self, settings: RatingSettings, verdict: dict, record: dict) -> str:
        """What a game's rating is kept under: its rule file's name (a corrected version rates on; house rules
        by the club's name for them), or the family."""
        if settings.rate_by == "family":
            return FAMILY
        return self.house.get(str(record.get("rules_sha256"))) or verdict["rules"].split("@", 1)[0]


def rated_game(settings: RatingSettings, seats: list, record: dict, verdict: dict, rules,
               files: ClubFiles = ClubFiles()) -> RatedGame | None:
    """The game as rating reads it; None if it is not rated (not finished, or ended by the referee)."""
    if not verdict["valid"] or not verdict["finished"] or verdict["end"] == "abandoned":
        return None
    if settings.members_only and (None in seats or stood_in(record, len(seats))):
        return None
    return RatedGame(files.key(settings, verdict, record), tuple(seats), tuple(rules.side_of), verdict["winner"],
                     tuple(verdict["scores"]))


def stood_in(record: dict, seats: int) -> list[int]:
    """The seats the server played for most of their moves (the record's annotations: a bot standing in, or the
    turn clock's house bot): a member who played so little of the game is not rated by it."""
    made = [0] * seats
    for hand in record.get("hands") or ():
        for m in hand.get("moves") or () if isinstance(hand, dict) else ():
            if isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < seats:
                made[m["seat"]] += 1
    by_server = [0] * seats
    for a in record.get("annotations") or ():
        if isinstance(a, dict) and a.get("by") in ("bot", "clock") and isinstance(a.get("seat"), int) \
                and 0 <= a["seat"] < seats:
            by_server[a["seat"]] += 1
    return [s for s in range(seats) if made[s] and 2 * by_server[s] > made[s]]


def build_export(club: str, settings: RatingSettings, rule_files: list[dict], members: list[dict],
                 seasons: list[dict]) -> list[dict[str, Any]]:
    """An export's lines from the club's seasons (each {"season", "closed", "games": [{"seats", "record"}]}):
    results, digests and ratings worked out here, as the club's server keeps them."""
    lines: list[dict[str, Any]] = [header_line(club, settings.to_json(), rule_files, members)]
    files = ClubFiles.of(rule_files)
    before = None
    for s in seasons:
        prev = chain_start(club, s["season"])
        rated = []
        for i, g in enumerate(s["games"]):
            record = g["record"]
            verdict = verify(record, allow_paths=False)
            prev = chain_next(prev, i + 1, g["seats"], record)
            lines.append(game_line(s["season"], i + 1, g["seats"], record, verdict, prev))
            rg = rated_game(settings, g["seats"], record, verdict, rules_for(record, allow_paths=False), files)
            if rg is not None:
                rated.append(rg)
        after = rate(settings, rated, season_start(settings, before))
        members_now = roster(club, {m["id"]: m.get("name") for m in members})
        head = seal(club, None, s["season"], prev, lines[0]["settings"], rule_files, members_now)
        lines.append(summary_line(s["season"], bool(s.get("closed")), len(s["games"]), head, after, prev, members_now))
        before = after
    return lines


def header_line(club: str, settings: dict[str, Any], rule_files: list[dict], members: list[dict],
                **more: Any) -> dict[str, Any]:
    """An export's first line: the club, its rating settings and library, its rule files and members."""
    return {"format": FORMAT, "club": club, **more, "settings": settings, "rating_library": _library(),
            "rule_files": rule_files, "members": members}


def game_line(season: int, game: int, seats: list, record: dict, result: dict, digest: str) -> dict[str, Any]:
    """A game's line: its seating, record, result (scores and winner) and digest."""
    return {"season": season, "game": game, "seats": seats, "record": record,
            "result": {"scores": result["scores"], "winner": result["winner"]}, "digest": digest}


def summary_line(season: int, closed: bool, games: int, head: str, ratings: Ratings, tip: str | None = None,
                 members: list | None = None) -> dict[str, Any]:
    """A season's line after its games: whether it is closed, its game count, head digest and ratings; with a
    sealed head (`seal`), also where its chain ends (`tip`) and the roster the head covers."""
    sealed = {} if tip is None else {"tip": tip, "roster": members}
    return {"season": season, "closed": closed, "games": games, "head": head, **sealed, "ratings": ratings_json(ratings)}


def _library() -> str:
    from importlib.metadata import version
    return f"openskill {version('openskill')}"


def write_export(path: str, lines: Iterable[dict[str, Any]]) -> None:
    """An export as JSON Lines: the club, then each game, each season's summary after its games."""
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_export(path: str) -> Iterator[Any]:
    """An export's lines, read one at a time (an export of a long season need not fit in memory);
    a line that is not JSON is yielded as a BadLine, which verification reports."""
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if text.strip():
                try:
                    yield json.loads(text)
                except (ValueError, RecursionError) as e:
                    yield BadLine(n, str(e))


class BadLine(str):
    """A line of an export that is not JSON: its number and why."""

    def __new__(cls, n: int, why: str) -> BadLine:
        return super().__new__(cls, f"line {n} is not JSON: {why}")


class _Season:
    """What verification carries through one season's lines."""

    def __init__(self, club: str, number: int):
        self.number, self.prev, self.games = number, chain_start(club, number), 0
        self.rated: list[RatedGame] = []


def verify_export(lines: Iterable[Any], heads: dict[int, str] | None = None,
                  ratings_out: list[Ratings] | None = None) -> list[str]:
    """Every mismatch found, each a sentence naming the season, game, seat or member (people count from
    1); an empty list means the export holds. `heads`: season -> the head digest the club published,
    which catches games dropped from a season's end. `ratings_out` gets each season's recomputed ratings."""
    it = iter(lines)
    header = next(it, None)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return [f"not a {FORMAT} export (its first line names the format)"]
    try:
        settings = RatingSettings.from_json(header.get("settings"))
    except (RefereeError, TypeError) as e:
        return [f"the rating settings cannot be read: {e}"]
    club = header.get("club")
    members = header.get("members")
    if not isinstance(club, str):
        return ["`club` must name the club"]
    if not isinstance(members, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in members):
        return ["`members` must be a list of objects with an `id` each"]
    problems: list[str] = []
    names = {m["id"]: m.get("name") for m in members}
    if len(names) != len(members):
        problems.append("a member id is listed twice")
    pinned = ClubFiles.of(header.get("rule_files"))
    season, before, done = _Season(club, 1), None, 0
    for line in it:
        if isinstance(line, BadLine):
            problems.append(str(line))
            continue
        if not isinstance(line, dict) or line.get("season") != season.number:
            problems.append(f"season {season.number}: a line of season {line.get('season') if isinstance(line, dict) else '?'} "
                            f"comes before its summary: seasons run 1, 2, 3, ..., each summed up after its games")
            return problems
        if "head" not in line:  # a game
            _verify_game(settings, season, line, names, pinned, problems)
            continue
        where_s = f"season {season.number}"
        if "tip" in line:  # a sealed head: the chain's end, and what the season was played under
            problems += _check_seal(header, season, line, names)
        elif line["head"] != season.prev:
            problems.append(f"{where_s}: its head digest is not its last game's: games were dropped from its end or added")
        if line.get("games") != season.games:
            problems.append(f"{where_s}: its summary counts {line.get('games')} games; the export holds {season.games}")
        if heads and heads.get(season.number) not in (None, line["head"]):
            problems.append(f"{where_s}: its head digest {str(line['head'])[:12]}... is not the one the club "
                            f"published ({heads[season.number][:12]}...): games were dropped, added or changed")
        after = rate(settings, season.rated, season_start(settings, before))
        problems += _compare_ratings(where_s, line.get("ratings"), ratings_json(after), names)
        if ratings_out is not None:
            ratings_out.append(after)
        before, done = after, season.number
        season = _Season(club, season.number + 1)
    if season.games:
        problems.append(f"season {season.number}: its games are not summed up (the export ends without its summary line)")
    if heads:
        for n in sorted(h for h in heads if h > done):
            problems.append(f"season {n}: the club published its head, but the export does not hold it")
    return problems


def _check_seal(header: dict, season: _Season, line: dict, names: dict) -> list[str]:
    """A sealed head: the chain ends where the games do, every named member's name is the one the roster
    covers, and the head is the seal of the export's club name, settings, rule files and that roster."""
    where, out = f"season {season.number}", []
    if line["tip"] != season.prev:
        out.append(f"{where}: its chain does not end at its last game: games were dropped from its end or added")
    members = line.get("roster")
    if not isinstance(members, list) or not all(isinstance(m, list) and len(m) == 2 for m in members):
        return out + [f"{where}: its roster must list [member id, name hash] pairs"]
    for mid, covered in members:
        if names.get(mid) and name_hash(header["club"], mid, names[mid]) != covered:
            out.append(f"{where}: member {mid}'s name in the export ({str(names[mid])[:40]!r}) is not the one the "
                       "season's head covers")
    if line["head"] != seal(header["club"], header.get("name"), season.number, line["tip"], header.get("settings"),
                            header.get("rule_files"), members):
        out.append(f"{where}: its head does not cover the export's club name, rating settings, rule files and roster: "
                   "one of them was changed")
    return out


def _verify_game(settings: RatingSettings, season: _Season, g: dict, names: dict, pinned: ClubFiles,
                 problems: list[str]) -> None:
    """One game's line: its number, its digest after the season's games before it, then its own checks."""
    season.games += 1
    i = season.games
    where = f"season {season.number} game {i}"
    if g.get("game") != i:
        problems.append(f"{where}: missing or out of order (the line is numbered {g.get('game')!r})")
    seats, record = g.get("seats"), g.get("record")
    season.prev = chain_next(season.prev, i, seats, record)
    if g.get("digest") != season.prev:
        problems.append(f"{where}: its digest does not follow from the games before it: this game was changed, "
                        f"or one before it was dropped, added or moved")
        if isinstance(g.get("digest"), str):
            season.prev = g["digest"]  # go on from what it claims: one change is named once
    rg = _check_game(settings, where, seats, record, g.get("result"), names, pinned, problems)
    if rg is not None:
        season.rated.append(rg)


def _check_game(settings: RatingSettings, where: str, seats: Any, record: Any, claimed: Any, names: dict,
                pinned: ClubFiles, problems: list[str]) -> RatedGame | None:
    """One game's checks (seating, rule file, record, claimed result); the game as rating reads it."""
    try:
        rules = rules_for(record, allow_paths=False)
        verdict = verify(record, allow_paths=False)
    except (SmearError, RefereeError) as e:
        problems.append(f"{where}: the record cannot be read: {e}")
        return None
    if not isinstance(seats, list) or len(seats) != rules.players:
        problems.append(f"{where}: the seating must name {rules.players} seats (a member id, or null for a guest or a bot)")
        return None
    seen = set()
    for s, member in enumerate(seats):
        if member is None:
            continue
        if member not in names:
            problems.append(f"{where} seat {s + 1}: {str(member)[:40]!r} is not a member of the club")
            return None
        if member in seen:
            problems.append(f"{where} seat {s + 1}: member {member} sits twice at one table")
            return None
        seen.add(member)
    named = record.get("club")
    if isinstance(named, dict) and "members" in named and named["members"] != seats:
        problems.append(f"{where}: the seating {seats} is not the one its record names ({named['members']})")
    if not pinned.allows(verdict, record):
        problems.append(f"{where}: played under {verdict['rules']}, which is not one of the club's rule files")
    if not verdict["valid"]:
        err = verdict["error"]
        problems.append(f"{where}: the record does not verify: hand {err['hand'] + 1} move {(err['move'] or 0) + 1}: "
                        f"{err['code']}")
        return None
    want = {"scores": verdict["scores"], "winner": verdict["winner"]}
    if claimed != want:
        problems.append(f"{where}: the result {claimed} is not what the game gives ({want})")
    return rated_game(settings, seats, record, verdict, rules, pinned)


def _compare_ratings(where: str, claimed: Any, recomputed: dict, names: dict) -> list[str]:
    """Each rating of `claimed` that is not exactly the recomputed one, and each one missing or extra."""
    if not isinstance(claimed, dict):
        return [f"{where}: the export holds no ratings"]
    out = []
    for key in sorted(set(claimed) | set(recomputed)):
        got, want = claimed.get(key) or {}, recomputed.get(key) or {}
        if not isinstance(got, dict):
            out.append(f"{where}, {key}: the ratings are not an object")
            continue
        for member in sorted(set(got) | set(want)):
            who = f"member {member}" + (f" ({names[member]})" if names.get(member) else "")
            if member not in want:
                out.append(f"{where}, {key}: {who} has a rating but played no rated game")
            elif member not in got:
                out.append(f"{where}, {key}: {who} played rated games but has no rating in the export")
            elif got[member] != want[member]:
                diff = [f"{f} {got[member].get(f)!r} in the export, {want[member][f]!r} recomputed"
                        for f in want[member] if got[member].get(f) != want[member][f]]
                out.append(f"{where}, {key}: {who}: " + ("; ".join(diff) or "fields the ratings do not have"))
    return out
