"""Bot games spread over worker processes (`--jobs`), with the same results for the same seed
whatever the number of jobs: each game is played from its own seed alone, in whichever process,
and the results come back in game order.

A worker compiles the rules once from the rule file's path, players and options (compiled rules
hold closures, which do not travel between processes); rules that have no file (text checked in
memory) are played in this process.
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.compiler import compile_rules

_RULES: CompiledRules | None = None  # a worker's compiled rules (see _start)


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def jobs_option(jobs: int | None) -> int:
    """The `--jobs N` flag: N worker processes; absent or 0, one per core."""
    from smear_dsl.errors import OptionError
    if jobs is not None and jobs < 0:
        raise OptionError(f"--jobs is a number of processes (0: one per core), not {jobs}")
    return default_jobs() if not jobs else jobs


def run_games(rules: CompiledRules, task: Callable[..., Any], games: int, args: tuple = (), jobs: int = 1,
              on_chunk: Callable[[int], None] | None = None) -> list[Any]:
    """[task(rules, i, *args) for i in range(games)], on `jobs` processes; `on_chunk(n)` after each n
    games (for a progress bar). `task` must be a module-level function (it is sent by name)."""
    out: list[Any] = []
    for n, results in _chunks(rules, task, games, args, jobs):
        out += results
        if on_chunk is not None:
            on_chunk(n)
    return out


def _chunks(rules, task, games, args, jobs) -> Iterator[tuple[int, list[Any]]]:
    if jobs <= 1 or games < 2 or not os.path.isfile(rules.spec.path):
        for i in range(games):
            yield 1, [task(rules, i, *args)]
        return
    size = max(1, min(200, games // (jobs * 8)))  # small enough to balance, large enough to be cheap to send
    spans = [range(k, min(games, k + size)) for k in range(0, games, size)]
    recipe = (rules.spec.path, rules.players, dict(rules.options))
    ctx = multiprocessing.get_context("spawn")  # no fork of a process that may run threads
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start, initargs=recipe) as pool:
        for span, results in zip(spans, pool.map(_run_span, ((task, span, args) for span in spans))):
            yield len(span), results


def _start(path: str, players: int, options: dict) -> None:
    global _RULES
    from smear_dsl.language.load import load_spec
    _RULES = compile_rules(load_spec(path), players, options)


def _run_span(job: tuple[Callable[..., Any], Iterable[int], tuple]) -> list[Any]:
    task, span, args = job
    return [task(_RULES, i, *args) for i in span]
