"""The referee's commands in the one `smear-dsl` CLI: serve, play, bot, tournament run, verify-tournament,
demo, store and club. smear_dsl.cli finds `register` through the `smear_dsl.commands` entry point, so the
language package never imports the referee."""
from __future__ import annotations

import argparse
import json
import os
import sys

from smear_dsl.choices import BOT_HELP, LANGUAGES, TYPED
from smear_dsl.cli import _bot_kind, parse_options, read_json
from smear_dsl.errors import OptionError


def register(sub) -> None:
    """Add the referee's subcommands to `smear-dsl`'s subparsers."""
    _add_serve(sub)
    _add_bot(sub)
    _add_play(sub)
    _add_tournament(sub)
    _add_verify_tournament(sub)
    _add_demo(sub)
    _add_store(sub)
    _add_club(sub)


def _add_serve(sub) -> None:
    sv = sub.add_parser("serve", help="run the referee: gRPC, and the web client with --web (tables persist in SQLite)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=50051, help="0 picks a free port (printed on the first line)")
    sv.add_argument("--web", type=int, metavar="PORT", default=None,
                    help="also serve browsers on PORT: the web client and the same API over the Connect protocol")
    sv.add_argument("--health-port", type=int, metavar="PORT", default=None,
                    help="also answer grpc.health.v1 on this port, from threads of its own, so checks do not wait "
                         "behind moves (0 picks a free port, printed)")
    sv.add_argument("--metrics-port", type=int, metavar="PORT", default=None,
                    help="also serve Prometheus metrics at http://HOST:PORT/metrics (plain HTTP: an operator's port, "
                         "keep it private; 0 picks a free port, printed). docs/referee.md lists them")
    sv.add_argument("--tls-cert", metavar="PEM", help="serve gRPC and the web port over TLS with this certificate chain")
    sv.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    sv.add_argument("--db", default="smear-referee.sqlite3",
                    help="the SQLite file holding every table, or a postgresql://USER@HOST:PORT/DB URL")
    sv.add_argument("--advertise", metavar="HOST[:PORT]", default=None,
                    help="run as one replica of several sharing the --db PostgreSQL database; clients are sent "
                         "to HOST:PORT for the tables this replica owns (the port it listens on when none is given)")
    sv.add_argument("--limit", action="append", metavar="NAME=VALUE",
                    help="change one of the limits in docs/security.md (repeatable), e.g. tables_per_address=200")
    sv.set_defaults(fn=cmd_serve, parser=sv)


def _add_bot(sub) -> None:
    b = sub.add_parser("bot", help="play one seat of a table through the referee")
    b.add_argument("--server", required=True, help="HOST[:PORT] of the referee (port 50051 when not given)")
    b.add_argument("--table", required=True)
    b.add_argument("--seat", type=int, required=True, help="the seat the token is for, as the API numbers it (from 0)")
    b.add_argument("--token", required=True)
    b.add_argument("--style", type=_bot_kind, default="heuristic", metavar="BOT",
                   help=f"{BOT_HELP}; a search bot is played by the referee on this seat's behalf (default: heuristic)")
    b.add_argument("--seed", type=int, default=None)
    b.set_defaults(fn=cmd_bot, parser=b)


def _add_play(sub) -> None:
    pl = sub.add_parser("play", help="sit at a table of a referee and play from this terminal", epilog=TYPED,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    pl.add_argument("--server", required=True, help="HOST[:PORT] of the referee (port 50051 when not given)")
    where = pl.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="a table's id (its seat token, if you sat there before, is remembered)")
    where.add_argument("--create", metavar="RULES", help="open a table playing RULES (a rule name of the server, "
                       "or a path to your own rule file)")
    pl.add_argument("--option", action="append", metavar="K=V", help="an option of the rules (with --create)")
    pl.add_argument("--players", type=int, default=0, help="seats at the new table (with --create)")
    pl.add_argument("--bots", nargs="?", const="heuristic", default=None, type=_bot_kind, metavar="BOT",
                    help=f"fill the other seats with bots the server plays (with --create): {BOT_HELP} "
                         "(default when given alone: heuristic)")
    pl.add_argument("--clock", type=int, default=0, metavar="SECONDS",
                    help="a turn clock at the new table (with --create): when a player's time runs out, the house "
                         "bot moves for them (default: none)")
    pl.add_argument("--seat", type=int, default=None, help="the seat to take, counted from 1 as the table shows them "
                    "(default: the first free one)")
    pl.add_argument("--watch", action="store_true", help="watch as a spectator instead of playing")
    pl.add_argument("--name", default=os.environ.get("USER", ""), help="your name at the table")
    pl.add_argument("--record", metavar="FILE", help="write the game's record here when it ends")
    pl.add_argument("--tls-ca", metavar="PEM", help="connect over TLS, trusting this certificate (or CA)")
    pl.add_argument("--lang", choices=list(LANGUAGES), default=None,
                    help="the table's language: " + ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
                         + " (default: from LANG, else English); moves are typed as shown in `play --help`")
    pl.set_defaults(fn=cmd_play, parser=pl)


def _add_tournament(sub) -> None:
    tn = sub.add_parser("tournament", help="bot tournaments through a local referee")
    tsub = tn.add_subparsers(dest="tcmd", required=True)
    tr = tsub.add_parser("run", help="run a whole bot tournament and write its archive and standings")
    tr.add_argument("--rules", required=True)
    tr.add_argument("--entrants", type=int, required=True)
    tr.add_argument("--rounds", type=int, required=True)
    tr.add_argument("--pairing", choices=["swiss", "round_robin"], default="swiss")
    tr.add_argument("--duplicate", action="store_true", help="every table of a round plays the same boards")
    tr.add_argument("--teams", action="store_true", help="entrants are fixed teams (one side each)")
    tr.add_argument("--option", action="append", metavar="K=V")
    tr.add_argument("--seed", default="smear-tournament")
    tr.add_argument("--bot", type=_bot_kind, default="heuristic", metavar="BOT",
                    help=f"every entrant's bot: {BOT_HELP} (default: heuristic)")
    tr.add_argument("--hands", type=int, default=0, help="play N hands per round instead of a whole game")
    tr.add_argument("--jobs", type=int, default=None, metavar="N",
                    help="processes (default and 0: one per core): the referee in one, the bots in the others; "
                         "the results are the same for any N")
    tr.add_argument("--out", default="tournament-out")
    tr.add_argument("--lang", choices=list(LANGUAGES), default="en",
                    help="the language of standings.html: " + ", ".join(LANGUAGES))
    tr.set_defaults(fn=cmd_tournament_run, parser=tr)


def _add_verify_tournament(sub) -> None:
    vt = sub.add_parser("verify-tournament", help="re-derive every deal, re-referee every game, recompute the standings")
    vt.add_argument("archive")
    vt.set_defaults(fn=cmd_verify_tournament, parser=vt)


def _add_demo(sub) -> None:
    d = sub.add_parser("demo", help="play and narrate bot games, then write and verify their records")
    d.add_argument("--game", action="append", metavar="RULES[:k=v,...][@PLAYERS]",
                   help="a game to play (repeatable), e.g. RULES:widow=2@4")
    d.add_argument("--out", default="demo-out", help="where to write the records")
    d.add_argument("--seed", type=int, default=2026)
    d.add_argument("--web", type=int, metavar="PORT", default=None,
                   help="serve the web client on PORT meanwhile (a free port if PORT is taken)")
    d.add_argument("--serve", action="store_true", help="keep the referee serving after the games, until Ctrl-C")
    d.set_defaults(fn=cmd_demo, parser=d)


def _add_store(sub) -> None:
    st = sub.add_parser("store", help="check, back up or restore a referee's store (its SQLite file or database)")
    ops = st.add_subparsers(dest="op", required=True)
    c = ops.add_parser("check", help="prove every table intact by its hashes; list the damaged ones (exit 1 if any)")
    c.add_argument("db", help="the SQLite file, or a postgresql://... URL")
    c.add_argument("--deep", action="store_true", help="also replay every game through the engine")
    c.set_defaults(fn=cmd_store, parser=c)
    b = ops.add_parser("backup", help="copy an SQLite store while its server runs (SQLite's online backup), then check the copy")
    b.add_argument("db")
    b.add_argument("dest", help="a new file")
    b.set_defaults(fn=cmd_store, parser=b)
    r = ops.add_parser("restore", help="put a checked backup in place of a store no server is using (the old file is kept)")
    r.add_argument("backup")
    r.add_argument("db")
    r.set_defaults(fn=cmd_store, parser=r)


def cmd_store(args: argparse.Namespace) -> int:
    from smear_referee import storetools as T
    from smear_referee.names import shown
    try:
        if args.op == "check":
            report = T.check(args.db, args.deep)
        elif args.op == "backup":
            report = T.backup(args.db, args.dest)
            print(f"backup written to {args.dest}")
        else:
            report, kept = T.restore(args.backup, args.db)
            print(f"{args.db} restored from {args.backup}" + (f" (the file it replaced is kept as {kept})" if kept else ""))
    except T.StoreToolError as e:
        print(f"smear-dsl store {args.op}: {e}", file=sys.stderr)
        return 2
    for tid, version, what, *kind in report.damaged:
        print(f"damaged: {kind[0]} {shown(tid)}: {what}" if kind else f"damaged: table {shown(tid)} at version {version}: {what}")
    print(f"{args.db if args.op == 'check' else args.dest if args.op == 'backup' else args.backup}: {report.summary()}")
    return 1 if report.damaged else 0


def _play_client(args: argparse.Namespace, where: str):
    """A client of the referee for `play`: over TLS with --tls-ca, speaking the person's language
    (--lang, else LANGUAGE/LANG), so refusals and titles come back in it."""
    import grpc

    from smear_referee.clients.client import Client
    if args.tls_ca:
        if not os.path.isfile(args.tls_ca):
            raise OptionError(f"no file {args.tls_ca}")
        with open(args.tls_ca, "rb") as f:
            creds = grpc.ssl_channel_credentials(root_certificates=f.read())
        channel = grpc.secure_channel(where, creds, options=[("grpc.max_receive_message_length", 128 << 20)])
        lobby = Client(where, channel=channel)
    else:
        lobby = Client(where)
    from smear_dsl.i18n import negotiate
    lobby.lang = args.lang or negotiate(os.environ.get("LANGUAGE", "").split(":") + [os.environ.get("LANG", "")])
    return lobby


def cmd_play(args: argparse.Namespace) -> int:
    import grpc
    from rich.console import Console
    from rich.text import Text

    from smear_dsl.i18n import tr_for
    from smear_referee.clients.client import error_reason, target
    from smear_referee.clients.terminal import TerminalTable, save_seat, saved_seat
    from smear_referee.names import shown

    where = target(args.server)
    lobby = _play_client(args, where)
    tr = tr_for(lobby.lang)
    console = Console(highlight=False)
    try:
        if args.create:
            text = None
            if os.path.isfile(args.create):
                with open(args.create, encoding="utf-8") as f:
                    text = f.read()
            made = lobby.create_table(None if text else args.create, parse_options(args.option or []),
                                      args.players, rules_text=text, turn_seconds=args.clock)
            table_id, host = made.table_id, made.host_token
            console.print(Text(tr.t("table {table} opened: {title}", table=table_id, title=shown(made.table.title))))
        else:
            table_id, host = args.table, None
        seat = saved_seat(where, table_id) if not args.watch and args.seat is None else None
        if seat is None:
            info = lobby.table(table_id)
            if args.seat is not None and not 1 <= args.seat <= len(info.seat_taken):
                raise OptionError(f"--seat {args.seat}: the seats of table {table_id} are 1 to {len(info.seat_taken)}")
            chosen = None if args.watch else args.seat - 1 if args.seat is not None else \
                next((i for i, taken in enumerate(info.seat_taken) if not taken), None)
            if chosen is None and not args.watch:
                raise OptionError(f"table {table_id} has no free seat: --watch it instead")
            joined = lobby.join(table_id, chosen, name=args.name)
            seat = {"token": joined.token, "seat": chosen}
            if chosen is not None:
                save_seat(where, table_id, seat)
        console.print(tr.t("you are watching at table {table}", table=table_id) if seat["seat"] is None else
                      tr.t("you are seat {seat} at table {table}", seat=seat["seat"] + 1, table=table_id))
        if host and args.bots:
            lobby.with_token(host).add_bots(table_id, args.bots)
        table = TerminalTable(lobby.with_token(seat["token"]), table_id, console, tr=tr)
        final = table.run()
        if args.record:
            record, _complete = lobby.with_token(seat["token"]).record(table_id)
            with open(args.record, "w", encoding="utf-8") as f:
                json.dump(record, f, indent=1)
            console.print(tr.t("record written to {file}", file=args.record))
        console.print(table.outcome(final, list(final.scores), final))
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.UNAVAILABLE:
            raise OptionError(f"cannot reach the referee at {where} (is `smear-dsl serve` running there?)") from None
        raise OptionError(f"the referee refused ({error_reason(e) or e.code().name}): {e.details()}") from None
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from smear_dsl.errors import SmearError
    from smear_referee.app import Listen, serve
    from smear_referee.limits import Limits
    from smear_referee.storage.cluster import SHARDS
    try:
        limits = Limits.parse(args.limit or [])
    except ValueError as e:
        raise OptionError(str(e)) from None
    if bool(args.tls_cert) != bool(args.tls_key):
        raise OptionError("--tls-cert and --tls-key go together")
    for flag in ("port", "web", "health_port", "metrics_port"):
        value = getattr(args, flag)
        if value is not None and not 0 <= value <= 65535:  # gRPC would take 70000 as 70000 - 65536
            raise OptionError(f"--{flag.replace('_', '-')} {value}: a port is 0 to 65535 (0 picks a free one)")
    for path in filter(None, (args.tls_cert, args.tls_key)):
        if not os.path.isfile(path):
            raise OptionError(f"no file {path}")
    where = Listen(args.host, args.port, args.web, args.tls_cert, args.tls_key, args.health_port, args.advertise,
                   args.metrics_port)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)

    def ready(running) -> None:
        print(f"smear-dsl referee listening on {args.host}:{running.port}", flush=True)
        if running.web_port is not None:
            scheme = "https" if where.tls else "http"
            print(f"web client: {scheme}://{args.host}:{running.web_port}/", flush=True)
        if running.health_port is not None:
            print(f"health checks: {args.host}:{running.health_port}", flush=True)
        if running.metrics_port is not None:
            print(f"metrics: http://{args.host}:{running.metrics_port}/metrics", flush=True)
        t = running.tables
        if t.shards.clustered:
            print(f"replica {t.shards.replica} advertised as {t.shards.address}: {len(t.shards.held)} of "
                  f"{SHARDS} shards, {len(t.tables)} tables read back", file=sys.stderr, flush=True)
        else:
            print(f"tables: {len(t.open_ids)} unfinished in {t.store.path}, {len(t.tables)} read back into memory",
                  file=sys.stderr, flush=True)
    try:
        asyncio.run(serve(where, args.db, ready, limits))
    except SmearError as e:  # a busy port, a database in use or out of reach
        print(f"smear-dsl serve: {e}", file=sys.stderr)
        return 1
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    import grpc

    from smear_referee.clients.client import Client, play_seat, target
    where = target(args.server)
    client = Client(where, args.token)
    try:
        first = client.view(args.table)
        if not first.HasField("seat") or first.seat != args.seat:
            raise OptionError(f"this token is not for seat {args.seat} of table {args.table}")
        view = play_seat(client, args.table, args.style, args.seed)
    except grpc.RpcError as e:
        if e.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            raise OptionError(f"cannot reach the referee at {where} (is `smear-dsl serve` running there?)") from None
        raise OptionError(f"the referee refused: {e.code().name}: {e.details()}") from None
    print(f"game over: winner {view.winner if view.HasField('winner') else None}, scores {list(view.scores)}")
    return 0


def cmd_tournament_run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from smear_dsl.sim.parallel import jobs_option
    from smear_referee.clients.tournament import run_tournament
    from smear_referee.names import shown
    try:
        archive = run_tournament(args.rules, args.entrants, args.rounds, args.pairing, args.duplicate, args.teams,
                                 parse_options(args.option), args.seed, args.out, args.bot, progress=True,
                                 hands_per_round=args.hands, jobs=jobs_option(args.jobs), lang=args.lang)
    except ValueError as e:
        raise OptionError(str(e)) from None
    stats = archive["_stats"]
    table = Table(title=Text(shown(archive["name"])))
    for col in ("#", "entrant", "games", "wins", "for", "against", "diff"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for s in archive["standings"]:
        table.add_row(str(s["rank"]), Text(shown(s["name"])), str(s["games"]), str(s["wins"]), str(s["points_for"]),
                      str(s["points_against"]), str(s["difference"]))
    console = Console(highlight=False)
    console.print(table)
    console.print(f"{len(archive['rounds'])} rounds, {stats['moves']:,} moves in {stats['seconds']} s "
                  f"({stats['moves_per_second']:,} moves/s through the referee); archive {args.out}/archive.json, "
                  f"report {args.out}/standings.html")
    for f in stats["findings"]:  # a game that did not end by its rules: it counts, but says something is off
        console.print(Text(f"finding: {f}", style="yellow"))
    if stats["problems"]:
        for p in stats["problems"]:
            console.print(Text(p, style="red"))
        return 1
    console.print("verify-tournament: every deal, game and standing checks out")
    return 0


def cmd_verify_tournament(args: argparse.Namespace) -> int:
    from smear_referee.tournament.archive import findings, verify_archive
    archive = read_json(args.archive)
    problems = verify_archive(archive)
    for p in problems:
        print(p)
    if not problems:
        for f in findings(archive):
            print(f"finding: {f}")
    if not problems:
        print("ok: every commitment, deal, game and standing checks out")
    return 1 if problems else 0


def _add_club(sub) -> None:
    cl = sub.add_parser("club", help="a club's seasons: verify an export, print its ladder, make a sample")
    csub = cl.add_subparsers(dest="club_cmd", required=True, metavar="COMMAND")
    v = csub.add_parser("verify", help="re-referee every game of a club export, recompute every rating, name each mismatch")
    v.add_argument("export", help="a smear-club/1 export (JSON Lines)")
    v.add_argument("--head", action="append", metavar="SEASON=DIGEST", default=[],
                   help="the head digest the club published for a season (catches games dropped from its end)")
    v.set_defaults(fn=cmd_club_verify, parser=v)
    la = csub.add_parser("ladder", help="a club's ladder, recomputed from its export")
    la.add_argument("export")
    la.add_argument("--season", type=int, default=None, help="the season, from 1 (default: the last)")
    la.add_argument("--rules", default=None, help="the rule file (default: every one the club rates)")
    la.add_argument("--lang", choices=LANGUAGES, default="en")
    la.set_defaults(fn=cmd_club_ladder, parser=la)
    sm = csub.add_parser("sample", help="write a made-up season of bot games as an export (for trying the commands)")
    sm.add_argument("--games", type=int, default=60)
    sm.add_argument("--members", type=int, default=8)
    sm.add_argument("--seasons", type=int, default=1)
    sm.add_argument("--rules", default="four_point_ne_wisconsin")
    sm.add_argument("--seed", default="club")
    sm.add_argument("--out", default="club-export.jsonl")
    sm.set_defaults(fn=cmd_club_sample, parser=sm)
    ex = csub.add_parser("export", help="write a club's seasons from a referee as a smear-club/1 export")
    ex.add_argument("--server", required=True, help="HOST[:PORT] of the referee (port 50051 when not given)")
    ex.add_argument("--club", required=True, help="the club's id")
    ex.add_argument("--token", required=True, help="the director's token or a member's (write --token=TOKEN: a token "
                    "may begin with -)")
    ex.add_argument("--out", default="club-export.jsonl")
    ex.set_defaults(fn=cmd_club_export, parser=ex)


def _heads(given: list[str]) -> dict[int, str]:
    out = {}
    for h in given:
        season, _, digest = h.partition("=")
        if not season.isdigit() or int(season) < 1 or len(digest) != 64:
            raise OptionError(f"--head {h!r}: write SEASON=DIGEST, the season from 1 and its 64-character digest")
        out[int(season)] = digest
    return out


def cmd_club_verify(args: argparse.Namespace) -> int:
    from smear_referee.club.export import read_export, verify_export
    from smear_referee.names import shown
    heads = _heads(args.head)
    problems = verify_export(read_export(args.export), heads)
    for p in problems:
        print(shown(p))  # a problem may quote the export's own text: never an escape to the terminal
    if not problems:
        print("ok: every game re-refereed, every digest chained and every rating recomputed exactly")
    return 1 if problems else 0


def cmd_club_ladder(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from smear_dsl.i18n import tr_for
    from smear_referee.club.export import read_export, verify_export
    from smear_referee.club.ladder import ladder, ladder_text
    from smear_referee.club.ratings import RatingSettings
    seasons: list = []
    problems = verify_export(read_export(args.export), ratings_out=seasons)
    console = Console(highlight=False)
    for p in problems:
        console.print(_plain(p))
    if problems or not seasons:
        print("the export does not verify: no ladder is shown from it" if problems else "the export holds no season")
        return 1
    n = args.season or len(seasons)
    if not 1 <= n <= len(seasons):
        raise OptionError(f"--season {n}: the export holds seasons 1 to {len(seasons)}")
    header = next(read_export(args.export))  # the club's line (it verified above)
    settings = RatingSettings.from_json(header["settings"])
    names = {m["id"]: m.get("name") for m in header["members"]}
    tr = tr_for(args.lang)
    keys = [args.rules] if args.rules else sorted(seasons[n - 1])
    for key in keys:
        rows = ladder_text(ladder(seasons[n - 1], settings, names, key, args.lang), args.lang)
        table = Table(title=_plain(tr.t("{club}, season {n}: {rules}", club=header.get("name") or header["club"], n=n, rules=key)))
        for h in rows[0]:
            table.add_column(h)
        for r in rows[1:]:
            table.add_row(*(_plain(c) for c in r))
        console.print(table)
    return 0


def _plain(text: str):
    """Text as rich shows it, never as markup or a terminal escape (a member's name is data)."""
    from rich.text import Text

    from smear_referee.names import shown
    return Text(shown(text))


def cmd_club_sample(args: argparse.Namespace) -> int:
    from smear_referee.club.export import write_export
    from smear_referee.club.sample import sample_export
    if not 1 <= args.games <= 100_000 or not 1 <= args.seasons <= args.games:
        raise OptionError("--games 1..100000, and --seasons at most the games")
    try:
        lines = sample_export(args.games, args.members, args.rules, args.seed, args.seasons)
    except ValueError as e:
        raise OptionError(str(e)) from None
    write_export(args.out, lines)
    print(f"wrote {args.out}: {args.games} games of {args.rules} by {args.members} members over {args.seasons} season(s)")
    return 0


def cmd_club_export(args: argparse.Namespace) -> int:
    """The club's export as the referee writes it, and each season's head digest as the club shows it (to
    check the export against: `club verify EXPORT --head SEASON=DIGEST`)."""
    import grpc

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.clients.client import target
    where = target(args.server)
    with grpc.insecure_channel(where) as channel:
        stub = pb_grpc.ClubStub(channel)
        try:
            done = stub.ExportClub(pb.ExportClubRequest(club_id=args.club), metadata=[("authorization", f"Bearer {args.token}")],
                                   timeout=600)
            seasons = stub.GetClub(pb.GetClubRequest(club_id=args.club), timeout=60).seasons
        except grpc.RpcError as e:
            if e.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise OptionError(f"cannot reach the referee at {where} (is `smear-dsl serve` running there?)") from None
            raise OptionError(f"the referee refused: {e.code().name}: {e.details()}") from None
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(done.export_jsonl)
    games = sum(s.games for s in seasons)
    print(f"wrote {args.out}: {games} games over {len(seasons)} season(s); check it with")
    print(f"  smear-dsl club verify {args.out} " + " ".join(f"--head {s.season}={s.head}" for s in seasons))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from smear_referee.clients.demo import parse_game, run_demo
    if not args.game:
        raise OptionError("name the games to play: --game RULES[:k=v,...][@PLAYERS] (repeatable); `make demo` does")
    return run_demo([parse_game(g) for g in args.game], args.out, args.seed, args.web, args.serve)
