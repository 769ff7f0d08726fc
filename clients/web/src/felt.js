// The felt: the scoreboard, the seats around the table (you at the bottom), the trick in front of who
// played it, and the status line. Drawn from the table's state (tablestate.js); what a person does here
// (drop a card on the felt, show the last trick) goes to the page's callbacks.
import { phaseName, t, tn } from "./i18n.js";
import { cardEl, cardLabel, choiceWords, h, scoreList, SUITS } from "./ui.js";

/** "Ann & Cy 7 — Bob & Dee 4": each side's players by name, and its score. */
export function scoreboardEl(st) {
  const v = st.view, pegged = st.current?.pegged;
  const sides = v.scores.map((score, side) => {
    const who = Array.from({ length: v.players }, (_, s) => s).filter((s) => st.sideOf(s) === side).map((s) => st.seatName(s, false));
    return h("span.side", { class: `side side-${side}${v.side === side ? " mine" : ""}`, "data-side": side },
      h("span.side-names", {}, who.join(" & ")), " ", h("b.side-score", {}, scoreList([score])),
      // Points pegged as their tricks fall (Don): this hand's running total beside the score.
      pegged ? h("small.pegged", {}, " ", t("+{n} this hand", { n: pegged.totals[side] })) : null);
  });
  return h("div#scoreboard.scoreboard", {}, sides.flatMap((x, i) => (i ? [" — ", x] : [x])));
}

/** The table: the seats around the felt, you at the bottom; the trick's cards in front of who played them.
 * `on.play(card)`: a card dropped on the felt; `on.toggleLast()`: the last trick shown or hidden. */
export function feltEl(st, on) {
  const v = st.view, d = st.current;  // d: the hand being played (null between hands)
  const seats = Array.from({ length: v.players }, (_, s) => seatEl(st, s));
  let trick = d?.trick || [];
  let caption = d?.trump ? t("Trump: {suit}", { suit: SUITS[d.trump] }) : t("no trump yet");
  if (d?.bid) caption += ` · ${t("high bid {n} by {who}", { n: d.bid, who: st.seatName(d.bidder, false) })}`;
  // Trump named in turn: who passed and who named it, while the calls go round.
  if (d?.trumpCalls.length && v.phase === "trump") {
    const calls = d.trumpCalls.map((c) => st.seatName(c.seat, false) + " " + (c.suit ? SUITS[c.suit] : t("pass")));
    caption += " · " + t("calls: {list}", { list: calls.join(", ") });
  }
  const last = d?.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  let lastShown = false;
  if (last && (!trick.length || st.showLast)) {  // between tricks, or on demand: the last trick, and who took it
    trick = last.cards.map((c, i) => ({ seat: (last.leader + i) % v.players, card: c }));
    lastShown = true;
  }
  // In the felt's corner: the contract, always in sight; between tricks, who took the last one.
  const center = h("div#trick.trick", { class: `trick${lastShown ? " last-trick" : ""}` },
    h("div.contract", {}, caption),
    lastShown ? h("div.muted", {}, t("last trick: {who} took it", { who: st.seatName(last.winner) })) : null);
  const lastButton = last && d.trick.length ? h("button#last-trick", { "aria-pressed": String(Boolean(st.showLast)),
    onclick: () => on.toggleLast() }, t("Last trick")) : null;
  const played = trick.map((x) => h("div.played", { class: `played ${st.placeOf(x.seat)}${lastShown ? " old" : ""}`, "data-seat": x.seat },
    cardEl(x.card), h("small", {}, st.seatName(x.seat, false))));
  return h("div.felt", {
    class: `felt seats-row n${v.players}`,
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => {  // a card dragged from the hand onto the table is played
      e.preventDefault();
      const card = e.dataTransfer.getData("text/plain");
      if (card) on.play(card);
    },
  }, ...seats, center, lastButton, ...played);
}

function seatEl(st, s) {
  const v = st.view, d = st.current;
  const bid = (d?.bids || []).filter((b) => b.seat === s).map((b) => (b.bid ? t("bid {n}", { n: b.bid }) : t("pass"))).pop();
  const took = (d?.tricks || []).filter((x) => x.winner === s).length;
  return h("div.seat", {
    class: ["seat", st.placeOf(s), `side-${st.sideOf(s)}`, v.turn === s && "to-act", v.seat === s && "me"].filter(Boolean).join(" "),
    "data-seat": s },
  h("b", {}, st.seatName(s)), v.dealer === s ? h("span.tag", {}, t("dealer")) : null,
  h("div.muted", {}, [d ? tn("{n} card", "{n} cards", d.handSizes[s]) : "",
    d ? tn("{n} trick", "{n} tricks", took) : ""].filter(Boolean).join(" · ")),
  bid ? h("div.bid", {}, bid) : null,
  st.seatState(s) ? h("div.tag.stand-in", {}, st.seatState(s)) : null,
  v.turn === s ? h("div.turn", {}, t("to act"), st.deadline && !v.finished
    ? h("span#clock.clock", { role: "timer", "aria-label": t("time left") }, st.clockText()) : null) : null);
}

/** The phase and who is to act, the stock, begging's choices and face-up discards. */
export function statusEl(st) {
  const v = st.view, d = st.current, stock = d?.stock;
  return h("div", {},
    h("div#phase", {}, t("Phase: {phase}", { phase: phaseName(v.phase) }),
      v.turn !== undefined && !v.finished ? ` · ${t("{who} to act", { who: st.seatName(v.turn) })}` : ""),
    stock ? h("div#stock", {}, [t("Stock: {n} cards", { n: stock.size }),
      stock.turnedUp ? t("turned up {card}", { card: cardLabel(stock.turnedUp) }) : "",
      stock.top ? t("top card {card}", { card: cardLabel(stock.top) }) : "",
      stock.turnedDown.length ? t("set aside {cards}", { cards: stock.turnedDown.map(cardLabel).join(" ") }) : ""]
      .filter(Boolean).join(" · ")) : "",
    d?.choices.length ? h("div#choices", {}, d.choices.map((c) => `${st.seatName(c.seat)} ${choiceWords(c.choice)}`).join(" · ")) : "",
    d?.shown.length ? h("div#shown", {}, t("Discarded face up: {list}", { list: d.shown.map((x) => `${st.seatName(x.seat)} ${x.cards.map(cardLabel).join(" ")}`).join(" · ") })) : "");
}
