// The web client's pure card and score helpers (src/cards.js), run by `npm test` (node's own test runner).
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardLabel, parseCard, pointSides, scoreList, sortHand } from "../src/cards.js";

test("a card reads as a person writes it: 10 for the ten, the rank letter in the player's language", () => {
  assert.equal(cardLabel("TH"), "10♥");
  assert.equal(cardLabel("QS", (r) => ({ Q: "D", K: "R" })[r] ?? r), "D♠");
  assert.equal(cardLabel("2C"), "2♣");
  assert.deepEqual(parseCard("JOKER"), { rank: "JOKER", suit: "", order: 99 });  // a joker keeps its name
});

test("a hand is held trump first, then suits of alternating colour, each high to low", () => {
  assert.deepEqual(sortHand(["2S", "AH", "KD", "TS", "3H", "JC"], "D"), ["KD", "TS", "2S", "AH", "3H", "JC"]);
  assert.deepEqual(sortHand(["2S", "AS"], "H"), ["AS", "2S"]);
  const hand = ["5C", "QH"];
  sortHand(hand, "S");
  assert.deepEqual(hand, ["5C", "QH"], "the hand given is not reordered in place");
});

test("scores use a real minus sign and points name their side", () => {
  assert.equal(scoreList([7, -2, 0]), "7, \u22122, 0");
  const who = (side) => (side === null ? "nobody" : `Side ${side + 1}`);
  assert.equal(pointSides(1, who), "Side 2");
  assert.equal(pointSides([0, 3], who), "Side 2 3");
  assert.equal(pointSides([1, 2], who), "Side 1 1 / Side 2 2");
  assert.equal(pointSides([0, 0], who), "nobody");
});
