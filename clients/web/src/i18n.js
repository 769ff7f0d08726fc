// The players' languages in the browser: the same gettext catalogs as the server (smear_dsl/locale,
// turned into gen/messages.js by scripts/update_catalogs.py). The choice is kept in this browser and
// sent with every call as `accept-language`, so the referee's refusals come back in it too.
import { MESSAGES, PLURAL_CATEGORIES } from "./gen/messages.js";
import { h } from "./ui.js";

export const LANGUAGES = { en: "English", fr: "Français", sk: "Slovenčina", tl: "Tagalog", th: "ไทย" };
const KEY = "smear:lang";

/** The browser's first supported language (Filipino counts as Tagalog), else English. */
function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (code === "fil") return "tl";
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

let current = LANGUAGES[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : fromBrowser();
document.documentElement.lang = current;

export function lang() { return current; }

export function setLang(code) {
  if (!LANGUAGES[code]) return;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
}

const SLOT = "\u0002";  // where a filled-in value begins, while French junctions are spelled
const NOT_WORDS = new Set(["seed", "table", "id", "file", "hash", "code", "path", "key", "token", "url"]);

/** French at a slot's edge, as smear_dsl/i18n.py spells it: de + le = du, de + les = des, à + le = au,
 * à + les = aux; else de, que, le, la, ne elide before a word that begins with a vowel ("d'atouts"). */
/* eslint-disable no-control-regex -- SLOT (\u0002) marks a filled-in value: a control character on purpose */
function frenchJunctions(text) {
  return text
    .replace(/(^|[\s(«"'])([Dd]e|[Àà]) \u0002(les?) /gu, (m, pre, w, art) => {
      let word = w.toLowerCase() === "de" ? (art === "le" ? "du" : "des") : (art === "le" ? "au" : "aux");
      if (w[0] !== w[0].toLowerCase()) word = word[0].toUpperCase() + word.slice(1);
      return `${pre}${word} ${SLOT}`;
    })
    .replace(/(^|[\s(«"'])([Dd]|[Qq]u|[Ll]|[Nn]|[Jj]usqu)(?:e|a) \u0002(?=[aeiouéèêàâîôûAEIOUÉÈÊÀÂÎÔÛ]\p{L}*(?:[\s,.;:)]|$))/gu,
      (m, pre, w) => `${pre}${w}'${SLOT}`);
}

/** Tagalog marks a bare noun once: "sa" + "ang panig" is "sa panig" (as smear_dsl/i18n.py). */
function tagalogJunctions(text) {
  return text.replace(/(^|[^\p{L}])(ang|ng|sa|Ang|Sa) \u0002(?:ang|ng) /gu, (m, pre, w) => `${pre}${w} ${SLOT}`);
}
/* eslint-enable no-control-regex */

const JUNCTIONS = { fr: frenchJunctions, tl: tagalogJunctions };

function fill(text, params) {
  if (!params) return text;
  if (JUNCTIONS[current]) {
    const marked = text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? (NOT_WORDS.has(k) ? "" : SLOT) + String(params[k]) : m));
    return JUNCTIONS[current](marked).replaceAll(SLOT, "");
  }
  const filled = text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  // Thai sets a number or a Latin word apart from the words around it ("มากกว่า 6", never "มากกว่า6"), as smear_dsl/i18n.py does.
  return current === "th" ? filled.replace(/([\u0E01-\u0E4F])([0-9A-Za-z`])/g, "$1 $2").replace(/([0-9A-Za-z`)])([\u0E01-\u0E4F])/g, "$1 $2") : filled;
}

/** `msgid` in the chosen language, its {placeholders} filled. */
export function t(msgid, params) {
  const found = MESSAGES[current]?.[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** The form of a message for the number n (filled in as {n}). */
export function tn(singular, plural, n, params) {
  const forms = MESSAGES[current]?.[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const index = PLURAL_CATEGORIES[current]?.[new Intl.PluralRules(current).select(n)];
    text = forms[index ?? forms.length - 1] || text;
  }
  return fill(text, { n, ...params });
}

/** A message in a context (a suit, a point's name: one English word may be two elsewhere). */
export function tp(context, msgid, params) {
  const found = MESSAGES[current]?.[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** A table's options as "widow=2, defense_cap=on", on/off in the chosen language. */
export function optionsText(options) {
  const shown = (v) => (v === "true" ? t("on") : v === "false" ? t("off") : v);
  // As people say them: "widow: 2 · win only on bid: off", not "widow=2, win_only_on_bid=off".
  return Object.entries(options).map(([k, v]) => `${k.replaceAll("_", " ")}: ${shown(v)}`).join(" · ");
}

/** A phase of the hand as the view names it ("bidding", "play", "game over"), in the chosen language. */
export function phaseName(phase) {
  const names = { bidding: tp("phase", "bidding"), discard: tp("phase", "discard"), trump: tp("phase", "trump"),
    play: tp("phase", "play"), begging: tp("phase", "begging"), choose: tp("phase", "choose"),
    "game over": tp("phase", "game over"), "between hands": tp("phase", "between hands") };
  return names[phase] || phase;
}

/** A point's name as players of the chosen language say it (the family's usual points). */
export function pointName(name, names) {
  if (names?.[name]) return names[name];  // the rule file's own word, as the table sent it (TableInfo.names)
  const found = MESSAGES[current]?.[`name\u0004${name}`];
  return typeof found === "string" ? found : name.replace(/_/g, " ");
}

/** The language picker every page shows: changing it draws the page again in the new language
 * (by default the whole page, as main.js routes it; the table redraws itself and keeps its log). */
export function langPicker(redraw = () => window.dispatchEvent(new Event("smear:lang"))) {
  return h("label.lang", {}, h("select#lang", {
    "aria-label": t("Language"),
    onchange: (e) => { setLang(e.target.value); redraw(); },
  }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === current }, name))));
}
