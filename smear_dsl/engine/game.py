"""The game engine: deals, whose turn, legal moves, applying moves (scoring: scoring.py).

Hands are int bitsets and moves small ints (see moves.py). A refused move raises
MoveError with a RECORD_FORMAT.md code and leaves the state exactly as it was: every
check happens before anything changes.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.shuffle import keyed_shuffle
from smear_dsl.engine.begging import Begging
from smear_dsl.engine.bidding import Bidding
from smear_dsl.engine.constants import (
    _BID_BASE,
    _BIT,
    _PASS,
    _TRUMP_BASE,
    BEG,
    BIDDING,
    HAND_DONE,
    PHASE_NAMES,
    PLAY,
    STEP,
)
from smear_dsl.engine.discards import Discards
from smear_dsl.engine.play import Play
from smear_dsl.engine.scoring import HandResult, award, score_hand
from smear_dsl.engine.snapshot import Snapshots, between_hands
from smear_dsl.engine.steps import Steps
from smear_dsl.engine.view import SeatView, seat_view
from smear_dsl.engine.worlds import Worlds
from smear_dsl.errors import MoveError
from smear_dsl.i18n import N_, CardWord, Phrase, SuitWord

# What the hand waits for, and what was sent instead, for WRONG_PHASE (said in the player's language).
NEEDS = {"bid": N_("a bid or a pass"), "discard": N_("a discard"), "trump": N_("naming trump"),
         "play": N_("playing a card"), "choose": N_("a choice (stand or beg; give or run)")}
ACTIONS = {"bid": N_("a bid"), "pass": N_("a pass"), "discard": N_("a discard"), "trump": N_("naming trump"),
           "play": N_("a play"), "choose": N_("a choice")}


class Game(Bidding, Begging, Steps, Discards, Play, Snapshots, Worlds):
    """One game at one table. `Game(rules, seed=...)` deals itself; `auto_deal=False` waits for `start_hand(deal)`."""

    # (seat, card) drawn from the stock during the play, and (seat, cards) of face-up discards, in the
    # hand `public_hand` (an index into record_hands). Class-level empty defaults, set on a game only
    # by its first draw or face-up discard (see `_public_log`), so the common game never touches them.
    # (Empty tuples, not lists: an append before _public_log fails loudly instead of writing a class list.)
    drawn: list[tuple[int, int]] = ()  # type: ignore[assignment]
    shown: list[tuple[int, int]] = ()  # type: ignore[assignment]
    public_hand = -1
    # A server's game (keep_boundary = True) notes its state between hands, just before each
    # deal (engine/snapshot.py), so a table can be saved there and rebuilt without its history.
    keep_boundary = False
    boundary: dict[str, Any] | None = None

    def _public_log(self) -> None:
        """Start this hand's draw and face-up discard logs, if this is the hand's first entry."""
        if self.public_hand != len(self.record_hands):
            self.drawn, self.shown, self.public_hand = [], [], len(self.record_hands)

    def public_log(self) -> tuple[Sequence[tuple[int, int]], Sequence[tuple[int, int]]]:
        """This hand's draws during the play and face-up discards (empty for an earlier hand's)."""
        return (self.drawn, self.shown) if self.public_hand == len(self.record_hands) else ((), ())

    def __new__(cls, rules: CompiledRules | None = None, *args: Any, **kwargs: Any) -> Game:
        """A game under rules whose hands draw in the play is an ExtrasGame (uneven hands without draws
        are watched by Game.apply itself), one with follow rules a FollowGame, one with both an
        ExtrasFollowGame (below), so each rule file pays only for its own features and the common
        case keeps its inlined play path bare."""
        if cls is Game and rules is not None:
            extras = rules.play.draw_in_play
            if rules.play.follow_checks:
                cls = ExtrasFollowGame if extras else FollowGame
            elif extras:
                cls = ExtrasGame
        return super().__new__(cls)

    def __init__(self, rules: CompiledRules, seed: int | str | None = None, first_dealer: int | None = None,
                 auto_deal: bool = True, deal_source: Any = None, hand_limit: int | None = None,
                 keep_boundary: bool = False):
        """`deal_source(k)`, if given, supplies hand k's deal (duplicate boards) instead of the shuffle;
        with `hand_limit` (a tournament played by hands) the game ends after that many hands,
        won by the unique highest score (a tie: no winner); `keep_boundary`: a server's game, which
        notes its state between hands (engine/snapshot.py)."""
        self.rules = rules
        self.deal_source = deal_source
        self.hand_limit = hand_limit
        self.n = rules.players
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        self.first_dealer = first_dealer if first_dealer is not None else self.rng.randrange(self.n)
        self.dealer = self.first_dealer
        self.scores = [0] * rules.n_sides
        self.finished = False
        self.winner: int | None = None
        self.ended_by: str | None = None  # once finished: "rules" (a side won), "hand_limit" or "abandoned"
        self.results: list[HandResult] = []
        self.record_hands: list[Any] = []  # per hand (dealer, hands, stock, moves); None for one restored past
        self.auto_deal = auto_deal
        if keep_boundary:
            self.keep_boundary = True
        self._new_hand([0] * self.n, [])
        self._compacted = self._compacted_results = 0  # hands and results compact_history has frozen
        # Set before each use (a lead, the phases, the start of play), so a new hand need not reset them.
        self.trick_leader = -1
        self.led = -1
        self.led_mask = 0
        self.follow_ok = 0
        self.trick_key = None  # the led suit's trick strength lookup (card -> key), set by each lead
        self.step = 0
        self.queue: list[int] | None = None
        self.held = [0] * self.n  # each seat's cards when play starts
        self.phase = HAND_DONE
        self.turn = -1
        if auto_deal:
            self.start_hand()

    # ------------------------------------------------------------------ dealing
    def _new_hand(self, hands: list[int], stock: list[int]) -> None:
        """Every per-hand attribute, set whole: for each deal, and (empty) when the game is created,
        so a game before its first deal has them too and nothing needs to ask whether they exist."""
        n = self.n
        self.hands = hands  # each seat's cards, a bitset
        self.dealt = list(hands)
        self.stock = stock
        self.bids: list[tuple[int, int]] = []  # (seat, value or 0 for pass)
        self.high = 0
        self.bidder = -1
        self.namer = -1  # the seat that named trump (a name_trump phase), -1 until one does
        self.passed = [False] * n
        self.spoken = 0
        self.discarded = [0] * n
        self.credit = [0] * self.rules.n_sides
        self.trump = -1
        self.trick: list[int] = []  # cards of the trick in progress, in play order from `trick_leader`
        self.lead_free = False  # True once any card may be led without checks (trump known, no lead rule left)
        self.trick_no = 0
        self.tricks: list[tuple[int, int, list[int]]] = []  # (leader, winner, cards in play order)
        self.played = 0  # every card played this hand, the trick in progress too (bots read it)
        self.hand_moves: list[tuple[int, int]] = []  # (seat, move code); names are made on export
        self.forget_caches()

    def start_hand(self, deal: tuple[list[list[int]], list[int]] | None = None) -> None:
        """Begin the next hand with the given deal (card ids) or a fresh shuffle."""
        if self.finished:
            raise MoveError("GAME_OVER", "the game is over")
        r = self.rules
        if deal is None and self.deal_source is None:
            # Shuffle (shuffle.py's keyed shuffle) and deal in packets clockwise from the dealer's left.
            hands, stock = r.split_deal(keyed_shuffle(self.rng, r.deck.cards, r.deal.shuffle_plan), self.dealer)
            masks = [sum(map(_BIT, h)) for h in hands]  # a shuffled deal has no repeated card: sum is union
        else:
            hands, stock = self.deal_source(len(self.record_hands)) if deal is None else deal
            hands, stock = [list(h) for h in hands], list(stock)
            masks = [C.mask_of(h) for h in hands]
        self._new_hand(masks, stock)
        n = self.n
        # The record keeps the stock as dealt; a copy only if phases will draw from it.
        self.record_hands.append((self.dealer, hands, list(stock) if r.deal.draws_stock else stock, self.hand_moves))
        self.phase = BIDDING
        self.turn = (self.dealer + 1) % n
        if r.deal.turn_up:  # the stock's top card shows trump (the compiler made sure a stock is there)
            self.turn_card = stock[0]
            self.trump = C.suit_of(stock[0])
        if r.deal.redeal_if is not None:
            env = {"trump": self.trump}
            for seat in range(n):
                env["hand"] = self.hands[seat]
                if r.deal.redeal_if(env):
                    self._end_void(same_dealer=True)
                    return
        if r.bidding.beg_run:
            self._start_beg()
        elif r.bidding.none and not self._won_before_play():
            self._end_bidding()

    def forget_caches(self) -> None:
        """Drop what is kept only to answer again faster: the last lead mask found
        (((seat, hand, discarded, trick, trump), mask)), the last follow mask (the same for a follow),
        the last discard's plan and its plans by suit ((key, plan): random_move, a bot and apply each
        look at the same discard), and the last discard sampled as legal."""
        self._lead_memo: tuple[Any, ...] | None = None
        self._follow_memo: tuple[Any, ...] | None = None
        self._plan_memo: tuple[Any, ...] | None = None
        self._lead_memo_plans: tuple[Any, ...] | None = None
        self._sampled: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ queries
    @property
    def hand_over(self) -> bool:
        return self.phase == HAND_DONE

    def expected_action(self) -> str | None:
        """The action the hand waits for: bid (pass or bid), choose (begging), discard, trump, play; None between hands."""
        if self.phase == BIDDING:
            return "bid"
        if self.phase == BEG:
            return "choose"
        if self.phase == STEP:
            return self._step_action()
        if self.phase == PLAY:
            return "play"
        return None

    def _step_action(self) -> str:
        """The action the running step waits for: trump (naming it in turn) or discard."""
        return "trump" if self.rules.play.steps[self.step].kind == "name_trump" else "discard"

    @property
    def phase_name(self) -> str:
        """The phase as views name it: bidding, begging, a step's action (discard, trump), play;
        between hands, or game over."""
        if self.hand_over:
            return "game over" if self.finished else "between hands"
        return self._step_action() if self.phase == STEP else PHASE_NAMES[self.phase]

    def legal_moves(self) -> list[int]:
        """Every legal move of the seat to act (as move codes); empty between hands and after the game."""
        if self.phase == PLAY:
            return C.bit_list(self._legal_play_mask(self.turn))
        if self.phase == BIDDING:
            return list(self._legal_bids())  # a copy: the bids may be a cached tuple
        if self.phase == STEP:
            step = self.rules.play.steps[self.step]
            if step.kind == "name_trump":
                names = [M.TRUMP_BASE + s for s in range(4)]
                return names + [M.PASS] if self.may_pass_trump() else names
            return [M.DISCARD_FLAG | m for m in self._legal_discards(self.turn)]
        if self.phase == BEG:
            return self._legal_choices()
        return []

    # ------------------------------------------------------------------ applying
    def apply(self, seat: int, code: int) -> None:
        """Apply a move for `seat`, or raise MoveError (state unchanged)."""
        # Kept whole: the card-play path is inlined here because it runs for most moves of every
        # game (a call per play cost measurable speed); test_properties holds it to the plain checks.
        phase = self.phase
        if seat == self.turn:  # fast paths for the two common cases; anything odd goes through check_turn
            if phase == PLAY and 0 <= code < 64:  # playing a card: the hot path, inlined
                hands = self.hands
                hand = hands[seat]
                bit = 1 << code
                if not hand & bit:
                    raise MoveError("CARD_NOT_IN_HAND", N_("{card} is not in your hand"),
                                    card=CardWord(code, self.rules.deck.name_of.get(code, str(code))))
                trick = self.trick
                if not trick:
                    if self.lead_free:  # trump known and no lead rule left: the lead only sets the trick up
                        self.led, self.led_mask, self.follow_ok, self.trick_key = self.rules.play.lead_info[self.trump][code]
                        self.trick_leader = seat
                    else:
                        self._lead(seat, code, hand)
                elif hand & self.led_mask and not bit & self.follow_ok:
                    raise MoveError("MUST_FOLLOW_SUIT", N_("you must follow {suit}") if self.rules.play.follow_suit_only
                                    else N_("you must follow {suit} or play a trump"), suit=SuitWord(self.led))
                self.hand_moves.append((seat, code))
                hands[seat] = left = hand ^ bit
                self.played |= bit
                trick.append(code)
                n = self.n
                if len(trick) < n:
                    self.turn = seat + 1 if seat + 1 < n else 0
                    return
                # The trick is complete: the highest key wins; of equal keys the first, or with
                # `equal_last` the last, played.
                key = self.trick_key
                if n == 2:  # one comparison (True is 1: the second card wins)
                    wi = key(code) >= key(trick[0]) if self.rules.play.equal_last else key(code) > key(trick[0])
                elif self.rules.play.equal_last:
                    ks = list(map(key, trick))
                    wi = n - 1 - ks[::-1].index(max(ks))
                else:
                    wi = trick.index(max(trick, key=key))
                leader = self.trick_leader
                winner = (leader + wi) % n
                self.tricks.append((leader, winner, trick))
                self.trick = []
                self.turn = winner
                self.trick_no += 1
                if not left:  # hands are even (or watched below), so all are empty, unless ExtrasGame draws now
                    if not (self.stock and self.rules.play.draw_in_play):
                        self._score_hand()
                elif self.rules.play.watch_empty and not all(hands):  # uneven hands: the first ran out
                    self._score_hand()
                return
            if phase == BIDDING:
                if code == _PASS:
                    self._bid(seat, 0, True)
                    return
                if _BID_BASE <= code < _TRUMP_BASE:
                    self._bid(seat, code - _BID_BASE, False)
                    return
            if phase == STEP:
                kind = self.rules.play.steps[self.step].kind
                if kind == "discard" and M.DISCARD_FLAG <= code < M.DISCARD_FLAG << 1:
                    self._discard(seat, code ^ M.DISCARD_FLAG)
                    return
                if kind == "name_trump" and _TRUMP_BASE <= code < _TRUMP_BASE + 4:
                    self._name_trump(seat, code - _TRUMP_BASE)
                    return
            if phase == BEG and M.CHOOSE_BASE <= code < M.CHOOSE_BASE + len(M.CHOICES):
                self._choose(seat, code)  # which choices are open now, _choose checks
                return
        self.check_turn(seat, M.action_of(code))
        if code == M.PASS and phase == STEP:  # naming trump in turn: check_turn let a pass through
            self._pass_trump(seat)
        elif code == M.PASS or M.BID_BASE <= code < M.TRUMP_BASE:
            self._bid(seat, 0 if code == M.PASS else code - M.BID_BASE, code == M.PASS)
        elif code >= M.DISCARD_FLAG:
            self._discard(seat, code ^ M.DISCARD_FLAG)
        elif code >= M.CHOOSE_BASE:
            self._choose(seat, code)
        elif code >= M.TRUMP_BASE:
            self._name_trump(seat, code - M.TRUMP_BASE)
        else:  # unreachable: check_turn admits a play only when the fast path above takes it
            raise MoveError("WRONG_PHASE", N_("a card can be played only in the play"))

    # Play a card taken from `_legal_play_mask`: the same as apply here (ExtrasGame skips its follow check).
    play_legal = apply

    def apply_action(self, seat: int, action: str, payload: Any) -> None:
        """Apply a move given by name (moves.from_dict's action and payload: a record's move or a
        client's), with every check of `apply` and those only a name can fail (a bid past the move
        codes, a card not of this deck); MoveError with the record's code, the game unchanged."""
        if action == "discard":
            self.discard_cards(seat, payload)
            return
        self.check_turn(seat, action)
        if action == "pass":
            self.apply(seat, M.PASS)
        elif action == "bid":
            if payload < 0 or payload >= M.TRUMP_BASE - M.BID_BASE:
                r = self.rules
                raise MoveError("BID_OUT_OF_RANGE", N_("bids are {lo} to {hi}, not {value}"), lo=r.bidding.min,
                                hi=r.bidding.max, value=payload)
            self.apply(seat, M.BID_BASE + payload)
        elif action == "trump":
            self.apply(seat, M.TRUMP_BASE + payload)
        elif action == "choose":
            self.apply(seat, M.CHOOSE_BASE + payload)
        else:
            if payload not in self.rules.deck.name_of:
                raise MoveError("CARD_NOT_IN_HAND", N_("that card is not in this deck"))
            self.apply(seat, payload)

    def check_turn(self, seat: int, action: str) -> None:
        """GAME_OVER / HAND_OVER / WRONG_TURN / WRONG_PHASE, in that order."""
        if self.finished and self.phase == HAND_DONE:
            raise MoveError("GAME_OVER", N_("the game is over"))
        if self.phase == HAND_DONE:
            raise MoveError("HAND_OVER", N_("the hand is over"))
        if seat != self.turn:
            raise MoveError("WRONG_TURN", N_("it is seat {turn}'s turn, not seat {seat}'s"), turn=self.turn + 1, seat=seat + 1)
        want = self.expected_action() or ""  # the hand is on (HAND_DONE was refused above)
        ok = action in ("bid", "pass") if want == "bid" else action == want or (
            want == "trump" and action == "pass" and self.rules.play.steps[self.step].may_pass)
        if not ok:
            raise MoveError("WRONG_PHASE", N_("the hand is waiting for {need}, not {action}"), need=Phrase(NEEDS[want]),
                            action=Phrase(ACTIONS.get(action, action)))

    def _log(self, seat: int, code: int) -> None:
        self.hand_moves.append((seat, code))

    @property
    def moves_played(self) -> int:
        """Moves accepted in this game so far (every hand's log)."""
        return sum(len(moves) for _d, _h, _s, moves in self.record_hands)

    # ------------------------------------------------------------------ scoring
    def _end_void(self, same_dealer: bool) -> None:
        self._finish_void([0] * self.rules.n_sides, same_dealer)

    def start_scores(self, scores: list[int]) -> None:
        """Play on from these scores, one a side (a study of play near the target: sim/fingerprint.py);
        only before the first move, so every record of the game still starts at 0 to 0."""
        if self.moves_played or len(scores) != self.rules.n_sides:
            raise ValueError("scores are set before the first move, one a side")
        self.scores = list(scores)

    def abandon(self) -> None:
        """End the game where it stands (a referee's table left idle too long): no winner, the hand in
        progress not scored; a record of it says `ended`."""
        self.finished, self.ended_by = True, "abandoned"
        self.winner = None
        self.phase = HAND_DONE
        self.turn = -1

    def _finish_void(self, delta: list[int], same_dealer: bool) -> None:
        self.scores = [s + d for s, d in zip(self.scores, delta)]
        self.results.append(HandResult(self.dealer, None, None, None, None, None, None, delta, list(self.scores)))
        self._next_hand(same_dealer)

    def _next_hand(self, same_dealer: bool) -> None:
        self.phase = HAND_DONE
        self.turn = -1
        if self.hand_limit is not None and not self.finished and len(self.results) >= self.hand_limit:
            self.finished, self.ended_by = True, "hand_limit"
            top = max(self.scores)
            self.winner = self.scores.index(top) if self.scores.count(top) == 1 else None
        if not same_dealer:
            self.dealer = (self.dealer + 1) % self.n
        if self.auto_deal and not self.finished:
            if self.keep_boundary:
                self.boundary = between_hands(self)
            self.start_hand()

    def award_points(self) -> tuple[dict[str, int | None], list[int]]:
        """Who won each point this hand, and each side's card-value total for Game."""
        got, game_points = award(self, self.taken())
        return dict(zip(self.rules.points.names, got)), game_points

    def _score_hand(self) -> None:
        self._record_result(*score_hand(self))

    def _record_result(self, result: HandResult, winner: int | None) -> None:
        """The hand is scored: its result counts, the game ends if a side won, the deal passes on."""
        self.scores = list(result.scores)
        self.results.append(result)
        if winner is not None:
            self.finished, self.ended_by = True, "rules"
            self.winner = winner
        self._next_hand(False)

    # ------------------------------------------------------------------ views and records
    def view(self, seat: int | None) -> SeatView:
        """What `seat` may see (None: a spectator): own hand, public play, scores; never other hands or the stock."""
        return seat_view(self, seat)


class FollowGame(Game):
    """A game with follow rules (play.follow_rules): they judge every follow, on top of the following
    rule. A class of its own, so games without them keep the inlined play path untouched."""

    def apply(self, seat: int, code: int) -> None:
        if self.trick and seat == self.turn and 0 <= code < 64:  # a follow (a trick is under way only in the play)
            hand = self.hands[seat]
            base = hand & self.follow_ok if hand & self.led_mask else hand
            # the following rule speaks first (a card it refuses, or one not held, is refused by play_legal);
            # the follow rules, unless they would forbid every card the seat may play (then none applies)
            if (base >> code) & 1 and not (self._follow_mask(seat, base) >> code) & 1:
                self._refuse_follow(seat, code, base)
        self.play_legal(seat, code)

    # play_legal (Game's, or ExtrasGame's in an ExtrasFollowGame) plays a card taken from
    # `_legal_play_mask`: the follow rules' check is skipped (a search's playouts play thousands of
    # cards they already chose from the mask).

    def random_move(self, rng: random.Random) -> int:
        if self.trick:  # a follow (a trick is under way only in the play)
            m = self._legal_play_mask(self.turn)
            k = int(rng.random() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            return (m & -m).bit_length() - 1
        return Game.random_move(self, rng)


class ExtrasGame(Game):
    """A game whose players draw from the stock after each trick; hands that may start the play uneven
    end the hand when the first runs out, once the draw is done."""

    def apply(self, seat: int, code: int) -> None:
        if self.phase != PLAY or seat != self.turn or not 0 <= code < 64:
            return Game.apply(self, seat, code)
        self.play_legal(seat, code)

    def play_legal(self, seat: int, card: int) -> None:
        """Play `card` for the seat to act, the caller having taken it from `_legal_play_mask` (the
        follow rules' check is skipped), then draw or end the hand as the rules say."""
        tricks = len(self.tricks)
        Game.apply(self, seat, card)
        if len(self.tricks) > tricks and self.phase == PLAY:  # a trick ended and the hand goes on (not a new
            # hand dealt straight into its play, whose tricks start again from none)
            if self.rules.play.draw_in_play and self.stock:
                self._draw_round()
            if not all(self.hands):
                self._score_hand()  # someone has no card left: the hand is over

    def _draw_round(self) -> None:
        """Each player draws the stock's top card, the trick's winner (now to lead) first; the
        compiler made the stock a multiple of the players, so a round never runs short."""
        n, stock = self.n, self.stock
        self._public_log()
        for i in range(n):
            seat = (self.turn + i) % n
            c = stock.pop(0)
            self.drawn.append((seat, c))
            bit = 1 << c
            self.hands[seat] |= bit
            self.held[seat] |= bit  # scoring reads `held` as the cards each seat played


class ExtrasFollowGame(FollowGame, ExtrasGame):
    """Both: follow rules judge each follow (FollowGame.apply), then the play is watched (ExtrasGame.play_legal)."""
