// Your hand and what you may do with it: the cards (a click or a drag plays one, or picks it for a
// discard), and the buttons for bids, begging's choices, naming trump and discarding. Drawn from the
// table's state (tablestate.js); a move goes to `on.submit`, a picked card redraws by `on.redraw`.
import { t, tn } from "./i18n.js";
import { cardEl, choiceButtonLabel, h, moveKey, moveLabel, sortHand, SUITS } from "./ui.js";

export function handEl(st, on) {
  const v = st.view;
  const legal = v.legalMoves;
  const plays = new Set(legal.filter((m) => m.action.case === "play").map((m) => m.action.value));
  const discarding = legal.some((m) => m.action.case === "discard");
  const mayGo = new Set(v.discard?.cards || []);  // the cards the rules let go (the referee judges the set)
  const playing = v.phase === "play" && v.turn === v.seat;
  const cards = sortHand(v.hand, st.current?.trump || null);
  return h("div#hand.cards", { class: `cards${cards.length > 6 ? " fan" : ""}` }, cards.map((c) => cardEl(c, {
    draggable: playing && plays.has(c),
    legal: discarding ? mayGo.has(c) : !playing || plays.has(c),
    selected: st.selected.has(c),
    onclick: () => {
      if (discarding) {
        st.pick(c);
        return on.redraw();
      }
      // An unavailable card is still sent: the referee says why it cannot be played.
      on.submit({ action: { case: "play", value: c } });
    },
  })));
}

export function actionsEl(st, on) {
  const legal = st.view.legalMoves;
  const out = [];
  const bids = legal.filter((m) => m.action.case === "bid" || m.action.case === "pass");
  for (const m of bids) {
    out.push(h("button.bid", { "data-move": moveKey(m), onclick: () => on.submit(m) }, moveLabel(m)));
  }
  for (const m of legal.filter((x) => x.action.case === "choose")) {
    out.push(h("button.choose", { "data-move": moveKey(m), onclick: () => on.submit(m) }, choiceButtonLabel(m.action.value)));
  }
  for (const m of legal.filter((x) => x.action.case === "trump")) {
    out.push(h("button.trump", { "data-move": moveKey(m), onclick: () => on.submit(m) }, t("{suit} trump", { suit: SUITS[m.action.value] })));
  }
  const dd = st.view.discard;  // how many may go (min..max), which, and one legal discard
  if (dd && legal.some((m) => m.action.case === "discard")) {
    const chosen = st.selected.size;
    out.push(h("button#discard", {
      "data-example": dd.example.join(" "),
      onclick: () => on.submit({ action: { case: "discard", value: { cards: [...st.selected], count: chosen } } }),
      disabled: chosen < dd.min || chosen > dd.max,
    }, dd.min === dd.max ? tn("Discard {n} selected card ({chosen} chosen)", "Discard {n} selected cards ({chosen} chosen)", dd.min, { chosen })
      : t("Discard {lo} to {hi} selected cards ({chosen} chosen)", { lo: dd.min, hi: dd.max, chosen })));
  }
  if (!legal.length && !st.view.finished) out.push(h("span.muted", {}, t("waiting for the others…")));
  return h("div#actions.actions", {}, out);
}
