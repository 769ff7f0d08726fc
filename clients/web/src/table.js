// The table page: it puts together the table's state (tablestate.js), its calls to the referee
// (tablenet.js), the felt (felt.js) and your hand (hand.js), and draws them with the log, the results, the
// chat and the rules; keys, joining, the host's and the seats' controls, and the end of the game are here.
import { refusal, tokens } from "./api.js";
import { ChatPanel } from "./chat.js";
import { feltEl, scoreboardEl, statusEl } from "./felt.js";
import { actionsEl, handEl } from "./hand.js";
import { langPicker, optionsText, pointName, t } from "./i18n.js";
import { animate, feltRects, Sound } from "./motion.js";
import { TableLink } from "./tablenet.js";
import { TableState } from "./tablestate.js";
import { botKinds, cardLabel, h, moveTold, patch, pointSides, scoreList } from "./ui.js";

export async function tablePage(root, tableId, go) {
  const page = new TablePage(root, tableId, go);
  await page.open();
  return () => page.close();
}

class TablePage {
  constructor(root, tableId, go) {
    Object.assign(this, { root, tableId, go });
    this.state = new TableState(tableId);
    this.link = new TableLink(tableId);
    // What a screen reader says as play goes on (your turn, each card, each trick); refusals are alerts.
    this.announcer = h("div#announce.sr-only", { role: "status", "aria-live": "polite" });
    this.onKey = (e) => this.key(e);
    this.chat = new ChatPanel(this);
    this.sounds = new Sound();
  }

  close() {
    this.link.close();
    clearInterval(this.nextTimer);
    clearInterval(this.clockTimer);
    this.announcer.remove();
    document.removeEventListener("keydown", this.onKey);
  }

  // What the chat panel reads of the page.
  get token() { return this.link.token; }
  get players() { return this.state.view?.players ?? 0; }
  seatName(seat, you = true) { return this.state.seatName(seat, you); }

  announce(text) { if (text) this.announcer.textContent = text; }

  /** Every move by keys: 1-9 play that card of your hand (or, in the bidding, press that button; in a
   * discard, pick that card), ← → move between your cards, Enter or Space plays (or picks) the one in focus. */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || !this.state.view) return;
    const cards = [...this.root.querySelectorAll("#hand .card")];
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!cards.length) return;
      const at = cards.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
      cards[next].focus();
      e.preventDefault();
      return;
    }
    if (!/^[1-9]$/.test(e.key)) return;
    const i = Number(e.key) - 1;
    const v = this.state.view;
    const playing = v.phase === "play" || v.legalMoves.some((m) => m.action.case === "discard");
    const target = playing ? cards[i] : [...this.root.querySelectorAll("#actions button:not(:disabled)")][i];
    if (target) {
      e.preventDefault();
      target.click();
    }
  }

  /** Draw the page again in a newly chosen language (the title and the rules sheet come from the server in it). */
  async redraw() {
    this.rules = null;
    this.state.setInfo(await this.link.table());
    this.token ? this.render() : this.renderJoin();
  }

  async open() {
    document.body.append(this.announcer);
    document.addEventListener("keydown", this.onKey);
    // A seat slip's link carries the seat token in the fragment (never sent to the server): keep it here.
    const slip = location.hash.match(/^#seat=([\w-]+)$/);
    if (slip) {
      tokens.set(this.tableId, { seat: slip[1] });
      history.replaceState(null, "", location.pathname);
    }
    this.state.setInfo(await this.link.table());
    if (!this.token) return this.renderJoin();
    this.watch();
  }

  // ---- joining
  renderJoin() {
    const name = h("input#name", { placeholder: t("your name"), maxlength: 40, value: localStorage.getItem("smear:name") || "" });
    const info = this.state.info;
    const seatButtons = info.seatTaken.map((taken, seat) => h("button.seat", {
      disabled: taken || info.finished, "data-seat": seat,
      onclick: () => this.join({ case: "seat", value: seat }, name.value),
    }, taken ? t("Seat {seat}: {name}", { seat: seat + 1, name: info.seatNames[seat] || t("taken") }) : t("Sit in seat {seat}", { seat: seat + 1 })));
    this.root.replaceChildren(...[
      this.header(),
      h("section.panel", {}, h("h2", {}, t("Take a seat")), h("label", {}, t("Name"), " ", name), h("div.seats", {}, seatButtons),
        h("p", {}, h("button#watch", { onclick: () => this.join({ case: "spectator", value: true }, ""),
          disabled: !info.spectatorsAllowed }, t("Watch as a spectator")))),
      this.hostPanel(),
      this.messageEl()].filter(Boolean));
  }

  async join(role, name) {
    try {
      if (name) localStorage.setItem("smear:name", name);
      this.state.setInfo((await this.link.join(role, name)).table);
      this.watch();
    } catch (err) {
      this.refused(err);
      this.renderJoin();
    }
  }

  hostPanel() {
    const host = this.link.tokens.host, info = this.state.info;
    if (!host || info.finished || info.seatTaken.every(Boolean)) return null;
    const kind = h("select#bot-kind", {}, botKinds().map(([value, label]) => h("option", { value }, label)));
    return h("section.panel.host", {}, h("button#bots", {
      onclick: async () => {
        try {
          const chosen = this.root.querySelector("#bot-kind")?.value ?? kind.value;  // the page's select, kept across redraws
          this.state.setInfo((await this.link.addBots(chosen, host)).table);
        } catch (err) { this.refused(err); }
        this.token ? this.render() : this.renderJoin();
      },
    }, t("Fill empty seats with bots")), " ", kind, " ", h("span.muted", {}, t("the server plays them")));
  }

  // ---- the live table
  watch() {
    return this.link.watch(() => this.state.afterSeq, {
      event: (ev) => this.onEvent(ev),
      gone: (r) => {
        this.state.say({ text: `${r.reason}: ${r.message}`, bad: true });
        return this.renderJoin();
      },
      lost: () => {
        this.state.say({ text: t("connection lost: reconnecting…"), lost: true, bad: true });
        this.render();
      },
    });
  }

  async onEvent(ev) {
    const k = ev.kind, st = this.state;
    st.seen(ev.seq);
    if (k.case === "heartbeat") return;
    if (k.case === "seats") {  // someone sat down, gave a name or a bot took a seat: every page shows it at once
      st.seated(k.value);
      if (!st.view) return undefined;
      this.refreshSoon();  // the last seat taken (or a bot leaving) may start the turn clock: its time is in the view
      return this.render();
    }
    if (k.case === "chat") return this.chat.heard(k.value);  // a line of the table's talk
    if (k.case === "snapshot") {
      this.setView(k.value);
      if (st.message?.lost) st.say(null);
      return this.render();
    }
    // Log lines are said again at each drawing, so a name given later (or another language) shows in them too.
    if (k.case === "move") {
      const { seat, move, by } = k.value;
      this.announce(st.note(by === "clock"  // the seat's time ran out: the house bot moved for it
        ? () => t("{who}'s time ran out: the house bot {move}", { who: st.seatName(seat), move: moveTold(move) })
        : () => `${st.seatName(seat)} ${moveTold(move)}`)());
    }
    if (k.case === "trickWon") {
      const { winner, cards } = k.value;
      this.announce(st.note(() => t("{who} takes the trick ({cards})", { who: st.seatName(winner), cards: cards.map(cardLabel).join(" ") }))());
    }
    if (k.case === "handScored") st.scored(k.value.hand, JSON.parse(k.value.resultJson));
    if (k.case === "handStarted") {
      const { hand, dealer } = k.value;
      st.note(() => t("hand {n}: {who} deals", { n: hand + 1, who: st.seatName(dealer) }));
      st.setInfo(await this.link.table());
    }
    if (k.case === "gameOver") st.over(k.value);
    this.refreshSoon();
  }

  /** Fetch the view again after events (tablenet.js: one call at a time). */
  refreshSoon() {
    this.link.refreshSoon({ view: (v) => this.setView(v), done: () => this.render(), error: (err) => this.refused(err) });
  }

  setView(v) {
    this.announce(this.state.setView(v));
    if (this.state.deadline && !this.clockTimer) this.clockTimer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const el = this.root.querySelector("#clock"), st = this.state;
    if (!el || !st.deadline) return;
    el.textContent = st.clockText();
    el.classList.toggle("low", (st.deadline - performance.now()) / 1000 <= 5);
    if (st.warnNow()) this.announce(t("5 seconds left to move"));  // once per turn: a screen reader hears it too
  }

  /** Seat controls: take your seat back from the bot standing in, let one play for you, or give an
   * away player's seat to a bot so the table does not stall. */
  standInEl() {
    const st = this.state, v = st.view, info = st.info;
    if (v.finished || !info?.seatBots) return null;
    const mine = v.seat;
    const hostToken = this.link.tokens.host;
    const items = [];
    if (mine !== undefined && info.seatBots[mine]) {
      items.push(h("span", {}, t("A bot is playing your seat.")), " ",
        h("button#take-back", { onclick: () => this.seatCall(() => this.link.takeBack()) }, t("Take my seat back")));
    } else if (mine !== undefined) {
      items.push(h("button#hand-over", { onclick: () => this.seatCall(() => this.link.addBots("heuristic", this.token)) },
        t("Let a bot play for me")));
    }
    const me = hostToken ?? (mine !== undefined ? this.token : null);
    if (me) {
      for (let s = 0; s < info.players; s++) {
        if (s === mine || info.seatBots[s] || !info.seatTaken[s] || info.seatHere?.[s]) continue;  // a present player is never benched
        items.push(" ", h("button.hand-seat", { "data-hand-seat": s,
          onclick: () => this.seatCall(() => this.link.addBots("heuristic", me, s)) },
        t("Let a bot play for {who}", { who: st.seatName(s, false) })));
      }
    }
    return items.length ? h("section.panel.stand-in#stand-in", {}, ...items) : null;
  }

  async seatCall(call) {
    try {
      this.state.setInfo((await call()).table);
    } catch (err) { this.refused(err); }
    this.render();
  }

  refused(err) {
    const r = refusal(err);
    this.state.say({ text: t("Refused: {message}", { message: r.message }), reason: r.reason, bad: true });
    if (this.state.view) this.render();
  }

  async submit(move) {
    this.state.say(null);
    try {
      const r = await this.link.submit(move, this.state.view.version);
      this.state.unpick();
      this.setView(r.view);
    } catch (err) {
      this.refused(err);
    }
    this.render();
  }

  // ---- drawing
  header() {
    const info = this.state.info;
    const link = `${location.origin}/t/${this.tableId}`;
    return h("header", {},
      h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, t("← lobby")),
      langPicker(() => this.redraw()),
      h("h1", {}, info.title),
      h("div.muted", {}, optionsText(info.options)),
      h("div.invite", {}, t("Invite:"), " ", h("a#invite", { href: link }, link)), this.state.view ? this.sounds.toggle(() => this.render()) : null);
  }

  messageEl() {
    const m = this.state.message;
    return h("div#message", { class: m?.bad ? "refusal" : "", "data-reason": m?.reason, role: m?.bad ? "alert" : null }, m ? m.text : "");
  }

  render() {
    const st = this.state;
    if (!st.view) return;
    const v = st.view;
    const mine = v.seat;
    const on = { submit: (m) => this.submit(m), redraw: () => this.render(),
      play: (card) => this.submit({ action: { case: "play", value: card } }),
      toggleLast: () => { st.toggleLast(); this.render(); } };
    Object.assign(this.root.dataset, { phase: v.phase, myTurn: String(v.legalMoves.length > 0), version: String(v.version) });
    // What has the focus: a card is drawn anew (found again by its name); a kept element (the chat's
    // input, the rules) is put back, caret and all, so a redraw never takes what you are typing away.
    const active = this.root.contains(document.activeElement) ? document.activeElement : null;
    const focused = active?.dataset?.card;
    const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    const before = feltRects(this.root);
    patch(this.root, [
      this.header(),
      this.hostPanel(),
      h("section.board", {}, scoreboardEl(st), feltEl(st, on)),
      this.standInEl(),
      h("section.status", {}, statusEl(st)),
      this.messageEl(),
      mine !== undefined ? h("section.hand", { "aria-label": t("Your hand") }, handEl(st, on), actionsEl(st, on),
        h("p.muted.keys", {}, t("Keys: 1–9 play that card (or press that button), ← → move between cards, Enter plays the card in focus; Tab reaches the buttons."),
          " ", t("Esc leaves the chat box.")))
        : h("p.muted#spectating", {}, t("You are watching: only public play is shown.")),
      v.finished ? this.overEl() : null,
      h("section.panel.results", {}, h("h2", {}, t("Hands")), this.resultsEl()),
      h("section.panel.log", {}, h("h2", {}, t("Play so far")),
        h("ol#log", { "aria-label": t("Play so far") }, st.log.map((say) => h("li", {}, say())))),
      this.chat.el(),
      this.rulesEl(),
    ]);
    const log = this.root.querySelector("#log");  // the page's own (a redraw keeps the list and updates it)
    log.scrollTop = log.scrollHeight;  // the newest line in sight; the whole game's log scrolls above it
    if (focused) this.root.querySelector(`#hand .card[data-card="${CSS.escape(focused)}"]`)?.focus();
    else if (active?.isConnected && document.activeElement !== active) {
      active.focus({ preventScroll: true });
      if (caret?.[0] !== null && caret?.[0] !== undefined) active.setSelectionRange(caret[0], caret[1]);
    }
    animate(this.root, st.current, before);
    this.sounds.play(v);
  }

  resultsEl() {
    const st = this.state;
    if (!st.results.length) return h("p.muted", {}, t("No hand finished yet."));
    const v = st.view;
    const who = (side) => (side === null || side === undefined ? t("nobody") : v.players === v.scores.length ? st.seatName(side) : t("Side {n}", { n: side + 1 }));
    return h("ol.results", {}, st.results.map((r) => h("li", {},
      t("bid {n} by {who}", { n: r.bid ?? "-", who: r.bidder === null ? "-" : st.seatName(r.bidder) }),
      r.made === false ? ` ${t("(set)")}` : "", ": ",
      Object.entries(r.points || {}).map(([name, side]) => `${pointName(name, st.info?.names)} → ${pointSides(side, who)}`).join(", "),
      ` · ${t("scores {list}", { list: scoreList(r.scores) })}`)));
  }

  overEl() {
    const st = this.state, v = st.view, info = st.info;
    this.followNext();
    const winner = v.winner === undefined ? null : v.players === v.scores.length ? st.seatName(v.winner) : t("Side {n}", { n: v.winner + 1 });
    return h("section.panel.over#game-over", {}, h("h2", {}, t("Game over")),
      h("p", {}, winner === null ? t("No winner · scores {list}", { list: scoreList(v.scores) })  // a sentence of its own
        : t("Winner: {who} · scores {list}", { who: winner, list: scoreList(v.scores) })),
      v.seat !== undefined ? h("button#play-again", { onclick: (e) => this.playAgain(e.target) }, t("Play again")) : null,
      v.seat === undefined && info.nextTableId ? h("button#watch-next", { onclick: () => this.go(`/t/${info.nextTableId}`) },
        t("Watch the next game")) : null,
      info.nextTableId && v.seat !== undefined ? h("span.muted#next-open", {}, t("a new game with the same seats is open")) : null,
      h("button#download", { onclick: () => this.download() }, t("Download the record")),
      h("button#replay", { onclick: () => this.go(`/replay/${this.tableId}`) }, t("Replay the game")));
  }

  /** The same seats and rules at a new table (whoever asks first opens it; the others join it in their seats). */
  async playAgain(button) {
    button.disabled = true;
    try {
      const r = await this.link.rematch(this.state.view.seat);
      this.go(`/t/${r.tableId}`);
    } catch (err) {
      button.disabled = false;
      this.refused(err);
    }
  }

  /** After the game: look now and then whether someone opened the next one (so the others see it). */
  followNext() {
    if (this.nextTimer || this.link.closed) return;
    this.nextTimer = setInterval(async () => {
      if (this.link.closed || this.state.info.nextTableId) return clearInterval(this.nextTimer);
      try {
        this.state.setInfo(await this.link.table());
        if (this.state.info.nextTableId) this.render();
      } catch { /* the next look tries again */ }
    }, 3000);
  }

  async download() {
    try {
      const r = await this.link.record();
      const blob = new Blob([r.recordJson], { type: "application/json" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `smear-${this.tableId}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) { this.refused(err); }
  }

  rulesEl() {
    // Kept across redraws, so an open rules panel stays open while play goes on.
    this.rules ??= h("details.panel.rules", { ontoggle: (e) => this.loadRules(e.target) },
      h("summary", {}, t("Rules of this table")), h("div.rules-text"));
    return this.rules;
  }

  async loadRules(details) {
    if (!details.open) return;
    const box = details.querySelector(".rules-text");
    if (box.childElementCount) return;
    try {
      const r = await this.link.rules();
      // The server's rules sheet (its HTML escapes every text of the rule file), in a frame of its own.
      box.replaceChildren(h("iframe.rules-frame", { sandbox: "", srcdoc: r.text, title: t("Rules of this table") }));
    } catch (err) { box.textContent = refusal(err).message; }
  }
}
