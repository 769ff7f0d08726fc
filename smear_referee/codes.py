"""Every refusal code the referee sends, as data: its gRPC status and one line saying when it is sent.

A raise names a `Code` (`RefereeError(codes.SEAT_TAKEN, ...)`), so its status comes from here and
nowhere else; docs/referee.md's table of codes and the web client's clients/web/src/gen/codes.js are
made from this list (scripts/gen_codes.py), and tests/test_codes.py fails when a raise names a code
that is not here or a code here is not in the docs. The moves' and records' codes (RECORD_FORMAT.md)
come from the engine (smear_dsl.errors.ERROR_CODES) and are listed here with the status a refused
move gets.
"""
from __future__ import annotations

from dataclasses import dataclass

from smear_dsl.errors import ERROR_CODES


@dataclass(frozen=True)
class Code:
    """A refusal: its reason code (ErrorInfo.reason), its gRPC status, and when it is sent."""

    name: str
    status: str
    doc: str
    record: bool = False  # one of RECORD_FORMAT.md's codes (a move's or a record's), made by the engine

    def __str__(self) -> str:
        return self.name


ALL: dict[str, Code] = {}


def _code(name: str, status: str, doc: str, record: bool = False) -> Code:
    code = ALL[name] = Code(name, status, doc, record)
    return code


# ---- the moves' and records' codes (RECORD_FORMAT.md), in the order the engine checks them
_MOVES = {
    "BAD_RECORD": ("INVALID_ARGUMENT", "a malformed move or record: unknown action, a seat out of range, a value of "
                   "the wrong type; also a move's idempotency key too long or one of the server's own"),
    "BAD_DEAL": ("INVALID_ARGUMENT", "a record's deal is not the rules' deck split into hands and the stock"),
    "GAME_OVER": ("FAILED_PRECONDITION", "the game is over"),
    "HAND_OVER": ("FAILED_PRECONDITION", "a move after the hand's last trick (a record's)"),
    "HAND_INCOMPLETE": ("FAILED_PRECONDITION", "a record's hand that is not the last stops before it is over"),
    "WRONG_TURN": ("FAILED_PRECONDITION", "it is not that seat's turn"),
    "WRONG_PHASE": ("FAILED_PRECONDITION", "that action is not the one the hand waits for (a rule file's "
                    "lead rule may say it too)"),
    "BID_OUT_OF_RANGE": ("FAILED_PRECONDITION", "a bid outside the rules' minimum to maximum"),
    "BID_TOO_LOW": ("FAILED_PRECONDITION", "a bid not higher than the highest so far"),
    "BAD_DISCARD": ("FAILED_PRECONDITION", "a discard of the wrong size, of cards not held, or leaving no legal lead"),
    "CARD_NOT_IN_HAND": ("FAILED_PRECONDITION", "the card played is not in that seat's hand (or not in this deck)"),
    "TRUMP_DISCARDED": ("FAILED_PRECONDITION", "a first lead of a suit the bidder discarded while keeping others"),
    "MUST_FOLLOW_SUIT": ("FAILED_PRECONDITION", "a card neither of the suit led nor trump while holding the suit led"),
    "MUST_TRUMP": ("FAILED_PRECONDITION", "a rule file's follow rule: void in the suit led, trump if you can"),
    "MUST_OVERTRUMP": ("FAILED_PRECONDITION", "a rule file's follow rule: over a winning trump, play higher"),
    "MUST_HEAD_TRICK": ("FAILED_PRECONDITION", "a rule file's follow rule: take the trick if you can"),
    "PLAY_FORBIDDEN": ("FAILED_PRECONDITION", "a rule file's own lead or follow rule forbids that card"),
    "CHOICE_NOT_ALLOWED": ("FAILED_PRECONDITION", "begging: a choice that is not the acting seat's to make now"),
}
assert tuple(_MOVES) == ERROR_CODES, "list every code of smear_dsl.errors.ERROR_CODES here, in its order"
for _name, (_status, _doc) in _MOVES.items():
    _code(_name, _status, _doc, record=True)

BAD_RECORD = ALL["BAD_RECORD"]
GAME_OVER = ALL["GAME_OVER"]

# ---- requests
BAD_REQUEST = _code("BAD_REQUEST", "INVALID_ARGUMENT", "a request past a field's size or count limit (docs/security.md)")
BAD_RULES = _code("BAD_RULES", "INVALID_ARGUMENT", "a rule file that does not check (the first diagnostic, located)")
BAD_OPTION = _code("BAD_OPTION", "INVALID_ARGUMENT", "an option the rules do not have, or a value it does not take")
BAD_SEAT = _code("BAD_SEAT", "INVALID_ARGUMENT", "a seat index that is not one of the table's")
BAD_PLAYERS = _code("BAD_PLAYERS", "INVALID_ARGUMENT", "a seat count the rules are not played with")
BAD_FORMAT = _code("BAD_FORMAT", "INVALID_ARGUMENT", "a rules sheet's format other than md or html")
BAD_LIMIT = _code("BAD_LIMIT", "INVALID_ARGUMENT", "a negative limit on a list (of tables, say)")
BAD_CLOCK = _code("BAD_CLOCK", "INVALID_ARGUMENT", "a turn clock outside the server's limits")
BAD_BOT = _code("BAD_BOT", "INVALID_ARGUMENT", "a bot kind unknown or thinking past the limits, or at a rated "
                "table another bot than the house bot")
BAD_NAME = _code("BAD_NAME", "INVALID_ARGUMENT", "a name that is empty, too long or not printable text")
BAD_REACTION = _code("BAD_REACTION", "INVALID_ARGUMENT", "a chat reaction that is not one of the table's")
BAD_TOURNAMENT = _code("BAD_TOURNAMENT", "INVALID_ARGUMENT", "a tournament's settings that do not make one")
BAD_CLUB = _code("BAD_CLUB", "INVALID_ARGUMENT", "a club's rule files that do not make one (too many, or two of one name)")
BAD_SETTINGS = _code("BAD_SETTINGS", "INVALID_ARGUMENT",
                     "a club's settings that do not read (not JSON, unknown or out-of-range rating settings)")
BAD_ACTION = _code("BAD_ACTION", "INVALID_ARGUMENT",
                   "a tournament director's act that is not forfeit, replace or adjust, or names no entrant")
NO_REASON = _code("NO_REASON", "INVALID_ARGUMENT", "a tournament director's act without a reason (every act needs one, for the audit)")
NOT_CLUB_RULES = _code("NOT_CLUB_RULES", "INVALID_ARGUMENT", "a club table with other rules than the club's")
IDEMPOTENCY_KEY_REUSED = _code("IDEMPOTENCY_KEY_REUSED", "INVALID_ARGUMENT",
                               "an idempotency key used already for another move or by another seat")

# ---- the table's state
ROUND_SEALED = _code("ROUND_SEALED", "FAILED_PRECONDITION",
                     "watching (or reading) a table of a duplicate round that has not finished")
GAME_NOT_OVER = _code("GAME_NOT_OVER", "FAILED_PRECONDITION", "a rematch asked for before the game is over")
TOURNAMENT_TABLE = _code("TOURNAMENT_TABLE", "FAILED_PRECONDITION",
                         "a rematch of a tournament's table (its director starts the next round)")
SEAT_FREE = _code("SEAT_FREE", "FAILED_PRECONDITION", "a free seat handed to a bot by someone (the host fills free seats)")
PLAYER_HERE = _code("PLAYER_HERE", "FAILED_PRECONDITION",
                    "someone else hands a present player's seat (or an away member's before the clock ran out) to a bot")
NO_BOT = _code("NO_BOT", "FAILED_PRECONDITION", "a seat taken back that no bot plays")
ALREADY_SEATED = _code("ALREADY_SEATED", "FAILED_PRECONDITION", "a club member who sits at the table already")
RULES_CHANGED = _code("RULES_CHANGED", "FAILED_PRECONDITION", "a tournament's pinned rule text that this server no longer has")
ROUND_IN_PROGRESS = _code("ROUND_IN_PROGRESS", "FAILED_PRECONDITION", "a tournament's next round before this one ends")
TOURNAMENT_OVER = _code("TOURNAMENT_OVER", "FAILED_PRECONDITION", "a round asked of a tournament that is over")
STALE_VERSION = _code("STALE_VERSION", "ABORTED",
                      "expected_version is not the table's version (or the seat changed hands meanwhile): get the view again")
SEAT_TAKEN = _code("SEAT_TAKEN", "ALREADY_EXISTS", "the seat is taken")

# ---- who asks
UNAUTHENTICATED = _code("UNAUTHENTICATED", "UNAUTHENTICATED", "no token, or an unknown one")
WRONG_TABLE = _code("WRONG_TABLE", "PERMISSION_DENIED", "a token of another table")
NOT_A_SEAT = _code("NOT_A_SEAT", "PERMISSION_DENIED", "a call only a seat's token may make (a move, taking a seat back)")
NOT_THE_HOST = _code("NOT_THE_HOST", "PERMISSION_DENIED", "a call only the table's host may make")
NOT_THE_DIRECTOR = _code("NOT_THE_DIRECTOR", "PERMISSION_DENIED", "a call only a club's or tournament's director may make")
NOT_A_MEMBER = _code("NOT_A_MEMBER", "PERMISSION_DENIED", "a call only a club's member may make")
NOT_A_CLUB_TABLE = _code("NOT_A_CLUB_TABLE", "PERMISSION_DENIED", "a club call about a table that is not the club's")
CHAT_CLOSED = _code("CHAT_CLOSED", "PERMISSION_DENIED", "a spectator speaks where the host has not let them")
MUTED = _code("MUTED", "PERMISSION_DENIED", "a seat the host muted speaks")

# ---- what is not there
NOT_FOUND = _code("NOT_FOUND", "NOT_FOUND", "no such table, club or tournament")
UNKNOWN_RULES = _code("UNKNOWN_RULES", "NOT_FOUND", "no such rule file among the shipped ones")

# ---- budgets
RULES_TOO_LARGE = _code("RULES_TOO_LARGE", "RESOURCE_EXHAUSTED", "an uploaded rule file past its size limit")
RULES_TOO_COMPLEX = _code("RULES_TOO_COMPLEX", "RESOURCE_EXHAUSTED",
                          "a rule file whose check or compile ran out of its time or memory")
RECORD_TOO_COMPLEX = _code("RECORD_TOO_COMPLEX", "RESOURCE_EXHAUSTED",
                           "a record whose verification ran out of its time or memory")
RECORD_TOO_LARGE = _code("RECORD_TOO_LARGE", "RESOURCE_EXHAUSTED", "a record past its size limit")
BUSY = _code("BUSY", "RESOURCE_EXHAUSTED", "the compile and verify workers are full: try again shortly")
TOO_MANY_TABLES = _code("TOO_MANY_TABLES", "RESOURCE_EXHAUSTED",
                        "the server's, or your address's, unfinished tables are at their limit")
TOO_MANY_TOKENS = _code("TOO_MANY_TOKENS", "RESOURCE_EXHAUSTED", "a seat holds as many tokens as it may")
TOO_MANY_SPECTATORS = _code("TOO_MANY_SPECTATORS", "RESOURCE_EXHAUSTED", "a table has as many spectators as it may")
TOO_MANY_TOURNAMENTS = _code("TOO_MANY_TOURNAMENTS", "RESOURCE_EXHAUSTED", "the server's tournaments are at their limit")
TOO_MANY_CLUBS = _code("TOO_MANY_CLUBS", "RESOURCE_EXHAUSTED", "the server's clubs are at their limit")
TOO_MANY_MEMBERS = _code("TOO_MANY_MEMBERS", "RESOURCE_EXHAUSTED", "a club has as many members as it may")
CHAT_TOO_FAST = _code("CHAT_TOO_FAST", "RESOURCE_EXHAUSTED", "more chat lines a minute than a speaker may say")

# ---- the store and the replicas
TABLE_DAMAGED = _code("TABLE_DAMAGED", "DATA_LOSS", "a table's stored rows are not what its hashes prove (the server "
                      "logs which row); every other table is served")
CLUB_DAMAGED = _code("CLUB_DAMAGED", "DATA_LOSS", "a club's stored rows are not what their proofs prove")
TOURNAMENT_DAMAGED = _code("TOURNAMENT_DAMAGED", "DATA_LOSS", "a tournament's stored rows are not what their proofs prove")
NOT_OWNER = _code("NOT_OWNER", "UNAVAILABLE", "another replica serves the table: ErrorInfo metadata `owner` is its "
                  "address (empty while its shard changes hands)")
STORE_FAILED = _code("STORE_FAILED", "UNAVAILABLE", "the database did not take the change: try again (a move with its "
                     "idempotency key is safe to send again)")
TABLE_RELOADED = _code("TABLE_RELOADED", "UNAVAILABLE", "the table is being read back from the store: ask again")

STATUSES = ("INVALID_ARGUMENT", "FAILED_PRECONDITION", "ABORTED", "ALREADY_EXISTS", "UNAUTHENTICATED",
            "PERMISSION_DENIED", "NOT_FOUND", "RESOURCE_EXHAUSTED", "DATA_LOSS", "UNAVAILABLE")
assert {c.status for c in ALL.values()} <= set(STATUSES)


def of_move(name: str) -> Code:
    """The code of an engine's refusal (MoveError.code, one of RECORD_FORMAT.md's)."""
    return ALL[name]


def damaged_code(what: str) -> Code:
    """TABLE_DAMAGED, CLUB_DAMAGED or TOURNAMENT_DAMAGED, for what a store found damaged."""
    return ALL[f"{what.upper()}_DAMAGED"]
