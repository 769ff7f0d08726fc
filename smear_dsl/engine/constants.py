"""What the engine's parts share: the phases of a hand, and constants read on the hot paths."""
from __future__ import annotations

from smear_dsl import moves as M

_BIT = tuple(1 << c for c in range(64)).__getitem__  # card id -> its bit
_PASS, _BID_BASE, _TRUMP_BASE = M.PASS, M.BID_BASE, M.TRUMP_BASE  # read as globals on the bidding fast path

# Phases of a hand (BEG: begging, in place of the bidding).
BIDDING, STEP, PLAY, HAND_DONE, BEG = 0, 1, 2, 3, 4
# What views and clients call them (a step is named by its action: discard, trump): Game.phase_name.
PHASE_NAMES = {BIDDING: "bidding", PLAY: "play", BEG: "begging"}
