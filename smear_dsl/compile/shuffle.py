"""The keyed shuffle every table deals with, documented so anyone can re-deal from a seed.

Algorithm (smear keyed shuffle 1): for a deck of n cards (ids in the rule file's deck order),
draw `rng.getrandbits(64 * n)` and cut it into n 64-bit words, word i holding bits
64*i .. 64*i+63; word i is the key of the i-th card once its top 12 bits are set to
0x3FF and its low 8 bits to the card's id. Read as IEEE-754 doubles the keys lie in
[1, 2) and order exactly as their 44 random bits (then the id) do; the shuffled deck is
the cards in ascending key order. Ties (chance about n^2 / 2^45) are broken by card id.
Doubles are used because Python sorts them in C far faster than big ints.
"""
from __future__ import annotations

import struct
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # the engine passes its Random in: compiling rules (`check`) never imports random
    import random

# The low byte of a native double (or 64-bit word) sits at offset 0 on little-endian machines
# and at offset 7 on big-endian ones; bytes in native order make each 8-byte word one key.
_LOW = 0 if sys.byteorder == "little" else 7


class ShufflePlan(NamedTuple):
    """What a deck's shuffle precomputes: the random-bit mask and fixed bits over all n words,
    and the struct that reads the words as n native doubles (and writes them back)."""

    random_bits: int
    fixed: int
    doubles: struct.Struct


@lru_cache(maxsize=64)
def shuffle_plan(deck: tuple[int, ...]) -> ShufflePlan:
    """The deck's ShufflePlan: precompute once per deck."""
    n = len(deck)
    if any(not 0 <= c < 256 for c in deck):
        raise ValueError("card ids must fit in a byte")
    random_bits = sum(0x000F_FFFF_FFFF_FF00 << (64 * i) for i in range(n))
    fixed = sum((0x3FF0_0000_0000_0000 | c) << (64 * i) for i, c in enumerate(deck))
    return ShufflePlan(random_bits, fixed, struct.Struct(f"={n}d"))


def keyed_shuffle(rng: random.Random, deck: tuple[int, ...], plan: ShufflePlan | None = None) -> bytes:
    """The deck in shuffled order (card ids), drawing 64 bits per card from `rng`."""
    n = len(deck)
    if n == 0:
        return b""
    random_bits, fixed, doubles = plan if plan is not None else shuffle_plan(deck)
    words = ((rng.getrandbits(64 * n) & random_bits) | fixed).to_bytes(8 * n, sys.byteorder)
    return doubles.pack(*sorted(doubles.unpack(words)))[_LOW::8]
