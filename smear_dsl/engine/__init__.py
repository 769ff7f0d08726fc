"""The game engine: deals, whose turn, legal moves, applying moves; scoring is scoring.py's and
what a seat sees is view.py's.

Hands are int bitsets and moves small ints (see moves.py). A refused move raises MoveError with
a RECORD_FORMAT.md code and leaves the state exactly as it was: every check happens before
anything changes. `Game` (game.py: dealing, queries, applying a move, the end of a hand) is put
together from the parts of a hand, each in its own module: bidding.py, begging.py, steps.py (the phases
between bidding and play) and play.py.
"""
from __future__ import annotations

from smear_dsl.engine.constants import BEG, BIDDING, HAND_DONE, PHASE_NAMES, PLAY, STEP
from smear_dsl.engine.game import Game
from smear_dsl.engine.scoring import HandResult

__all__ = ["BEG", "BIDDING", "HAND_DONE", "PHASE_NAMES", "PLAY", "STEP", "Game", "HandResult"]
