"""Players' languages: gettext catalogs (Babel .po files under locale/) and the words for cards in them.

Messages are whole English templates with named placeholders (`"{n} players, each for
themselves."`), so a translation can reorder a sentence; the .po files are read with Babel
at first use, so there is no compiled .mo to keep current. Authors' tools stay in English.
"""
from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from smear_dsl import cards as C
from smear_dsl.choices import LANGUAGES
from smear_dsl.errors import Said
from smear_dsl.marks import N_, NN_, NP_  # noqa: F401 - the markers, imported from here by most modules

if TYPE_CHECKING:
    from smear_dsl.language.spec import LangText, RuleSpec

DOMAIN = "smear"
LOCALE_DIR = Path(__file__).parent / "locale"
SUIT_SYMBOLS = "♠♥♦♣"


def signed(score: int) -> str:
    """A score as a person reads it: a real minus sign (U+2212) before a negative one, so lists and
    ranges never read `4--2` or `4–-2`."""
    return f"\u2212{-score}" if score < 0 else str(score)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of `lang` (English: the messages themselves)."""
    if lang == "en" or lang not in LANGUAGES:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # Babel only where a language is used: the engine starts fast
    from babel.messages.pofile import read_po
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def negotiate(wanted: str | Iterable[str] | None) -> str:
    """The supported language closest to `wanted` (a code, a list, or an Accept-Language header); English
    when nothing matches. Never raises: a header is a stranger's input."""
    if not wanted:
        return "en"
    if isinstance(wanted, str):
        parts = [p.split(";")[0].strip() for p in wanted[:200].split(",")]
    else:
        parts = [str(p)[:20] for p in list(wanted)[:20]]
    for p in parts:  # our languages are bare codes: the first tag whose language is one of them wins
        code = p.replace("_", "-").split("-")[0].lower()
        if code == "fil":  # Filipino, the standard form of Tagalog
            code = "tl"
        if code in LANGUAGES:
            return code
    return "en"


@dataclass(frozen=True)
class Tr:
    """Messages and card words in one language; `names` are a rule file's own words for its identifiers."""

    lang: str = "en"
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def english(self) -> bool:
        return self.lang == "en"

    def t(self, msgid: str, /, **kw: object) -> str:
        """`msgid` translated, its `{placeholders}` filled; in a language other than English, as Words
        that know their other forms, so a message holding this one can ask for the form its slot needs."""
        text = translations(self.lang).gettext(msgid)
        out = self._fill(text, kw) if kw else text
        return out if self.english else Words(out, partial(self._form, msgid, "", kw))

    def tn(self, singular: str, plural: str, n: int, /, **kw: object) -> str:
        """The form of `singular`/`plural` for the number `n` (filled in as `{n}`)."""
        return self._fill(translations(self.lang).ngettext(singular, plural, n), {"n": n, **kw})

    def tp(self, context: str, msgid: str, /, **kw: object) -> str:
        """`msgid` in a context (one English word may be two words elsewhere); Words as `t` gives."""
        text = translations(self.lang).pgettext(context, msgid)
        out = self._fill(text, kw) if kw else text
        return out if self.english else Words(out, partial(self._form, msgid, context, kw))

    def _form(self, msgid: str, context: str, kw: Mapping[str, object], name: str) -> str | None:
        """`msgid` in its form `name` (a case, "gen"; an agreement, "fp"), as the catalog gives it under
        the context `form:NAME` (`form:NAME|CONTEXT` for a message with a context); `name` "gender"
        is the class the words agree with. None when the catalog gives no such form."""
        ctx = ("gender" if name == "gender" else f"form:{name}") + (f"|{context}" if context else "")
        text = translations(self.lang).pgettext(ctx, msgid)
        if text == msgid:
            return None
        return self._fill(text, kw) if kw and name != "gender" else text

    def _fill(self, text: str, kw: Mapping[str, object]) -> str:
        """`text` with its placeholders filled, each in the form the translation asks of it (`{x:gen}`,
        `{where:@what}`: see Words), and the language's spelling where a slot meets the
        words before it: French contracts and elides there ("de" + "les atouts" is "des atouts",
        "que" + "atout" is "qu'atout", "à" + "le camp" is "au camp"), Tagalog keeps one marker ("sa" +
        "ang panig" is "sa panig"); Thai sets a number apart from the words around it ("มากกว่า 6",
        never "มากกว่า6"). The web client does the same (i18n.js)."""
        if "{" in text and FORM_SLOT.search(text):
            text, kw = _forms_asked(text, kw)
        if self.lang in JUNCTIONS:
            marked = {k: v if k in NOT_WORDS else f"{SLOT}{v}" for k, v in kw.items()}
            return JUNCTIONS[self.lang](text.format(**marked)).replace(SLOT, "")
        filled = text.format(**kw)
        return THAI_DIGIT.sub(" ", filled) if self.lang == "th" else filled

    # ---- lists
    def join(self, items: Iterable[str], word: str = "and", clauses: bool = False) -> str:
        """ "a, b and c" (or "or"), as the language writes it; `clauses` are joined as the language
        joins clauses (Thai sets them apart with a space, not a comma)."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        sep = self.tp("clause list", ", ") if clauses else self.tp("list", ", ")
        head = sep.join(items[:-1])
        return self.t("{a} and {b}", a=head, b=items[-1]) if word == "and" else self.t("{a} or {b}", a=head, b=items[-1])

    # ---- cards
    def rank(self, r: int) -> str:
        """A rank as a word ("ace", "10")."""
        return self.t(RANK_WORDS[r]) if r in RANK_WORDS else str(r + 2)

    def rank_short(self, r: int) -> str:
        """A rank as the language abbreviates it, as the cards show it (10 for ten; the rule notation's T
        stays in quoted rule text only)."""
        if self.english:
            return "10" if C.RANK_CHARS[r] == "T" else C.RANK_CHARS[r]
        return self.tp("rank letter", RANK_LETTERS[r]) if r in RANK_LETTERS else str(r + 2)

    def suit(self, s: int) -> str:
        return self.tp("suit", SUITS[s])

    def card_short(self, c: int, name: str) -> str:
        """A card in a list: English keeps the deck's notation (`name`), others a rank and a suit symbol."""
        if c >= C.N_SUITED:
            return self.label(name)
        if self.english:
            return name
        return self.rank_short(C.rank_of(c)) + SUIT_SYMBOLS[c // 13]

    def card(self, c: int, name: str) -> str:
        """A card in a sentence ("the ace of hearts"); a joker by its name."""
        if c >= C.N_SUITED:
            return self.label(name)
        return self.card_of(C.rank_of(c), self.suit(c // 13))

    def card_of(self, r: int, suit: str, of_trump: bool = False, phrase: bool = False) -> str:
        """ "the ace of hearts", or with `of_trump` "the ace of trump" (some languages say it differently);
        with `phrase`, `suit` is a phrase ("the other suit of trump's colour"), not a suit's name, which
        some languages put in another case and order ("srdcové eso" but "eso druhej farby...")."""
        key = CARD_OF_PHRASE if phrase else CARD_OF_TRUMP if of_trump else CARD_OF
        say = partial(self.tp, "suit phrase") if phrase else self.t
        if r in key:
            return say(key[r], suit=suit)
        return say(key[None], rank=str(r + 2), suit=suit)

    # ---- a rule file's names
    def label(self, identifier: str) -> str:
        """A rule file's identifier (a point, definition, joker) as players read it: the file's own
        translation, else the family's usual word for it, else the name itself with spaces."""
        if identifier in self.names:
            return self.names[identifier]
        if self.english:
            return identifier
        known = self.tp("name", identifier)
        return known if known != identifier else identifier.replace("_", " ")


RANK_WORDS = {12: N_("ace"), 11: N_("king"), 10: N_("queen"), 9: N_("jack"), 8: N_("ten")}
CARD_OF = {12: N_("the ace of {suit}"), 11: N_("the king of {suit}"), 10: N_("the queen of {suit}"),
           9: N_("the jack of {suit}"), 8: N_("the ten of {suit}"), None: N_("the {rank} of {suit}")}
CARD_OF_PHRASE = {12: NP_("suit phrase", "the ace of {suit}"), 11: NP_("suit phrase", "the king of {suit}"),
                  10: NP_("suit phrase", "the queen of {suit}"), 9: NP_("suit phrase", "the jack of {suit}"),
                  8: NP_("suit phrase", "the ten of {suit}"), None: NP_("suit phrase", "the {rank} of {suit}")}
CARD_OF_TRUMP = {12: N_("the ace of trump"), 11: N_("the king of trump"), 10: N_("the queen of trump"),
                 9: N_("the jack of trump"), 8: N_("the ten of trump"), None: N_("the {rank} of trump")}
# Words the family uses for its usual identifiers (points, jokers), offered to every rule file.
# (A variant's own points are named in its rule file's `translations:`.)
FAMILY_NAMES = (NP_("name", "high"), NP_("name", "low"), NP_("name", "jack"), NP_("name", "game"),
                NP_("name", "jick"), NP_("name", "joker"), NP_("name", "black_joker"), NP_("name", "red_joker"),
                NP_("name", "trey"), NP_("name", "gift"))
RANK_LETTERS = {12: NP_("rank letter", "A"), 11: NP_("rank letter", "K"), 10: NP_("rank letter", "Q"),
                9: NP_("rank letter", "J")}
SUITS = (NP_("suit", "spades"), NP_("suit", "hearts"), NP_("suit", "diamonds"), NP_("suit", "clubs"))
ENGLISH = Tr()
SLOT = "\x02"  # marks where a filled-in value begins, while the junction rules run
NOT_WORDS = frozenset({"seed", "table", "id", "file", "hash", "code", "path", "key", "token", "url"})  # never elided
# French at a slot's edge: a contraction (de + le = du, de + les = des, à + le = au, à + les = aux),
# else an elision before a word that begins with a vowel (de, que, le, la, ne, jusque + atout).
_FR_CONTRACT = re.compile("\\b([Dd]e|[Àà]) " + SLOT + "(les?) ")
_FR_ELIDE = re.compile("\\b([Dd]|[Qq]u|[Ll]|[Nn]|[Jj]usqu)(?:e|a) " + SLOT + "(?=[aeiouéèêàâîôûAEIOUÉÈÊÀÂÎÔÛ][^\\W\\d_]*(?:[\\s,.;:)]|$))")


def french_junctions(text: str) -> str:
    """Contractions and elisions where a marked value meets the word before it (see Tr._fill)."""
    def contract(m: re.Match) -> str:
        de = m.group(1).lower() == "de"
        word = ("du" if m.group(2) == "le" else "des") if de else ("au" if m.group(2) == "le" else "aux")
        return (word.capitalize() if m.group(1)[0].isupper() else word) + " " + SLOT
    return _FR_ELIDE.sub(lambda m: m.group(1) + "'" + SLOT, _FR_CONTRACT.sub(contract, text))


# Tagalog marks a bare noun once: where the message's marker (ang, ng, sa) meets a value that has
# its own ("ang panig"), the value's goes ("sa ang panig" is "sa panig", "ang ang iskor" is "ang iskor").
_TL_MARKERS = re.compile("\\b(ang|ng|sa|Ang|Sa) " + SLOT + "(?:ang|ng) ")


def tagalog_junctions(text: str) -> str:
    """One marker where a marked value meets the message's marker before it (see Tr._fill)."""
    return _TL_MARKERS.sub(lambda m: m.group(1) + " " + SLOT, text)


JUNCTIONS = {"fr": french_junctions, "tl": tagalog_junctions}


# Between a Thai letter and a digit or a Latin letter (a name, `code`), either way round: where Thai puts a space.
THAI_DIGIT = re.compile(r"(?<=[\u0E01-\u0E4F])(?=[0-9A-Za-z`])|(?<=[0-9A-Za-z`)])(?=[\u0E01-\u0E4F])")


# ---- words that know their other forms (cases, agreement)

class Words(str):
    """Words in the reader's language that can give their other forms. A translation asks a slot's
    form by name: `{what:gen}` the genitive (Slovak "počet {what:gen}": "počet tromfov"), or
    `{where:@what}` the form agreeing with another slot (French "{where:@what}": joué, jouée, joués,
    jouées, as `what`'s gender says), and its own words by a slot's gender with
    `{what?f=la plus faible|le plus faible}`. The forms are catalog entries of the same message under the
    context `form:NAME` (and `gender`), so a language adds the forms it needs and others need none;
    a form the catalog lacks is the words as they are."""

    __slots__ = ("_forms",)
    _forms: Callable[[str], str | None] | None

    def __new__(cls, text: str, forms: Callable[[str], str | None] | None = None) -> Words:
        w = super().__new__(cls, text)
        w._forms = forms
        return w

    def __reduce__(self):  # pickled (to a worker process and back) as the words alone
        return str, (str(self),)

    def form(self, name: str) -> str:
        got = self._forms(name) if self._forms is not None and name else None
        return self if got is None else got

    @property
    def gender(self) -> str:
        return (self._forms("gender") if self._forms is not None else None) or ""


FORM_SLOT = re.compile(r"\{(\w+)(?::(@?\w+)|\?([^{}]*))\}")


def _select(value: object, variants: str) -> str:
    """`{what?m=najvyšší|f=najvyššia|najvyššie}`: the words for the gender of `what` (the last, unnamed, otherwise)."""
    gender = value.gender if isinstance(value, Words) else ""
    fallback = ""
    for part in variants.split("|"):
        key, eq, words = part.partition("=")
        if not eq:
            fallback = part
        elif key.strip() == gender:
            return words
    return fallback


def _forms_asked(text: str, kw: Mapping[str, object]) -> tuple[str, dict[str, object]]:
    """`text` with each `{x:form}` slot turned into a plain slot holding that form of x's value, and
    each `{x?g=words|...}` into the words for x's gender."""
    kw = dict(kw)

    def pick(m: re.Match) -> str:
        name, spec = m.group(1), m.group(2)
        value = kw.get(name, "")
        if m.group(3) is not None:
            return _select(value, m.group(3)).replace("{", "{{").replace("}", "}}")
        if spec.startswith("@"):
            other = kw.get(spec[1:])
            spec = other.gender if isinstance(other, Words) else ""
        key = f"{name}__{spec or 'as_is'}"
        kw[key] = value.form(spec) if isinstance(value, Words) else value
        return "{" + key + "}"
    return FORM_SLOT.sub(pick, text), kw


# ---- values in a refusal (errors.Said), said in the reader's language

@dataclass(frozen=True)
class CardWord:
    """A card in a message: its deck name in English, its words elsewhere."""

    card: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SuitWord:
    suit: int

    def __str__(self) -> str:
        return C.SUIT_WORDS[self.suit]


@dataclass(frozen=True)
class Phrase:
    """A marked message used inside another (`N_("a bid or a pass")`)."""

    msgid: str

    def __str__(self) -> str:
        return self.msgid


def _value(tr: Tr, v: object) -> str:
    if isinstance(v, CardWord):
        return tr.card(v.card, v.name)
    if isinstance(v, SuitWord):
        return tr.suit(v.suit)
    if isinstance(v, Phrase):
        return tr.t(v.msgid)
    return str(v)


def say(tr: Tr, said: Said, code: str = "", words: LangText | None = None) -> str:
    """A refusal in `tr`'s language: the catalog's words for its template, else the rule file's
    own words for it (`translations: {fr: {messages: ...}}`), else the English."""
    if tr.english:
        return str(said)
    values = {k: _value(tr, v) for k, v in said.params}
    if said.plural is not None:
        n = dict(said.params).get("n", 0)
        return tr.tn(said.template, said.plural, int(n) if isinstance(n, (int, float, str)) else 0,
                     **{k: v for k, v in values.items() if k != "n"})
    text = translations(tr.lang).gettext(said.template)
    if text == said.template and not said.params and words is not None:
        return words.refusal(code, text)
    return tr._fill(text, values) if values else text  # each slot in the form the translation asks, junctions spelt


def tr_for(lang: str, names: Mapping[str, str] | None = None) -> Tr:
    return Tr(lang if lang in LANGUAGES else "en", dict(names or {}))


def rules_title(spec: RuleSpec, lang: str = "en") -> str:
    """The rules' name with the version players agreed to, in `lang`: "Name, version 2" (a file that
    states no version: its name)."""
    if spec.version is None:
        return spec.title(lang)
    return tr_for(lang).t("{name}, version {version}", name=spec.title(lang), version=spec.version)
