"""The players' languages: complete catalogs, rules sheets with no English left, the seeds' own
terms, a rule file's own words, and refusals said in the caller's language with the same codes.

To accept a deliberate change of a translated sheet: SMEAR_UPDATE_GOLDEN=1 pytest tests/test_i18n.py
"""
from __future__ import annotations

import os
import re
import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, RULE_FILES

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError, RuleError
from smear_dsl.i18n import LANGUAGES, negotiate, po_path, say, tr_for
from smear_dsl.language.load import load_spec
from smear_dsl.sheets.explain import render

sys.path.insert(0, str(ROOT / "scripts"))
import update_catalogs  # noqa: E402

FOREIGN = [lang for lang in LANGUAGES if lang != "en"]
GOLDEN = ROOT / "tests" / "golden" / "explain"
SEEDS = ROOT.parent / "shared" / "seeds"
WORD = re.compile(r"[^\W\d_]+")


def _placeholders(text: str) -> set[str]:
    """The slots a message fills (a slot's form, `{x:gen}`, or words chosen by it, `{x?f=...}`, count as `x`)."""
    return {name.split("?")[0] for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def _template_and_catalog(lang: str):
    """smear.pot and `lang`'s .po, read."""
    with update_catalogs.pot_path().open("rb") as f:
        template = read_po(f)
    with po_path(lang).open("rb") as f:
        return template, read_po(f, locale=lang)


def test_the_catalog_template_holds_every_message_the_sources_mark():
    """smear.pot is what extraction makes of the sources now (regenerate: scripts/update_catalogs.py)."""
    fresh = update_catalogs.text(update_catalogs.extract())
    assert update_catalogs.pot_path().read_text(encoding="utf-8") == fresh, \
        "a message changed: run scripts/update_catalogs.py, then translate what is new"


def test_the_web_clients_messages_are_made_from_the_catalogs_now():
    """clients/web/src/gen/messages.js holds the catalogs' translations of what the web client says."""
    assert update_catalogs.WEB_MESSAGES.read_text(encoding="utf-8") == update_catalogs.web_messages(), \
        "run scripts/update_catalogs.py, then `npm run build` in clients/web"
    # The move words are the codec's own (smear_dsl/moves.py), not written again in JavaScript.
    assert update_catalogs.WEB_MOVES.read_text(encoding="utf-8") == update_catalogs.web_moves(), \
        "run scripts/update_catalogs.py, then `npm run build` in clients/web"
    # The web client's i18n.js fills plain slots only: a translation it uses may not ask a form (yet).
    from smear_dsl.i18n import FORM_SLOT
    asked = FORM_SLOT.findall(update_catalogs.WEB_MESSAGES.read_text(encoding="utf-8"))
    assert not asked, f"a web message's translation asks a form i18n.js cannot give: {asked[:3]}"


def test_no_message_hides_inside_an_f_string():
    """Extraction does not look inside f-strings: a message there would never reach a catalog."""
    hidden = []
    for path in [*(ROOT / "smear_dsl").rglob("*.py"), *(ROOT / "smear_referee").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if "i18n" in text:
            hidden += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(r"\{(?:[\w.]+\.)?t[np]?\(['\"]", text)]
    assert not hidden, hidden


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_catalog_translates_every_message_with_the_same_placeholders(lang):
    template, catalog = _template_and_catalog(lang)
    missing, wrong = [], []
    for m in template:
        if not m.id:
            continue
        got = catalog.get(m.id, m.context)
        forms = got.string if got is not None else None
        forms = forms if isinstance(forms, tuple) else (forms,)
        if got is None or got.fuzzy or not all(forms):
            missing.append(m.id)
            continue
        # A plural form may leave its count unsaid (Thai "{n} ใบ" is one form for all); nothing else may go or come.
        plural = isinstance(m.id, tuple)
        want = _placeholders(m.id[-1] if plural else m.id)
        if any(_placeholders(f) - {"n"} != want - {"n"} or (not plural and _placeholders(f) != want) for f in forms):
            wrong.append(m.id)
    assert not missing, f"{lang}: {len(missing)} messages untranslated, e.g. {missing[:5]}"
    assert not wrong, f"{lang}: placeholders differ from the English in {wrong[:5]}"


@pytest.mark.parametrize("lang", FOREIGN)
@pytest.mark.parametrize("name", RULE_FILES)
def test_translated_sheets_match_golden(name, lang):
    text = render(load_spec(name), "md", lang=lang)
    path = GOLDEN / lang / f"{name}.md"
    if os.environ.get("SMEAR_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{lang} sheet of {name} changed; review, then SMEAR_UPDATE_GOLDEN=1"


def _english_words() -> set[str]:
    """Every word the English sheets use (outside code): an independent list of what English looks like."""
    words: set[str] = set()
    for name in RULE_FILES:
        words |= {w.lower() for w in WORD.findall(re.sub(r"`[^`]*`", "", render(load_spec(name))))}
    return words


# Words that are also words of the language (French "plus", "table"; Slovak "to", "ten"), and
# for Tagalog the loanwords its players use, as the seed document does (trump, suit, jack, joker).
SHARED = {
    "fr": {"a", "as", "d", "n", "s", "t", "face", "non", "on", "option", "options", "phase", "plus", "point", "points",
           "possible", "score", "section", "six", "table", "total", "version", "joker", "jokers", "jick", "pedro", "pedros"},
    "sk": {"a", "by", "k", "s", "so", "ten", "to", "variant", "plus", "jick", "pedro"},
    # Tagalog players take the table's words from English (bid, bidder, bidding, dealer: the glossary).
    "tl": {"at", "may", "jack", "suit", "trump", "joker", "jick", "pedro", "bid", "bidder", "bidding", "dealer"},
    "th": set(),
}
PROPER = {"foster", "smudge"}  # a rules author's name in an option; a bid's own name


@pytest.mark.parametrize("lang", FOREIGN)
def test_no_english_is_left_in_a_translated_sheet_but_proper_names(lang):
    english = _english_words()
    for name in RULE_FILES:
        spec = load_spec(name)
        titles = " ".join([spec.name, *spec.deck.jokers, *(load_spec(p).name for p in spec.extends)])
        proper = {w.lower() for w in WORD.findall(titles)} | PROPER  # names, and the jokers' names (JK)
        text = render(spec, "md", lang=lang)
        prose = re.sub(r"`[^`]*`|\b[A-Z][A-Z_]+[A-Z]\b", "", text)  # code as typed, refusal codes
        left = {w for w in WORD.findall(prose) if len(w) > 1 and w.lower() in english
                and w.lower() not in SHARED[lang] | proper}
        assert not left, f"{lang} sheet of {name} still has English: {sorted(left)}"
        assert "`points >= bid`" not in text, "formulas are the authors': only the English sheet shows them"


# What the seed documents call things, and the word our sheet uses for it (the seeds are machine
# translations: where they are wrong, e.g. Slovak "valach" for the jack or the calque "trik" for a
# trick, players say "zdvih", we say what players say).
# The seeds' terms the sheets share. Where players say otherwise the glossary (docs/translating.md) wins:
# French "preneur" (the seed's "enchérisseur"), Slovak "hlásenie" for a bid (the seed's "ponuka").
SEED_TERMS = {
    "fr": ("000", ["atout", "pli", "enchère", "donneur", "couleur", "valet", "équipe", "Jeu", "as"]),
    "sk": ("001", ["tromf", "licitáci", "rozdávajúci", "farb", "eso", "tím", "hráč", "bod"]),
    "tl": ("003", ["manlalaro", "koponan", "baraha", "trump", "puntos", "iskor", "suit", "jack", "alas", "Laro"]),
    "th": ("004", ["ไพ่", "ผู้เล่น", "ทีม", "แต้ม", "คะแนน", "เจ้ามือ", "การประมูล", "ผู้ประมูล", "เอซ", "ทรัมป์", "รอบ"]),
}


@pytest.mark.parametrize("lang", FOREIGN)
def test_sheets_use_the_seed_documents_terms(lang):
    number, terms = SEED_TERMS[lang]
    sheet = render(load_spec("four_point_ne_wisconsin"), "md", lang=lang)
    for term in terms:
        assert term.lower() in sheet.lower(), f"{lang}: the sheet never says {term!r}"
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside this clone: the sheet's side was checked")
    seed = next(SEEDS.glob(f"{number}_*.txt")).read_text(encoding="utf-8").lower()
    for term in terms:
        assert term.lower() in seed, f"{lang}: seed {number} does not use {term!r}"


def test_the_html_sheet_says_its_language():
    html = render(load_spec("four_point_ne_wisconsin"), "html", lang="th")
    assert '<html lang="th">' in html and "<h1>สเมียร์สี่แต้ม" in html


def test_a_table_sheet_reads_its_options_in_the_language():
    text = render(load_spec("four_point_ne_wisconsin"), "md", {"widow": 2, "defense_cap": True}, 4, lang="fr")
    assert "tel que cette table le joue (4 joueurs ; widow=2, win_only_on_bid=non, defense_cap=oui)" in text
    assert "Le preneur prend 2 cartes sur le dessus du talon." in text


def test_explain_cli_takes_a_language_and_refuses_an_unknown_one():
    run = lambda *a: subprocess.run([sys.executable, "-m", "smear_dsl", "explain", "cutthroat_canadian", *a],  # noqa: E731
                                    capture_output=True, text=True, cwd=ROOT)
    fr = run("--lang", "fr")
    assert fr.returncode == 0 and fr.stdout.startswith("# Smear canadien chacun pour soi, version 1\n")
    bad = run("--lang", "de")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr and "Traceback" not in bad.stderr


def _rules(tmp_path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_rule_files_translations_are_checked_where_they_stand(tmp_path):
    base = "extends: four_point_ne_wisconsin\nname: House\ntranslations:\n"
    with pytest.raises(RuleError) as e:
        load_spec(_rules(tmp_path, base + "  de:\n    name: Haus\n"))
    d = e.value.diagnostics[0]
    assert (d.line, d.col) == (4, 3) and "`de` is not a players' language" in d.message and "fr, sk, tl, th" in d.hint
    with pytest.raises(RuleError) as e:
        load_spec(_rules(tmp_path, base + "  fr:\n    options:\n      widdow: talon\n"))
    d = e.value.diagnostics[0]
    assert (d.line, d.col) == (6, 7) and "`widdow` is not defined" in d.message and "did you mean `widow`" in d.hint
    with pytest.raises(RuleError) as e:
        load_spec(_rules(tmp_path, base + "  fr:\n    names:\n      hihg: Haut\n"))
    assert "did you mean `high`" in e.value.diagnostics[0].hint


def test_a_child_keeps_its_parents_words_but_not_its_parents_title(tmp_path):
    """Options and refusals are the parent's too; the parent's name and description describe the parent."""
    spec = load_spec(_rules(tmp_path, "extends: four_point_ne_wisconsin\nname: House to 7\nend:\n  target: 7\n"))
    fr = spec.words("fr")
    assert fr.name == "" and fr.description == ""
    assert fr.options["widow"].startswith("Combien de cartes") and "TRUMP_DISCARDED" in fr.messages
    text = render(spec, lang="fr")
    assert text.startswith("# House to 7\n") and "Quatre joueurs" not in text and "partie en 15" not in text
    own = load_spec(_rules(tmp_path, "extends: four_point_ne_wisconsin\nname: House\ntranslations:\n"
                                     "  fr:\n    name: Maison\n    names:\n      high: Haut\n"))
    assert render(own, lang="fr").startswith("# Maison\n") and "| Haut | 1 |" in render(own, lang="fr")


def _refusal(game: Game, seat: int, move: int) -> MoveError:
    with pytest.raises(MoveError) as e:
        game.apply(seat, move)
    return e.value


def test_refusals_are_said_in_the_language_with_the_same_code():
    rules = compile_rules(load_spec("four_point_ne_wisconsin"), 4, {})
    g = Game(rules, seed="say")
    seat = g.turn
    e = _refusal(g, (seat + 1) % 4, 0x40 + 2)  # a bid out of turn
    # People count seats from 1 (the API from 0): seat index 2 is "seat 3".
    assert e.code == "WRONG_TURN" and e.message == f"it is seat {seat + 1}'s turn, not seat {(seat + 1) % 4 + 1}'s"
    assert say(tr_for("fr"), e.said) == f"c'est au tour de la place {seat + 1}, pas de la place {(seat + 1) % 4 + 1}"
    e = _refusal(g, seat, rules.deck.id_of["AS"])
    assert e.code == "WRONG_PHASE"
    assert say(tr_for("sk"), e.said) == "kolo čaká na hlásenie alebo pas, nie na zahranú kartu"
    assert say(tr_for("th"), e.said) == "รอบนี้กำลังรอการประมูลหรือการผ่าน ไม่ใช่การลงไพ่"
    # A malformed move (a client that sent the menu's word for a card) is refused in the language too.
    from smear_dsl.moves import from_dict
    with pytest.raises(MoveError) as bad:
        from_dict(rules, {"seat": 0, "action": "play", "card": "PASSE"})
    assert bad.value.code == "BAD_RECORD" and bad.value.message == "a play needs a card, not 'PASSE'"
    assert say(tr_for("fr"), bad.value.said) == "jouer demande une carte, pas 'PASSE'"


def test_a_rule_files_own_refusal_is_said_in_its_words():
    spec = load_spec("six_point_ne_wisconsin")
    msgs = spec.words("fr")
    joker = next(r for r in spec.play.lead_rules if "buried" in r.message)
    from smear_dsl.errors import Said
    assert say(tr_for("fr"), Said(joker.message), joker.code, msgs).startswith("vous avez écarté un joker")
    other = next(r for r in spec.play.lead_rules if r.code == "TRUMP_DISCARDED" and r is not joker)
    assert say(tr_for("fr"), Said(other.message), other.code, msgs).startswith("vous avez écarté une carte")
    assert say(tr_for("en"), Said(joker.message), joker.code, msgs) == joker.message


def test_accept_language_is_negotiated_and_never_fails():
    assert negotiate("fr-CA,fr;q=0.9,en;q=0.8") == "fr"
    assert negotiate("de-DE,de;q=0.9,sk;q=0.5") == "sk"
    assert negotiate("fil-PH") == "tl" and negotiate("th") == "th"
    for junk in ("de", "", None, "x" * 10_000, ";;;,,,q=", "zz-ZZ", "\x00"):
        assert negotiate(junk) == "en"


def test_the_referee_refuses_in_the_callers_language_with_the_same_code(tmp_path):
    """A client that sends `accept-language: fr` reads refusals in French; the code does not change,
    and a client without it still reads English."""
    import grpc
    from referee_harness import ServerThread, error_reason

    from smear_referee.api import referee_pb2 as pb

    srv = ServerThread(str(tmp_path / "referee.sqlite3"))
    try:
        c = srv.client()
        t = c.create_table("four_point_ne_wisconsin", {}, 0, "fr")
        seats = [c.join(t.table_id, s).token for s in range(4)]
        v = srv.client(seats[0]).view(t.table_id)
        wrong = (v.turn + 1) % 4
        said = {}
        for lang in ("fr", "th", None):
            cl = srv.client(seats[wrong])
            cl.lang = lang
            with pytest.raises(grpc.RpcError) as e:
                cl.submit(t.table_id, pb.Move(**{"pass": True}), v.version)
            assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION and error_reason(e.value) == "WRONG_TURN"
            said[lang] = e.value.details()
        assert said["fr"] == f"c'est au tour de la place {v.turn + 1}, pas de la place {wrong + 1}"
        assert said["th"] == f"ถึงคิวของที่นั่ง {v.turn + 1} ไม่ใช่ที่นั่ง {wrong + 1}"
        assert said[None] == f"it is seat {v.turn + 1}'s turn, not seat {wrong + 1}'s"
        sheet = c.stub.ExplainRules(pb.ExplainRulesRequest(table_id=t.table_id, lang="sk")).text
        assert sheet.startswith("# Štvorbodový Smear")
    finally:
        srv.stop()


# Phrasings a native player would never write, per language: a slot filled with a phrase that needs
# another case, article, marker or contraction. The list grows as the sheets are corrected (issue 33);
# every shipped rule file's sheet and the outcome sentences are read against it.
NEVER = {
    "fr": [r"\bà le\b", r"\bà les\b", r"\bde le\b", r"\bde les\b", r"\b(de|que|le|la) [aeiouéèêàâîôû]\w*\b",
           r"donne à personne", r"qui l'a jouée", r"où elle tombe",
           r"\batout (jouées|distribuées|écartées|gardées)", r"\batouts (jouées|distribuées|écartées|gardées)",
           r"[Ll]e plus fort enchérisseur", r"enchère jusque-là est inférieur\b", r"la plus (forte|faible) atout",
           r"\ble plus (fort|faible) carte"],
    "sk": [r"získa nikomu", r"Víťaz: nikomu", r"počet: ", r"hodnota karta\b", r"farby druhá farba", r"zapíše jej",
           r"eso farby", r"Nikto nepreží", r"\b[Dd]ražiteľ", r"\b[Dd]ražb", r"najnižší tromf zahrané",
           r"ktorá ju zahrala", r"\b[Tt]rik(u|om|y|ov)?\b", r"\b[Pp]onu[kc]"],  # the catalog's and the rule files' own words
    "tl": [r"\bito sa walang sinuman\b", r"\b(ang|ng|sa) (ang|ng)\b",  # one marker on a bare noun
           r"(?i)\b(taya|tumaya|tayaan|tayang)\b", r"itinataob nang nakaharap", r"sumunod sa puso",
           r"\bbarahang sa\b", r"\bmga trump (itinago|nailaro|itinapon)\b"],  # a linker before a participle only
    "th": [r"ตกเป็นของไม่มีใคร", r"คน ใบ\)", r"ได้คะแนน แต้ม", r"\S ถ้า ", r"มิฉะนั้น [\u0E01-\u0E4F]", r"กับ [\u0E01-\u0E4F]", r"การประมูลที่ [0-9]+ (ขึ้นไป)?ปิดการประมูล", r"[\u0E01-\u0E4F][0-9]|[0-9][\u0E01-\u0E4F]"],  # a number glued to a word  # noqa: E501
}


@pytest.mark.parametrize("lang", sorted(NEVER))
def test_no_sheet_or_outcome_says_what_a_native_player_never_would(lang):
    found = []
    tr = tr_for(lang)
    said = [tr.t("No winner · scores {list}", list="7, 4"), tr.t("that side; a tie gives it to nobody")]
    for name in RULE_FILES:
        said.append(render(load_spec(name), "md", lang=lang))
    for text in said:
        found += [m.group(0) for pattern in NEVER[lang] for m in re.finditer(pattern, text)]
    assert not found, f"{lang}: {sorted(set(found))}"


# Words a catalog never uses any more (the glossary in docs/translating.md says why).
CATALOG_NEVER = {
    "sk": [r"\b[Tt]rik(u|om|y|ov|och|mi)?\b",  # players say "zdvih" for a trick
           r"\b[Pp]onu[kc]|\b[Pp]onúk|\b[Dd]raž"],  # and licitácia, hlásenie, víťaz licitácie: not an auction house's words
    "tl": [r"(?i)\b(taya|tumaya|tayaan|tayang|tataya|tumataya)\b", r"sumunod sa \{suit\}"],  # bid, bidder; "follow your heart"
    "fr": [r"enchérisseur"],  # the Belote/Coinche word: preneur
    "th": [r"ถึงตา", r"ตาเดิน", r"ตาของคุณ", r"ต่อตา"],  # ตา is a trick only: a turn is คิว, a move การเดิน
}


@pytest.mark.parametrize("lang", sorted(CATALOG_NEVER))
def test_no_catalog_uses_a_word_its_glossary_put_away(lang):
    with open(po_path(lang), encoding="utf-8") as f:
        catalog = read_po(f)
    found = [(m.id, hit.group(0)) for m in catalog if m.id
             for text in (m.string if isinstance(m.string, (tuple, list)) else (m.string,))
             for pattern in CATALOG_NEVER[lang] for hit in re.finditer(pattern, text or "")]
    assert not found, f"{lang}: {found[:5]}"


def test_a_slot_takes_the_case_or_agreement_its_sentence_asks_for():
    """A translation asks a slot's form (`{what:gen}`), agreement with another slot (`{where:@what}`) and
    its own words by a slot's gender (`{what?f=...}`); English has none of them and is unchanged."""
    sk, fr, en = tr_for("sk"), tr_for("fr"), tr_for("en")
    trumps = sk.t("trumps")
    assert sk.t("the number of {what} {where}", what=trumps, where=sk.t("in the hand")) == "počet tromfov v ruke"
    assert sk.t("the rank of {x}", x=sk.t("the card")) == "hodnota karty"
    assert sk.card_of(12, sk.suit(1)) == "srdcové eso" and sk.card_of(10, sk.suit(1)) == "srdcová dáma"
    assert sk.card_of(3, sk.t("the other suit of {x}'s colour", x=sk.t("trump")), phrase=True) == \
        "5 druhej farby rovnakého tónu ako tromf"
    assert sk.t("Every side scores {x}.", x=sk.t("its point total")) == "Každá strana si zapíše svoj súčet bodov."
    lowest = fr.t("the lowest {what} {where}", what=fr.t("trump"), where=fr.t("played"))
    assert lowest == "le plus faible atout joué"
    card = fr.t("card of {suit}", suit=fr.suit(1))
    assert fr.t("the lowest {what} {where}", what=card, where=fr.t("played")).startswith("la plus faible carte")
    assert fr.t("the {what} {where}", what=fr.t("trumps"), where=fr.t("played")) == "les atouts joués"
    assert fr.t("{a} is less than {b}", a=fr.t("the highest bid so far"), b=4).endswith("est inférieure à 4")
    assert en.t("the lowest {what} {where}", what="trump", where="played") == "the lowest trump played"
    assert sk.t("trumps").form("no such form") == "tromfy"  # a form the catalog lacks: the words as they are


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_form_a_catalog_gives_belongs_to_a_message_and_fills_its_slots(lang):
    template, catalog = _template_and_catalog(lang)
    known = {(m.id, m.context): m.id for m in template if m.id}
    bad = []
    for m in catalog:
        if not m.id or not update_catalogs.is_form(m.context):
            continue
        msgid = known.get((m.id, update_catalogs.base_context(m.context)))
        if msgid is None or (m.context.split("|")[0] != "gender" and _placeholders(m.string) != _placeholders(msgid)):
            bad.append((m.context, m.id))
    assert not bad, f"{lang}: {bad[:5]}"


def test_french_contracts_and_elides_where_a_value_meets_the_words_before_it():
    """A slot's value meets French spelling: de + les = des, à + le = au, de + a vowel = d'; the words
    of the message itself ("avant de le jouer") and identifiers (a table's id) are left as they are."""
    fr = tr_for("fr")
    assert fr.t("Let a bot play for {who}", who="Ann").endswith("à la place d'Ann")
    assert fr.t("Let a bot play for {who}", who="Bob").endswith("à la place de Bob")
    assert fr.t("the highest card of {x}", x="les atouts") == fr.t("the highest card of {x}", x="X").replace(
        "de X", "des atouts")
    assert fr.t("table {table} opened: {title}", table="e0a1", title="Smear") == "table e0a1 ouverte : Smear"
    from smear_dsl.i18n import SLOT, french_junctions
    assert french_junctions(f"avant de le jouer, à {SLOT}le camp") == f"avant de le jouer, au {SLOT}camp"
    assert french_junctions(f"le {SLOT}huit, de {SLOT}8") == f"le {SLOT}huit, de {SLOT}8"  # h aspiré, numbers


def test_the_translators_command_shows_each_changed_sentence_old_and_new():
    """scripts/sentences.py: the sheets as the catalogs make them now are the reviewed ones (exit 0);
    a changed line is shown as its old and its new text."""
    import sentences
    assert sentences.main(["fr"]) == 0
    old, new = "# Titre\n- une ligne\n- une autre\n", "# Titre\n- une ligne changée\n- une autre\n"
    assert sentences.changed_lines(old, new) == [("- une ligne", "- une ligne changée")]
