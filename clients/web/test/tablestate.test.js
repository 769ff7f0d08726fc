// The table page's state (src/tablestate.js), run by `npm test`: which view wins, where seats sit, how
// seats are named. i18n.js reads the browser's language and storage when it loads: this test gives it
// an English browser with empty storage first (node has neither).
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.navigator ??= { languages: ["en"] };
globalThis.localStorage ??= { getItem: () => null, setItem: () => {} };
globalThis.document ??= { documentElement: {} };
const { TableState } = await import("../src/tablestate.js");

const view = (version, extra = {}) => ({ version, legalMoves: [], phase: "play", players: 4, sides: [0, 1, 0, 1],
  scores: [0, 0], turnLeft: 0, ...extra });

test("a newer view replaces the page's; one answered late (older) is ignored", () => {
  const st = new TableState("t1");
  st.setView(view(5n, { seat: 1 }));
  st.setView(view(3n, { seat: 1, phase: "bidding" }));
  assert.equal(st.view.version, 5n);
  assert.equal(st.view.phase, "play");
  st.setView(view(6n, { seat: 1, current: { trick: [] } }));
  assert.equal(st.view.version, 6n);
  assert.deepEqual(st.current, { trick: [] }, "the hand in play is the view's");
  st.setView(view(7n, { seat: 1 }));
  assert.equal(st.current, null, "between hands there is none");
});

test("your turn is announced once per position, not at every refresh of it", () => {
  const st = new TableState("t1");
  const mine = view(8n, { seat: 0, legalMoves: [{ action: { case: "pass" } }] });
  assert.match(st.setView(mine), /Your turn/);
  assert.equal(st.setView(mine), null);
  assert.equal(st.setView(view(9n, { seat: 0 })), null, "not your turn: nothing to announce");
});

test("you sit at the bottom and the next seat on your left, whichever seat you hold", () => {
  const st = new TableState("t1");
  st.setView(view(1n, { seat: 2 }));
  assert.deepEqual([0, 1, 2, 3].map((s) => st.placeOf(s)), ["at-4-2", "at-4-3", "at-4-0", "at-4-1"]);
  assert.deepEqual([0, 1, 2, 3].map((s) => st.sideOf(s)), [0, 1, 0, 1]);
  const spectator = new TableState("t1");
  spectator.setView(view(1n));
  assert.equal(spectator.placeOf(0), "at-4-0", "a spectator sees seat 1 at the bottom");
});

test("seats are named as people count them (from 1), bots as bots, and yours as yours", () => {
  const st = new TableState("t1");
  st.setView(view(1n, { seat: 1 }));
  st.setInfo({ seatNames: ["Ann", "Bob", "bot:heuristic", ""], seatTaken: [true, true, true, false] });
  assert.equal(st.seatName(0), "Ann");
  assert.equal(st.seatName(1), "Bob (you)");
  assert.equal(st.seatName(1, false), "Bob");
  assert.equal(st.seatName(2), "Bot 3");
  assert.equal(st.seatName(3), "Seat 4");
});

test("cards picked for a discard toggle, and are let go together", () => {
  const st = new TableState("t1");
  st.pick("AS");
  st.pick("KD");
  st.pick("AS");
  assert.deepEqual([...st.selected], ["KD"]);
  st.unpick();
  assert.equal(st.selected.size, 0);
});
