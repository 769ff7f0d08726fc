from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListRulesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "type", "default_value", "description", "choices", "min", "max")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default_value: str
    description: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    min: int
    max: int
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default_value: _Optional[str] = ..., description: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class RuleInfo(_message.Message):
    __slots__ = ("name", "title", "description", "players", "options", "version", "versions", "rules_sha256")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    RULES_SHA256_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    description: str
    players: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    version: int
    versions: _containers.RepeatedScalarFieldContainer[int]
    rules_sha256: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., description: _Optional[str] = ..., players: _Optional[_Iterable[int]] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., version: _Optional[int] = ..., versions: _Optional[_Iterable[int]] = ..., rules_sha256: _Optional[str] = ...) -> None: ...

class ListRulesResponse(_message.Message):
    __slots__ = ("rules",)
    RULES_FIELD_NUMBER: _ClassVar[int]
    rules: _containers.RepeatedCompositeFieldContainer[RuleInfo]
    def __init__(self, rules: _Optional[_Iterable[_Union[RuleInfo, _Mapping]]] = ...) -> None: ...

class CheckRulesRequest(_message.Message):
    __slots__ = ("text", "file_name")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    text: str
    file_name: str
    def __init__(self, text: _Optional[str] = ..., file_name: _Optional[str] = ...) -> None: ...

class Diagnostic(_message.Message):
    __slots__ = ("path", "line", "column", "message", "hint", "source_line", "severity")
    PATH_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    HINT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_LINE_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    path: str
    line: int
    column: int
    message: str
    hint: str
    source_line: str
    severity: str
    def __init__(self, path: _Optional[str] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., message: _Optional[str] = ..., hint: _Optional[str] = ..., source_line: _Optional[str] = ..., severity: _Optional[str] = ...) -> None: ...

class CheckRulesResponse(_message.Message):
    __slots__ = ("ok", "diagnostics", "rules")
    OK_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    diagnostics: _containers.RepeatedCompositeFieldContainer[Diagnostic]
    rules: RuleInfo
    def __init__(self, ok: _Optional[bool] = ..., diagnostics: _Optional[_Iterable[_Union[Diagnostic, _Mapping]]] = ..., rules: _Optional[_Union[RuleInfo, _Mapping]] = ...) -> None: ...

class ExplainRulesRequest(_message.Message):
    __slots__ = ("name", "text", "table_id", "format", "lang")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    LANG_FIELD_NUMBER: _ClassVar[int]
    name: str
    text: str
    table_id: str
    format: str
    lang: str
    def __init__(self, name: _Optional[str] = ..., text: _Optional[str] = ..., table_id: _Optional[str] = ..., format: _Optional[str] = ..., lang: _Optional[str] = ...) -> None: ...

class ExplainRulesResponse(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class CreateTableRequest(_message.Message):
    __slots__ = ("rules_name", "rules_text", "options", "players", "seed", "duplicate", "hand_limit", "idempotency_key", "turn_seconds")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULES_NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    HAND_LIMIT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    rules_name: str
    rules_text: str
    options: _containers.ScalarMap[str, str]
    players: int
    seed: str
    duplicate: bool
    hand_limit: int
    idempotency_key: str
    turn_seconds: int
    def __init__(self, rules_name: _Optional[str] = ..., rules_text: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., players: _Optional[int] = ..., seed: _Optional[str] = ..., duplicate: _Optional[bool] = ..., hand_limit: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., turn_seconds: _Optional[int] = ...) -> None: ...

class TableInfo(_message.Message):
    __slots__ = ("table_id", "rules", "title", "players", "options", "seat_taken", "finished", "seat_names", "started", "spectators", "spectators_allowed", "house_rules", "created", "version", "scores", "rules_sha256", "next_table_id", "turn_seconds", "seat_bots", "seat_here", "names")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class NamesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    HOUSE_RULES_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RULES_SHA256_FIELD_NUMBER: _ClassVar[int]
    NEXT_TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_BOTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_HERE_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    rules: str
    title: str
    players: int
    options: _containers.ScalarMap[str, str]
    seat_taken: _containers.RepeatedScalarFieldContainer[bool]
    finished: bool
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    started: bool
    spectators: int
    spectators_allowed: bool
    house_rules: bool
    created: float
    version: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    rules_sha256: str
    next_table_id: str
    turn_seconds: int
    seat_bots: _containers.RepeatedScalarFieldContainer[str]
    seat_here: _containers.RepeatedScalarFieldContainer[bool]
    names: _containers.ScalarMap[str, str]
    def __init__(self, table_id: _Optional[str] = ..., rules: _Optional[str] = ..., title: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seat_taken: _Optional[_Iterable[bool]] = ..., finished: _Optional[bool] = ..., seat_names: _Optional[_Iterable[str]] = ..., started: _Optional[bool] = ..., spectators: _Optional[int] = ..., spectators_allowed: _Optional[bool] = ..., house_rules: _Optional[bool] = ..., created: _Optional[float] = ..., version: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., rules_sha256: _Optional[str] = ..., next_table_id: _Optional[str] = ..., turn_seconds: _Optional[int] = ..., seat_bots: _Optional[_Iterable[str]] = ..., seat_here: _Optional[_Iterable[bool]] = ..., names: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListTablesRequest(_message.Message):
    __slots__ = ("include_finished", "limit")
    INCLUDE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    include_finished: bool
    limit: int
    def __init__(self, include_finished: _Optional[bool] = ..., limit: _Optional[int] = ...) -> None: ...

class ListTablesResponse(_message.Message):
    __slots__ = ("tables",)
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[TableInfo]
    def __init__(self, tables: _Optional[_Iterable[_Union[TableInfo, _Mapping]]] = ...) -> None: ...

class GetTableRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class AddBotsRequest(_message.Message):
    __slots__ = ("table_id", "kind", "idempotency_key", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    kind: str
    idempotency_key: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., kind: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class AddBotsResponse(_message.Message):
    __slots__ = ("table", "seats")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    table: TableInfo
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, table: _Optional[_Union[TableInfo, _Mapping]] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class TakeBackSeatRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class TakeBackSeatResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: TableInfo
    def __init__(self, table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class ChatRequest(_message.Message):
    __slots__ = ("table_id", "text", "reaction")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    REACTION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    text: str
    reaction: str
    def __init__(self, table_id: _Optional[str] = ..., text: _Optional[str] = ..., reaction: _Optional[str] = ...) -> None: ...

class ChatResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ModerateChatRequest(_message.Message):
    __slots__ = ("table_id", "muted", "spectators_may_chat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MUTED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_MAY_CHAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    muted: _containers.RepeatedScalarFieldContainer[int]
    spectators_may_chat: bool
    def __init__(self, table_id: _Optional[str] = ..., muted: _Optional[_Iterable[int]] = ..., spectators_may_chat: _Optional[bool] = ...) -> None: ...

class ModerateChatResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChatLine(_message.Message):
    __slots__ = ("seat", "name", "text", "reaction", "at")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    REACTION_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    text: str
    reaction: str
    at: float
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., reaction: _Optional[str] = ..., at: _Optional[float] = ...) -> None: ...

class RematchRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class RematchResponse(_message.Message):
    __slots__ = ("table_id", "token", "table")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    table: TableInfo
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class CreateTableResponse(_message.Message):
    __slots__ = ("table_id", "host_token", "table")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    host_token: str
    table: TableInfo
    def __init__(self, table_id: _Optional[str] = ..., host_token: _Optional[str] = ..., table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class JoinTableRequest(_message.Message):
    __slots__ = ("table_id", "seat", "spectator", "name", "idempotency_key")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    spectator: bool
    name: str
    idempotency_key: str
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., spectator: _Optional[bool] = ..., name: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class JoinTableResponse(_message.Message):
    __slots__ = ("token", "seat", "table")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    token: str
    seat: int
    table: TableInfo
    def __init__(self, token: _Optional[str] = ..., seat: _Optional[int] = ..., table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class CardList(_message.Message):
    __slots__ = ("cards", "count")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("bid", "trump", "discard", "play", "choose")
    PASS_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    bid: int
    trump: str
    discard: CardList
    play: str
    choose: str
    def __init__(self, bid: _Optional[int] = ..., trump: _Optional[str] = ..., discard: _Optional[_Union[CardList, _Mapping]] = ..., play: _Optional[str] = ..., choose: _Optional[str] = ..., **kwargs) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("table_id", "version", "seat", "phase", "turn", "hand", "legal_moves", "scores", "finished", "winner", "turn_left", "turn_seconds", "rules", "players", "side", "sides", "dealer", "hands_played", "current", "discard", "last_hand_json")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TURN_LEFT_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    LAST_HAND_JSON_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    version: int
    seat: int
    phase: str
    turn: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    legal_moves: _containers.RepeatedCompositeFieldContainer[Move]
    scores: _containers.RepeatedScalarFieldContainer[int]
    finished: bool
    winner: int
    turn_left: float
    turn_seconds: int
    rules: str
    players: int
    side: int
    sides: _containers.RepeatedScalarFieldContainer[int]
    dealer: int
    hands_played: int
    current: HandInPlay
    discard: Discarding
    last_hand_json: str
    def __init__(self, table_id: _Optional[str] = ..., version: _Optional[int] = ..., seat: _Optional[int] = ..., phase: _Optional[str] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., legal_moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., finished: _Optional[bool] = ..., winner: _Optional[int] = ..., turn_left: _Optional[float] = ..., turn_seconds: _Optional[int] = ..., rules: _Optional[str] = ..., players: _Optional[int] = ..., side: _Optional[int] = ..., sides: _Optional[_Iterable[int]] = ..., dealer: _Optional[int] = ..., hands_played: _Optional[int] = ..., current: _Optional[_Union[HandInPlay, _Mapping]] = ..., discard: _Optional[_Union[Discarding, _Mapping]] = ..., last_hand_json: _Optional[str] = ...) -> None: ...

class HandInPlay(_message.Message):
    __slots__ = ("bids", "bidder", "bid", "trump", "trick", "tricks", "hand_sizes", "pegged", "shown", "stock", "trump_calls", "choices", "discarded")
    BIDS_FIELD_NUMBER: _ClassVar[int]
    BIDDER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    PEGGED_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CALLS_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    bids: _containers.RepeatedCompositeFieldContainer[SeatBid]
    bidder: int
    bid: int
    trump: str
    trick: _containers.RepeatedCompositeFieldContainer[SeatCard]
    tricks: _containers.RepeatedCompositeFieldContainer[TrickTaken]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    pegged: Pegged
    shown: _containers.RepeatedCompositeFieldContainer[SeatCards]
    stock: Stock
    trump_calls: _containers.RepeatedCompositeFieldContainer[TrumpCall]
    choices: _containers.RepeatedCompositeFieldContainer[SeatChoice]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bids: _Optional[_Iterable[_Union[SeatBid, _Mapping]]] = ..., bidder: _Optional[int] = ..., bid: _Optional[int] = ..., trump: _Optional[str] = ..., trick: _Optional[_Iterable[_Union[SeatCard, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[TrickTaken, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., pegged: _Optional[_Union[Pegged, _Mapping]] = ..., shown: _Optional[_Iterable[_Union[SeatCards, _Mapping]]] = ..., stock: _Optional[_Union[Stock, _Mapping]] = ..., trump_calls: _Optional[_Iterable[_Union[TrumpCall, _Mapping]]] = ..., choices: _Optional[_Iterable[_Union[SeatChoice, _Mapping]]] = ..., discarded: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatBid(_message.Message):
    __slots__ = ("seat", "bid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bid: int
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class SeatCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class SeatCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TrickTaken(_message.Message):
    __slots__ = ("leader", "winner", "cards")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    leader: int
    winner: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, leader: _Optional[int] = ..., winner: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TrumpCall(_message.Message):
    __slots__ = ("seat", "suit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: str
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[str] = ...) -> None: ...

class SeatChoice(_message.Message):
    __slots__ = ("seat", "choice")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    choice: str
    def __init__(self, seat: _Optional[int] = ..., choice: _Optional[str] = ...) -> None: ...

class Pegged(_message.Message):
    __slots__ = ("won", "totals")
    WON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    won: _containers.RepeatedCompositeFieldContainer[PointFell]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, won: _Optional[_Iterable[_Union[PointFell, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class PointFell(_message.Message):
    __slots__ = ("point", "side", "value", "card", "at", "trick")
    POINT_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    point: str
    side: int
    value: int
    card: str
    at: str
    trick: int
    def __init__(self, point: _Optional[str] = ..., side: _Optional[int] = ..., value: _Optional[int] = ..., card: _Optional[str] = ..., at: _Optional[str] = ..., trick: _Optional[int] = ...) -> None: ...

class Stock(_message.Message):
    __slots__ = ("size", "turned_up", "top", "draws", "turned_down")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TURNED_UP_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    TURNED_DOWN_FIELD_NUMBER: _ClassVar[int]
    size: int
    turned_up: str
    top: str
    draws: _containers.RepeatedCompositeFieldContainer[SeatCard]
    turned_down: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, size: _Optional[int] = ..., turned_up: _Optional[str] = ..., top: _Optional[str] = ..., draws: _Optional[_Iterable[_Union[SeatCard, _Mapping]]] = ..., turned_down: _Optional[_Iterable[str]] = ...) -> None: ...

class Discarding(_message.Message):
    __slots__ = ("min", "max", "cards", "example")
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    EXAMPLE_FIELD_NUMBER: _ClassVar[int]
    min: int
    max: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    example: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, min: _Optional[int] = ..., max: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., example: _Optional[_Iterable[str]] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("table_id", "move", "expected_version", "idempotency_key")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    move: Move
    expected_version: int
    idempotency_key: str
    def __init__(self, table_id: _Optional[str] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., expected_version: _Optional[int] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("view", "replayed")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    view: View
    replayed: bool
    def __init__(self, view: _Optional[_Union[View, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class WatchTurnsRequest(_message.Message):
    __slots__ = ("table_id", "after_version")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    after_version: int
    def __init__(self, table_id: _Optional[str] = ..., after_version: _Optional[int] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("table_id", "move", "expected_version", "idempotency_key", "after_version")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    move: Move
    expected_version: int
    idempotency_key: str
    after_version: int
    def __init__(self, table_id: _Optional[str] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., expected_version: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., after_version: _Optional[int] = ...) -> None: ...

class PlayEvent(_message.Message):
    __slots__ = ("turn", "result")
    TURN_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    turn: View
    result: MoveResult
    def __init__(self, turn: _Optional[_Union[View, _Mapping]] = ..., result: _Optional[_Union[MoveResult, _Mapping]] = ...) -> None: ...

class MoveResult(_message.Message):
    __slots__ = ("accepted", "replayed", "version", "status", "reason", "message")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    accepted: bool
    replayed: bool
    version: int
    status: str
    reason: str
    message: str
    def __init__(self, accepted: _Optional[bool] = ..., replayed: _Optional[bool] = ..., version: _Optional[int] = ..., status: _Optional[str] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class WatchTableRequest(_message.Message):
    __slots__ = ("table_id", "after_seq")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    after_seq: int
    def __init__(self, table_id: _Optional[str] = ..., after_seq: _Optional[int] = ...) -> None: ...

class MovePlayed(_message.Message):
    __slots__ = ("seat", "move", "version", "by")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    move: Move
    version: int
    by: str
    def __init__(self, seat: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., version: _Optional[int] = ..., by: _Optional[str] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand", "dealer", "your_cards")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    YOUR_CARDS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    dealer: int
    your_cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hand: _Optional[int] = ..., dealer: _Optional[int] = ..., your_cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TrickWon(_message.Message):
    __slots__ = ("winner", "cards", "leader")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    winner: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    leader: int
    def __init__(self, winner: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., leader: _Optional[int] = ...) -> None: ...

class HandScored(_message.Message):
    __slots__ = ("hand", "result_json", "scores")
    HAND_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    hand: int
    result_json: str
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[int] = ..., result_json: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("winner", "scores", "seed")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    winner: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    seed: str
    def __init__(self, winner: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., seed: _Optional[str] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TableEvent(_message.Message):
    __slots__ = ("seq", "snapshot", "move", "hand_started", "trick_won", "hand_scored", "game_over", "heartbeat", "seats", "chat")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WON_FIELD_NUMBER: _ClassVar[int]
    HAND_SCORED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    snapshot: View
    move: MovePlayed
    hand_started: HandStarted
    trick_won: TrickWon
    hand_scored: HandScored
    game_over: GameOver
    heartbeat: Heartbeat
    seats: Seats
    chat: ChatLine
    def __init__(self, seq: _Optional[int] = ..., snapshot: _Optional[_Union[View, _Mapping]] = ..., move: _Optional[_Union[MovePlayed, _Mapping]] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., trick_won: _Optional[_Union[TrickWon, _Mapping]] = ..., hand_scored: _Optional[_Union[HandScored, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., seats: _Optional[_Union[Seats, _Mapping]] = ..., chat: _Optional[_Union[ChatLine, _Mapping]] = ...) -> None: ...

class Seats(_message.Message):
    __slots__ = ("seat_taken", "seat_names", "spectators", "seat_bots", "seat_here")
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    SEAT_BOTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_HERE_FIELD_NUMBER: _ClassVar[int]
    seat_taken: _containers.RepeatedScalarFieldContainer[bool]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    spectators: int
    seat_bots: _containers.RepeatedScalarFieldContainer[str]
    seat_here: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, seat_taken: _Optional[_Iterable[bool]] = ..., seat_names: _Optional[_Iterable[str]] = ..., spectators: _Optional[int] = ..., seat_bots: _Optional[_Iterable[str]] = ..., seat_here: _Optional[_Iterable[bool]] = ...) -> None: ...

class GetRecordRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class GetRecordResponse(_message.Message):
    __slots__ = ("record_json", "complete")
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    record_json: str
    complete: bool
    def __init__(self, record_json: _Optional[str] = ..., complete: _Optional[bool] = ...) -> None: ...

class VerifyRecordRequest(_message.Message):
    __slots__ = ("record_json",)
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    record_json: str
    def __init__(self, record_json: _Optional[str] = ...) -> None: ...

class VerifyRecordResponse(_message.Message):
    __slots__ = ("verdict_json", "valid")
    VERDICT_JSON_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    verdict_json: str
    valid: bool
    def __init__(self, verdict_json: _Optional[str] = ..., valid: _Optional[bool] = ...) -> None: ...

class ReplayRecordRequest(_message.Message):
    __slots__ = ("table_id", "record_json")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    record_json: str
    def __init__(self, table_id: _Optional[str] = ..., record_json: _Optional[str] = ...) -> None: ...

class ReplayRecordResponse(_message.Message):
    __slots__ = ("replay_json", "valid", "record_json")
    REPLAY_JSON_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    replay_json: str
    valid: bool
    record_json: str
    def __init__(self, replay_json: _Optional[str] = ..., valid: _Optional[bool] = ..., record_json: _Optional[str] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("rules_name", "rules_text", "options", "players", "entrants", "teams", "pairing", "rounds", "duplicate", "seed", "name", "hands_per_round", "turn_seconds", "club_id")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULES_NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    PAIRING_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    HANDS_PER_ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    rules_name: str
    rules_text: str
    options: _containers.ScalarMap[str, str]
    players: int
    entrants: _containers.RepeatedScalarFieldContainer[str]
    teams: bool
    pairing: str
    rounds: int
    duplicate: bool
    seed: str
    name: str
    hands_per_round: int
    turn_seconds: int
    club_id: str
    def __init__(self, rules_name: _Optional[str] = ..., rules_text: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., players: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., teams: _Optional[bool] = ..., pairing: _Optional[str] = ..., rounds: _Optional[int] = ..., duplicate: _Optional[bool] = ..., seed: _Optional[str] = ..., name: _Optional[str] = ..., hands_per_round: _Optional[int] = ..., turn_seconds: _Optional[int] = ..., club_id: _Optional[str] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament_id", "director_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    DIRECTOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    director_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., director_token: _Optional[str] = ...) -> None: ...

class StartRoundRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class RoundTable(_message.Message):
    __slots__ = ("table", "table_id", "seats", "seat_tokens")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    table: int
    table_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, table: _Optional[int] = ..., table_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., seat_tokens: _Optional[_Iterable[str]] = ...) -> None: ...

class StartRoundResponse(_message.Message):
    __slots__ = ("round", "commitment", "tables")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    round: int
    commitment: str
    tables: _containers.RepeatedCompositeFieldContainer[RoundTable]
    def __init__(self, round: _Optional[int] = ..., commitment: _Optional[str] = ..., tables: _Optional[_Iterable[_Union[RoundTable, _Mapping]]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class RoundState(_message.Message):
    __slots__ = ("round", "commitment", "seed", "tables", "finished_tables", "table_states")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_TABLES_FIELD_NUMBER: _ClassVar[int]
    TABLE_STATES_FIELD_NUMBER: _ClassVar[int]
    round: int
    commitment: str
    seed: str
    tables: int
    finished_tables: int
    table_states: _containers.RepeatedCompositeFieldContainer[RoundTableState]
    def __init__(self, round: _Optional[int] = ..., commitment: _Optional[str] = ..., seed: _Optional[str] = ..., tables: _Optional[int] = ..., finished_tables: _Optional[int] = ..., table_states: _Optional[_Iterable[_Union[RoundTableState, _Mapping]]] = ...) -> None: ...

class RoundTableState(_message.Message):
    __slots__ = ("table", "table_id", "seats", "finished")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    table: int
    table_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    finished: bool
    def __init__(self, table: _Optional[int] = ..., table_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., finished: _Optional[bool] = ...) -> None: ...

class StandingRow(_message.Message):
    __slots__ = ("rank", "entrant", "name", "games", "wins", "points_for", "points_against", "difference")
    RANK_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FOR_FIELD_NUMBER: _ClassVar[int]
    POINTS_AGAINST_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    entrant: int
    name: str
    games: int
    wins: int
    points_for: int
    points_against: int
    difference: int
    def __init__(self, rank: _Optional[int] = ..., entrant: _Optional[int] = ..., name: _Optional[str] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., points_for: _Optional[int] = ..., points_against: _Optional[int] = ..., difference: _Optional[int] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("standings", "rounds", "audit_json", "name", "rules", "rounds_planned", "entrants", "rules_sha256", "title", "club_id", "entrant_members")
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    AUDIT_JSON_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    RULES_SHA256_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_MEMBERS_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[StandingRow]
    rounds: _containers.RepeatedCompositeFieldContainer[RoundState]
    audit_json: _containers.RepeatedScalarFieldContainer[str]
    name: str
    rules: str
    rounds_planned: int
    entrants: _containers.RepeatedScalarFieldContainer[str]
    rules_sha256: str
    title: str
    club_id: str
    entrant_members: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, standings: _Optional[_Iterable[_Union[StandingRow, _Mapping]]] = ..., rounds: _Optional[_Iterable[_Union[RoundState, _Mapping]]] = ..., audit_json: _Optional[_Iterable[str]] = ..., name: _Optional[str] = ..., rules: _Optional[str] = ..., rounds_planned: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., rules_sha256: _Optional[str] = ..., title: _Optional[str] = ..., club_id: _Optional[str] = ..., entrant_members: _Optional[_Iterable[str]] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("tournament_id", "reason", "forfeit", "replace", "adjust")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    ADJUST_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    reason: str
    forfeit: Forfeit
    replace: Replace
    adjust: Adjust
    def __init__(self, tournament_id: _Optional[str] = ..., reason: _Optional[str] = ..., forfeit: _Optional[_Union[Forfeit, _Mapping]] = ..., replace: _Optional[_Union[Replace, _Mapping]] = ..., adjust: _Optional[_Union[Adjust, _Mapping]] = ...) -> None: ...

class Forfeit(_message.Message):
    __slots__ = ("entrant", "round")
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    entrant: int
    round: int
    def __init__(self, entrant: _Optional[int] = ..., round: _Optional[int] = ...) -> None: ...

class Replace(_message.Message):
    __slots__ = ("entrant", "name")
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    entrant: int
    name: str
    def __init__(self, entrant: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class Adjust(_message.Message):
    __slots__ = ("entrant", "wins", "points")
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    entrant: int
    wins: int
    points: int
    def __init__(self, entrant: _Optional[int] = ..., wins: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("audit_json",)
    AUDIT_JSON_FIELD_NUMBER: _ClassVar[int]
    audit_json: str
    def __init__(self, audit_json: _Optional[str] = ...) -> None: ...

class ExportTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ExportTournamentResponse(_message.Message):
    __slots__ = ("archive_json",)
    ARCHIVE_JSON_FIELD_NUMBER: _ClassVar[int]
    archive_json: str
    def __init__(self, archive_json: _Optional[str] = ...) -> None: ...

class ClubRuleFile(_message.Message):
    __slots__ = ("rules_name", "rules_text")
    RULES_NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    rules_name: str
    rules_text: str
    def __init__(self, rules_name: _Optional[str] = ..., rules_text: _Optional[str] = ...) -> None: ...

class CreateClubRequest(_message.Message):
    __slots__ = ("name", "rule_files", "settings")
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULE_FILES_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    name: str
    rule_files: _containers.RepeatedCompositeFieldContainer[ClubRuleFile]
    settings: RatingSettings
    def __init__(self, name: _Optional[str] = ..., rule_files: _Optional[_Iterable[_Union[ClubRuleFile, _Mapping]]] = ..., settings: _Optional[_Union[RatingSettings, _Mapping]] = ...) -> None: ...

class RatingSettings(_message.Message):
    __slots__ = ("model", "mu", "sigma", "beta", "tau", "provisional_games", "rate_by", "season_start", "members_only")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    BETA_FIELD_NUMBER: _ClassVar[int]
    TAU_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_GAMES_FIELD_NUMBER: _ClassVar[int]
    RATE_BY_FIELD_NUMBER: _ClassVar[int]
    SEASON_START_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_ONLY_FIELD_NUMBER: _ClassVar[int]
    model: str
    mu: float
    sigma: float
    beta: float
    tau: float
    provisional_games: int
    rate_by: str
    season_start: str
    members_only: bool
    def __init__(self, model: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., beta: _Optional[float] = ..., tau: _Optional[float] = ..., provisional_games: _Optional[int] = ..., rate_by: _Optional[str] = ..., season_start: _Optional[str] = ..., members_only: _Optional[bool] = ...) -> None: ...

class CreateClubResponse(_message.Message):
    __slots__ = ("club_id", "director_token")
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    DIRECTOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    director_token: str
    def __init__(self, club_id: _Optional[str] = ..., director_token: _Optional[str] = ...) -> None: ...

class AddMemberRequest(_message.Message):
    __slots__ = ("club_id", "name")
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    name: str
    def __init__(self, club_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class AddMemberResponse(_message.Message):
    __slots__ = ("member_id", "member_token")
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    member_id: str
    member_token: str
    def __init__(self, member_id: _Optional[str] = ..., member_token: _Optional[str] = ...) -> None: ...

class GetClubRequest(_message.Message):
    __slots__ = ("club_id", "lang")
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    LANG_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    lang: str
    def __init__(self, club_id: _Optional[str] = ..., lang: _Optional[str] = ...) -> None: ...

class ClubMember(_message.Message):
    __slots__ = ("member_id", "name")
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    member_id: str
    name: str
    def __init__(self, member_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class ClubRules(_message.Message):
    __slots__ = ("rules", "title", "rules_sha256", "house_rules", "name")
    RULES_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULES_SHA256_FIELD_NUMBER: _ClassVar[int]
    HOUSE_RULES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    rules: str
    title: str
    rules_sha256: str
    house_rules: bool
    name: str
    def __init__(self, rules: _Optional[str] = ..., title: _Optional[str] = ..., rules_sha256: _Optional[str] = ..., house_rules: _Optional[bool] = ..., name: _Optional[str] = ...) -> None: ...

class ClubSeason(_message.Message):
    __slots__ = ("season", "closed", "games", "head")
    SEASON_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    HEAD_FIELD_NUMBER: _ClassVar[int]
    season: int
    closed: bool
    games: int
    head: str
    def __init__(self, season: _Optional[int] = ..., closed: _Optional[bool] = ..., games: _Optional[int] = ..., head: _Optional[str] = ...) -> None: ...

class ClubTable(_message.Message):
    __slots__ = ("table_id", "rules", "seat_members", "finished", "table")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_MEMBERS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    rules: str
    seat_members: _containers.RepeatedScalarFieldContainer[str]
    finished: bool
    table: TableInfo
    def __init__(self, table_id: _Optional[str] = ..., rules: _Optional[str] = ..., seat_members: _Optional[_Iterable[str]] = ..., finished: _Optional[bool] = ..., table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class ClubTournament(_message.Message):
    __slots__ = ("tournament_id", "name", "created")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    created: float
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., created: _Optional[float] = ...) -> None: ...

class GetClubResponse(_message.Message):
    __slots__ = ("club_id", "name", "members", "rule_files", "seasons", "tables", "ladders", "settings", "me", "director", "tournaments")
    class LaddersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Ladder
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Ladder, _Mapping]] = ...) -> None: ...
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    RULE_FILES_FIELD_NUMBER: _ClassVar[int]
    SEASONS_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    LADDERS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    ME_FIELD_NUMBER: _ClassVar[int]
    DIRECTOR_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    name: str
    members: _containers.RepeatedCompositeFieldContainer[ClubMember]
    rule_files: _containers.RepeatedCompositeFieldContainer[ClubRules]
    seasons: _containers.RepeatedCompositeFieldContainer[ClubSeason]
    tables: _containers.RepeatedCompositeFieldContainer[ClubTable]
    ladders: _containers.MessageMap[str, Ladder]
    settings: RatingSettings
    me: str
    director: bool
    tournaments: _containers.RepeatedCompositeFieldContainer[ClubTournament]
    def __init__(self, club_id: _Optional[str] = ..., name: _Optional[str] = ..., members: _Optional[_Iterable[_Union[ClubMember, _Mapping]]] = ..., rule_files: _Optional[_Iterable[_Union[ClubRules, _Mapping]]] = ..., seasons: _Optional[_Iterable[_Union[ClubSeason, _Mapping]]] = ..., tables: _Optional[_Iterable[_Union[ClubTable, _Mapping]]] = ..., ladders: _Optional[_Mapping[str, Ladder]] = ..., settings: _Optional[_Union[RatingSettings, _Mapping]] = ..., me: _Optional[str] = ..., director: _Optional[bool] = ..., tournaments: _Optional[_Iterable[_Union[ClubTournament, _Mapping]]] = ...) -> None: ...

class GetMemberHistoryRequest(_message.Message):
    __slots__ = ("club_id", "member_id")
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    member_id: str
    def __init__(self, club_id: _Optional[str] = ..., member_id: _Optional[str] = ...) -> None: ...

class Ladder(_message.Message):
    __slots__ = ("rungs",)
    RUNGS_FIELD_NUMBER: _ClassVar[int]
    rungs: _containers.RepeatedCompositeFieldContainer[Rung]
    def __init__(self, rungs: _Optional[_Iterable[_Union[Rung, _Mapping]]] = ...) -> None: ...

class Rung(_message.Message):
    __slots__ = ("place", "member", "name", "rating", "mu", "sigma", "games", "wins", "provisional", "partners")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    PARTNERS_FIELD_NUMBER: _ClassVar[int]
    place: int
    member: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    partners: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, place: _Optional[int] = ..., member: _Optional[str] = ..., name: _Optional[str] = ..., rating: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., provisional: _Optional[bool] = ..., partners: _Optional[_Iterable[str]] = ...) -> None: ...

class GetMemberHistoryResponse(_message.Message):
    __slots__ = ("points",)
    POINTS_FIELD_NUMBER: _ClassVar[int]
    points: _containers.RepeatedCompositeFieldContainer[RatingPoint]
    def __init__(self, points: _Optional[_Iterable[_Union[RatingPoint, _Mapping]]] = ...) -> None: ...

class RatingPoint(_message.Message):
    __slots__ = ("game", "key", "mu", "sigma", "rating")
    GAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    game: int
    key: str
    mu: float
    sigma: float
    rating: float
    def __init__(self, game: _Optional[int] = ..., key: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., rating: _Optional[float] = ...) -> None: ...

class OpenClubTableRequest(_message.Message):
    __slots__ = ("club_id", "rules", "options", "players", "turn_seconds", "hand_limit", "seed")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    HAND_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    rules: str
    options: _containers.ScalarMap[str, str]
    players: int
    turn_seconds: int
    hand_limit: int
    seed: str
    def __init__(self, club_id: _Optional[str] = ..., rules: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., players: _Optional[int] = ..., turn_seconds: _Optional[int] = ..., hand_limit: _Optional[int] = ..., seed: _Optional[str] = ...) -> None: ...

class OpenClubTableResponse(_message.Message):
    __slots__ = ("table_id", "host_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    host_token: str
    def __init__(self, table_id: _Optional[str] = ..., host_token: _Optional[str] = ...) -> None: ...

class JoinClubTableRequest(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class CloseSeasonRequest(_message.Message):
    __slots__ = ("club_id",)
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    def __init__(self, club_id: _Optional[str] = ...) -> None: ...

class CloseSeasonResponse(_message.Message):
    __slots__ = ("closed", "head", "opened")
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    HEAD_FIELD_NUMBER: _ClassVar[int]
    OPENED_FIELD_NUMBER: _ClassVar[int]
    closed: int
    head: str
    opened: int
    def __init__(self, closed: _Optional[int] = ..., head: _Optional[str] = ..., opened: _Optional[int] = ...) -> None: ...

class LeaveClubRequest(_message.Message):
    __slots__ = ("club_id",)
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    def __init__(self, club_id: _Optional[str] = ...) -> None: ...

class LeaveClubResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ExportClubRequest(_message.Message):
    __slots__ = ("club_id",)
    CLUB_ID_FIELD_NUMBER: _ClassVar[int]
    club_id: str
    def __init__(self, club_id: _Optional[str] = ...) -> None: ...

class ExportClubResponse(_message.Message):
    __slots__ = ("export_jsonl",)
    EXPORT_JSONL_FIELD_NUMBER: _ClassVar[int]
    export_jsonl: str
    def __init__(self, export_jsonl: _Optional[str] = ...) -> None: ...
