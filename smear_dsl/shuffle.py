"""The keyed shuffle every table deals with, documented so anyone can re-deal from a seed.

Algorithm (smear keyed shuffle 1): for a deck of n cards (ids in the rule file's deck order),
draw `rng.getrandbits(64 * n)` and cut it into n little-endian 64-bit words; word i is the
key of the i-th card, with its low byte replaced by that card's id. The shuffled deck is the
cards in ascending key order. Keys are 56 random bits, so ties (chance about n^2 / 2^57)
are negligible and still broken deterministically, by card id. The sort runs in C.
"""
from __future__ import annotations

import random
import sys
from array import array
from functools import lru_cache


# A native 64-bit word: bytes in native order make each 8-byte word one key; the low byte is
# at offset 0 of a word on little-endian machines and at offset 7 on big-endian ones.
_LOW = 0 if sys.byteorder == "little" else 7
assert array("Q").itemsize == 8


@lru_cache(maxsize=64)
def _masks(deck: tuple[int, ...]) -> tuple[int, int]:
    n = len(deck)
    high = sum(0xFFFF_FFFF_FFFF_FF00 << (64 * i) for i in range(n))
    ids = sum(c << (64 * i) for i, c in enumerate(deck))
    return high, ids


def keyed_shuffle(rng: random.Random, deck: tuple[int, ...]) -> bytes:
    """The deck in shuffled order (card ids, all below 256), drawing 64 bits per card from `rng`."""
    n = len(deck)
    if n == 0:
        return b""
    high, ids = _masks(deck)
    words = ((rng.getrandbits(64 * n) & high) | ids).to_bytes(8 * n, sys.byteorder)
    keys = memoryview(words).cast("Q").tolist()  # the same n key values on any byte order
    keys.sort()
    return array("Q", keys).tobytes()[_LOW::8]
