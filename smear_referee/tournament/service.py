"""The Tournament service: tournaments on the referee's own tables, store and tokens.

A tournament keeps its configuration, each round's seed and table assignments, and an audit
log of director actions in the store. Results are never typed in: they are read from the
round's tables, whose games the store already keeps move by move, so a restart rebuilds them.
A round's seed is committed to (SHA-256) when it starts and revealed once all its tables end.
"""
from __future__ import annotations

import json
import secrets
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.compile.duplicate import commitment, round_seed, table_seed
from smear_dsl.errors import clip
from smear_dsl.i18n import rules_title
from smear_dsl.language.pins import table_rules_name
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import known_texts, legacy_pins, pins_of
from smear_dsl.records.verify import verify
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.club.service import Clubs, member_number
from smear_referee.errors import RefereeError
from smear_referee.limits import address_of
from smear_referee.names import clean as clean_name
from smear_referee.names import rules_file_name
from smear_referee.server.service import CALLER, LANG, Referee, guard, known_rules, optional_caller
from smear_referee.storage import clubs as club_store
from smear_referee.storage.store import Store
from smear_referee.tables.registry import Identity, Tables
from smear_referee.tables.rulesets import rules_spec, upload_spec
from smear_referee.tables.seats import check_clock
from smear_referee.tables.tokens import new_token, token_hash
from smear_referee.tournament import standings as S
from smear_referee.tournament.archive import FORMAT, outcome
from smear_referee.tournament.pairing import pair_round
from smear_referee.tournament.standings import comparisons


@dataclass
class Round:
    number: int
    seed: str
    tables: list[dict[str, Any]]  # {table, table_id, units, seats}


@dataclass
class Tourney:
    id: str
    config: dict[str, Any]
    rounds: list[Round] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)

    def names(self) -> list[str]:
        names = list(self.config["entrants"])
        for e in self.audit:
            if e["action"] == "replace":
                names[e["entrant"]] = e["name"]
        return names

    def members(self) -> list[str | None]:
        """A club's tournament: each entrant's member id (None: a guest); a replacement brings its own."""
        club = self.config.get("club")
        if club is None:
            return [None] * len(self.config["entrants"])
        members = list(club["members"])
        for e in self.audit:
            if e["action"] == "replace":
                members[e["entrant"]] = e.get("member")
        return members


class Tournaments:
    """The tournaments of this server. A lone server holds them all in memory (read at start-up); a
    replica holds none: each call reads its tournament from the store, and a call that changes one
    goes to the replica holding its shard (NOT_OWNER otherwise), so a tournament fails over with
    its shard like a table, whoever wrote it last."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.store: Store = tables.store
        self.all: dict[str, Tourney] = {}
        self.count = 0  # tournaments this server holds (a replica: those it created)
        self.by_address: dict[str, int] = defaultdict(int)  # tournaments created from each address

    @property
    def clustered(self) -> bool:
        return self.tables.shards.clustered

    def load(self) -> None:
        if self.clustered:
            return
        for tid, config, rounds, audit, directors in self.store.load_tournaments():
            self.all[tid] = Tourney(tid, config, [Round(r, seed, tables) for r, seed, tables in rounds], audit)
            for h in directors:
                self.tables.remember_token(h, Identity(tid, "director", None))
        self.count = len(self.all)

    def keep(self, t: Tourney) -> None:
        if not self.clustered:
            self.all[t.id] = t

    # ---- state read from the tables
    async def finished(self, rnd: Round) -> list[bool]:
        return [(await self.tables.outcome(tab["table_id"]))[0] for tab in rnd.tables]

    async def games(self, t: Tourney) -> list[dict[str, Any]]:
        """The finished games; a duplicate round's only once all its tables have finished (until
        then a table's result tells the tables still playing something about their boards)."""
        out = []
        for rnd in t.rounds:
            if t.config["duplicate"] and not all(await self.finished(rnd)):
                continue
            for tab in rnd.tables:
                finished, scores, winner = await self.tables.outcome(tab["table_id"])
                if finished:
                    out.append({"round": rnd.number, "seats": tab["seats"], "scores": scores, "winner": winner})
        return out

    async def standings(self, t: Tourney, names: list[str] | None = None) -> list[dict[str, Any]]:
        return S.compute(names or t.names(), await self.games(t), t.audit)

    async def get(self, tid: str, who: Identity | None, director: bool) -> Tourney:
        """The tournament, for its director (at the replica holding its shard) or for anyone's reading."""
        if director:
            if who is None or who.role != "director" or who.table_id != tid:
                raise RefereeError(codes.NOT_THE_DIRECTOR, "this needs the tournament's director token")
            if not self.tables.shards.owns(tid):
                raise self.tables.not_owner(tid)
        t = self.all.get(tid)
        if t is None and len(tid) <= 64:
            found = await self.store.off_loop(self.store.load_tournament, tid)
            if found is not None:
                config, rounds, audit = found
                t = Tourney(tid, config, [Round(r, seed, tables) for r, seed, tables in rounds], audit)
                self.keep(t)
        if t is None:
            raise RefereeError(codes.NOT_FOUND, f"no tournament {clip(tid)}")
        return t


def _shown(t: Tourney, here: dict[str, str | None]) -> list[str]:
    """The entrants' names as pages show them, `here` being the club's members (Clubs.names): a member who has
    left shows as their member id (their name is no longer shown anywhere; records keep the id)."""
    return [m if m is not None and here.get(m) is None else n for n, m in zip(t.names(), t.members())]


def tourney_spec(c: dict[str, Any]) -> RuleSpec:
    """The rules every table of a tournament plays: its exact version, or its uploaded text with the
    parents it had at creation (a tournament from before versions: the versions names had then);
    FAILED_PRECONDITION if this server no longer has that text."""
    text = c.get("rules_text")
    if text is not None:
        pins = pins_of(c["rules_parents"]) if "rules_parents" in c else legacy_pins()
        spec = upload_spec(text, pins or {})[1]
    else:
        spec = rules_spec(c["rules"], None)
    want = c.get("rules_sha256")
    if want is not None and want != spec.sha256 and want not in known_texts(spec.ref):
        raise RefereeError(codes.RULES_CHANGED, f"this tournament is played under {spec.ref} with "
                           f"the text of SHA-256 {want[:12]}…, which this server no longer has")
    return spec


class TournamentService(pb_grpc.TournamentServicer):
    def __init__(self, tournaments: Tournaments, referee: Referee, clubs: Clubs):
        self.t = tournaments
        self.referee = referee  # checks uploaded rule files in its sandbox
        self.clubs = clubs  # a club's tournament seats its members

    async def _rules(self, request, context, club: dict[str, Any] | None) -> tuple[str, str | None, RuleSpec]:
        """(name, uploaded text or None, spec) of what a new tournament plays: the club's rule file at the version
        the club pinned (house rules with their parents then), an upload (checked; its parents the latest), or
        a rule file the server knows."""
        if club is not None:
            f = club["rule_file"]
            text = f.get("text")
            return (f["name"] if text is not None else f["rules"]), text, rules_spec(f["rules"], text)
        text = request.rules_text or None
        if text is None:
            name = known_rules(request.rules_name)
            return name, None, rules_spec(name, None)
        name = rules_file_name(request.rules_name, self.t.tables.limits.name_chars)
        await self.referee.check_upload(context, text)
        return name or "upload", text, upload_spec(text)[1]

    async def _club(self, request, context, entrants: list[str]) -> dict[str, Any] | None:
        """A club's tournament: its rule file (one of the club's, as pinned there) and its entrants' member ids
        and names, for the club's director; None for a tournament of no club."""
        if not request.club_id:
            return None
        if request.teams or request.rules_text:
            raise RefereeError(codes.BAD_TOURNAMENT, "a club's tournament plays one of the club's rule "
                               "files (by its name) and seats players: partners are rated as a team of their members")
        club, f, members, shown = await self.clubs.for_tournament(
            request.club_id[:64], await optional_caller(self.t.tables, context), request.rules_name, entrants)
        return {"id": club.id, "rule_file": f, "members": members, "names": shown}

    @guard
    async def CreateTournament(self, request, context):
        lim = self.t.tables.limits
        address = address_of(context.peer())
        if self.t.count >= lim.max_tournaments:
            raise RefereeError(codes.TOO_MANY_TOURNAMENTS, "this server holds as many tournaments as it can")
        if self.t.by_address[address] >= lim.tournaments_per_address:
            raise RefereeError(codes.TOO_MANY_TOURNAMENTS,
                               f"{lim.tournaments_per_address} tournaments were created from your address")
        if len(request.entrants) > lim.entrants:
            raise RefereeError(codes.BAD_TOURNAMENT, f"at most {lim.entrants} entrants")
        title = clean_name(request.name, lim.name_chars, "a tournament's name")
        entrants = [clean_name(e, lim.name_chars, f"entrant {i + 1}'s name", empty=False)
                    for i, e in enumerate(request.entrants)]
        self.referee.check_options(request)
        club = await self._club(request, context, entrants)
        if club is not None:
            entrants = club["names"]
        name, text, spec = await self._rules(request, context, club)
        rules = compile_rules(spec, request.players or None, dict(request.options))
        teams = request.teams
        per_table = rules.n_sides if teams else rules.players
        if teams and rules.n_sides == rules.players:
            raise RefereeError(codes.BAD_TOURNAMENT, "these rules have no partnerships: entrants are players")
        if len(entrants) < per_table:
            raise RefereeError(codes.BAD_TOURNAMENT, f"at least {per_table} entrants")
        check_clock(lim, request.turn_seconds)
        if request.pairing not in ("swiss", "round_robin") or not 1 <= request.rounds <= 100:
            raise RefereeError(codes.BAD_TOURNAMENT, "pairing is swiss or round_robin; rounds 1..100")
        tid = self.t.tables.shards.new_id()  # in a shard this server holds: it fails over with that shard
        if tid is None:
            raise RefereeError(codes.NOT_OWNER, "this replica holds no shard yet: ask another, or again "
                               "shortly", {"owner": ""})
        config = {"name": title or f"{spec.name} tournament", "rules": name, "options": dict(rules.options),
                  "players": rules.players, "entrants": entrants, "teams": teams, "pairing": request.pairing,
                  "rounds": request.rounds, "duplicate": request.duplicate,
                  "seed": request.seed if request.HasField("seed") else secrets.token_hex(16),
                  "hands_per_round": max(0, min(request.hands_per_round, 1000)), "title": spec.name,
                  "rules_sha256": spec.sha256,  # every table of it plays this text (tourney_spec)
                  **({"turn_seconds": request.turn_seconds} if request.turn_seconds else {})}
        if text is not None:
            config["rules_text"] = text
            config["rules_parents"] = list(spec.extends)
        also = []
        if club is not None:
            config["club"] = {"id": club["id"], "members": club["members"]}
            also = club_store.add_tournament(club["id"], tid, config["name"], time.time())
        director = new_token()
        await self.t.tables.write(None, tid, Store.create_tournament(tid, config, time.time(), token_hash(director))
                                  + also)
        self.t.keep(Tourney(tid, config))
        self.t.count += 1
        self.t.by_address[address] += 1
        self.t.tables.remember_token(token_hash(director), Identity(tid, "director", None))
        return pb.CreateTournamentResponse(tournament_id=tid, director_token=director)

    @guard
    async def StartRound(self, request, context):
        t = await self.t.get(request.tournament_id, CALLER.get(), director=True)
        c = t.config
        if t.rounds and not all(await self.t.finished(t.rounds[-1])):
            raise RefereeError(codes.ROUND_IN_PROGRESS, "the current round has tables still playing")
        if len(t.rounds) >= c["rounds"]:
            raise RefereeError(codes.TOURNAMENT_OVER, "every round has been played")
        r = len(t.rounds)
        spec = tourney_spec(c)
        rules = compile_rules(spec, c["players"], c["options"])
        per_table = rules.n_sides if c["teams"] else rules.players
        met, held, partners = Counter(), defaultdict(Counter), Counter()
        sides = 0 if c["teams"] else rules.n_sides
        for rnd in t.rounds:  # replay earlier pairings so this one avoids repeats
            for tab in rnd.tables:
                for i, u in enumerate(tab["units"]):
                    held[u][i] += 1
                    for j, v in enumerate(tab["units"][i + 1:], i + 1):
                        met[frozenset((u, v))] += 1
                        if sides and i % sides == j % sides:
                            partners[frozenset((u, v))] += 1
        order = S.order_for_swiss(await self.t.standings(t))
        forfeited = {e["entrant"] for e in t.audit if e["action"] == "forfeit" and e.get("round") == r}
        units = [u for u in range(len(c["entrants"])) if u not in forfeited]
        pairs = pair_round(c["pairing"], units, per_table, r, c["seed"], [u for u in order if u in units], met, held,
                           partners, sides)
        rs = round_seed(c["seed"], r)
        numbers, shown = await self._seating(t, len(pairs))
        tables, out = [], []
        for i, placed in enumerate(pairs):
            seats = [placed[x % rules.n_sides] if c["teams"] else placed[x] for x in range(rules.players)]
            tseed = rs if c["duplicate"] else table_seed(rs, i)
            # A duplicate round's tables are sealed together: no seed, record or hidden card of any
            # of them is shown until all have finished (they play the same boards).
            text = c.get("rules_text")
            table, _host = await self.t.tables.create(table_rules_name(spec, text is not None), text, c["options"],
                                                      rules.players,
                                                      tseed, c["duplicate"], c.get("hands_per_round", 0),
                                                      seal=f"{t.id}/{r}" if c["duplicate"] else None, address=None,
                                                      turn_seconds=c.get("turn_seconds", 0),
                                                      also=None if numbers is None else
                                                      (lambda tid: club_store.open_table(c["club"]["id"], tid, time.time())))
            # Each seat under its entrant's name, so every page of the table shows who sits where; a club's
            # member seated as that member (committed with the seat), so the club counts the game.
            names = [shown[seats[x]][:self.t.tables.limits.player_name_chars] for x in range(rules.players)]
            tokens = []
            for x in range(rules.players):
                n = numbers[seats[x]] if numbers is not None else None
                also = club_store.seat_member(table.id, x, n) if n is not None else None
                tokens.append((await self.t.tables.join(table.id, x, names[x], also=also))[1])
            self.referee.clock.arm(table)
            tables.append({"table": i, "table_id": table.id, "units": placed, "seats": seats})
            out.append(pb.RoundTable(table=i, table_id=table.id, seats=seats, seat_tokens=tokens))
        await self.t.tables.write(None, t.id, Store.add_round(t.id, r, rs, tables))
        t.rounds.append(Round(r, rs, tables))
        return pb.StartRoundResponse(round=r, commitment=commitment(rs), tables=out)

    async def _names(self, t: Tourney) -> list[str]:
        """The entrants' names as pages show them (_shown)."""
        if "club" not in t.config:
            return t.names()
        return _shown(t, await self.clubs.member_names(t.config["club"]["id"]))

    async def _seating(self, t: Tourney, tables: int) -> tuple[list[int | None] | None, list[str]]:
        """How a round seats the entrants: a club's tournament, each entrant's member number (None: a guest, or a
        member who has left), once the club has room for the round's tables (None for a tournament of no club);
        and the names the seats are taken under (_shown)."""
        c = t.config.get("club")
        if c is None:
            return None, t.names()
        club = await self.clubs.load(c["id"])
        self.clubs.room_for(club, tables)
        here = self.clubs.names(club)
        numbers = [member_number(m) if m is not None and here.get(m) is not None else None for m in t.members()]
        return numbers, _shown(t, here)

    @guard
    async def GetStandings(self, request, context):
        t = await self.t.get(request.tournament_id, None, director=False)
        rounds = []
        for rnd in t.rounds:
            done = await self.t.finished(rnd)
            states = [pb.RoundTableState(table=tab["table"], table_id=tab["table_id"], seats=tab["seats"], finished=f)
                      for tab, f in zip(rnd.tables, done)]
            rounds.append(pb.RoundState(round=rnd.number, commitment=commitment(rnd.seed), tables=len(done),
                                        finished_tables=sum(done), seed=rnd.seed if all(done) else "",
                                        table_states=states))
        spec = tourney_spec(t.config)
        names = await self._names(t)
        return pb.GetStandingsResponse(standings=[pb.StandingRow(**row) for row in await self.t.standings(t, names)], rounds=rounds,
                                       audit_json=[json.dumps(e) for e in t.audit], name=t.config["name"],
                                       rules=spec.ref, rounds_planned=t.config["rounds"], entrants=names,
                                       rules_sha256=spec.sha256, title=rules_title(spec, LANG.get()),
                                       club_id=t.config.get("club", {}).get("id", ""),
                                       entrant_members=[m or "" for m in t.members()] if "club" in t.config else [])

    @guard
    async def Act(self, request, context):
        t = await self.t.get(request.tournament_id, CALLER.get(), director=True)
        if not request.reason.strip():
            raise RefereeError(codes.NO_REASON, "every director action needs a reason")
        kind = request.WhichOneof("action")
        n = len(t.config["entrants"])
        if kind is None:
            raise RefereeError(codes.BAD_ACTION, "forfeit, replace or adjust")
        a = getattr(request, kind)
        if not 0 <= a.entrant < n:
            raise RefereeError(codes.BAD_ACTION, f"entrants are 0..{n - 1}")
        entry: dict[str, Any] = {"seq": len(t.audit) + 1, "action": kind, "entrant": a.entrant,
                                 "reason": request.reason.strip()[:500], "at": round(time.time(), 3)}
        if kind == "forfeit":
            entry["round"] = a.round
        elif kind == "replace":
            entry["name"] = clean_name(a.name, self.t.tables.limits.name_chars, "the new entrant's name", empty=False)
            if "club" in t.config:  # a club's member (by id) comes in as that member; anyone else as a guest
                here = await self.clubs.member_names(t.config["club"]["id"])
                if here.get(entry["name"]) is not None:
                    entry["member"], entry["name"] = entry["name"], here[entry["name"]]
        else:
            entry["wins"], entry["points"] = a.wins, a.points
        await self.t.tables.write(None, t.id, Store.add_audit(t.id, entry))
        t.audit.append(entry)
        return pb.ActResponse(audit_json=json.dumps(entry))

    @guard
    async def ExportTournament(self, request, context):
        t = await self.t.get(request.tournament_id, CALLER.get(), director=True)
        c = t.config
        spec = tourney_spec(c)
        names = await self._names(t)
        archive: dict[str, Any] = {"format": FORMAT, "name": c["name"], "rules": spec.ref, "rules_sha256": spec.sha256,
                                   "players": c["players"],
                                   "options": c["options"], "pairing": c["pairing"], "teams": c["teams"],
                                   "hands_per_round": c.get("hands_per_round", 0),
                                   "entrants": [{"id": i, "name": nm} for i, nm in enumerate(names)],
                                   "rounds": [], "pending_rounds": [], "audit": t.audit}
        archive["title"] = c.get("title", c["rules"])
        if "club" in c:
            archive["club"] = {"id": c["club"]["id"], "members": t.members()}
        if c.get("rules_text") is not None:
            archive["rules_text"] = c["rules_text"]
            archive["rules_parents"] = list(spec.extends)
        for rnd in t.rounds:
            if not all(await self.t.finished(rnd)):
                archive["pending_rounds"].append({"round": rnd.number, "commitment": commitment(rnd.seed)})
                continue
            tables = []
            for tab in rnd.tables:
                record = await self.t.tables.finished_record(tab["table_id"])  # wherever its replica is
                v = verify(record)
                tables.append({**tab, "record": record, "result": {"scores": v["scores"],
                                                                   "winner": outcome(v, c.get("hands_per_round", 0)),
                                                                   "finished": v["finished"]}})
            archive["rounds"].append({"round": rnd.number, "duplicate": c["duplicate"], "commitment": commitment(rnd.seed),
                                      "seed": rnd.seed, "tables": tables})
        archive["standings"] = await self.t.standings(t, names)
        archive["duplicate_comparisons"] = comparisons(archive) if c["duplicate"] else []
        return pb.ExportTournamentResponse(archive_json=json.dumps(archive))
