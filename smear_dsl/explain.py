"""`smear-dsl explain`: a compiled rule file written out as the rules players read at the table.

Everything comes from the compiled rules (seat counts, deck, card order, bid range, targets)
and the rule file's expressions read aloud (english.py), never from text written per
variant. The document is a small tree (sections of paragraphs, lists and tables) that
renders to Markdown or to a standalone HTML page.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from . import cards as C
from .compiler import CompiledRules, compile_rules
from .english import Reader
from .expr import ast as A
from .expr.emit import emit
from .spec import ExprSpec, RuleSpec

SEAT_WORDS = {"bidder": "The bidder", "dealer": "The dealer", "each": "Each player, from the dealer's left,",
              "non_dealers": "Each player but the dealer, from the dealer's left,",
              "non_bidders": "Each player but the bidder, from the dealer's left,"}
TO_WORDS = {"player": "the side that played it", "winner": "the side that wins the trick it falls in",
            "holder": "the side that held it when play began",
            "dealer_if_turned": "the dealer's side, when it is the card turned up that becomes trump (counted at once)"}
TIE_WORDS = {"bidder": "the bidder's side, when it is among the tied", "eldest": "the side of the player left of the dealer",
             "none": "nobody"}


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


def explain(spec: RuleSpec, options: dict[str, Any] | None = None, players: int | None = None) -> Document:
    """The rules of `spec` with default options, for every seat count it allows; or, given a table's
    `options` (and seat count), the rules of that table, its option values read in place of their names."""
    counts = [players] if players else spec.players
    tables = {n: compile_rules(spec, n, options or {}) for n in counts}
    r = tables[counts[0]]
    rd = Reader({o.name for o in spec.options if o.type == "bool"}, {o.name for o in spec.options},
                dict(spec.bidding.names), spec.deck.jokers, dict(r.options) if options is not None else {},
                frozenset(name for name, _t, _a in spec.definitions), frozenset(spec.point_vars))
    intro = [spec.description] if spec.description else []
    origin = f"Rule file `{spec.stem}`"
    if spec.extends:
        origin += ", a variant of " + " of ".join(f"`{p}`" for p in spec.extends)
    if options is None:
        intro.append(origin + ". Table options are shown at their defaults; see the last section.")
    else:
        chosen = ", ".join(f"{k}={_option_text(v)}" for k, v in r.options.items())
        intro.append(origin + f", as this table plays it ({r.players} players" + (f"; {chosen}" if chosen else "") + ").")
    return Document(spec.name, intro, [
        _players(spec, tables), _cards(spec, r), _deal(spec, tables), _bidding(spec, r, rd),
        *([_phases(spec, rd)] if spec.phases else []), _play(spec, r, rd), _points(spec, r, rd),
        _scoring(spec, rd), _end(spec, r, rd), *([_definitions(spec, rd)] if spec.definitions else []),
        _options(spec, r.options if options is not None else None)])


# ---------------------------------------------------------------- sections

def _players(spec: RuleSpec, tables: dict[int, CompiledRules]) -> Section:
    items = []
    for n, r in tables.items():
        if r.n_sides == n:
            items.append(f"{n} players, each for themselves.")
        else:
            sides = [[s for s in range(n) if r.side_of[s] == side] for side in range(r.n_sides)]
            teams = " against ".join(_and([str(s) for s in side]) for side in sides)
            items.append(f"{n} players in {r.n_sides} partnerships of {n // r.n_sides}: seats {teams}.")
    return Section("Players", [items, "Seats are numbered clockwise from 0. A partnership scores as one side."])


def _cards(spec: RuleSpec, r: CompiledRules) -> Section:
    ranks = [C.RANK_CHARS[i] for i in spec.deck.ranks]
    blocks: list = []
    text = f"{len(r.deck)} cards: {' '.join(ranks)} in each of the four suits"
    if spec.deck.remove:
        text += ", without " + _and([r.card_name(c) for c in spec.deck.remove])
    if spec.deck.jokers:
        text += f", and {_count(len(spec.deck.jokers), 'joker')} ({_and(spec.deck.jokers)}), always trumps"
    blocks.append(text + ".")
    blocks.append(f"Outside trump each suit ranks {' '.join(ranks)}, high to low.")
    hearts = 1
    key = r.tables.order_key[hearts + 1]
    trumps = sorted(C.bits(r.trump_mask[hearts + 1]), key=lambda c: -key[c])
    shown, notes = [], []
    for i, c in enumerate(trumps):
        name = r.card_name(c)
        if c < C.N_SUITED and c // 13 != hearts:
            name += " (jick)" if C.rank_of(c) == 9 else " (of trump's colour)"
        if i and key[c] == key[trumps[i - 1]]:
            shown[-1] += f" = {name}"
        else:
            shown.append(name)
    blocks.append("With hearts as trump, the trumps rank (high to low): " + ", ".join(shown) + ".")
    if any(c < C.N_SUITED and c // 13 != hearts and C.rank_of(c) == 9 for c in trumps):
        notes.append("The jick, the jack of the other suit of trump's colour, is a trump and leaves its own suit.")
    others = sorted({C.RANK_CHARS[C.rank_of(c)] for c in trumps if c < C.N_SUITED and c // 13 != hearts
                     and C.rank_of(c) != 9})
    if others:
        notes.append(f"The {_and(others)} of the other suit of trump's colour "
                     f"{'is a trump and leaves' if len(others) == 1 else 'are trumps and leave'} its own suit.")
    if any("=" in s for s in shown):
        rule = spec.equal_trumps.text if spec.equal_trumps is not None else '"first"'
        notes.append(f"Of two equal trumps in one trick, the {'last' if r.equal_last else 'first'} played wins "
                     f"(`equal_trumps: {rule}`).")
    blocks += notes
    values = []
    for kind, v in spec.deck.values:
        label = spec.deck.jokers[kind - 100] if kind >= 100 else C.RANK_CHARS[kind]
        values.append(f"{label} = {v}")
    if values:
        blocks.append("Card values for the Game point: " + ", ".join(values) + "; every other card 0.")
    return Section("Cards", blocks)


def _deal(spec: RuleSpec, tables: dict[int, CompiledRules]) -> Section:
    r0 = next(iter(tables.values()))
    sizes = {n: r.hand_size for n, r in tables.items()}
    if len(set(sizes.values())) == 1:
        size_text = _count(r0.hand_size, "card")
    else:
        size_text = " or ".join(f"{_count(h, 'card')} with {n} players" for n, h in sizes.items())
    packets = "" if len(r0.packets) == 1 else f" in packets of {_and([str(p) for p in r0.packets])}"
    blocks: list = [f"The first dealer is chosen at random; the deal then passes to the left. The dealer gives "
                    f"each player {size_text}{packets}, one packet at a time clockwise from the dealer's left."]
    rest = {n: len(r.deck) - r.players * r.hand_size for n, r in tables.items()}
    rest_text = " / ".join(f"{v} with {n} players" for n, v in rest.items()) if len(set(rest.values())) > 1 else str(next(iter(rest.values())))
    if spec.deal.rest == "stock":
        face = "face up: everyone sees its top card" if spec.deal.stock_face_up else "face down"
        blocks.append(f"The undealt cards ({rest_text}) stay {face} as the stock, in order.")
        if spec.deal.turn_up:
            blocks.append("The stock's top card is turned face up for everyone to see: its suit is trump for the "
                          "hand. It stays on top of the stock.")
    else:
        blocks.append(f"The undealt cards ({rest_text}) are set aside unseen.")
    if spec.deal.redeal_if is not None:
        blocks.append(f"The same dealer deals again when a player's hand is such that "
                      f"{_read(Reader(), spec.deal.redeal_if, True)}.")
    return Section("Deal", blocks)


def _bidding(spec: RuleSpec, r: CompiledRules, rd: Reader) -> Section:
    b = spec.bidding
    if spec.beg is not None:
        return _begging(spec, r)
    if r.no_bidding:
        return Section("Bidding", ["There is no bidding: after the deal the hand goes straight on to the "
                                   + ("phases below." if spec.phases else "play.")])
    items = []
    if b.rounds == "one":
        items.append("Starting at the dealer's left, each player in turn bids once or passes.")
    else:
        items.append("Starting at the dealer's left, players bid or pass in turn, round and round; "
                     "a player who passes is out of the bidding, which ends when one bidder is left.")
    names = "".join(f"; {v} is called *{k}*" for k, v in b.names)
    items.append(f"Bids are {r.bid_min} to {r.bid_max}{names}.")
    if b.may_match is not None:
        items.append(f"A bid must be higher than the highest so far, or equal to it when "
                     f"{_read(rd, b.may_match, True)}; the later bidder then takes the contract.")
    else:
        items.append("A bid must be higher than the highest so far.")
    if r.ends_at < r.bid_max:
        items.append(f"A bid of {r.ends_at} or more ends the bidding at once.")
    elif r.ends_at == r.bid_max:
        items.append(f"A bid of {r.bid_max} ends the bidding at once.")
    else:
        items.append("No bid ends the bidding early: every player gets to speak.")
    items.append({
        "redeal": "If everyone passes, the same dealer deals again.",
        "next_dealer": "If everyone passes, the deal passes to the next dealer.",
        "dealer_bids": f"If everyone else passes, the dealer may not pass and must bid at least {r.bid_min}.",
        "set_back": f"If everyone passes, the dealer's side loses {r.set_back} and the deal passes on.",
        "eldest_pitches": "If everyone passes, the player left of the dealer plays as the bidder with no "
                          "contract (a bid of 0, which any score makes).",
        "dealer_plays": "If everyone passes, the dealer plays as the bidder with no contract (a bid of 0, which "
                        "any score makes).",
    }[b.all_pass])
    items.append("The highest bidder is the bidder; the bidder's side must make the bid (see Scoring).")
    return Section("Bidding", [items])


def _begging(spec: RuleSpec, r: CompiledRules) -> Section:
    """`beg:` in words: stand or beg, then give or run."""
    gift = next(p for p in spec.points if p.gift)
    k = spec.beg.run
    items = ["There is no bidding. The player left of the dealer (the eldest hand) looks at the turned-up card "
             "and stands (its suit is trump) or begs.",
             f"To a beg the dealer either gives the eldest hand's side the point `{gift.name}` (worth "
             f"{_static_int(gift.value, r)}) and the turned-up suit stays trump, or runs the cards: sets the "
             f"turned-up card aside, deals {_count(k, 'more card')} to each player clockwise from the left and turns "
             "up the next card. While it is of the suit begged, the dealer runs the cards again; a new suit is "
             "trump. If the stock runs out first, the same dealer deals again.",
             "Nobody begs twice in a hand. After the cards are run everyone plays every card they hold, unless a "
             "phase below says otherwise."]
    if not spec.beg.gift_may_win:
        items.append("The dealer may not give a point that would take the eldest hand's side to the target: then "
                     "he must run the cards.")
    return Section("Bidding (none): begging", [items])


def _phases(spec: RuleSpec, rd: Reader) -> Section:
    items = []
    for p in spec.phases:
        who = SEAT_WORDS[p.who]
        if p.kind == "name_trump":
            items.append(f"{who} names the trump suit.")
        elif p.kind == "take":
            n, where = _amount(rd, p.count)
            items.append(f"{who} takes {n} from the front of the stock{where}.")
        elif p.kind == "refill":
            n, where = _amount(rd, p.to, "cards in hand")
            items.append(f"{who} draws from the stock until holding {n}{where}."
                         + (" If the stock runs out, the last players draw what is left and play with fewer cards; "
                            "the hand then ends when a player has no card left." if p.short == "play_short" else ""))
        else:
            if p.count is not None:
                n, where = _amount(rd, p.count)
                how = f"exactly {n}{where}"
            else:
                lo, lo_where = _amount(rd, p.min, "", "M")
                hi, hi_where = _amount(rd, p.max)
                how = f"from {lo} to {hi}{lo_where}{hi_where}"
            text = f"{who} discards {how}, {'face up for everyone to see' if p.face_up else 'face down'}"
            if p.allowed is not None:
                text += f"; a card may go only when {_read(rd, p.allowed, True)}"
            if p.valid_if is not None:
                text += f"; the discard as a whole must satisfy: {_read(rd, p.valid_if, True)}"
            text += "."
            if p.credit != "nobody":
                text += (" The discards count for the bidder's side in the Game count." if p.credit == "bidder"
                         else " The discards count for the discarder's side in the Game count.")
            else:
                text += " The discards count for nobody."
            items.append(text)
    blocks: list = [items]
    if any(p.kind == "discard" for p in spec.phases):
        blocks.append("A player asked to discard no cards is skipped.")
    return Section("Between the bidding and the play", blocks)


def _play(spec: RuleSpec, r: CompiledRules, rd: Reader) -> Section:
    items = []
    items.append("The bidder leads to the first trick." if spec.play.leader == "bidder"
                 else "The player at the dealer's left leads to the first trick.")
    if r.turn_up:
        pass  # trump was turned up with the deal
    elif not spec.trump_named:
        items.append("The suit of the first card led becomes trump" +
                     (" (a joker cannot fix trump, so it cannot be led first)." if spec.deck.jokers else "."))
    if spec.play.follow == "suit_or_trump":
        items.append("A player holding a card of the suit led must play one, or may trump instead; a player "
                     "without that suit may play any card. When trump is led, trumps must follow if possible.")
    else:
        items.append("A player holding a card of the suit led must play one; a player without that suit may "
                     "play any card.")
    items.append("The highest trump wins the trick, otherwise the highest card of the suit led. "
                 "The winner leads to the next trick, until every card in hand has been played.")
    if r.draw_in_play:
        items.append("After each trick, while the stock lasts, every player draws its top card, the trick's winner "
                     "first and then clockwise; the last cards in hand are played out without drawing.")
    for rule in spec.play.lead_rules:
        items.append(f"A lead is refused ({rule.code}: \u201c{rule.message}\u201d) when "
                     f"{_read(rd, rule.forbid, True)}.")
    for rule in spec.play.follow_rules:
        items.append(f"A card played to a trick someone else led is refused ({rule.code}: \u201c{rule.message}\u201d) "
                     f"when {_read(rd, rule.forbid, True)}.")
    return Section("Play", [items])


def _points(spec: RuleSpec, r: CompiledRules, rd: Reader) -> Section:
    rows = []
    total = 0
    for p in spec.points:
        value = _static_int(p.value, r)
        total += value
        if p.most:
            card = "the most card value in the tricks (and credited discards) a side took"
            goes = "that side; a tie gives it to " + TIE_WORDS[p.tie]
        elif p.gift:
            card, goes = "the dealer's gift to a beg", "the eldest hand's side, when the dealer gives (counted at once)"
        else:
            card = f"{_read(rd, p.card, False)}"
            goes = TO_WORDS[p.to]
        rows.append([p.name, str(value), card, goes])
    blocks: list = [f"Each hand awards these points ({total} in all):", Table(["point", "worth", "for", "goes to"], rows)]
    blocks.append("A point whose card is not in play goes to nobody; one card may carry two points "
                  "(a lone trump can be both High and Low).")
    return Section("Points", blocks)


def _scoring(spec: RuleSpec, rd: Reader) -> Section:
    s = spec.scoring
    if s.made is None:  # `bidding: none`
        items = [f"Every side scores {_read(rd, s.others, False)}."]
    else:
        items = [f"The bidding side makes its bid when {_read(rd, s.made, True)}.",
                 f"The bidding side scores {_read(rd, s.bidder, False)}.",
                 f"Every other side scores {_read(rd, s.others, False)}."]
    never = (lambda e: rd.filled(e.ast) == A.Const(e.ast.pos, False, "bool"))  # off at this table
    if s.cap_when is not None and s.cap_at is not None and not never(s.cap_when):
        items.append(f"In a hand where {_read(rd, s.cap_when, True)}, a side's score cannot rise above "
                     f"{_read(rd, s.cap_at, False)} (a score already higher stays).")
    return Section("Scoring", [items, "Here \u201cits\u201d means the side being scored; its point total is the "
                                      "worth of the points it won this hand."])


def _end(spec: RuleSpec, r: CompiledRules, rd: Reader) -> Section:
    e = spec.end
    items = [f"The target is {r.target}.",
             f"After each scored hand, a side wins when {_read(rd, e.win_if, True)}."]
    if r.pre_points and r.no_bidding:
        early = _and([p.name for p in spec.points if p.gift or p.to == "dealer_if_turned"])
        items.append(f"The points settled before the play ({early}) count at once: a side they bring to a win wins "
                     "as soon as trump is settled, before a card is played; otherwise they are scored with the "
                     "hand's other points.")
    if r.tie_break:
        order = ", ".join(r.point_names[i].replace("_", " ").title() for i in r.count_plan or ())
        steps = {"bidder": "the bidding side wins if it is one of them", "highest": "the highest score wins",
                 "count_out": f"the hand's points are counted out in the order {order}, each added to its side's "
                              "score from before the hand, and the first of them to reach the target wins"}
        items.append("If several sides could win: " + "; then ".join(steps[t] for t in r.tie_break)
                     + "; if still tied, play goes on.")
    else:
        items.append("If several sides could win at once, play goes on.")
    return Section("End of the game", [items])


def _definitions(spec: RuleSpec, rd: Reader) -> Section:
    """`define:` names, each read once, as the rules above use them."""
    items = []
    for name, text, ast in spec.definitions:
        filled = rd.filled(ast)
        words = rd.clause(filled) if _looks_true_false(filled) else rd.noun(filled)
        items.append(f"*{name.replace('_', ' ')}*: {words} (`{text.strip()}`)")
    return Section("Definitions", ["The rules above use these names:", items])


def _looks_true_false(e: A.Expr) -> bool:
    """Whether a definition is a condition (read as a clause) rather than a number, card or set."""
    return isinstance(e, (A.Compare, A.BoolOp, A.Not, A.Member)) or isinstance(e, A.Call) and e.fn == "any" or \
        isinstance(e, A.Attr) and e.name in ("trump", "joker") or isinstance(e, A.Const) and e.type == "bool"


def _option_text(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def _options(spec: RuleSpec, chosen: dict[str, Any] | None = None) -> Section:
    if not spec.options:
        return Section("Table options", ["These rules have no table options."])
    rows = []
    for o in spec.options:
        if o.type == "int":
            kind = f"number {o.min}..{o.max}" if o.min is not None and o.max is not None else "number"
        elif o.type == "bool":
            kind = "on/off"
        else:
            kind = "one of " + ", ".join(o.choices)
        default = _option_text(o.default) if o.type == "bool" else str(o.default)
        rows.append([f"`{o.name}`", kind, default, o.description] +
                    ([_option_text(chosen[o.name])] if chosen is not None else []))
    if chosen is not None:
        return Section("Table options", ["This table's choices:",
                                         Table(["option", "values", "default", "what it does", "this table"], rows)])
    return Section("Table options", ["Chosen when a table is created (`--option name=value`).",
                                     Table(["option", "values", "default", "what it does"], rows)])


# ---------------------------------------------------------------- helpers

def _read(rd: Reader, e: ExprSpec, clause: bool) -> str:
    """English for an expression, with the formula itself after it unless they are the same (or a
    table's option values were read into it, which the formula would not show)."""
    ast = rd.filled(e.source)
    words = rd.clause(ast) if clause else rd.noun(ast)
    code = e.text.strip()
    if words == code or f"`{code}`" in words or ast != e.source:
        return words
    return f"{words} (`{code}`)"


def _amount(rd: Reader, e: ExprSpec | None, unit: str = "cards", letter: str = "N") -> tuple[str, str]:
    """("2 cards", "") for a number; ("N cards", ", N being ...") for a formula."""
    unit_sp = f" {unit}" if unit else ""
    if e is None:
        return "any number of cards", ""
    text = e.text.strip()
    ast = rd.filled(e.source)
    if re.fullmatch(r"\d+", text) or isinstance(ast, A.Const) and ast.type == "int":
        n = int(text) if re.fullmatch(r"\d+", text) else ast.value
        return (f"{n}{unit_sp}" if n != 1 or unit != "cards" else "1 card"), ""
    return f"{letter}{unit_sp}", f", {letter} being {_read(rd, e, False)}"


def _static_int(e: ExprSpec, r: CompiledRules) -> int:
    """A value fixed for the table (its options, or their defaults), e.g. a point's worth."""
    return int(emit(e.checked, r.tables)({}))


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _and(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


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
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
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


def render(spec: RuleSpec, fmt: str = "md", options: dict[str, Any] | None = None, players: int | None = None) -> str:
    doc = explain(spec, options, players)
    return to_html(doc) if fmt == "html" else to_markdown(doc)
