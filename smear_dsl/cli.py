"""The `smear-dsl` command: check, verify, simulate, explain, schema; installed packages add more
(the referee: serve, bot, tournament, demo)."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

# Only what builds the parser is imported here (`--help` and a mistyped command load nothing more); each
# command imports what it runs.
from smear_dsl.choices import BOT_HELP, LANGUAGES
from smear_dsl.errors import OptionError, RecordError, RuleError, SmearError


def read_json(path: str) -> Any:
    import json
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{path} nests too deeply") from None


def cmd_verify(args: argparse.Namespace) -> int:
    """Verdicts of RECORD_FORMAT.md. One record: its verdict as JSON. Several: one line each, in
    order, as JSON Lines carrying `file`, or (`--format text`, the default on a terminal) a summary
    line a person reads. Exit status: the highest of 0 valid, 1 illegal move or bad deal, 2 unreadable."""
    import json

    from smear_dsl.records.verify import verify
    fmt = args.format or ("text" if sys.stdout.isatty() else "json")
    worst = 0
    for path in args.records:
        try:
            try:
                verdict = verify(read_json(path))
            except RecursionError:
                raise RecordError("record nests too deeply") from None
            status = 0 if verdict["valid"] else 1
        except RecordError as e:
            if fmt == "json":
                print(f"{path}: {e}", file=sys.stderr)
            verdict = {"valid": False, "finished": False, "winner": None, "scores": [], "hands": [],
                       "error": {"hand": None, "move": None, "code": "BAD_RECORD", "message": str(e)}}
            status = 2
        if fmt == "text":
            print(_verdict_line(path, verdict, status))
        elif len(args.records) == 1:
            print(json.dumps(verdict, indent=None if args.compact else 1))
        else:
            print(json.dumps({"file": path, **verdict}))
        worst = max(worst, status)
    return worst


def _verdict_line(path: str, v: dict[str, Any], status: int) -> str:
    """One record's verdict in a line, naming the exact rules it was judged by, for a person (sides,
    hands and moves count from 1): `game.json: valid (name@1), finished: side 2 won 16 to 9 (12 hands)`."""
    err = v["error"]
    if status == 2:
        return f"{path}: unreadable: {err['message']}"
    scores = score_list(v["scores"])
    hands = f"{len(v['hands'])} hand{'s' if len(v['hands']) != 1 else ''}"
    if v["valid"]:
        how = {"hand_limit": "finished at its hand limit", "abandoned": "ended by the referee"}.get(str(v.get("end")),
                                                                                                    "finished")
        state = (f"{how}: side {v['winner'] + 1} won {scores}" if v["winner"] is not None else f"{how}: no winner, {scores}") \
            if v["finished"] else f"in progress at {scores}"
        return f"{path}: valid ({v['rules']}), {state} ({hands})" + _other_readings(v)
    hand, move = err.get("hand"), err.get("move")
    where = (f"hand {hand + 1}" if isinstance(hand, int) else "the record") + (f" move {move + 1}" if isinstance(move, int) else "")
    return f"{path}: INVALID ({v['rules']}) at {where}: {err['code']}: {err['message']} (scores {scores} after {hands})"


def _other_readings(v: dict[str, Any]) -> str:
    """For a record naming its rules bare from before versions, the earlier versions the name also meant
    under which the game reads otherwise (verify.py _earlier_readings)."""
    other = [r for r in v.get("also_read_as", ()) if r["valid"]]
    return "".join(f"; the record names no version, and under {r['rules']} (what the name meant before it) it "
                   + (f"is finished: side {r['winner'] + 1} won {score_list(r['scores'])}" if r["winner"] is not None
                      else f"stands at {score_list(r['scores'])}" + (", finished" if r["finished"] else ""))
                   for r in other)


def score_list(scores: list[int]) -> str:
    """Scores as a person reads them: `16 to 9`, `7, 4 and −2` (a real minus sign, never `4--2`)."""
    from smear_dsl.i18n import signed
    said = [signed(s) for s in scores]
    return " to ".join(said) if len(said) == 2 else ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 2 else "".join(said)


def _changed(ref: str) -> str:
    """For a parent with earlier versions: how to see what changed since the first (a file written
    against it may now play otherwise)."""
    from smear_dsl.language.paths import split_ref
    base, version = split_ref(ref)
    if not version or version < 2:
        return ""
    return f"; it has changed since version 1 (`smear-dsl explain {base}@1 --diff {ref}` says how)"


def cmd_check(args: argparse.Namespace) -> int:
    from smear_dsl.compile.lint import check_all_setups
    from smear_dsl.language.load import load_spec
    bad = 0
    for path in args.files:
        warned: list = []
        try:
            spec = load_spec(path)
            diags = check_all_setups(spec, warnings=warned)
        except RuleError as e:
            diags = e.diagnostics
        except RecursionError:
            print(f"{path}:1:1: error: rule file nests too deeply", file=sys.stderr)
            bad += 1
            continue
        if diags:
            bad += 1
            for d in diags:
                print(d.format(), file=sys.stderr)
            print(f"{path}: {len(diags)} error(s)", file=sys.stderr)
        else:
            for d in warned:
                print(d.format(), file=sys.stderr)
            if not args.quiet:
                print(f"{path}: ok ({spec.name}" + (f", version {spec.version}" if spec.version else "") +
                      f"; {', '.join(map(str, spec.players))} players; "
                      f"points {', '.join(p.name for p in spec.points)})" + (f"; {len(warned)} warning(s)" if warned else ""))
                for written, resolved in spec.unpinned:  # a parent named without a version: say which one it is
                    print(f"{path}: note: `extends: {written}` means {resolved}, its latest version; write "
                          f"`extends: {resolved}` to keep these rules when {written} changes" + _changed(resolved))
    return 1 if bad else 0


def parse_options(items: list[str] | None) -> dict[str, str]:
    """`--option k=v` pairs (values stay text; the rule file's option types parse them)."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise OptionError(f"--option takes key=value, not {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def load_rules(name: str, players: int | None, options: list[str] | None):
    """Compile RULES (a name in rules/ or a path) for a table, refusing what `check` refuses for that
    setup (a bid no hand can make, a point whose card is not dealt...): simulate and play accept and
    refuse the same files as check."""
    from smear_dsl.compile.lint import compile_checked
    from smear_dsl.language.load import load_spec
    return compile_checked(load_spec(name), players, parse_options(options))


def _arm(text: str, players: int | None, options: list[str] | None):
    """`RULES` or `RULES:k=v,k=v` (a rule file with some options set) compiled for a table."""
    name, _, opts = text.partition(":")
    extra = [o for o in opts.split(",") if o] if opts else []
    return load_rules(name, players, [*(options or []), *extra])


def cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from smear_dsl.sim.parallel import jobs_option
    from smear_dsl.sim.simulate import render_summary, simulate
    if args.compare:
        return _compare(args)
    if args.plot:
        raise OptionError("--plot draws a comparison: use it with --compare A B")
    if not args.rules:
        raise OptionError("name the rules to simulate, or --compare A B")
    rules = load_rules(args.rules, args.players, args.option)
    progress = not args.json and args.games >= 50 and sys.stderr.isatty()
    summary = simulate(rules, args.games, args.seed, args.bot or "heuristic", args.max_hands, args.record_dir, progress,
                       jobs_option(args.jobs))
    print(json.dumps(summary) if args.json else render_summary(summary))
    return 0


def _emit(text: str, out: str | None) -> int:
    """Write `text` to the file `out`, or to standard output."""
    if out:
        try:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise OptionError(f"cannot write {out}: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from smear_dsl.language.load import load_spec
    from smear_dsl.sheets.explain import render
    spec = load_spec(args.rules)
    table = args.option is not None or args.players is not None
    specs = [spec] if args.diff is None else [spec, load_spec(args.diff)]
    for s in specs:
        if args.players is not None and args.players not in s.players:
            raise OptionError(f"{s.name} is for {' or '.join(map(str, s.players))} players, not {args.players}")
    options = parse_options(args.option) if table else None
    if args.diff is not None:
        from smear_dsl.sheets.diff import sheet_diff
        if args.format != "md":
            raise OptionError("--diff prints Markdown: leave out --format html")
        return _emit(sheet_diff(spec, specs[1], args.lang, options, args.players), args.out)
    return _emit(render(spec, args.format, options, args.players, args.lang), args.out)


def cmd_schema(args: argparse.Namespace) -> int:
    from smear_dsl.language.jsonschema import schema_text
    return _emit(schema_text(), args.out)


def _compare(args: argparse.Namespace) -> int:
    import json
    import random as _random

    from smear_dsl.sim.compare import compare, plot, render_text
    from smear_dsl.sim.parallel import jobs_option
    if args.rules:
        raise OptionError("with --compare A B, give the two arms there (e.g. RULES:widow=0 RULES:widow=3)")
    ra = _arm(args.compare[0], args.players, args.option)
    rb = _arm(args.compare[1], args.players, args.option)
    if ra.players != rb.players:
        raise OptionError(f"the arms seat different numbers of players ({ra.players} and {rb.players}): use --players")
    seed = args.seed if args.seed is not None else _random.SystemRandom().randrange(1 << 31)
    bot = args.bot or "heuristic"
    result = compare(ra, rb, args.games, seed, bot, min(args.max_hands, 200) if args.max_hands else 200,
                     jobs_option(args.jobs))
    if args.plot:
        try:
            plot(result, args.plot)
        except ImportError:
            raise OptionError("--plot needs matplotlib: pip install 'smear-dsl[plot]'") from None
        result["plot"] = args.plot
    print(json.dumps(result) if args.json else render_text(result) + (f"\nplot written to {args.plot}" if args.plot else ""))
    return 0


class _Formatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal, found without importing shutil as argparse does (and
    with shutil bz2 and lzma: 2 ms of every start, for a help text most starts never show)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        if width is None:  # shutil.get_terminal_size's reading: $COLUMNS, else the terminal's, else 80
            try:
                width = int(os.environ.get("COLUMNS", "0"))
            except ValueError:
                width = 0
            if width <= 0:
                try:
                    width = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
                except (AttributeError, ValueError, OSError):
                    width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """argparse that answers a mistyped subcommand or option with the closest real one, and an
    option the subcommand does not have with that subcommand's usage (not the top level's)."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        import re

        from smear_dsl.language.schema import did_you_mean
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            hint = did_you_mean(m.group(1), [c.strip(" '") for c in m.group(2).split(",")])
            if hint:
                message += f"; {hint}"
        super().error(message)

    def parse_args(self, args=None, namespace=None):
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            parser = getattr(parsed, "parser", self)
            known = [o for a in parser._actions for o in a.option_strings]
            hints = [h for x in extras if x.startswith("-") and (h := _suggest(x.split("=")[0], known))]
            parser.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; {'; '.join(hints)}" if hints else ""))
        return parsed


def _bot_kind(text: str) -> str:
    """argparse's check of --bot: a bot's name (see bots.BOT_HELP), with what the bots are if not."""
    from smear_dsl.players.botspec import check_bot
    try:
        return check_bot(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _suggest(word: str, options: list[str]) -> str | None:
    import difflib
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.5)
    return f"did you mean {close[0]}?" if close else None


def _extensions() -> list:
    """`register(subparsers)` functions of installed packages (entry point group `smear_dsl.commands`):
    the referee adds its commands this way, so this package never imports it."""
    from smear_dsl.plugins import entry_points
    out = []
    for ep in sorted(entry_points("smear_dsl.commands"), key=lambda e: e.name):
        try:
            out.append(ep.load())
        except ImportError:  # a package half-installed: its commands are missing, the others work
            continue
    return out


def _explain_parser(sub) -> None:
    """`smear-dsl explain`: a rules sheet, or (--diff) what changes between two."""
    e = sub.add_parser("explain", help="print a rule file as the rules players read at the table")
    e.add_argument("rules", help="a rule name in rules/ (`NAME`: its latest version, `NAME@V`: that one) or a path "
                   "to a rule file")
    e.add_argument("--diff", metavar="RULES", default=None,
                   help="print only what changes from these rules to RULES, in the players' words "
                        "(`explain NAME@1 --diff NAME@2`: what version 2 says otherwise)")
    e.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or a standalone HTML page")
    e.add_argument("--out", default=None, help="write to this file instead of standard output")
    e.add_argument("--option", action="append", metavar="K=V",
                   help="a table's option: the sheet then reads that table's values (repeatable)")
    e.add_argument("--players", type=int, default=None, help="a table's seat count: the sheet is for that table")
    e.add_argument("--lang", choices=list(LANGUAGES), default="en",
                   help="the players' language: " + ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items()))
    e.set_defaults(fn=cmd_explain, parser=e)


def main(argv: list[str] | None = None) -> int:
    # argparse's own words ("usage:", "options") stay English, as they are: Python installs no catalog for
    # them, but argparse looked each word up in the locale's catalogs on every start (2-3 ms of `check`).
    argparse._ = str  # type: ignore[attr-defined]
    ap = _Parser(prog="smear-dsl", description="Rule language, engine and referee for the Smear family.")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    v = sub.add_parser("verify", help="re-referee smear-record/1 game records and print verdicts")
    v.add_argument("records", nargs="+", help="record files, or - for standard input")
    v.add_argument("--compact", action="store_true", help="one line per verdict even for a single record")
    v.add_argument("--format", choices=["json", "text"], default=None,
                   help="json (verdicts; JSON Lines with `file` for several records) or text (a summary line per "
                        "record); default: text on a terminal, json otherwise")
    v.set_defaults(fn=cmd_verify, parser=v)
    c = sub.add_parser("check", help="check rule files; print every error as path:line:col")
    c.add_argument("files", nargs="+", help="rule files (paths or names in rules/)")
    c.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    c.set_defaults(fn=cmd_check, parser=c)
    s = sub.add_parser("simulate", help="play bot games and summarise them")
    s.add_argument("rules", nargs="?", help="a rule name in rules/ or a path to a rule file")
    s.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="compare two arms on the same deals; an arm is RULES or RULES:k=v,k=v (--bot plays both)")
    s.add_argument("--plot", metavar="FILE.png", help="with --compare: draw the comparison (needs matplotlib)")
    s.add_argument("--players", type=int, default=None, help="number of seats (default: the rules' first)")
    s.add_argument("--option", action="append", metavar="K=V", help="a table option (repeatable)")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=None, help="seed for deals and bots (default: random)")
    s.add_argument("--bot", type=_bot_kind, default=None, metavar="BOT",
                   help=f"bots for every seat: {BOT_HELP} (default: heuristic)")
    s.add_argument("--max-hands", type=int, default=1000, help="stop a game unfinished after this many hands")
    s.add_argument("--record-dir", default=None, help="write every game's smear-record/1 here")
    s.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    s.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default and 0: one per core); the results are the same for any N")
    s.set_defaults(fn=cmd_simulate, parser=s)
    _explain_parser(sub)
    sc = sub.add_parser("schema", help="print the JSON Schema of rule files (rules/rules.schema.json)")
    sc.add_argument("--out", default=None, help="write it to this file instead of standard output")
    sc.set_defaults(fn=cmd_schema, parser=sc)
    words = sys.argv[1:] if argv is None else argv
    if not (words and words[0] in sub.choices):  # a language command skips the entry-point scan (30 ms)
        for register in _extensions():  # the referee's commands (serve, bot, tournament, demo) when installed
            register(sub)
    args = ap.parse_args(argv)
    try:
        return args.fn(args)
    except (RuleError, OptionError, RecordError, SmearError) as e:
        print(f"smear-dsl: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): what it wanted was printed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error as Python exits
        return 0
