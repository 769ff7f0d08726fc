"""The `smear-dsl` command: check, verify, simulate, play, demo."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import OptionError, RecordError, RuleError, SmearError


def _read_json(path: str) -> Any:
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
    from .record import verify
    worst = 0
    for path in args.records:
        try:
            verdict = verify(_read_json(path))
            status = 0 if verdict["valid"] else 1
        except RecordError as e:
            print(f"{path}: {e}", file=sys.stderr)
            verdict = {"valid": False, "finished": False, "winner": None, "scores": [], "hands": [],
                       "error": {"hand": None, "move": None, "code": "BAD_RECORD", "message": str(e)}}
            status = 2
        except RecursionError:
            print(f"{path}: record nests too deeply", file=sys.stderr)
            verdict, status = None, 2
        if len(args.records) == 1:
            if verdict is not None:
                print(json.dumps(verdict, indent=None if args.compact else 1))
        else:
            print(json.dumps(verdict))
        worst = max(worst, status)
    return worst


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="smear-dsl", description="Rule language, engine and referee for the Smear family.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("verify", help="re-referee smear-record/1 game records and print verdicts")
    v.add_argument("records", nargs="+", help="record files, or - for standard input")
    v.add_argument("--compact", action="store_true", help="one line per verdict even for a single record")
    v.set_defaults(fn=cmd_verify)
    args = ap.parse_args(argv)
    try:
        return args.fn(args)
    except (RuleError, OptionError, RecordError, SmearError) as e:
        print(f"smear-dsl: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
