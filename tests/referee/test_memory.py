"""The referee gives freed heap memory back once many streams have closed (smear_referee.server.memory),
and not before: measured on this process's own RSS with glibc's real allocator."""
from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

from smear_referee.metrics import Metrics
from smear_referee.server.memory import give_back, malloc_trim

pytestmark = pytest.mark.skipif(malloc_trim() is None, reason="the C library has no malloc_trim (not glibc)")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _freed_heap() -> list[bytes]:
    """40 MB of 2 KB blocks from glibc's heap, freed but for a block at the end (so glibc's own trimming
    of the heap's top cannot give them back, as with the buffers of streams that closed)."""
    blocks = [bytes(2048) for _ in range(20_000)]
    keep = [bytes(2048)]
    del blocks
    return keep


def test_memory_freed_by_closed_streams_goes_back_after_enough_of_them_close():
    metrics = Metrics()

    async def run() -> tuple[float, float, float]:
        task = asyncio.ensure_future(give_back(metrics, every=0.05, after=100))
        await asyncio.sleep(0.1)  # it has started, and made its first trim: it counts closed streams from here
        keep = _freed_heap()
        start = rss_mb()
        metrics.streams_closed += 99  # not yet enough closed streams: nothing is trimmed
        await asyncio.sleep(0.3)
        untouched = rss_mb()
        metrics.streams_closed += 1
        await asyncio.sleep(0.5)
        trimmed = rss_mb()
        task.cancel()
        del keep
        return start, untouched, trimmed

    start, untouched, trimmed = asyncio.run(run())
    assert untouched > start - 5, (start, untouched)
    assert trimmed < untouched - 20, (start, untouched, trimmed)


def _around_first_trim() -> tuple[float, float]:
    """This process's RSS before a new give_back starts and after its first trim (made with no stream)."""
    async def run() -> tuple[float, float]:
        start = rss_mb()
        task = asyncio.ensure_future(give_back(Metrics(), every=0.05, after=100))
        await asyncio.sleep(0.5)
        trimmed = rss_mb()
        task.cancel()
        return start, trimmed

    return asyncio.run(run())


def test_what_start_up_freed_goes_back_once_without_any_stream():
    keep = _freed_heap()  # as a server's start-up leaves behind (about 7 MB of it)
    start, trimmed = _around_first_trim()
    del keep
    assert trimmed < start - 20, (start, trimmed)


def test_a_stream_counts_as_closed_when_it_ends_however_it_ends():
    metrics = Metrics()
    with metrics.streaming("watch_table"):
        assert metrics.streams["watch_table"] == 1 and metrics.streams_closed == 0
    with pytest.raises(RuntimeError), metrics.streaming("play"):
        raise RuntimeError("the client went away")
    assert metrics.streams_closed == 2 and metrics.streams == dict.fromkeys(metrics.streams, 0)


def test_the_tail_of_a_burst_is_trimmed_at_the_next_tick_and_only_once():
    metrics = Metrics()

    async def run() -> list[float]:
        task = asyncio.ensure_future(give_back(metrics, every=0.1, after=100))
        await asyncio.sleep(0.15)  # the first trim is done
        metrics.streams_closed += 100  # a burst: trimmed at the next tick
        await asyncio.sleep(0.5)
        keep = _freed_heap()
        readings = [rss_mb()]
        metrics.streams_closed += 10  # its tail, closing after that trim: trimmed once more
        await asyncio.sleep(0.6)  # a tick or more (a loaded machine)
        readings.append(rss_mb())
        keep += _freed_heap()
        readings.append(rss_mb())
        metrics.streams_closed += 10  # a few more, long after the burst: not worth a trim
        await asyncio.sleep(0.6)
        readings.append(rss_mb())
        task.cancel()
        del keep
        return readings

    before_tail, after_tail, freed_again, later = asyncio.run(run())
    assert after_tail < before_tail - 20, (before_tail, after_tail)
    assert later > freed_again - 5, (freed_again, later)


def test_each_trim_collects_first_so_what_only_cycles_held_goes_back():
    """A stream's coroutines, tasks and callbacks hold one another; the blocks they kept alive are freed only
    by a collection, and the trim gives them back only if it comes after that collection."""
    gc.disable()
    try:
        cycles = []
        for _ in range(20_000):  # 40 MB of 2 KB blocks, each held only by a list that holds itself
            c = [bytes(2048)]
            c.append(c)
            cycles.append(c)
        cycles.append([bytes(2048)])  # a live block after them: the heap's top stays
        keep = cycles.pop()
        del cycles, c
        start, trimmed = _around_first_trim()
        del keep
    finally:
        gc.enable()
    assert trimmed < start - 20, (start, trimmed)
