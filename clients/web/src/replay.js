// The replay viewer: a finished game (a table of the server, or a record file) move by move,
// hand by hand, every seat's cards face up. Positions come from the referee (ReplayRecord), which
// re-referees the record with the same engine, so a house rule replays as it was played.
import { referee, refusal } from "./api.js";
import { cardEl, cardLabel, CHOICE_WORDS, h, SUITS } from "./ui.js";

export async function replayPage(root, tableId, go) {
  const page = new ReplayPage(root, go);
  if (tableId) {
    page.names = (await referee.getTable({ tableId })).seatNames.map((n, i) => (n.startsWith("bot:") ? `Bot ${i}` : n));
    await page.load({ case: "tableId", value: tableId }, `table ${tableId}`);
  }
  else page.renderPicker();
  const keys = (e) => page.key(e);
  window.addEventListener("keydown", keys);
  return () => window.removeEventListener("keydown", keys);
}

class ReplayPage {
  constructor(root, go) {
    Object.assign(this, { root, go, at: 0, data: null, message: null });
  }

  renderPicker() {
    const file = h("input#record-file", { type: "file", accept: ".json,application/json",
      onchange: async () => {
        const text = await file.files[0].text();
        await this.load({ case: "recordJson", value: text }, file.files[0].name);
      } });
    this.root.replaceChildren(...[
      h("header", {}, h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, "← lobby"),
        h("h1", {}, "Replay a game")),
      h("section.panel", {}, h("label", { for: "record-file" }, "Open a record (smear-record/1 JSON): "), file),
      this.message ? h("p.refusal#message", {}, this.message) : null,
    ].filter(Boolean));
  }

  async load(source, label) {
    try {
      const r = await referee.replayRecord({ source });
      this.data = JSON.parse(r.replayJson);
      this.record = r.recordJson;
      this.label = label;
      this.valid = r.valid;
      this.at = 0;
      this.render();
    } catch (err) {
      this.message = `${refusal(err).reason}: ${refusal(err).message}`;
      this.renderPicker();
    }
  }

  key(e) {
    if (!this.data) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: "next", PageUp: "prev" }[e.key];
    if (moves === "next") this.hand(1);
    else if (moves === "prev") this.hand(-1);
    else if (moves) this.step(moves);
  }

  step(n) {
    this.at = Math.max(0, Math.min(this.data.steps.length - 1, this.at + n));
    this.render();
  }

  hand(n) {
    const steps = this.data.steps, now = steps[this.at].hand;
    const target = n > 0 ? steps.findIndex((s) => s.hand === now + 1) : steps.findIndex((s) => s.hand === Math.max(0, now - (steps[this.at].move === null ? 1 : 0)));
    if (target >= 0) this.at = target;
    this.render();
  }

  seatName(s) { return this.names?.[s] || `Seat ${s}`; }

  render() {
    const d = this.data, s = d.steps[this.at];
    const hands = new Set(d.steps.map((x) => x.hand)).size;
    const verdict = d.verdict;
    this.root.replaceChildren(...[
      h("header", {}, h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, "← lobby"),
        h("h1", {}, `Replay: ${d.rules}`), h("span.muted", {}, this.label)),
      h("section.panel.controls", {},
        h("button#prev-hand", { onclick: () => this.hand(-1) }, "« hand"),
        h("button#prev", { onclick: () => this.step(-1) }, "◀ move"),
        h("span#where", {}, ` hand ${s.hand + 1} of ${hands} · ${s.move === null ? "the deal" : `move ${s.move + 1}`} `),
        h("button#next", { onclick: () => this.step(1) }, "move ▶"),
        h("button#next-hand", { onclick: () => this.hand(1) }, "hand »"),
        h("input#slider", { type: "range", min: 0, max: d.steps.length - 1, value: this.at,
          oninput: (e) => { this.at = Number(e.target.value); this.render(); } })),
      h("div#last.last", {}, s.last ? `${this.seatName(s.last.seat)} ${moveText(s.last)}` : `${this.seatName(s.dealer)} deals`),
      h("section.board", {}, h("div.seats-row", {}, s.hands.map((cards, seat) => h("div.seat", {
        class: ["seat", s.turn === seat && "to-act"].filter(Boolean).join(" "), "data-seat": seat },
      h("b", {}, this.seatName(seat)), s.dealer === seat ? h("span.tag", {}, "dealer") : null,
      h("div.cards.replay-hand", {}, cards.map((c) => cardEl(c, { small: true }))),
      s.discarded[seat].length ? h("div.muted", {}, `discarded ${s.discarded[seat].map(cardLabel).join(" ")}`) : null))),
      h("div.trick", {}, h("div.muted", {}, s.winner_of_trick !== null && s.winner_of_trick !== undefined ? `${this.seatName(s.winner_of_trick)} took the trick` : "trick"),
        h("div.trick-cards", {}, s.trick.map((t) => h("div.played", {}, cardEl(t.card), h("small", {}, this.seatName(t.seat))))))),
      h("section.status", {}, h("div", {}, s.trump ? `Trump: ${SUITS[s.trump]}` : "no trump yet",
        s.turned_up ? ` · turned up ${cardLabel(s.turned_up)}` : "",
        s.bids.length ? ` · bids: ${s.bids.map((b) => `${this.seatName(b.seat)} ${b.bid ?? "pass"}`).join(", ")}` : ""),
      h("div.scores", {}, `Scores: ${s.scores.join("–")}`)),
      s.result ? h("section.panel#hand-result", {}, h("h2", {}, `Hand ${s.hand + 1} scored`),
        Object.entries(s.result.points || {}).map(([p, side]) => `${p} → ${side === null ? "nobody" : `side ${side + 1}`}`).join(", "),
        ` · scores ${s.result.scores.join("–")}`) : null,
      h("p.muted", {}, `Verdict: ${verdict.valid ? "valid" : `invalid (${verdict.error?.code}: ${verdict.error?.message})`}`,
        ` · final scores ${verdict.scores.join("–")}`, " · keys: ← → moves, PageUp/PageDown hands"),
    ].filter(Boolean));
  }
}

function moveText(m) {
  switch (m.action) {
    case "pass": return "passes";
    case "bid": return `bids ${m.value}`;
    case "trump": return `names ${SUITS[m.suit]} trump`;
    case "discard": return `discards ${m.cards.map(cardLabel).join(" ")}`;
    case "choose": return CHOICE_WORDS[m.choice] || m.choice;
    default: return `plays ${cardLabel(m.card)}`;
  }
}
