"""The Club service: clubs on the referee's own tables, store and tokens.

A club is read from the store on each call (so any replica answers, and one holding its shard writes),
its finished tables are counted as games by the replica holding it (every second, and when it is read
there), in the order they are found, each chained to the game before it; ratings are recomputed from the games
(cached while no game is added).
Tokens: the director's (shown once at creation) and each member's (shown once, handed over as a link).
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from smear_dsl.errors import SmearError, clip
from smear_dsl.i18n import rules_title
from smear_dsl.language.pins import table_rules_name
from smear_dsl.records.verify import rules_for, verify
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.club import ratings as R
from smear_referee.club.export import (
    FORMAT,
    ClubFiles,
    chain_next,
    chain_start,
    export_files,
    game_line,
    header_line,
    rated_game,
    roster,
    seal,
    summary_line,
)
from smear_referee.club.ladder import Rung, ladder
from smear_referee.errors import RefereeError
from smear_referee.limits import address_of
from smear_referee.names import clean as clean_name
from smear_referee.names import rules_file_name
from smear_referee.server.service import LANG, Referee, guard, known_rules, optional_caller
from smear_referee.storage import clubs as S
from smear_referee.storage.clubs import ClubGame, StoredClub
from smear_referee.storage.store import StoreDamaged
from smear_referee.tables.registry import Identity, Tables
from smear_referee.tables.rulesets import rules_spec, upload_spec
from smear_referee.tables.tokens import new_token, token_hash

DIRECTOR, MEMBER = "club_director", "member"
log = logging.getLogger("smear_dsl.referee")


def member_id(number: int) -> str:
    """A member's pseudonymous id (what records and exports name): their number in the club."""
    return f"m{number:04d}"


def member_number(mid: str) -> int:
    """The number a member id (member_id) stands for."""
    return int(mid[1:])


@dataclass
class Computed:
    """A club's ratings worked out from its games: each season's, and the history of the current one."""

    key: tuple[int, int]  # (games, seasons) it was computed from
    seasons: list[R.Ratings]
    history: list[tuple[int, str, str, float, float]]  # (game index in the season, key, member, mu, sigma)


class Clubs:
    """The clubs of this server, read from the store on each call."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.store = tables.store
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)  # one writer per club at a time
        self.cache: dict[str, Computed] = {}
        self.count = 0
        self.by_address: dict[str, int] = defaultdict(int)

    async def load(self, cid: str) -> StoredClub:
        club = await self.store.off_loop(S.load_club, self.store, cid) if len(cid) <= 64 else None
        if club is None:
            raise RefereeError(codes.NOT_FOUND, f"no club {clip(cid)}")
        return club

    def settings(self, club: StoredClub) -> R.RatingSettings:
        return R.RatingSettings.from_json(club.config["settings"])

    async def settle(self, cid: str) -> StoredClub:
        """The club with every club table that has finished since counted as its next game (by the replica
        holding its shard; another reads what is counted)."""
        club = await self.load(cid)
        if not club.tables or not self.tables.shards.owns(cid):
            return club
        async with self.locks[cid]:
            club = await self.load(cid)  # counted meanwhile by another call
            for table_id, _opened, seated in club.tables:
                finished, _scores, _winner = await self.tables.outcome(table_id)
                if not finished:
                    continue
                seal = await self.store.off_loop(self.store.seal_of, table_id)
                if not await self.tables.sealed(seal):  # a duplicate round's games count once all have ended
                    await self._count(club, table_id, seated)
        return club

    async def sweep(self) -> None:
        """Count the finished tables of every club whose shard this replica holds (app.py runs it every second):
        a ladder moves after a game without anyone reading the club at that replica. A club that cannot be
        counted now (damaged, or its shard just moved) is logged and left for the next sweep."""
        for cid in await self.store.off_loop(S.clubs_to_count, self.store):
            if self.tables.shards.owns(cid):
                try:
                    await self.settle(cid)
                except (RefereeError, StoreDamaged) as e:
                    log.warning("club %s: its finished tables are not counted yet: %s", cid, e)

    async def _count(self, club: StoredClub, table_id: str, seated: dict[int, int]) -> None:
        record = await self.tables.finished_record(table_id)
        season = club.seasons[-1][0]
        n = len(club.games_of(season)) + 1
        prev = _head(club, season)
        settings = self.settings(club)

        def judge() -> tuple[list, dict]:
            rules = rules_for(record, allow_paths=False)
            seats = [member_id(seated[s]) if s in seated else None for s in range(rules.players)]
            record["club"] = {"id": club.id, "members": seats}  # informative: a verifier judges the moves
            v = verify(record, allow_paths=False)
            files = ClubFiles.of(club.config["rule_files"])
            rg = rated_game(settings, seats, record, v, rules, files)
            result = {"scores": v["scores"], "winner": v["winner"], "rated": rg is not None,
                      "key": files.key(settings, v, record), "side_of": list(rules.side_of)}
            return seats, result
        seats, result = await asyncio.to_thread(judge)
        g = ClubGame(season, n, table_id, seats, result, chain_next(prev, n, seats, record))
        await self.tables.write(None, club.id, S.add_game(club, g, record))
        club.games.append(g)
        club.tables = [t for t in club.tables if t[0] != table_id]

    def computed(self, club: StoredClub) -> Computed:
        """Every season's ratings from the club's games (recomputed only when a game or season was added)."""
        key = (len(club.games), len(club.seasons))
        hit = self.cache.get(club.id)
        if hit is not None and hit.key == key:
            return hit
        settings = self.settings(club)
        seasons, before = [], None
        history: list[Any] = []
        for season, *_ in club.seasons:
            games = [_rated(g) for g in club.games_of(season) if g.result.get("rated")]
            history = []
            before = R.rate(settings, games, R.season_start(settings, before), history)
            seasons.append(before)
        self.cache[club.id] = hit = Computed(key, seasons, history)
        return hit

    def names(self, club: StoredClub) -> dict[str, str | None]:
        """Member id -> display name (None: the member left, and their name is no longer shown)."""
        return _named(club.members)

    async def member_names(self, cid: str) -> dict[str, str | None]:
        """`names` of the club `cid`, read without its games (a tournament's page asks every few seconds)."""
        return _named(await self.store.off_loop(S.members_of, self.store, cid))

    def room_for(self, club: StoredClub, tables: int) -> None:
        """RESOURCE_EXHAUSTED if `tables` more club tables would pass the club's bound on those still playing."""
        if len(club.tables) + tables > self.tables.limits.club_open_tables:
            raise RefereeError(codes.TOO_MANY_TABLES, f"the club has {len(club.tables)} tables "
                               "still playing: finish some first")

    async def for_tournament(self, cid: str, caller: Identity | None, rules: str,
                             entrants: list[str]) -> tuple[StoredClub, dict[str, Any], list[str | None], list[str]]:
        """What a club's tournament plays and who enters it, for the club's director: the club's rule file named
        `rules`, each entrant's member id (None: a guest, unrated) and the name they sit under (a member's own)."""
        club = await self.load(cid)
        _must(club.id, caller)
        f = rule_file_named(club, rules)
        names = self.names(club)
        members: list[str | None] = []
        shown: list[str] = []
        for e in entrants:
            if (name := names.get(e)) is not None:
                if e in members:
                    raise RefereeError(codes.BAD_TOURNAMENT, f"member {e} is entered twice")
                members.append(e)
                shown.append(name)
            else:
                members.append(None)
                shown.append(e)
        return club, f, members, shown

    def who(self, club: StoredClub, caller: Identity | None) -> tuple[str, bool]:
        """(the caller's member id or "", whether the caller is the club's director)."""
        if caller is None or caller.table_id != club.id:
            return "", False
        if caller.role == MEMBER and caller.seat is not None:
            return member_id(caller.seat), False
        return "", caller.role == DIRECTOR


def _named(members: list[tuple[int, str, float, float | None]]) -> dict[str, str | None]:
    return {member_id(n): (name if left is None else None) for n, name, _joined, left in members}


def rule_file_named(club: StoredClub, name: str) -> dict[str, Any]:
    """The club's rule file called `name` (its name, or its pinned `name@V`); NOT_CLUB_RULES otherwise."""
    f = next((f for f in club.config["rule_files"] if name in (f["name"], f["rules"])), None)
    if f is None:
        raise RefereeError(codes.NOT_CLUB_RULES, f"{clip(name)} is not one of the club's "
                           f"rule files ({', '.join(x['name'] for x in club.config['rule_files'])})")
    return f


def _head(club: StoredClub, season: int) -> str:
    """The digest the season's chain has reached: its last game's, or its start with no game yet."""
    games = club.games_of(season)
    return games[-1].digest if games else chain_start(club.id, season)


def _sealed(club: StoredClub, season: int, names: dict[str, str | None]) -> tuple[str, list | None]:
    """(head, roster) of a season as it stands now (export.seal): a closed season's as stored when it closed
    (one closed before heads were sealed: its chain's end, with no roster)."""
    closed, head = next((c, h) for n, _o, c, h in club.seasons if n == season)
    if closed is not None:
        return head or _head(club, season), club.rosters.get(season)
    members = roster(club.id, names)
    return seal(club.id, club.name, season, _head(club, season), club.config["settings"], export_files(club.config["rule_files"]),
                members), members


def _rated(g: ClubGame) -> R.RatedGame:
    r = g.result
    return R.RatedGame(r["key"], tuple(g.seats), tuple(r["side_of"]), r["winner"], tuple(r["scores"]))


def _must(club_id: str | None, caller: Identity | None, director: bool = True, member: bool = False) -> Identity:
    """The caller, if it holds the director's token of club `club_id` (with `member`, or a member's; any
    club's member when `club_id` is None); UNAUTHENTICATED for a call with no token the server knows
    (none, or a member's who left)."""
    need = " or ".join((["the club's director token"] if director else []) + (["a member's token"] if member else []))
    if caller is None:
        raise RefereeError(codes.UNAUTHENTICATED, f"send `authorization: Bearer <token>` with {need}")
    ok = club_id in (None, caller.table_id) and (director and caller.role == DIRECTOR or member and caller.role == MEMBER)
    if not ok:
        raise RefereeError(codes.NOT_A_MEMBER if member else codes.NOT_THE_DIRECTOR, f"this needs {need}")
    return caller


class ClubService(pb_grpc.ClubServicer):
    def __init__(self, clubs: Clubs, referee: Referee):
        self.c = clubs
        self.referee = referee
        self.tables = clubs.tables
        self.limits = clubs.tables.limits

    @guard
    async def CreateClub(self, request, context):
        lim = self.limits
        address = address_of(context.peer())
        if self.c.count >= lim.max_clubs:
            raise RefereeError(codes.TOO_MANY_CLUBS, "this server holds as many clubs as it can")
        if self.c.by_address[address] >= lim.clubs_per_address:
            raise RefereeError(codes.TOO_MANY_CLUBS, f"{lim.clubs_per_address} clubs were created "
                               "from your address")
        name = clean_name(request.name, lim.name_chars, "a club's name", empty=False)
        if not 1 <= len(request.rule_files) <= lim.club_rule_files:
            raise RefereeError(codes.BAD_CLUB, f"a club plays 1 to {lim.club_rule_files} rule files")
        asked = {f.name: value for f, value in request.settings.ListFields()}  # the fields it sets
        # A new club rates members' own games against members (ratings.py members_only), unless it says not.
        settings = R.RatingSettings.from_json({"members_only": True, **asked})
        files = []
        for f in request.rule_files:
            files.append(await self._rule_file(context, f))
        if len({f["name"] for f in files}) != len(files):
            raise RefereeError(codes.BAD_CLUB, "each of a club's rule files has a name of its own")
        cid = self.tables.shards.new_id()
        if cid is None:
            raise RefereeError(codes.NOT_OWNER, "this replica holds no shard yet: ask another, or again "
                               "shortly", {"owner": ""})
        director = new_token()
        config = {"format": FORMAT, "rule_files": files, "settings": settings.to_json()}
        await self.tables.write(None, cid, S.create_club(cid, name, config, time.time(), token_hash(director)))
        self.c.count += 1
        self.c.by_address[address] += 1
        return pb.CreateClubResponse(club_id=cid, director_token=director)

    async def _rule_file(self, context, f) -> dict[str, Any]:
        """A club's rule file as its config keeps it: a shipped one pinned to its version now, or house rules
        (checked as a table's upload is) with the versions its parents have now."""
        if f.rules_text:
            text = self.referee.limited_text(f.rules_text)
            await self.referee.check_upload(context, text)
            text, spec = await asyncio.to_thread(upload_spec, text)
            base = rules_file_name(f.rules_name, 40) or rules_file_name(spec.name.replace(" ", "_"), 40) or "house_rules"
            return {"name": base, "rules": table_rules_name(spec, True), "rules_sha256": spec.sha256, "text": text,
                    "house_rules": True}
        ref = known_rules(f.rules_name)
        spec = rules_spec(ref, None)
        return {"name": ref.split("@", 1)[0], "rules": ref, "rules_sha256": spec.sha256, "house_rules": False}

    @guard
    async def AddMember(self, request, context):
        club = await self.c.load(request.club_id)
        _must(club.id, await optional_caller(self.tables, context))
        if len(club.members) >= self.limits.club_members:
            raise RefereeError(codes.TOO_MANY_MEMBERS, f"a club has at most {self.limits.club_members} members")
        name = clean_name(request.name, self.limits.player_name_chars, "a member's name", empty=False)
        token = new_token()
        async with self.c.locks[club.id]:
            club = await self.c.load(club.id)
            number = len(club.members) + 1
            await self.tables.write(None, club.id, S.add_member(club, number, name, time.time(), token_hash(token)))
        return pb.AddMemberResponse(member_id=member_id(number), member_token=token)

    @guard
    async def GetClub(self, request, context):
        club = await self.c.settle(request.club_id)
        me, director = self.c.who(club, await optional_caller(self.tables, context))
        lang = request.lang or LANG.get()
        names = self.c.names(club)
        settings = self.c.settings(club)
        done = self.c.computed(club)
        current = done.seasons[-1] if done.seasons else {}
        keys = sorted(set(current) | {R.FAMILY if settings.rate_by == "family" else f["name"]
                                      for f in club.config["rule_files"]})
        board = {k: pb.Ladder(rungs=[_rung(r) for r in ladder(current, settings, names, k, lang)]) for k in keys}
        seasons = []
        for season, _opened, closed, _head_stored in club.seasons:
            seasons.append(pb.ClubSeason(season=season, closed=closed is not None, games=len(club.games_of(season)),
                                         head=_sealed(club, season, names)[0]))
        tables = []
        for table_id, _opened, seated in club.tables:
            try:  # the table as the lobby shows it: its seats, and the names given at them
                info = self.referee.info(await self.tables.table_for(table_id, None))
            except RefereeError:  # held by another replica, or damaged: its members still show
                info = None
            players = info.players if info is not None else max(seated, default=-1) + 1
            tables.append(pb.ClubTable(table_id=table_id, table=info, finished=bool(info and info.finished),
                                       seat_members=[member_id(seated[s]) if s in seated else "" for s in range(players)]))
        files = [pb.ClubRules(rules=f["rules"], title=self._title(f, lang), rules_sha256=f["rules_sha256"],
                              house_rules=f["house_rules"], name=f["name"]) for f in club.config["rule_files"]]
        return pb.GetClubResponse(club_id=club.id, name=club.name, settings=pb.RatingSettings(**asdict(settings)),
                                  members=[pb.ClubMember(member_id=m, name=n) for m, n in names.items() if n is not None],
                                  rule_files=files, seasons=seasons, tables=tables, ladders=board,
                                  me=me, director=director,
                                  tournaments=[pb.ClubTournament(tournament_id=tid, name=n, created=at)
                                               for tid, n, at in club.tournaments])

    @staticmethod
    def _title(f: dict[str, Any], lang: str) -> str:
        try:
            return rules_title(rules_spec(f["rules"], f.get("text")), lang)
        except (SmearError, RefereeError):
            return f["rules"]

    @guard
    async def GetMemberHistory(self, request, context):
        club = await self.c.settle(request.club_id)
        if request.member_id not in self.c.names(club):
            raise RefereeError(codes.NOT_FOUND, f"no member {clip(request.member_id)} in this club")
        done = self.c.computed(club)
        points = [pb.RatingPoint(game=i + 1, key=key, mu=mu, sigma=sigma, rating=round(R.ordinal(R.Standing(mu, sigma)), 2))
                  for i, key, m, mu, sigma in done.history if m == request.member_id]
        return pb.GetMemberHistoryResponse(points=points)

    @guard
    async def OpenClubTable(self, request, context):
        club = await self.c.settle(request.club_id)
        _must(club.id, await optional_caller(self.tables, context), member=True)
        f = rule_file_named(club, request.rules)
        self.c.room_for(club, 1)
        options = self.referee.check_options(request)
        table, host = await self.tables.create(
            f["rules"], f.get("text"), options, request.players, request.seed or None,
            hand_limit=max(0, request.hand_limit), address=address_of(context.peer()),
            turn_seconds=request.turn_seconds, also=lambda tid: S.open_table(club.id, tid, time.time()))
        self.referee.clock.arm(table)
        return pb.OpenClubTableResponse(table_id=table.id, host_token=host)

    @guard
    async def JoinClubTable(self, request, context):
        caller = _must(None, await optional_caller(self.tables, context), director=False, member=True)
        cid = await self.tables.store.off_loop(S.club_of_table, self.tables.store, request.table_id[:64])
        if cid != caller.table_id:
            raise RefereeError(codes.NOT_A_CLUB_TABLE, "this table is not one of your club's")
        club = await self.c.load(cid)
        seated = next((s for tid, _o, s in club.tables if tid == request.table_id), None)
        if seated is None:
            raise RefereeError(codes.GAME_OVER, "this club table has finished")
        mine = next((s for s, m in seated.items() if m == caller.seat), None)
        if mine is not None and mine != request.seat:
            raise RefereeError(codes.ALREADY_SEATED, f"you already sit at this table, at seat "
                               f"{mine + 1}")
        name = self.c.names(club).get(member_id(caller.seat)) or ""
        # At a seat of their own already (a club tournament kept it for them, or they sat on another device):
        # another token for it; at a free seat, the member sits down.
        table, token = await self.tables.join(request.table_id, request.seat, name[:self.limits.player_name_chars],
                                              also=None if mine is not None else
                                              S.seat_member(request.table_id, request.seat, caller.seat),
                                              own=mine is not None)
        self.referee.clock.arm(table)  # the last seat taken starts the clock
        return pb.JoinTableResponse(token=token, seat=request.seat, table=self.referee.info(table))

    @guard
    async def CloseSeason(self, request, context):
        club = await self.c.settle(request.club_id)
        _must(club.id, await optional_caller(self.tables, context))
        async with self.c.locks[club.id]:
            club = await self.c.load(club.id)
            season = club.seasons[-1][0]
            head, members = _sealed(club, season, self.c.names(club))
            await self.tables.write(None, club.id, S.close_season(club, season, head, time.time(), members))
        return pb.CloseSeasonResponse(closed=season, head=head, opened=season + 1)

    @guard
    async def LeaveClub(self, request, context):
        club = await self.c.load(request.club_id)
        caller = _must(club.id, await optional_caller(self.tables, context), director=False, member=True)
        mid = member_id(caller.seat)
        await self.tables.write(None, club.id, S.leave(club, caller.seat, time.time(), mid))
        for table_id, seat in await self.tables.store.off_loop(S.seats_of, self.tables.store, club.id, caller.seat):
            await self.tables.renamed(table_id, seat, mid)  # the tables this server holds show it at once
        return pb.LeaveClubResponse()

    @guard
    async def ExportClub(self, request, context):
        club = await self.c.settle(request.club_id)
        _must(club.id, await optional_caller(self.tables, context), member=True)
        records = await self.tables.store.off_loop(S.records_of, self.tables.store, club.id)
        done = self.c.computed(club)
        names = self.c.names(club)
        lines: list[dict[str, Any]] = [header_line(
            club.id, club.config["settings"], export_files(club.config["rule_files"]),
            [{"id": m, **({"name": n} if n is not None else {})} for m, n in names.items()], name=club.name)]
        by_game = {(s, n): r for s, n, r in records}
        for (season, _opened, closed, _head), after in zip(club.seasons, done.seasons):
            games = club.games_of(season)
            prev = chain_start(club.id, season)
            for g in games:
                record = by_game[(season, g.game)]
                prev = chain_next(prev, g.game, g.seats, record)
                if prev != g.digest:
                    raise StoreDamaged(club.id, f"season {season} game {g.game}: its stored record does not give "
                                       "its digest (changed in the store)", "club")
                lines.append(game_line(season, g.game, g.seats, record, g.result, g.digest))
            head, members = _sealed(club, season, names)
            lines.append(summary_line(season, closed is not None, len(games), head, after,
                                      *((prev, members) if members is not None else ())))
        text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines)
        return pb.ExportClubResponse(export_jsonl=text)


def _rung(r: Rung) -> pb.Rung:
    # The rating unrounded (the page shows it to one decimal: rounding twice would show 3.55 as 3.5).
    return pb.Rung(place=r.place, member=r.member, name=r.name, rating=R.ordinal(r), mu=round(r.mu, 3),
                   sigma=round(r.sigma, 3), games=r.games, wins=r.wins, provisional=r.provisional, partners=r.partners)
