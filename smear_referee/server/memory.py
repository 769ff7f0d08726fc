"""Giving memory back after streams close. A burst of 500 streams touches some 14 MB of the process, and
glibc keeps what they freed in its heaps for reuse: malloc_trim(0) returns the free pages to the system.
Python's free lists (tuples, contexts, lists) keep freed objects of the burst too, and only a full
collection empties them, so each trim collects first (about a millisecond: start-up's objects are frozen).
Trimmed once after start-up (which leaves some 7 MB of freed heap behind), then only after many streams have
closed, so a quiet server never pays for it again. What stays is pymalloc's: a 1 MB arena goes back only
when every small object in it is gone, and a few hundred that outlive a burst (Python's free lists and its
cache of attribute lookups, gRPC's state for its next call and contexts it keeps) hold the burst's arenas;
under PYTHONMALLOC=malloc a survivor holds only its own page (docs/referee.md: the operator's choice, for
some 7% of moves/s)."""
from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass
class TrimSchedule:
    """When memory is worth giving back, told the count of streams closed so far at each tick: at the first
    tick (what start-up freed), then once `after` streams have closed since the last trim, and once more at
    the next tick if any closed meanwhile (the tail of a burst: 450 of 500 closed at one tick, 50 at the
    next). No clock and no allocator here: give_back asks it every tick."""

    after: int = AFTER_CLOSED
    seen: int | None = None  # streams closed at the last trim (None: none yet)
    tail: bool = False  # the last trim came amid closing streams: trim again if more closed since

    def due(self, closed: int) -> bool:
        seen = self.seen
        if seen is not None and closed - seen < self.after and not (self.tail and closed > seen):
            return False
        self.tail = seen is not None and closed - seen >= self.after
        self.seen = closed
        return True


def trim_now(trim: Callable[[int], int]) -> None:
    """Collect, then give the free heap back (on the loop's thread, the collection: finalizers of asyncio
    objects must not run on another; the trim itself may run anywhere)."""
    gc.collect()
    trim(0)


async def give_back(metrics: Metrics, every: float = EVERY_SECONDS, after: int = AFTER_CLOSED,
                    trim: Callable[[int], int] | None = None) -> None:
    """Forever: every `every` seconds, collect and trim when the TrimSchedule says so (`trim`: glibc's
    malloc_trim unless given)."""
    trim = trim or malloc_trim()
    if trim is None:
        return
    schedule = TrimSchedule(after)
    while True:
        await asyncio.sleep(every)
        if not schedule.due(metrics.streams_closed):
            continue
        try:
            gc.collect()  # on the loop's thread: finalizers of asyncio objects must not run on another
            await asyncio.to_thread(trim, 0)
        except Exception:  # noqa: BLE001 - memory not given back is no reason to stop serving
            logging.getLogger("smear_dsl.referee").exception("giving memory back failed")
