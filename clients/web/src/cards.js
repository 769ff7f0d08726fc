// Cards and scores as a person reads them: pure functions (no page, no language state), so node tests
// them (test/cards.test.js); ui.js gives them the player's language.

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };  // alternate colours in a hand
const RANKS = "2 3 4 5 6 7 8 9 T J Q K A".split(" ");

/** (rank, suit, order) of a card name such as "TH" or "AS"; a joker keeps its whole name. The rank is
 * shown as `rankLetter` abbreviates A, K, Q and J in the player's language, as the rules sheet does (R, D, V in
 * French); the ten is 10. */
export function parseCard(name, rankLetter = (rank) => rank) {
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  const shown = rank === "T" ? "10" : "AKQJ".includes(rank) ? rankLetter(rank) : rank;
  return SUITS[suit] ? { rank: shown, suit, order: RANKS.indexOf(rank) } : { rank: name, suit: "", order: 99 };
}

export function cardLabel(name, rankLetter) {
  const { rank, suit } = parseCard(name, rankLetter);
  return suit ? `${rank}${SUITS[suit]}` : rank;
}

/** Who won a point: a side (`who` names it), or for a point scored per card or per trick each side's total. */
export function pointSides(got, who) {
  if (!Array.isArray(got)) return who(got);
  const parts = got.map((v, side) => (v ? `${who(side)} ${v}` : null)).filter(Boolean);
  return parts.length ? parts.join(" / ") : who(null);
}

/** Scores as a person reads them: "7, 4" and a real minus sign ("4, −2", never "4–-2"). */
export function scoreList(scores) {
  return scores.map((s) => (s < 0 ? `\u2212${-s}` : String(s))).join(", ");
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

