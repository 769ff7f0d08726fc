"""What every part of Game reads and sets, declared once: Game is put together from parts (bidding.py,
begging.py, steps.py, discards.py, play.py, snapshot.py, worlds.py), each a class of methods over the
same state. Each part derives from HandState, so a type checker knows the state and the other parts'
methods it calls; at run time the declarations cost nothing (annotations and TYPE_CHECKING only).
Game.__init__ and Game._new_hand set every field."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smear_dsl.compile.compiled import CompiledRules
    from smear_dsl.engine.scoring import HandResult
    from smear_dsl.errors import Said


class HandState:
    """The state of a game and of its hand in progress (see Game for what each field means)."""

    # ---- the game
    rules: CompiledRules
    n: int
    seed: int | str | None
    rng: random.Random
    deal_source: Any
    hand_limit: int | None
    auto_deal: bool
    first_dealer: int
    dealer: int
    scores: list[int]
    finished: bool
    winner: int | None
    ended_by: str | None
    results: list[HandResult]
    record_hands: list[Any]
    keep_boundary: bool
    boundary: dict[str, Any] | None
    # ---- the hand
    phase: int
    turn: int
    hands: list[int]
    dealt: list[int]
    stock: list[int]
    bids: list[tuple[int, int]]
    high: int
    bidder: int
    namer: int
    passed: list[bool]
    spoken: int
    discarded: list[int]
    credit: list[int]
    trump: int
    turn_card: int
    gift_side: int
    turned_down: list[int]  # (an empty tuple until begging sets cards aside)
    trick: list[int]
    trick_leader: int
    trick_no: int
    tricks: list[tuple[int, int, list[int]]]
    led: int
    led_mask: int
    lead_free: bool
    follow_ok: int
    trick_key: Any
    played: int
    held: list[int]
    hand_moves: list[tuple[int, int]]
    step: int
    queue: list[int] | None
    drawn: list[tuple[int, int]]  # (an empty tuple until the hand's first entry: Game._public_log)
    shown: list[tuple[int, int]]
    public_hand: int
    # ---- caches (engine/discards.py, engine/play.py)
    _plan_memo: tuple[Any, ...] | None
    _lead_memo: tuple[Any, ...] | None
    _lead_memo_plans: tuple[Any, ...] | None
    _follow_memo: tuple[Any, ...] | None
    _sampled: tuple[Any, ...] | None

    def _queue(self) -> list[int]:
        """The seats still to act in the step running now (the queue is None between steps)."""
        queue = self.queue
        assert queue is not None, "no step is running"
        return queue

    if TYPE_CHECKING:  # the parts' methods one part calls of another (defined in the module named)
        def start_hand(self, deal: tuple[list[list[int]], list[int]] | None = None) -> None: ...  # game
        def forget_caches(self) -> None: ...  # game
        def legal_moves(self) -> list[int]: ...  # game
        def check_turn(self, seat: int, action: str) -> None: ...  # game
        def _log(self, seat: int, code: int) -> None: ...  # game
        def _public_log(self) -> None: ...  # game
        def _end_void(self, same_dealer: bool) -> None: ...  # game
        def _finish_void(self, delta: list[int], same_dealer: bool) -> None: ...  # game
        def _score_hand(self) -> None: ...  # game
        def _record_result(self, result: HandResult, winner: int | None) -> None: ...  # game
        def _legal_bids(self) -> list[int] | tuple[int, ...]: ...  # bidding
        def _end_bidding(self) -> None: ...  # bidding
        def step_env(self, seat: int) -> dict[str, Any]: ...  # steps
        def lead_error(self, seat: int, mask: int) -> Said | None: ...  # steps
        def any_discard(self, seat: int, most: int = 100_000) -> int: ...  # steps
        def _discardable(self, seat: int, env: dict[str, Any] | None = None) -> int: ...  # steps
        def _discard_range(self, seat: int, env: dict[str, Any] | None = None) -> tuple[int, int]: ...  # steps
        def _advance_steps(self) -> None: ...  # steps
        def _plan(self, seat: int) -> tuple[int, int, int, list[int], list[tuple[int, ...]]]: ...  # discards
        def _known_legal(self, seat: int, mask: int) -> bool: ...  # discards
        def _lead_binds(self, seat: int) -> bool: ...  # discards
        def sample_discard(self, seat: int, rng: random.Random) -> int | None: ...  # discards
        def _start_play(self) -> None: ...  # play
        def taken(self) -> list[int]: ...  # play
        def _first_leader(self) -> int: ...  # play
        def _lead_mask(self, seat: int, hand: int, discarded: int, trick_no: int) -> int: ...  # play
        def _any_lead(self, hand: int) -> int: ...  # play
