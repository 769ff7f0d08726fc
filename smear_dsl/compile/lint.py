"""Static checks that need a compiled table: rules that check clean but can never work as meant.

A point whose card is never in the deck, a bid no hand can make, a `win_if` no score can meet
are errors; a `made` that no hand can fail and a point name that looks like a misspelling of a
standard one are warnings. The formulas are tried on a small grid of every figure they read
(points won, tricks, the bidder's flags, each point won or not), so a rule that holds for none
of them holds for no hand.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.errors import Diagnostic, RuleError
from smear_dsl.language.inherited import own_lines
from smear_dsl.language.langversion import split
from smear_dsl.language.paths import shipped_dir
from smear_dsl.language.spec import RuleSpec

_POINTS_BLOCK = re.compile(r"^points:[ \t]*\n((?:[ \t]+[^\n]*\n|[ \t]*#[^\n]*\n|[ \t]*\n)*)", re.M)
_POINT_KEY = re.compile(r"^([ \t]+)([A-Za-z_][A-Za-z0-9_]*)[ \t]*:", re.M)


@lru_cache(maxsize=1)
def standard_points() -> frozenset[str]:
    """The point names the shipped family uses (read from the files, so no variant is named here);
    a name close to one of these but not it is likely a slip. The shipped files write `points:` as
    a block of `name: {...}` lines, read with a pattern: parsing every file as YAML cost `check`
    a fifth of a second (tests/language/test_parser_startup.py holds the two readings equal)."""
    names: set[str] = set()
    for path in shipped_dir().glob("*.yaml"):
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        for block in _POINTS_BLOCK.findall(text):
            keys = _POINT_KEY.findall(block)
            names |= {name for indent, name in keys if indent == keys[0][0]}  # the block's own keys, not nested ones
    return frozenset(names)


def _envs(r: CompiledRules, bid: int, bidder: bool, most_first: bool = False) -> Iterator[dict[str, Any]]:
    """Every combination of the figures a scoring formula reads, over a grid that covers their
    edges: each point total, no trick to every trick, dealer or not, all points won or none;
    `most_first`: the most points first (a search for a hand that makes a bid ends sooner)."""
    total = sum(r.points.values)
    tricks = sorted({0, 1, r.deal.hand_size - 1, r.deal.hand_size})
    names = [name for _i, name in r.points.reads]
    totals = range(total, -1, -1) if most_first else range(total + 1)
    for points, t, dealer, won in itertools.product(totals, tricks, (False, True), (False, True)):
        env = {"bid": bid, "points": points, "tricks": t, "total_tricks": r.deal.hand_size, "bidder_tricks": t,
               "score": 0, "target": r.end.target, "dealer": dealer, "bidder": bidder}
        env.update({name: won for name in names})
        yield env


def never_made(r: CompiledRules) -> list[int]:
    """The bids in the range that no hand can make."""
    if r.bidding.none or r.scoring.made is None:
        return []
    return [b for b in range(r.bidding.min, r.bidding.max + 1)
            if not any(r.scoring.made(env) for env in _envs(r, b, True, most_first=True))]


def always_made(r: CompiledRules) -> bool:
    """Whether every bid is made whatever the hand (a bidder could never be set)."""
    if r.bidding.none or r.scoring.made is None:
        return False
    return all(r.scoring.made(env) for b in (r.bidding.min, r.bidding.max) for env in _envs(r, b, True))


def never_wins(r: CompiledRules) -> bool:
    """Whether no side can ever meet `win_if`, at any score up to twice the target (the bidder's side having
    made its bid tried first: a rule that lets anyone win lets them, and the search ends there)."""
    for bid, bidder, made in itertools.product({r.bidding.min, r.bidding.max}, (True, False), (True, False)):
        for env in _envs(r, bid, bidder):
            env["made"] = made
            for score in (r.end.target - 1, r.end.target, 2 * r.end.target, -r.end.target):
                env.update(score=score, previous=score - 1, delta=1)
                if r.end.win_if(env):
                    return False
    return True


def compile_checked(spec: RuleSpec, players: int | None, options: dict[str, Any]) -> CompiledRules:
    """The rules compiled for one table, refusing (RuleError) what `check` refuses for that setup (a bid
    no hand can make, a point whose card is not in the deck, a game no side can win): simulate, play,
    verify and the referee accept and refuse the same files as check."""
    r = compile_rules(spec, players, options)
    problems = split(setup_problems(spec, r), spec.language)[0]
    if problems:
        raise RuleError(problems)
    return r


def setup_problems(spec: RuleSpec, r: CompiledRules) -> list[Diagnostic]:
    """The errors of one table setup (a seat count and option values), each refusing files from
    language 2 on (langversion.py: an older file gets them as warnings and plays as before)."""
    return [dataclasses.replace(d, since=2) for d in _setup_problems(spec, r)]


def _setup_problems(spec: RuleSpec, r: CompiledRules) -> list[Diagnostic]:
    out = []
    for p, cp in zip(spec.points, r.points.entries):
        if cp.by_trump is not None and not any(c is not None and c >= 0 and (r.deck.mask >> c) & 1 for c in cp.by_trump):
            card = p.card.text if p.card is not None else p.name
            out.append((p.card.loc if p.card is not None else p.loc).diag(
                             f"point `{p.name}`: `{card}` is not in this deck, so nobody can ever win it",
                             "name a card of the deck (deck.ranks, deck.remove, deck.jokers)"))
    top, made = spec.bidding.max, spec.scoring.made
    if spec.bidding.min is not None and top is not None and made is not None:
        bad = never_made(r)
        if bad:
            ranges = (" or ".join(map(str, bad)) if len(bad) < 3 else f"{bad[0]} to {bad[-1]}"
                      if bad == list(range(bad[0], bad[-1] + 1)) else ", ".join(map(str, bad)))
            out.append(top.loc.diag(f"a bid of {ranges} can never be made: the hand awards "
                             f"{sum(r.points.values)} points in all and `made` ({made.text}) "
                             "holds for no hand at that bid",
                             "lower bidding.max, or award more points"))
    if never_wins(r):
        out.append(spec.end.win_if.loc.diag(f"no side can ever win: `win_if` ({spec.end.win_if.text}) holds at "
                         "no score", "compare the score with the target, e.g. `score >= target`"))
    return out


def likely_mistakes(spec: RuleSpec, r: CompiledRules) -> list[Diagnostic]:
    """What is likely a mistake, though the file plays."""
    out = []
    for p in spec.points:
        if p.name not in standard_points():
            import difflib  # only for a name that is not a standard one
            close = difflib.get_close_matches(p.name, sorted(standard_points()), n=1, cutoff=0.75)
            if close:
                out.append(p.loc.diag(f"point `{p.name}` looks like a misspelling of `{close[0]}`",
                                 f"the usual name is `{close[0]}` (names show in verdicts and explain)", "warning"))
    made = spec.scoring.made
    if made is not None and always_made(r):
        out.append(made.loc.diag(f"`made` ({made.text}) holds whatever the hand: a bidder "
                         "can never be set", "compare the points with the bid, e.g. `points >= bid`", "warning"))
    return out


def check_all_setups(spec: RuleSpec, limit: int = 64, warnings: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """Compile for every allowed seat count and representative option values; collect impossible setups
    (and, into `warnings` if given, what is likely a mistake though it plays: likely_mistakes)."""
    domains = [[(o.name, v) for v in o.domain()] for o in spec.options]
    combos = list(itertools.islice(itertools.product(*domains), limit))
    seen: dict[tuple[Any, ...], Diagnostic] = {}
    for players in spec.players:
        for combo in combos:
            try:
                r = compile_rules(spec, players, dict(combo))
                problems, later = split(setup_problems(spec, r), spec.language)
                if warnings is not None:
                    warnings += [w for w in [*spec.later, *r.later, *later, *likely_mistakes(spec, r)]
                                 if w not in warnings]
                if problems:
                    raise RuleError(problems)
            except RuleError as e:
                for d in own_lines(e.diagnostics, spec.path, spec.text or ""):
                    there = d.inherited
                    key = (d.path, d.line, d.col, d.message, there and (there.path, there.line, there.col))
                    if key not in seen:
                        where = f" (with {players} players" + "".join(f", {k}={v}" for k, v in combo) + ")"
                        seen[key] = dataclasses.replace(d, message=d.message + where)
    return list(seen.values())
