"""The declared shape of a rule file (keys, types, defaults, docs): one definition for the
validator and for the JSON Schema editors use."""
from __future__ import annotations

from smear_dsl.errors import ERROR_CODES
from smear_dsl.language.langversion import LATEST
from smear_dsl.language.schema import Any_, Bool, Dict, Enum, Expr, F, Int, ListOf, Map, OneOf, Str, Tagged

WHO = Enum("bidder", "dealer", "each", "non_dealers", "non_bidders",
           doc="who acts: the bidder, the dealer, each seat from the dealer's left, or all but the dealer/bidder")

OPTION = Map({
    "type": F(Enum("int", "bool", "choice"), required=True, doc="int, bool or choice"),
    "default": F(Any_(), required=True, doc="the value when a table does not set it"),
    "min": F(Int(), doc="smallest allowed value (int)"),
    "max": F(Int(), doc="largest allowed value (int)"),
    "choices": F(ListOf(Str(), min_items=1), doc="allowed values (choice)"),
    "description": F(Str(), default="", doc="what the option does, for players"),
}, name="an option")

DECK = Map({
    "ranks": F(ListOf(Any_(), min_items=1), required=True, doc="ranks in each suit, high to low, e.g. [A, K, Q, J, T, 9, 8, 7]"),
    "remove": F(ListOf(Str()), default=[], doc="single cards taken out, e.g. [2C, 2D]"),
    "jokers": F(ListOf(Str()), default=[], doc="names of the jokers, e.g. [BJ, RJ]"),
    "values": F(Dict(Int(), free_keys=True), default={},
                doc="card values for the Game point, e.g. {A: 4, K: 3, Q: 2, J: 1, T: 10}"),
}, name="deck")

DEAL = Map({
    "hand_size": F(Expr("int", "static"), required=True, doc="cards dealt to each player"),
    "packets": F(ListOf(Int(lo=1)), doc="packet sizes each player gets in turn, e.g. [3, 3]"),
    "rest": F(Enum("stock", "aside"), default="stock", doc="the undealt cards: a stock phases can take from, or set aside"),
    "redeal_if": F(Expr("bool", "redeal"), doc="a condition on one seat's hand that makes the same dealer deal again"),
    "turn_up": F(Bool(), default=False, doc="after the deal the top card of the stock is turned face up: its suit is trump"),
    "stock_face_up": F(Bool(), default=False,
                       doc="the stock lies face up: everyone sees its top card, so every card drawn from it is public"),
}, name="deal")

BIDDING = Map({
    "min": F(Expr("int", "static"), required=True, doc="lowest bid"),
    "max": F(Expr("int", "static"), required=True, doc="highest bid"),
    "names": F(Dict(Int()), default={}, doc="names for special bids, usable in expressions, e.g. {smudge: 5}"),
    "rounds": F(Enum("one", "open"), default="one", doc="one: each player speaks once; open: round and round until all but one pass"),
    "ends_at": F(Expr("int", "static"), doc="a bid that ends the bidding at once (default: max)"),
    "may_match": F(Expr("bool", "bid"), doc="when a bid equal to the highest so far is allowed (and takes it), e.g. `is_dealer`"),
    "all_pass": F(Enum("redeal", "next_dealer", "dealer_bids", "set_back", "eldest_pitches", "dealer_plays"), default="redeal",
                  doc="when everyone passes: the same dealer redeals, the next dealer deals, the dealer must bid, the dealer "
                      "is set back, or the player left of the dealer (eldest_pitches) or the dealer (dealer_plays) "
                      "becomes the bidder with no contract (a bid of 0)"),
    "set_back": F(Expr("int", "static"), doc="with all_pass: set_back, how much the dealer loses"),
}, name="bidding")

_PHASE_COMMON = {"who": F(WHO, required=True, doc="who acts")}
PHASES = Tagged({
    "name_trump": Map({
        **_PHASE_COMMON,
        "may_pass": F(Bool(), default=False,
                      doc="with `who: each` (no bidding): from the dealer's left each player names trump or passes; "
                          "the first to name it sets it"),
        "all_pass": F(Enum("forced", "redeal"), default="forced",
                      doc="with may_pass, when all the others passed: forced, the last (the dealer) must name it; "
                          "redeal, the last may pass too and the same dealer deals again"),
    }, name="name_trump"),
    "take": Map({**_PHASE_COMMON, "count": F(Expr("int", "phase"), required=True,
                                             doc="cards taken from the front of the stock")}, name="take"),
    "discard": Map({
        **_PHASE_COMMON,
        "count": F(Expr("int", "phase"), doc="exactly this many cards"),
        "min": F(Expr("int", "phase"), doc="at least (instead of count)"),
        "max": F(Expr("int", "phase"), doc="at most (instead of count)"),
        "allowed": F(Expr("bool", "discard_card"), doc="which cards may be discarded (`card` is each one)"),
        "valid_if": F(Expr("bool", "discard_set"), doc="a condition on the whole discard (`discard`, `kept`)"),
        "credit": F(Enum("own", "bidder", "nobody"), default="nobody", doc="whose Game count the discards join"),
        "face_up": F(Bool(), default=False, doc="the discards are shown to everyone (else only their owner sees them)"),
    }, name="discard"),
    "refill": Map({**_PHASE_COMMON,
                   "to": F(Expr("int", "phase"), required=True, doc="refill from the stock up to this many cards"),
                   "short": F(Enum("play_short"), doc="when the stock cannot refill everyone: play_short, the last "
                              "players draw what is left and play with fewer cards (the hand ends when a player has "
                              "none); required when check cannot rule out running short"),
                   }, name="refill"),
}, doc="steps between the bidding and the play, in order")

LEAD_RULE = Map({
    "forbid": F(Expr("bool", "lead"), required=True, doc="a lead that is not allowed (`lead` is the card)"),
    "code": F(Enum(*ERROR_CODES), required=True, doc="the error code a refused lead gets"),
    "message": F(Str(), default="this lead is not allowed", doc="what the player is told"),
}, name="a lead rule")

FOLLOW_RULE = Map({
    "forbid": F(Expr("bool", "follow"), required=True,
                doc="a card that may not be played to a trick another player led (`play` is the card)"),
    "code": F(Enum(*ERROR_CODES), required=True, doc="the error code a refused card gets, e.g. MUST_TRUMP"),
    "message": F(Str(), default="this card may not be played now", doc="what the player is told"),
}, name="a follow rule")

PLAY = Map({
    "leader": F(Enum("bidder", "left_of_dealer", "namer"), default="bidder",
                doc="who leads the first trick: the bidder, the player left of the dealer, or the player who named trump"),
    "follow": F(Enum("suit_or_trump", "suit"), default="suit_or_trump",
                doc="suit_or_trump: follow the led suit or trump; suit: follow suit when you can"),
    "lead_rules": F(ListOf(LEAD_RULE), default=[], doc="restrictions on leading"),
    "follow_rules": F(ListOf(FOLLOW_RULE), default=[],
                      doc="restrictions on every other card played to a trick, on top of `follow`"),
    "draw": F(Enum("none", "winner_first"), default="none",
              doc="winner_first: after each trick, while the stock lasts, each player draws a card from it, the trick's winner first"),
}, name="play")

POINT = Map({
    "value": F(Expr("int", "static"), default=1, doc="how much the point is worth"),
    "card": F(Expr("card?", "point"), doc="the card that carries the point, e.g. `A of trump` or `highest(played where card.trump)`"),
    "to": F(Expr("side", "point_to"),
            doc="who gets it: player (who played the card), winner (who won the trick with it), holder (who held it), "
                "dealer_if_turned (the dealer's side, when the card is the one turned up that becomes trump: needs "
                "deal.turn_up), or a condition choosing among them and nobody, e.g. "
                "`if winner != holder then winner else nobody`"),
    "each": F(Expr("bool", "each_card"),
              doc="a point for every card this holds for (`card`), scored as its trick is won, e.g. "
                  "`card.rank == 9 and not card.trump`; needs `to`"),
    "per_trick": F(Bool(), default=False, doc="a point for every trick, to the side that wins it"),
    "most": F(Bool(), default=False, doc="the Game point: the side with the most card value (deck.values) in its tricks"),
    "tie": F(Enum("none", "bidder", "eldest"), default="none",
             doc="with most: who gets a tie for most (eldest: the side of the player left of the dealer)"),
    "gift": F(Bool(), default=False, doc="the point the dealer gives the beggar's side instead of running the cards (needs `beg:`)"),
}, name="a point")

BEG = Map({
    "run": F(Int(lo=1), default=3, doc="to run the cards the dealer deals each player this many more, then turns up the "
                                       "next card for trump (again while it is of the suit begged)"),
    "gift_may_win": F(Bool(), default=False,
                      doc="false: the dealer may not give a gift that would take the beggar's side to the target, "
                          "and must run the cards"),
}, name="beg")

SCORING = Map({
    "made": F(Expr("bool", "made"), doc="whether the bidder's side made its bid (required unless `bidding: none`)"),
    "bidder": F(Expr("int", "scoring"), doc="the bidder side's change of score (required unless `bidding: none`)"),
    "others": F(Expr("int", "scoring"), required=True, doc="every other side's change of score"),
    "cap": F(Map({"when": F(Expr("bool", "scoring"), required=True), "at": F(Expr("int", "scoring"), required=True)}, name="cap"),
             doc="a score may not rise above `at` in a hand where `when` holds"),
}, name="scoring")

END = Map({
    "target": F(Expr("int", "static"), required=True, doc="the score to reach"),
    "win_if": F(Expr("bool", "end"), required=True, doc="checked for each side after each scored hand"),
    "tie_break": F(ListOf(Enum("bidder", "count_out", "highest")), default=[],
                   doc="how to choose when several sides may win (the bidder's side; the first to reach the target "
                       "as the points are counted out; the highest score); if still tied, play on"),
    "count_out": F(Map({
        "order": F(OneOf(("list", ListOf(Str(), min_items=1)), ("scalar", Enum("as_won"))),
                   doc="the points in the order they are counted, e.g. [high, low, jack, game], or as_won: in the "
                       "order they fell during the hand (a card's point with its trick, those settled by the whole "
                       "hand after the last trick)"),
        "when": F(Expr("bool", "static"), doc="a condition on the table's options: counting out applies only when it holds"),
    }, name="count_out"), doc="how `tie_break: [count_out]` counts: the order of the points (the rest follow as listed)"),
}, name="end")

LANG_TEXT = Map({
    "name": F(Str(), doc="the variant's name in this language (not inherited by a child file)"),
    "description": F(Str(), doc="the description in this language (not inherited by a child file)"),
    "options": F(Dict(Str()), default={}, doc="option name -> what it does, in this language"),
    "messages": F(Dict(Str(), free_keys=True), default={},
                  doc="a lead or follow rule's refusal in this language, keyed by its code, or by its English message "
                      "where two rules share a code"),
    "names": F(Dict(Str()), default={},
               doc="identifier (point, definition, named bid, joker) -> the word players read in this language"),
}, name="a language's words")

RULES = Map({
    "version": F(Int(lo=1, hi=1_000_000), doc="this file's version: a change to how it plays makes a new one "
                 "(the shipped family keeps every version: `extends: NAME@1`)"),
    "language": F(Int(lo=1, hi=LATEST, doc=f"this smear-dsl reads language versions 1 to {LATEST}; a newer one "
                      "reads later ones"), doc="the version of the rule language this file is written in (1 when "
                  "not given): a check added later refuses only files of its version or newer"),
    "extends": F(Str(), doc="a rule name in rules/ (`NAME`: its latest version; `NAME@1`: that version) or a "
                 "path: this file overrides its keys"),
    "name": F(Str(), required=True, doc="the variant's name"),
    "description": F(Str(), default="", doc="a line or two for players"),
    "players": F(OneOf(("scalar", Int(lo=2, hi=8)), ("list", ListOf(Int(lo=2, hi=8), min_items=1))), required=True,
                 doc="how many players: a number or a list"),
    "teams": F(Expr("int", "static"), doc="number of partnerships (seat mod teams); leave out for each for themselves"),
    "options": F(Dict(OPTION), default={}, doc="table options players choose before the game"),
    "define": F(Dict(Expr("any", "define")), default={},
                doc="named expressions, e.g. {buried_suit: any(discarded where card.suit == lead.suit)}: other "
                    "expressions use the name, which `explain` reads instead of the formula"),
    "deck": F(DECK, required=True),
    "trump_order": F(ListOf(OneOf(("scalar", Any_()), ("list", ListOf(Any_(), min_items=2)))),
                     doc="the trump suit high to low: ranks, jick, jokers; a [list] ranks equal"),
    "equal_trumps": F(Expr("str", "static"), doc='"first" or "last": which of equal trumps wins a trick'),
    "deal": F(DEAL, required=True),
    "bidding": F(OneOf(("map", BIDDING), ("scalar", Enum("none", doc="no bidding: every hand goes straight to the play"))),
                 required=True, doc="the bidding, or `none` for games without one"),
    "beg": F(BEG, doc="begging (with `bidding: none` and a turned-up trump): the player left of the dealer stands "
                      "or begs; the dealer gives the beggar's side the `gift` point or runs the cards"),
    "phases": F(ListOf(PHASES), default=[]),
    "play": F(PLAY, default=None),
    "points": F(Dict(POINT), required=True),
    "scoring": F(SCORING, required=True),
    "end": F(END, required=True),
    "translations": F(Dict(LANG_TEXT), default={},
                      doc="the rule file's own words for players in other languages, by language code "
                          "(fr, sk, tl, th): name, description, option descriptions, refusal messages, names"),
}, name="the rule file")
