// Motion and sound at the table: cards travel from their seat to the felt and a taken trick toward its
// winner (Web Animations; nothing for people who ask for reduced motion); a soft tone, off by default.
import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Where each card on the felt (and in the hand) is now, by card: where a card comes from when it moves. */
export function feltRects(root) {
  const at = new Map();
  for (const el of root.querySelectorAll("#hand .card, .felt .played")) {
    at.set(el.dataset.card ?? el.querySelector(".card")?.dataset.card, { rect: el.getBoundingClientRect(), old: el.classList.contains("old") });
  }
  return at;
}

/** Motion: a card just played travels from its player's seat (or your hand) to its place; a trick just
 * taken slides toward its winner. Nothing moves for people who ask their system for less motion. */
export function animate(root, current, before) {
  if (!before.size || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const winner = current?.tricks.length ? current.tricks[current.tricks.length - 1].winner : null;
  for (const el of root.querySelectorAll(".felt .played")) {
    const card = el.querySelector(".card")?.dataset.card;
    const was = before.get(card);
    const now = el.getBoundingClientRect();
    const fromEl = was ? null : root.querySelector(`.felt .seat[data-seat="${el.dataset.seat}"]`);
    if (!was && fromEl) {  // newly played: from the seat
      const f = fromEl.getBoundingClientRect();
      const dx = f.x + f.width / 2 - (now.x + now.width / 2), dy = f.y + f.height / 2 - (now.y + now.height / 2);
      el.animate([{ transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 0.3 },
        { transform: "translate(-50%, -50%)", opacity: 1 }], { duration: 320, easing: "ease-out" });
    } else if (was && !was.old && el.classList.contains("old") && winner !== null) {  // the trick is taken: toward its winner
      const w = root.querySelector(`.felt .seat[data-seat="${winner}"]`)?.getBoundingClientRect();
      if (!w) continue;
      const dx = (w.x + w.width / 2 - (now.x + now.width / 2)) * 0.5, dy = (w.y + w.height / 2 - (now.y + now.height / 2)) * 0.5;
      el.animate([{ transform: "translate(-50%, -50%)", opacity: 1 },
        { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 0.55 }],
      { duration: 450, easing: "ease-in", fill: "forwards" });
    }
  }
}


export class Sound {
  /** A soft click when a card lands (sound is off unless the person turns it on; the choice is kept). */
  play(view) {
    if (localStorage.getItem("smear:sound") !== "on" || this.soundVersion === view.version) return;
    this.soundVersion = view.version;
    try {
      this.audio ??= new AudioContext();
      const osc = this.audio.createOscillator(), gain = this.audio.createGain();
      const mine = view.legalMoves.length > 0;  // your turn: a higher note
      osc.frequency.value = mine ? 880 : 440;
      gain.gain.setValueAtTime(0.05, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, this.audio.currentTime + 0.12);
      osc.connect(gain).connect(this.audio.destination);
      osc.start();
      osc.stop(this.audio.currentTime + 0.12);
    } catch { /* no sound on this machine */ }
  }

  /** The switch, in the table's header; `redraw` draws the page again with its new label. */
  toggle(redraw) {
    const on = localStorage.getItem("smear:sound") === "on";
    return h("button#sound", { "aria-pressed": String(on), onclick: () => {
      localStorage.setItem("smear:sound", on ? "off" : "on");
      redraw();
    } }, on ? t("Sound: on") : t("Sound: off"));
  }
}
