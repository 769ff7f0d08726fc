"""`smear-dsl explain`: a compiled rule file written out as the rules players read at the table.

Everything comes from the compiled rules (seat counts, deck, card order, bid range, targets)
and the rule file's expressions read aloud (reading.py), never from text written per
variant, in the reader's language (i18n.py; the rule file may add its own words per language). The document is a
small tree (sections of paragraphs, lists and tables) that
renders to Markdown or to a standalone HTML page.
"""
from __future__ import annotations

import dataclasses
import html
import re
from dataclasses import dataclass, field
from typing import Any

from smear_dsl import cards as C
from smear_dsl.compile import pointkinds
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.expr import ast as A
from smear_dsl.expr.emit import emit
from smear_dsl.i18n import N_, Tr, rules_title, tr_for
from smear_dsl.language.spec import ExprSpec, LangText, RuleSpec
from smear_dsl.sheets.most import most_awarded
from smear_dsl.sheets.reading import Reader

SEAT_WORDS = {"bidder": N_("The bidder"), "dealer": N_("The dealer"),
              "each": N_("Each player, from the dealer's left,"),
              "non_dealers": N_("Each player but the dealer, from the dealer's left,"),
              "non_bidders": N_("Each player but the bidder, from the dealer's left,")}
TO_WORDS = {"player": N_("the side that played it"), "winner": N_("the side that wins the trick it falls in"),
            "holder": N_("the side that held it when play began"),
            "dealer_if_turned": N_("the dealer's side, when it is the card turned up that becomes trump "
                                   "(counted at once)")}
# How the sheet says what each kind of point is for (compile/pointkinds.py's `won_by`, or the point's card as
# the file names it); tests/engine/test_point_kinds.py holds this complete.
READS = {
    pointkinds.MOST: "won_by, and how a tie goes",
    pointkinds.GIFT: "won_by: the gift",
    pointkinds.TRICKS: "won_by: every trick",
    pointkinds.EACH: "won_by with the point's condition",
    pointkinds.BY_TRUMP: "the point's card, read",
    pointkinds.SCAN_PLAYED: "the point's card, read",
    pointkinds.SCAN_DEALT: "the point's card, read",
    pointkinds.EXPR: "the point's card, read",
    pointkinds.TURNED: "the point's card, read, to the dealer's side when turned up",
}
# Whole sentences, one per way a tie goes: "nobody" cannot fill a slot written for a side (it needs
# another case, preposition or verb in most languages).
TIE_SENTENCES = {"bidder": N_("that side; a tie gives it to the bidder's side, when it is among the tied"),
                 "eldest": N_("that side; a tie gives it to the side of the player left of the dealer"),
                 "none": N_("that side; a tie gives it to nobody")}
ALL_PASS = {
    "redeal": N_("If everyone passes, the same dealer deals again."),
    "next_dealer": N_("If everyone passes, the deal passes to the next dealer."),
    "dealer_bids": N_("If everyone else passes, the dealer may not pass and must bid at least {n}."),
    "set_back": N_("If everyone passes, the dealer's side loses {n} and the deal passes on."),
    "eldest_pitches": N_("If everyone passes, the player left of the dealer plays as the bidder with no "
                         "contract (a bid of 0, which any score makes)."),
    "dealer_plays": N_("If everyone passes, the dealer plays as the bidder with no contract (a bid of 0, which "
                       "any score makes)."),
}


@dataclass
class Section:
    title: str
    blocks: list = field(default_factory=list)  # str (paragraph), list[str] (bullets), Table


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]


@dataclass
class Document:
    title: str
    intro: list[str]
    sections: list[Section]
    lang: str = "en"


@dataclass
class Sheet:
    """What every section reads from: the rule file, its compiled table, the reader, the language."""

    spec: RuleSpec
    r: CompiledRules
    rd: Reader
    tr: Tr
    words: LangText | None  # the rule file's own words in this language, if it gives them


def explain(spec: RuleSpec, options: dict[str, Any] | None = None, players: int | None = None,
            lang: str = "en") -> Document:
    """The rules of `spec` with default options, for every seat count it allows; or, given a table's
    `options` (and seat count), the rules of that table, its option values read in place of their names.
    `lang` is the reader's language (i18n.LANGUAGES)."""
    counts = [players] if players else spec.players
    tables = {n: compile_rules(spec, n, options or {}) for n in counts}
    r = tables[counts[0]]
    words = spec.words(lang)
    tr = tr_for(lang, words.names if words else None)
    rd = Reader({o.name for o in spec.options if o.type == "bool"}, {o.name for o in spec.options},
                dict(spec.bidding.names), spec.deck.jokers, dict(r.options) if options is not None else {},
                frozenset(name for name, _t, _a in spec.definitions), frozenset(spec.point_vars), tr)
    sh = Sheet(spec, r, rd, tr, words)
    t = tr.t
    description = spec.about(lang)
    intro = [description] if description else []
    rule_file = f"`{spec.ref}`"  # the exact version: `name@2`
    if spec.stem == "upload":  # a club's own file, sent to a server: it has no file name to give
        origin = t("House rules, a variant of {parents}", parents=t(" of ").join(f"`{p}`" for p in spec.extends)) \
            if spec.extends else t("House rules")
    elif spec.extends:
        origin = t("Rule file {file}, a variant of {parents}", file=rule_file,
                   parents=t(" of ").join(f"`{p}`" for p in spec.extends))
    else:
        origin = t("Rule file {file}", file=rule_file)
    if options is None:
        intro.append(t("{origin}. Table options are shown at their defaults; see the last section.", origin=origin))
    else:
        chosen = tr.tp("list", ", ").join(f"{k}={_option_text(tr, v)}" for k, v in r.options.items())
        table = tr.tn("{n} player", "{n} players", r.players) + (t("; {chosen}", chosen=chosen) if chosen else "")
        intro.append(t("{origin}, as this table plays it ({table}).", origin=origin, table=table))
    return Document(rules_title(spec, lang), intro, [
        _players(sh, tables), _cards(sh), _deal(sh, tables), _bidding(sh),
        *([_phases(sh)] if spec.phases else []), _play(sh), _points(sh),
        _scoring(sh), _end(sh), *([_definitions(sh)] if spec.definitions else []),
        _options(sh, r.options if options is not None else None)], tr.lang)


# ---------------------------------------------------------------- sections

def _players(sh: Sheet, tables: dict[int, CompiledRules]) -> Section:
    tr = sh.tr
    items = []
    for n, r in tables.items():
        if r.n_sides == n:
            items.append(tr.t("{n} players, each for themselves.", n=n))
        else:
            sides = [[s for s in range(n) if r.side_of[s] == side] for side in range(r.n_sides)]
            teams = tr.t(" against ").join(tr.join([str(s + 1) for s in side]) for side in sides)
            items.append(tr.t("{n} players in {sides} partnerships of {size}: seats {teams}.", n=n, sides=r.n_sides,
                              size=n // r.n_sides, teams=teams))
    return Section(tr.t("Players"), [items, tr.t("Seats are numbered clockwise from 1. A partnership scores as one side.")])


def _cards(sh: Sheet) -> Section:
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    ranks = " ".join(tr.rank_short(i) for i in spec.deck.ranks)
    blocks: list = []
    text = t("{n} cards: {ranks} in each of the four suits", n=len(r.deck.cards), ranks=ranks)
    if spec.deck.remove:
        text = t("{text}, without {cards}", text=text, cards=tr.join([_card(sh, c) for c in spec.deck.remove]))
    if spec.deck.jokers:
        jokers = tr.join([tr.label(j) for j in spec.deck.jokers])
        text = t("{text}, and {jokers} ({names}), always trumps", text=text,
                 jokers=tr.tn("{n} joker", "{n} jokers", len(spec.deck.jokers)), names=jokers)
    blocks.append(t("{text}.", text=text))
    blocks.append(t("Outside trump each suit ranks {ranks}, high to low.", ranks=ranks))
    hearts = 1
    key = r.tables.order_key[hearts + 1]
    trumps = sorted(C.bits(r.deck.trump_mask[hearts + 1]), key=lambda c: -key[c])
    shown: list[str] = []
    notes: list[str] = []
    for i, c in enumerate(trumps):
        name = _card(sh, c)
        if c < C.N_SUITED and c // 13 != hearts:
            name = t("{card} (jick)", card=name) if C.rank_of(c) == 9 else t("{card} (of trump's colour)", card=name)
        if i and key[c] == key[trumps[i - 1]]:
            shown[-1] += f" = {name}"
        else:
            shown.append(name)
    blocks.append(t("With hearts as trump, the trumps rank (high to low): {cards}.", cards=tr.tp("list", ", ").join(shown)))
    if any(c < C.N_SUITED and c // 13 != hearts and C.rank_of(c) == 9 for c in trumps):
        notes.append(t("The jick, the jack of the other suit of trump's colour, is a trump and leaves its own suit."))
    others = sorted({tr.rank_short(C.rank_of(c)) for c in trumps if c < C.N_SUITED and c // 13 != hearts
                     and C.rank_of(c) != 9})
    if others:
        notes.append(tr.tn("The {ranks} of the other suit of trump's colour is a trump and leaves its own suit.",
                           "The {ranks} of the other suit of trump's colour are trumps and leave its own suit.",
                           len(others), ranks=tr.join(others)))
    if any("=" in s for s in shown):
        rule = spec.equal_trumps.text if spec.equal_trumps is not None else '"first"'
        which = t("Of two equal trumps in one trick, the last played wins") if r.play.equal_last else \
            t("Of two equal trumps in one trick, the first played wins")
        notes.append(f"{which} (`equal_trumps: {rule}`).")
    blocks += notes
    values = []
    for kind, v in spec.deck.values:
        label = tr.label(spec.deck.jokers[kind - 100]) if kind >= 100 else tr.rank_short(kind)
        values.append(f"{label} = {v}")
    if values:
        blocks.append(t("Card values for the Game point: {values}; every other card 0.",
                        values=tr.tp("list", ", ").join(values)))
    return Section(t("Cards"), blocks)


def _deal(sh: Sheet, tables: dict[int, CompiledRules]) -> Section:
    spec, tr = sh.spec, sh.tr
    t = tr.t
    r0 = next(iter(tables.values()))
    sizes = {n: r.deal.hand_size for n, r in tables.items()}
    if len(set(sizes.values())) == 1:
        size_text = tr.tn("{n} card", "{n} cards", r0.deal.hand_size)
    else:
        size_text = t(" or ").join(t("{cards} with {n} players", cards=tr.tn("{n} card", "{n} cards", h), n=n)
                                   for n, h in sizes.items())
    if len(r0.deal.packets) == 1:
        deal = t("The dealer gives each player {cards}, one packet at a time clockwise from the dealer's left.",
                 cards=size_text)
    else:
        deal = t("The dealer gives each player {cards} in packets of {packets}, one packet at a time clockwise "
                 "from the dealer's left.", cards=size_text, packets=tr.join([str(p) for p in r0.deal.packets]))
    blocks: list = [t("The first dealer is chosen at random; the deal then passes to the left.") + " " + deal]
    rest = {n: len(r.deck.cards) - r.players * r.deal.hand_size for n, r in tables.items()}
    # How many cards are left undealt, with the language's counting word where it has one (Thai ใบ
    # goes after each number, never after the whole "40 with 2 players / 28 with 4 players").
    if len(set(rest.values())) > 1:
        rest_text = " / ".join(tr.tp("undealt", "{cards} with {n} players", cards=str(v), n=n) for n, v in rest.items())
    else:
        rest_text = tr.tp("undealt", "{n}", n=next(iter(rest.values())))
    if spec.deal.rest == "stock":
        if spec.deal.stock_face_up:
            blocks.append(t("The undealt cards ({n}) stay face up as the stock, in order: everyone sees its top card.",
                            n=rest_text))
        else:
            blocks.append(t("The undealt cards ({n}) stay face down as the stock, in order.", n=rest_text))
        if spec.deal.turn_up:
            blocks.append(t("The stock's top card is turned face up for everyone to see: its suit is trump for the "
                            "hand. It stays on top of the stock."))
    else:
        blocks.append(t("The undealt cards ({n}) are set aside unseen.", n=rest_text))
    if spec.deal.redeal_if is not None:
        blocks.append(t("The same dealer deals again when a player's hand is such that {cond}.",
                        cond=_read(sh, spec.deal.redeal_if, True, Reader(tr=tr))))
    return Section(t("Deal"), blocks)


def _bidding(sh: Sheet) -> Section:
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    b = spec.bidding
    if spec.beg is not None:
        return _begging(sh)
    if r.bidding.none:
        return Section(t("Bidding"), [t("There is no bidding: after the deal the hand goes straight on to the phases "
                                        "below.") if spec.phases else
                                      t("There is no bidding: after the deal the hand goes straight on to the play.")])
    items = []
    if b.rounds == "one":
        items.append(t("Starting at the dealer's left, each player in turn bids once or passes."))
    else:
        items.append(t("Starting at the dealer's left, players bid or pass in turn, round and round; "
                       "a player who passes is out of the bidding, which ends when one bidder is left."))
    names = "".join(t("; {value} is called {name}", value=v, name=f"*{tr.label(k)}*") for k, v in b.names)
    items.append(t("Bids are {lo} to {hi}{names}.", lo=r.bidding.min, hi=r.bidding.max, names=names))
    if b.may_match is not None:
        items.append(t("A bid must be higher than the highest so far, or equal to it when {cond}; the later bidder "
                       "then takes the contract.", cond=_read(sh, b.may_match, True)))
    else:
        items.append(t("A bid must be higher than the highest so far."))
    if r.bidding.ends_at < r.bidding.max:
        items.append(t("A bid of {n} or more ends the bidding at once.", n=r.bidding.ends_at))
    elif r.bidding.ends_at == r.bidding.max:
        items.append(t("A bid of {n} ends the bidding at once.", n=r.bidding.max))
    else:
        items.append(t("No bid ends the bidding early: every player gets to speak."))
    items.append(t(ALL_PASS[b.all_pass], n=r.bidding.set_back if b.all_pass == "set_back" else r.bidding.min))
    items.append(t("The player who bids highest is the bidder, and their side must make the bid (see Scoring)."))
    return Section(t("Bidding"), [items])


def _begging(sh: Sheet) -> Section:
    """`beg:` in words: stand or beg, then give or run."""
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    gift = next(p for p in spec.points if p.gift)
    beg = spec.beg
    assert beg is not None, "a sheet has a begging section only for a file with `beg:`"
    k = beg.run
    items = [t("There is no bidding. The player left of the dealer (the eldest hand) looks at the turned-up card "
               "and stands (its suit is trump) or begs."),
             t("To a beg the dealer either gives the eldest hand's side the point {point} (worth {worth}) and the "
               "turned-up suit stays trump, or runs the cards: sets the turned-up card aside, deals {cards} to each "
               "player clockwise from the left and turns up the next card. While it is of the suit begged, the dealer "
               "runs the cards again; a new suit is trump. If the stock runs out first, the same dealer deals again.",
               point=f"`{gift.name}`" if tr.english else tr.label(gift.name), worth=_static_int(gift.value, r),
               cards=tr.tn("{n} more card", "{n} more cards", k)),
             t("Nobody begs twice in a hand. After the cards are run everyone plays every card they hold, unless a "
               "phase below says otherwise.")]
    if not beg.gift_may_win:
        items.append(t("The dealer may not give a point that would take the eldest hand's side to the target: then "
                       "he must run the cards."))
    return Section(t("Bidding (none): begging"), [items])


def _phases(sh: Sheet) -> Section:
    spec, tr = sh.spec, sh.tr
    t = tr.t
    items = []
    for p in spec.phases:
        who = t(SEAT_WORDS[p.who])
        if p.kind == "name_trump" and p.may_pass:
            items.append(t("From the dealer's left, each player in turn names a trump suit or passes; the first to "
                           "name one sets trump, and no one after speaks."))
            items.append(t("If all the others pass, the dealer must name trump.") if p.all_pass == "forced" else
                         t("If everyone passes, the same dealer deals again."))
        elif p.kind == "name_trump":
            items.append(t("{who} names the trump suit.", who=who))
        elif p.kind == "take":
            n, where = _amount(sh, p.count)
            items.append(t("{who} takes {n} from the front of the stock{where}.", who=who, n=n, where=where))
        elif p.kind == "refill":
            n, where = _amount(sh, p.to, "in hand")
            text = t("{who} draws from the stock until holding {n}{where}.", who=who, n=n, where=where)
            if p.short == "play_short":
                text += " " + t("If the stock runs out, the last players draw what is left and play with fewer cards; "
                                "the hand then ends when a player has no card left.")
            items.append(text)
        else:
            items.append(_discard_phase(sh, p, who))
    blocks: list = [items]
    if any(p.kind == "discard" for p in spec.phases):
        blocks.append(t("A player asked to discard no cards is skipped."))
    return Section(t("Between the bidding and the play"), blocks)


def _discard_phase(sh: Sheet, p: Any, who: str) -> str:
    t = sh.tr.t
    if p.count is not None:
        n, where = _amount(sh, p.count)
        how = t("exactly {n}{where}", n=n, where=where)
    else:
        lo, lo_where = _amount(sh, p.min, "", "M")
        hi, hi_where = _amount(sh, p.max)
        how = t("from {lo} to {hi}{where}", lo=lo, hi=hi, where=lo_where + hi_where)
    text = t("{who} discards {how}, face up for everyone to see", who=who, how=how) if p.face_up else \
        t("{who} discards {how}, face down", who=who, how=how)
    if p.allowed is not None:
        text += t("; a card may go only when {cond}", cond=_read(sh, p.allowed, True))
    if p.valid_if is not None:
        text += t("; the discard as a whole must satisfy: {cond}", cond=_read(sh, p.valid_if, True))
    text = t("{text}.", text=text)
    if p.credit == "bidder":
        text += " " + t("The discards count for the bidder's side in the Game count.")
    elif p.credit != "nobody":
        text += " " + t("The discards count for the discarder's side in the Game count.")
    else:
        text += " " + t("The discards count for nobody.")
    return text


def _play(sh: Sheet) -> Section:
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    items = [t("The bidder leads to the first trick.") if spec.play.leader == "bidder"
             else t("The player who named trump leads to the first trick.") if spec.play.leader == "namer"
             else t("The player at the dealer's left leads to the first trick.")]
    if not r.deal.turn_up and not spec.trump_named:
        items.append(t("The suit of the first card led becomes trump (a joker cannot fix trump, so it cannot be led "
                       "first).") if spec.deck.jokers else t("The suit of the first card led becomes trump."))
    if spec.play.follow == "suit_or_trump":
        items.append(t("A player holding a card of the suit led must play one, or may trump instead; a player "
                       "without that suit may play any card. When trump is led, trumps must follow if possible."))
    else:
        items.append(t("A player holding a card of the suit led must play one; a player without that suit may "
                       "play any card."))
    items.append(t("The highest trump wins the trick, otherwise the highest card of the suit led. "
                   "The winner leads to the next trick, until every card in hand has been played."))
    if r.play.draw_in_play:
        items.append(t("After each trick, while the stock lasts, every player draws its top card, the trick's winner "
                       "first and then clockwise; the last cards in hand are played out without drawing."))
    for rule in spec.play.lead_rules:
        items.append(t("A lead is refused ({code}: \u201c{message}\u201d) when {cond}.", code=rule.code,
                       message=_message(sh, rule.code, rule.message), cond=_read(sh, rule.forbid, True)))
    for rule in spec.play.follow_rules:
        items.append(t("A card played to a trick someone else led is refused ({code}: \u201c{message}\u201d) "
                       "when {cond}.", code=rule.code, message=_message(sh, rule.code, rule.message),
                       cond=_read(sh, rule.forbid, True)))
    return Section(t("Play"), [items])


def _points(sh: Sheet) -> Section:
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    rows = []
    for p, plan in zip(spec.points, r.points.plan):  # the compiled points are the file's, in its order
        kind = pointkinds.KINDS[plan[0]]
        value = _static_int(p.value, r)
        worth = str(value)
        if kind.code == pointkinds.MOST:
            card = t(kind.won_by)
            goes = t(TIE_SENTENCES[p.tie])
        elif kind.code == pointkinds.GIFT:
            card = t(kind.won_by)
            goes = t("the eldest hand's side, when the dealer gives (counted at once)")
        elif kind.code == pointkinds.TRICKS:
            card, worth = t(kind.won_by), t("{n} each", n=value)
            goes = t("the side that wins it, as it is won")
        elif kind.code == pointkinds.EACH and p.each is not None:  # (a point per card has its `each`)
            card, worth = t(kind.won_by, cond=_read(sh, p.each, True)), t("{n} each", n=value)
            goes = _goes(sh, p)
        elif kind.code in READS and p.card is not None:  # a card's point: the card as the file names it
            card = _read(sh, p.card, False)
            goes = _goes(sh, p)
        else:
            raise pointkinds.UnknownKind(kind.code, "the rules sheet")
        rows.append([tr.label(p.name), worth, card, goes])
    most, exact = most_awarded(r)
    blocks: list = [t("Each hand awards these points ({n} in all):", n=most) if exact else
                    t("Each hand awards these points (up to {n}):", n=most),
                    Table([t("point"), t("worth"), t("for"), t("goes to")], rows)]
    blocks.append(t("A point whose card is not in play goes to nobody; one card may carry two points "
                    "(a lone trump can be both High and Low)."))
    if r.points.pegged:
        blocks.append(t("Points scored per card or per trick are pegged as their tricks are won, and each side's "
                        "running total shows during the hand."))
    return Section(t("Points"), blocks)


def _goes(sh: Sheet, p) -> str:
    """Who gets a card's point: a word, or its `to:` condition read with sides as sides."""
    if p.to_expr is None:
        return sh.tr.t(TO_WORDS[p.to])
    return _read(sh, p.to_expr, False, dataclasses.replace(sh.rd, sides=True))


def _scoring(sh: Sheet) -> Section:
    spec, rd, t = sh.spec, sh.rd, sh.tr.t
    s = spec.scoring
    if s.made is None or s.bidder is None:  # `bidding: none` (with bidding, both are required)
        items = [t("Every side scores {x}.", x=_read(sh, s.others, False))]
    else:
        items = [t("The bidding side makes its bid when {cond}.", cond=_read(sh, s.made, True)),
                 t("The bidding side scores {x}.", x=_read(sh, s.bidder, False)),
                 t("Every other side scores {x}.", x=_read(sh, s.others, False))]
    never = (lambda e: rd.filled(e.ast) == A.Const(e.ast.pos, False, "bool"))  # off at this table
    if s.cap_when is not None and s.cap_at is not None and not never(s.cap_when):
        items.append(t("In a hand where {cond}, a side's score cannot rise above {x} (a score already higher stays).",
                       cond=_read(sh, s.cap_when, True), x=_read(sh, s.cap_at, False)))
    return Section(t("Scoring"), [items, t("Here \u201cits\u201d means the side being scored; its point total is the "
                                           "worth of the points it won this hand.")])


def _end(sh: Sheet) -> Section:
    spec, r, tr = sh.spec, sh.r, sh.tr
    t = tr.t
    e = spec.end
    items = [t("The target is {n}.", n=r.end.target),
             t("After each scored hand, a side wins when {cond}.", cond=_read(sh, e.win_if, True))]
    if r.points.pre_points and r.bidding.none:
        early = tr.join([tr.label(p.name) for p in spec.points if p.gift or p.to == "dealer_if_turned"])
        items.append(t("The points settled before the play ({points}) count at once: a side they bring to a win wins "
                       "as soon as trump is settled, before a card is played; otherwise they are scored with the "
                       "hand's other points.", points=early))
    if r.end.tie_break:
        order = tr.tp("list", ", ").join(_point_title(sh, r.points.names[i]) for i in r.end.count_plan or ())
        counted = t("the hand's points are counted out in the order they fell (those settled before the play, then "
                    "each card's point with its trick, then those the whole hand settles), each added to its side's "
                    "score from before the hand, and the first of them to reach the target wins") \
            if r.end.count_as_won else \
            t("the hand's points are counted out in the order {order}, each added to its side's "
              "score from before the hand, and the first of them to reach the target wins", order=order)
        steps = {"bidder": t("the bidding side wins if it is one of them"),
                 "highest": t("the highest score wins"),
                 "count_out": counted}
        items.append(t("If several sides could win: {steps}; if still tied, play goes on.",
                       steps=t("; then ").join(steps[x] for x in r.end.tie_break)))
    else:
        items.append(t("If several sides could win at once, play goes on."))
    return Section(t("End of the game"), [items])


def _definitions(sh: Sheet) -> Section:
    """`define:` names, each read once, as the rules above use them."""
    rd, t = sh.rd, sh.tr.t
    items = []
    for name, text, ast in sh.spec.definitions:
        filled = rd.filled(ast)
        words = rd.clause(filled) if _looks_true_false(filled) else rd.noun(filled)
        formula = f" (`{text.strip()}`)" if sh.tr.english else ""
        items.append(f"{rd.defined_name(name)}: {words}{formula}")
    return Section(t("Definitions"), [t("The rules above use these names:"), items])


def _looks_true_false(e: A.Expr) -> bool:
    """Whether a definition is a condition (read as a clause) rather than a number, card or set."""
    return isinstance(e, (A.Compare, A.BoolOp, A.Not, A.Member)) or isinstance(e, A.Call) and e.fn == "any" or \
        isinstance(e, A.Attr) and e.name in ("trump", "joker") or isinstance(e, A.Const) and e.type == "bool"


def _option_text(tr: Tr, v: Any) -> str:
    """An option's value as players read it: on/off in their words, a choice as typed (`last`)."""
    if isinstance(v, bool):
        return tr.t("on") if v else tr.t("off")
    return f"`{v}`" if isinstance(v, str) else str(v)


def _options(sh: Sheet, chosen: dict[str, Any] | None = None) -> Section:
    spec, tr = sh.spec, sh.tr
    t = tr.t
    if not spec.options:
        return Section(t("Table options"), [t("These rules have no table options.")])
    rows = []
    for o in spec.options:
        if o.type == "int":
            kind = t("number {lo}..{hi}", lo=o.min, hi=o.max) if o.min is not None and o.max is not None else t("number")
        elif o.type == "bool":
            kind = t("on/off")
        else:
            kind = t("one of {choices}", choices=", ".join(f"`{c}`" for c in o.choices))
        default = _option_text(tr, o.default)
        rows.append([f"`{o.name}`", kind, default, spec.option_text(o.name, tr.lang)] +
                    ([_option_text(tr, chosen[o.name])] if chosen is not None else []))
    header = [t("option"), t("values"), t("default"), t("what it does")]
    if chosen is not None:
        return Section(t("Table options"), [t("This table's choices:"), Table(header + [t("this table")], rows)])
    return Section(t("Table options"), [t("Chosen when a table is created (`--option name=value`)."), Table(header, rows)])


# ---------------------------------------------------------------- helpers

def _read(sh: Sheet, e: ExprSpec, clause: bool, rd: Reader | None = None) -> str:
    """An expression read aloud, with the formula itself after it in the English sheet (the authors'
    language) unless they are the same, or a table's option values were read into it."""
    rd = rd or sh.rd
    ast = rd.filled(e.source)
    words = rd.clause(ast) if clause else rd.noun(ast)
    code = e.text.strip()
    if not sh.tr.english or words == code or f"`{code}`" in words or ast != e.source:
        return words
    return f"{words} (`{code}`)"


def _amount(sh: Sheet, e: ExprSpec | None, unit: str = "", letter: str = "N") -> tuple[str, str]:
    """("2 cards", "") for a number; ("N cards", ", N being ...") for a formula. `unit` "in hand"
    says "cards in hand"; "" with letter M is a bare number (the low end of a range)."""
    tr = sh.tr
    if e is None:
        return tr.t("any number of cards"), ""
    text = e.text.strip()
    ast = sh.rd.filled(e.source)
    bare = letter == "M"
    n = int(text) if re.fullmatch(r"\d+", text) else \
        ast.value if isinstance(ast, A.Const) and ast.type == "int" else None
    if n is not None:
        if bare:
            return str(n), ""
        return (tr.tn("{n} card in hand", "{n} cards in hand", n) if unit else tr.tn("{n} card", "{n} cards", n)), ""
    if bare:
        shown = letter
    else:
        shown = tr.t("{n} cards in hand", n=letter) if unit else tr.t("{n} cards", n=letter)
    return shown, tr.t(", {letter} being {x}", letter=letter, x=_read(sh, e, False))


def _static_int(e: ExprSpec, r: CompiledRules) -> int:
    """A value fixed for the table (its options, or their defaults), e.g. a point's worth."""
    return int(emit(e.checked, r.tables)({}))


def _card(sh: Sheet, c: int) -> str:
    return sh.tr.card_short(c, sh.r.card_name(c))


def _point_title(sh: Sheet, name: str) -> str:
    return name.replace("_", " ").title() if sh.tr.english else sh.tr.label(name)


def _message(sh: Sheet, code: str, message: str) -> str:
    """A lead or follow rule's refusal message in the reader's language, if the rule file gives it."""
    return sh.words.refusal(code, message) if sh.words else message


# ---------------------------------------------------------------- rendering

def to_markdown(doc: Document) -> str:
    out = [f"# {doc.title}", ""]
    for p in doc.intro:
        out += [p, ""]
    for sec in doc.sections:
        out += [f"## {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, str):
                out += [b, ""]
            elif isinstance(b, Table):
                out.append("| " + " | ".join(b.header) + " |")
                out.append("|" + "---|" * len(b.header))
                out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in b.rows]
                out.append("")
            else:
                out += [f"- {item}" for item in b] + [""]
    return "\n".join(out).rstrip() + "\n"


def _inline(text: str) -> str:
    """Escape for HTML, then `code` and *emphasis*."""
    t = html.escape(text, quote=False)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", t)


CSS = """body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.8rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd}
code{background:#f4f4f4;padding:0 .2em;border-radius:3px;font-size:.9em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"""


def to_html(doc: Document) -> str:
    out = ["<!DOCTYPE html>", f'<html lang="{doc.lang}">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(doc.title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           f"<h1>{html.escape(doc.title)}</h1>"]
    out += [f"<p>{_inline(p)}</p>" for p in doc.intro]
    for sec in doc.sections:
        out.append(f"<h2>{html.escape(sec.title)}</h2>")
        for b in sec.blocks:
            if isinstance(b, str):
                out.append(f"<p>{_inline(b)}</p>")
            elif isinstance(b, Table):
                out.append("<table>")
                out.append("<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in b.header) + "</tr>")
                out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in b.rows]
                out.append("</table>")
            else:
                out.append("<ul>")
                out += [f"<li>{_inline(item)}</li>" for item in b]
                out.append("</ul>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def render(spec: RuleSpec, fmt: str = "md", options: dict[str, Any] | None = None, players: int | None = None,
           lang: str = "en") -> str:
    doc = explain(spec, options, players, lang)
    return to_html(doc) if fmt == "html" else to_markdown(doc)
