// Small DOM helpers and card faces.

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
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };  // alternate colours in a hand
const RANKS = "2 3 4 5 6 7 8 9 T J Q K A".split(" ");

/** (rank, suit, order) of a card name such as "TH" or "AS"; a joker keeps its whole name. */
export function parseCard(name) {
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  return SUITS[suit] ? { rank: rank === "T" ? "10" : rank, suit, order: RANKS.indexOf(rank) } : { rank: name, suit: "", order: 99 };
}

export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  return suit ? `${rank}${SUITS[suit]}` : rank;
}

/** A card face: a button when `onclick` is given. */
export function cardEl(name, { onclick, legal = true, selected = false, small = false } = {}) {
  const { rank, suit } = parseCard(name);
  const cls = ["card", suit === "H" || suit === "D" ? "red" : "black", !legal && "unavailable",
    selected && "selected", small && "small", !suit && "joker"].filter(Boolean);
  const el = h(onclick ? "button" : "span", { class: cls.join(" "), onclick, "data-card": name,
    title: legal ? name : `${name}: not a legal play now` },
  h("span.rank", {}, rank), h("span.suit", {}, suit ? SUITS[suit] : "★"));
  return el;
}

/** Cards sorted as a player holds them: by suit, high to low. */
export function sortHand(cards, trump) {
  const order = (c) => {
    const { suit, order: o } = parseCard(c);
    const s = suit === trump ? -1 : (SUIT_ORDER[suit] ?? -2);
    return [s, -o];
  };
  return [...cards].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

// Begging (All Fours): what each choice says at the table.
// The bots a host can seat (AddBots kinds): a search bot thinks up to its budget on every move.
export const BOT_KINDS = [["heuristic", "heuristic bots (quick)"], ["search:200ms", "search bots (strong, 0.2 s a move)"],
  ["search:1s", "search bots (strongest, 1 s a move)"], ["random", "random bots"]];

export const CHOICE_WORDS = { stand: "stands", beg: "begs", give: "gives a point", run: "runs the cards" };
const CHOICE_BUTTONS = { stand: "Stand", beg: "Beg", give: "Give a point", run: "Run the cards" };
export function choiceButtonLabel(choice) { return CHOICE_BUTTONS[choice] || choice; }

export function moveLabel(m) {
  if (!m) return "";
  switch (m.action.case) {
    case "pass": return "pass";
    case "bid": return `bid ${m.action.value}`;
    case "trump": return `trump ${SUITS[m.action.value] || m.action.value}`;
    case "discard": return m.action.value.cards.length ? `discard ${m.action.value.cards.map(cardLabel).join(" ")}`
      : `discard ${m.action.value.count} cards`;
    case "play": return `plays ${cardLabel(m.action.value)}`;
    case "choose": return CHOICE_WORDS[m.action.value] || m.action.value;
    default: return "?";
  }
}
