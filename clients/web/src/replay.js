// The replay viewer: a finished game (a table of the server, or a record file) move by move,
// hand by hand, every seat's cards face up. Positions come from the referee (ReplayRecord), which
// re-referees the record with the same engine, so a house rule replays as it was played.
import { referee, refusal } from "./api.js";
import { lang, langPicker, pointName, t } from "./i18n.js";
import { cardEl, cardLabel, h, pointSides, recordMoveTold, scoreList, SUITS } from "./ui.js";

export async function replayPage(root, tableId, go) {
  const page = new ReplayPage(root, go);
  if (tableId) {
    page.names = (await referee.getTable({ tableId })).seatNames.map((n, i) => (n.startsWith("bot:") ? t("Bot {seat}", { seat: i + 1 }) : n));
    await page.load({ case: "tableId", value: tableId }, t("table {id}", { id: tableId }));
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
      h("header", {}, h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, t("← lobby")),
        langPicker(), h("h1", {}, t("Replay a game"))),
      h("section.panel", {}, h("label", { for: "record-file" }, t("Open a record (smear-record/1 JSON):"), " "), file),
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

  seatName(s) { return this.names?.[s] || t("Seat {seat}", { seat: s + 1 }); }  // people count from 1

  render() {
    const d = this.data, s = d.steps[this.at];
    const hands = new Set(d.steps.map((x) => x.hand)).size;
    const verdict = d.verdict;
    this.root.replaceChildren(...[
      h("header", {}, h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, t("← lobby")),
        langPicker(() => this.render()), h("h1", {}, t("Replay: {rules}", { rules: d.titles?.[lang()] || d.rules })), h("span.muted", {}, this.label)),
      h("section.panel.controls", {},
        h("button#prev-hand", { onclick: () => this.hand(-1) }, t("« hand")),
        h("button#prev", { onclick: () => this.step(-1) }, t("◀ move")),
        h("span#where", {}, ` ${t("hand {n} of {all}", { n: s.hand + 1, all: hands })} · ${s.move === null ? t("the deal") : t("move {n}", { n: s.move + 1 })} `),
        h("button#next", { onclick: () => this.step(1) }, t("move ▶")),
        h("button#next-hand", { onclick: () => this.hand(1) }, t("hand »")),
        h("input#slider", { type: "range", "aria-label": t("Position in the game"), min: 0, max: d.steps.length - 1, value: this.at,
          oninput: (e) => { this.at = Number(e.target.value); this.render(); } })),
      h("div#last.last", {}, s.last ? `${this.seatName(s.last.seat)} ${recordMoveTold(s.last)}` : t("{who} deals", { who: this.seatName(s.dealer) })),
      h("section.board", {}, h("div.seats-row", {}, s.hands.map((cards, seat) => h("div.seat", {
        class: ["seat", s.turn === seat && "to-act"].filter(Boolean).join(" "), "data-seat": seat },
      h("b", {}, this.seatName(seat)), s.dealer === seat ? h("span.tag", {}, t("dealer")) : null,
      h("div.cards.replay-hand", {}, cards.map((c) => cardEl(c, { small: true }))),
      s.discarded[seat].length ? h("div.muted", {}, t("discarded {cards}", { cards: s.discarded[seat].map(cardLabel).join(" ") })) : null))),
      h("div.trick", {}, h("div.muted", {}, s.winner_of_trick !== null && s.winner_of_trick !== undefined ? t("{who} took the trick", { who: this.seatName(s.winner_of_trick) }) : t("trick")),
        h("div.trick-cards", {}, s.trick.map((t) => h("div.played", {}, cardEl(t.card), h("small", {}, this.seatName(t.seat))))))),
      h("section.status", {}, h("div", {}, s.trump ? t("Trump: {suit}", { suit: SUITS[s.trump] }) : t("no trump yet"),
        s.turned_up ? ` · ${t("turned up {card}", { card: cardLabel(s.turned_up) })}` : "",
        s.bids.length ? ` · ${t("bids: {list}", { list: s.bids.map((b) => `${this.seatName(b.seat)} ${b.bid ?? t("pass")}`).join(", ") })}` : ""),
      h("div.scores", {}, t("Scores: {list}", { list: scoreList(s.scores) }))),
      s.result ? h("section.panel#hand-result", {}, h("h2", {}, t("Hand {n} scored", { n: s.hand + 1 })),
        Object.entries(s.result.points || {}).map(([p, side]) => `${pointName(p)} → ${pointSides(side, (x) => (x === null ? t("nobody") : t("Side {n}", { n: x + 1 })))}`).join(", "),
        ` · ${t("scores {list}", { list: scoreList(s.result.scores) })}`) : null,
      h("p.muted", {}, verdict.valid ? t("Verdict: valid") : t("Verdict: invalid ({code}: {message})", { code: verdict.error?.code, message: verdict.error?.message }),
        ` · ${t("final scores {list}", { list: scoreList(verdict.scores) })}`, ` · ${t("keys: ← → moves, PageUp/PageDown hands")}`),
    ].filter(Boolean));
  }
}

