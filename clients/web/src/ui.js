// Small DOM helpers and card faces (the pure card and score helpers are cards.js's).
export { pointSides, scoreList, sortHand, SUITS };
import { cardLabel as cardLabelIn, parseCard as parseCardIn, pointSides, scoreList, sortHand, SUITS } from "./cards.js";
import { OFFERED, TOLD } from "./gen/moves.js";
import { t, tp } from "./i18n.js";

/** An element: h("div.cls#id", {attrs, onclick}, ...children). */
export function h(tag, attrs = {}, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || "div");
  for (const part of rest) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) listen(el, k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// An element's handlers by event: one listener per event reads the current one, so a redraw that keeps
// the element (patch) hands it the new page's handler.
const HANDLERS = Symbol("handlers");

function listen(el, type, fn) {
  const handlers = (el[HANDLERS] ??= {});
  if (!(type in handlers)) el.addEventListener(type, (e) => el[HANDLERS][type]?.(e));
  handlers[type] = fn;
}

/** Redraws `parent` as `next` while keeping the elements that are still there (same tag, same id), so
 * a button a player is clicking or an input being filled is not swapped under them while play goes on
 * (an element whose class or card changed is drawn anew).
 * A node of `next` already in the page (a kept panel) is moved as it is, never rewritten. */
export function patch(parent, next) {
  next = next.filter((n) => n !== null && n !== undefined && n !== false)
    .map((n) => (n instanceof Node ? n : document.createTextNode(String(n))));
  const kept = new Set(next.filter((n) => n.isConnected));
  next.forEach((n, i) => {
    const o = parent.childNodes[i];
    if (o === n) return;
    if (o && !kept.has(o) && !kept.has(n) && alike(o, n)) morph(o, n);
    else parent.insertBefore(n, o ?? null);
  });
  while (parent.childNodes.length > next.length) parent.lastChild.remove();
}

function alike(o, n) {
  if (o.nodeType !== n.nodeType) return false;
  if (o.nodeType !== Node.ELEMENT_NODE) return true;
  // A changed class or card is drawn anew, as before (a card's motion never carries over to another).
  return o.tagName === n.tagName && o.id === n.id && o.className === n.className && o.dataset.card === n.dataset.card;
}

function morph(o, n) {
  if (o.nodeType !== Node.ELEMENT_NODE) {
    if (o.data !== n.data) o.data = n.data;
    return;
  }
  for (const a of [...o.attributes]) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
  for (const a of n.attributes) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  const handlers = n[HANDLERS] || {};
  for (const type of Object.keys(o[HANDLERS] || {})) if (!(type in handlers)) delete o[HANDLERS][type];
  for (const [type, fn] of Object.entries(handlers)) listen(o, type, fn);
  patch(o, [...n.childNodes]);
}

const rankLetter = (rank) => tp("rank letter", rank);

/** (rank, suit, order) of a card name, its rank as the player's language abbreviates it (cards.js). */
export function parseCard(name) { return parseCardIn(name, rankLetter); }

export function cardLabel(name) { return cardLabelIn(name, rankLetter); }

/** A card face: a button when `onclick` is given. */
export function cardEl(name, { onclick, legal = true, selected = false, small = false, draggable = false } = {}) {
  const { rank, suit } = parseCard(name);
  const cls = ["card", suit === "H" || suit === "D" ? "red" : "black", !legal && "unavailable",
    selected && "selected", small && "small", !suit && "joker"].filter(Boolean);
  const label = cardLabel(name);  // what a person reads (10♥), never the code (TH)
  const el = h(onclick ? "button" : "span", { class: cls.join(" "), onclick, "data-card": name,
    title: legal ? label : t("{card}: not a legal play now", { card: label }), "aria-label": label,
    draggable: draggable ? "true" : null,
    ondragstart: draggable ? (e) => e.dataTransfer.setData("text/plain", name) : null },
  h("span.rank", {}, rank), h("span.suit", {}, suit ? SUITS[suit] : "★"));
  return el;
}

// The bots a host can seat (AddBots kinds): a search bot thinks up to its budget on every move.
export function botKinds() {
  return [["heuristic", t("heuristic bots (quick)")], ["search:200ms", t("search bots (strong, 0.2 s a move)")],
    ["search:1s", t("search bots (strongest, 1 s a move)")], ["random", t("random bots")]];
}

// Begging (All Fours): what each choice says at the table, and its button.
export function choiceWords(choice) {
  return TOLD[choice] ? t(TOLD[choice]) : choice;
}
export function choiceButtonLabel(choice) {
  return { stand: t("Stand"), beg: t("Beg"), give: t("Give a point"), run: t("Run the cards") }[choice] || choice;
}

/** A suit's name in the chosen language ("hearts", "cœur"). */
export function suitName(letter) {
  const words = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  return words[letter] ? tp("suit", words[letter]) : letter;
}

/** A move's stable name for selectors and tests (`data-move`): the same in every language. */
export function moveKey(m) {
  const v = m.action.value;
  const keys = { pass: () => "pass", bid: () => `bid ${v}`, trump: () => `trump ${v}`, play: () => `plays ${v}`,
    discard: () => `discard ${v.cards.join(" ")}`, choose: () => ({ stand: "stands", beg: "begs", give: "gives a point", run: "runs the cards" }[v] || v) };
  return (keys[m.action.case] || (() => "?"))();
}

/** A move in words (clients/web/src/gen/moves.js: smear_dsl/moves.py's templates): as offered to the
 *  seat to act ("bid 3", a button) or, with TOLD, of the seat that made it ("bids 3", the log). */
function said(m, words) {
  const v = m.action.value;
  switch (m.action.case) {
    case "pass": return t(words.pass);
    case "bid": return t(words.bid, { n: v });
    case "trump": return t(words.trump, { suit: SUITS[v] || v });
    case "discard": return v.cards.length ? t(words.discard, { cards: v.cards.map(cardLabel).join(" ") })
      : t(words.discard_unseen, { n: v.count });
    case "play": return t(words.play, { card: cardLabel(v) });
    case "choose": return words[v] ? t(words[v]) : v;
    default: return "?";
  }
}

/** A move as offered to the seat to act ("bid 3", "play A♥"). */
export function moveLabel(m) { return m ? said(m, OFFERED) : ""; }

/** A move as told of the seat that made it ("bids 3", "plays A♥"): the table's log, the replay. */
export function moveTold(m) { return m ? said(m, TOLD) : ""; }

/** A move in its record form (smear-record/1: {action, value, suit, cards, card, choice}) as told. */
export function recordMoveTold(d) {
  const value = { bid: d.value, trump: d.suit, discard: { cards: d.cards || [], count: (d.cards || []).length },
    play: d.card, choose: d.choice }[d.action];
  return moveTold({ action: { case: d.action, value } });
}

/** Run `refresh` every few seconds while a page is shown (one that fails waits for the next); returns what stops it. */
export function refreshing(refresh, ms = 3000) {
  const timer = setInterval(() => refresh().catch(() => {}), ms);
  return () => clearInterval(timer);
}
