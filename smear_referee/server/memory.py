"""Giving memory back after streams close. A burst of 500 streams touches some 14 MB of the process, and
glibc keeps what they freed in its heaps for reuse: malloc_trim(0) returns the free pages to the system.
Python's free lists (tuples, contexts, lists) keep freed objects of the burst too, and only a full
collection empties them, so each trim collects first (about a millisecond: start-up's objects are frozen).
Trimmed once after start-up (which leaves some 7 MB of freed heap behind), then only after many streams have
closed, so a quiet server never pays for it again. What stays is pymalloc's: a 1 MB arena goes back only
when every small object in it is gone, and a few hundred that outlive a burst (Python's free lists and its
cache of attribute lookups, gRPC's state for its next call and contexts it keeps) hold the burst's arenas; under
PYTHONMALLOC=malloc a survivor holds only its own page
(docs/referee.md: the operator's choice, for some 7% of moves/s)."""
from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smear_referee.metrics import Metrics

EVERY_SECONDS = 5.0
AFTER_CLOSED = 100  # streams closed since the last trim that make another worth it


def malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library has none (musl, macOS)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


async def give_back(metrics: Metrics, every: float = EVERY_SECONDS, after: int = AFTER_CLOSED) -> None:
    """Forever: collect and trim `every` seconds after starting (what start-up freed), then every `every`
    seconds if `after` streams have closed since the last trim, and once more at the next tick if any closed
    while it ran (the tail of a burst: 450 of 500 closed at one tick, 50 at the next)."""
    trim = malloc_trim()
    if trim is None:
        return
    seen: int | None = None
    tail = False  # the last trim came amid closing streams: trim again if more closed since
    while True:
        await asyncio.sleep(every)
        closed = metrics.streams_closed
        if seen is not None and closed - seen < after and not (tail and closed > seen):
            continue
        tail = seen is not None and closed - seen >= after
        seen = closed
        try:
            gc.collect()  # on the loop's thread: finalizers of asyncio objects must not run on another
            await asyncio.to_thread(trim, 0)
        except Exception:  # noqa: BLE001 - memory not given back is no reason to stop serving
            logging.getLogger("smear_dsl.referee").exception("giving memory back failed")
