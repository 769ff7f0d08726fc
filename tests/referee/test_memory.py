"""The referee gives freed heap memory back once many streams have closed (smear_referee.server.memory),
and not before: when, by its schedule (no clock); what, measured on this process's own RSS with glibc's
real allocator, synchronously, so no verdict waits on the machine's speed."""
from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

from smear_referee.metrics import Metrics
from smear_referee.server.memory import TrimSchedule, give_back, malloc_trim, trim_now

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


def test_what_a_trim_gives_back_is_the_free_heap():
    """What start-up (or a burst of streams) freed goes back at a trim: measured on this process's RSS,
    with no clock involved (when a trim comes is the schedule's, below)."""
    keep = _freed_heap()  # as a server's start-up leaves behind (about 7 MB of it), and more
    start = rss_mb()
    trim_now(malloc_trim())
    trimmed = rss_mb()
    del keep
    assert trimmed < start - 20, (start, trimmed)


def test_the_schedule_trims_at_start_then_only_after_enough_streams_closed():
    schedule = TrimSchedule(after=100)
    assert schedule.due(0)  # the first tick: what start-up freed
    assert not schedule.due(0) and not schedule.due(99)  # a quiet server never pays for it again
    assert schedule.due(100)  # 100 closed since the last trim
    assert not schedule.due(100)


def test_the_tail_of_a_burst_is_trimmed_at_the_next_tick_and_only_once():
    schedule = TrimSchedule(after=100)
    assert schedule.due(0)
    assert schedule.due(450)  # a burst: 450 closed at one tick
    assert schedule.due(500)  # its tail, closing after that trim: trimmed once more
    assert not schedule.due(510)  # a few more, long after the burst: not worth a trim
    assert not schedule.due(520)
    assert schedule.due(620)


def test_a_burst_that_ends_by_one_tick_is_trimmed_once():
    schedule = TrimSchedule(after=100)
    assert schedule.due(0) and schedule.due(300)
    assert not schedule.due(300)  # nothing closed since: no tail to trim


def test_the_server_loop_trims_when_its_schedule_says():
    """give_back on a running loop: a trim at start-up, the next once enough streams closed (each trim the
    real malloc_trim, counted). Waits for events, not for a time: a slow machine only makes it slower."""
    metrics, trims = Metrics(), []
    real = malloc_trim()

    async def run() -> None:
        trimmed = asyncio.Event()

        def counted(pad: int) -> int:
            trims.append(metrics.streams_closed)
            loop.call_soon_threadsafe(trimmed.set)
            return real(pad)
        loop = asyncio.get_running_loop()
        task = asyncio.ensure_future(give_back(metrics, every=0.01, after=100, trim=counted))
        await asyncio.wait_for(trimmed.wait(), 60)
        trimmed.clear()
        assert trims == [0]
        metrics.streams_closed += 100
        await asyncio.wait_for(trimmed.wait(), 60)
        task.cancel()

    asyncio.run(run())
    assert trims == [0, 100]


def test_a_stream_counts_as_closed_when_it_ends_however_it_ends():
    metrics = Metrics()
    with metrics.streaming("watch_table"):
        assert metrics.streams["watch_table"] == 1 and metrics.streams_closed == 0
    with pytest.raises(RuntimeError), metrics.streaming("play"):
        raise RuntimeError("the client went away")
    assert metrics.streams_closed == 2 and metrics.streams == dict.fromkeys(metrics.streams, 0)


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
        start = rss_mb()
        trim_now(malloc_trim())
        trimmed = rss_mb()
        del keep
    finally:
        gc.enable()
    assert trimmed < start - 20, (start, trimmed)
