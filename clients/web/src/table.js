// The table: a seat's (or a spectator's) live view, moves, refusals in words, results, the record.
import { auth, once, referee, refusal, tokens } from "./api.js";
import { ChatPanel } from "./chat.js";
import { CODES } from "./gen/codes.js";
import { animate, feltRects, Sound } from "./motion.js";
import { langPicker, optionsText, phaseName, pointName, t, tn } from "./i18n.js";
import { botKinds, cardEl, cardLabel, choiceButtonLabel, choiceWords, h, moveKey, moveLabel, moveTold, patch, pointSides, scoreList, sortHand, SUITS } from "./ui.js";

export async function tablePage(root, tableId, go) {
  const page = new TablePage(root, tableId, go);
  await page.open();
  return () => page.close();
}

class TablePage {
  constructor(root, tableId, go) {
    Object.assign(this, { root, tableId, go });
    this.abort = new AbortController();
    this.selected = new Set();
    this.log = [];
    this.results = [];
    this.message = null;
    this.afterSeq = 0n;
    // What a screen reader says as play goes on (your turn, each card, each trick); refusals are alerts.
    this.announcer = h("div#announce.sr-only", { role: "status", "aria-live": "polite" });
    this.onKey = (e) => this.key(e);
    this.chat = new ChatPanel(this);
    this.sounds = new Sound();
  }

  close() {
    this.abort.abort();
    clearInterval(this.nextTimer);
    clearInterval(this.clockTimer);
    this.announcer.remove();
    document.removeEventListener("keydown", this.onKey);
  }

  announce(text) { this.announcer.textContent = text; }

  /** Every move by keys: 1-9 play that card of your hand (or, in the bidding, press that button; in a
   * discard, pick that card), ← → move between your cards, Enter or Space plays (or picks) the one in focus. */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || !this.view) return;
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
    const playing = this.view.phase === "play" || this.view.legalMoves.some((m) => m.action.case === "discard");
    const target = playing ? cards[i] : [...this.root.querySelectorAll("#actions button:not(:disabled)")][i];
    if (target) {
      e.preventDefault();
      target.click();
    }
  }

  /** Draw the page again in a newly chosen language (the title and the rules sheet come from the server in it). */
  async redraw() {
    this.rules = null;
    this.info = await referee.getTable({ tableId: this.tableId });
    this.token ? this.render() : this.renderJoin();
  }

  get token() {
    const t = tokens.get(this.tableId);
    return t.seat ?? t.spectator ?? null;
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
    this.info = await referee.getTable({ tableId: this.tableId });
    if (!this.token) return this.renderJoin();
    this.watch();
  }

  // ---- joining
  renderJoin() {
    const name = h("input#name", { placeholder: t("your name"), maxlength: 40, value: localStorage.getItem("smear:name") || "" });
    const info = this.info;
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
      const r = await once((q, o) => referee.joinTable(q, o), { tableId: this.tableId, role, name });
      tokens.set(this.tableId, role.case === "seat" ? { seat: r.token, seatNo: role.value } : { spectator: r.token });
      this.info = r.table;
      this.watch();
    } catch (err) {
      this.refused(err);
      this.renderJoin();
    }
  }

  hostPanel() {
    const host = tokens.get(this.tableId).host;
    if (!host || this.info.finished || this.info.seatTaken.every(Boolean)) return null;
    const kind = h("select#bot-kind", {}, botKinds().map(([value, label]) => h("option", { value }, label)));
    return h("section.panel.host", {}, h("button#bots", {
      onclick: async () => {
        try {
          const chosen = this.root.querySelector("#bot-kind")?.value ?? kind.value;  // the page's select, kept across redraws
          const r = await once((q, o) => referee.addBots(q, o), { tableId: this.tableId, kind: chosen }, auth(host));
          this.info = r.table;
        } catch (err) { this.refused(err); }
        this.token ? this.render() : this.renderJoin();
      },
    }, t("Fill empty seats with bots")), " ", kind, " ", h("span.muted", {}, t("the server plays them")));
  }

  // ---- the live table
  async watch() {
    let delay = 500;
    while (!this.abort.signal.aborted) {
      try {
        const stream = referee.watchTable({ tableId: this.tableId, afterSeq: this.afterSeq }, auth(this.token, this.abort.signal));
        for await (const ev of stream) {
          delay = 500;
          await this.onEvent(ev);
        }
      } catch (err) {
        if (this.abort.signal.aborted) return;
        const r = refusal(err);
        if (r.reason === CODES.UNAUTHENTICATED || r.reason === CODES.NOT_FOUND) {
          this.message = { text: `${r.reason}: ${r.message}`, bad: true };
          tokens.set(this.tableId, { seat: undefined, spectator: undefined });
          return this.renderJoin();
        }
        this.message = { text: t("connection lost: reconnecting…"), lost: true, bad: true };
        this.render();
      }
      await new Promise((ok) => setTimeout(ok, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  async onEvent(ev) {
    const k = ev.kind;
    if (ev.seq > this.afterSeq) this.afterSeq = ev.seq;
    if (k.case === "heartbeat") return;
    if (k.case === "seats") {  // someone sat down, gave a name or a bot took a seat: every page shows it at once
      const { seatTaken, seatNames, spectators, seatBots, seatHere } = k.value;
      Object.assign(this.info, { seatTaken, seatNames, spectators, seatBots, seatHere });
      if (!this.view) return undefined;
      this.refreshSoon();  // the last seat taken (or a bot leaving) may start the turn clock: its time is in the view
      return this.render();
    }
    if (k.case === "chat") return this.chat.heard(k.value);  // a line of the table's talk
    if (k.case === "snapshot") {
      this.setView(k.value);
      if (this.message?.lost) this.message = null;
      return this.render();
    }
    // Log lines are said again at each drawing, so a name given later (or another language) shows in them too.
    if (k.case === "move") {
      const { seat, move, by } = k.value;
      this.note(by === "clock"  // the seat's time ran out: the house bot moved for it
        ? () => t("{who}'s time ran out: the house bot {move}", { who: this.seatName(seat), move: moveTold(move) })
        : () => `${this.seatName(seat)} ${moveTold(move)}`);
      this.announce(this.log[this.log.length - 1]());
    }
    if (k.case === "trickWon") {
      const { winner, cards } = k.value;
      this.note(() => t("{who} takes the trick ({cards})", { who: this.seatName(winner), cards: cards.map(cardLabel).join(" ") }));
      this.announce(this.log[this.log.length - 1]());
    }
    if (k.case === "handScored") this.results.push({ hand: k.value.hand, ...JSON.parse(k.value.resultJson) });
    if (k.case === "handStarted") {
      const { hand, dealer } = k.value;
      this.note(() => t("hand {n}: {who} deals", { n: hand + 1, who: this.seatName(dealer) }));
      this.info = await referee.getTable({ tableId: this.tableId });
    }
    if (k.case === "gameOver") this.gameOver = k.value;
    this.refreshSoon();
  }

  /** Fetch the view again after events, one call at a time (a late answer never overwrites a newer view). */
  refreshSoon() {
    this.wanted = true;
    if (this.refreshing) return;
    this.refreshing = true;
    (async () => {
      try {
        await new Promise((ok) => setTimeout(ok, 30));
        while (this.wanted && !this.abort.signal.aborted) {
          this.wanted = false;
          this.setView(await referee.getView({ tableId: this.tableId }, auth(this.token, this.abort.signal)));
        }
        this.render();
      } catch (err) {
        if (!this.abort.signal.aborted) this.refused(err);
      } finally {
        this.refreshing = false;
      }
    })();
  }

  setView(v) {
    if (this.view && v.version < this.view.version) return;
    if (v.legalMoves.length && this.view?.version !== v.version) {  // once per position, not at each refresh
      this.announce(t("Your turn: {phase}", { phase: phaseName(v.phase) }));
    }
    this.view = v;
    this.detail = JSON.parse(v.detailJson);
    // The turn clock counts down here from what the server said was left (no clock skew between them).
    this.deadline = v.turnLeft > 0 ? performance.now() + v.turnLeft * 1000 : 0;
    if (this.deadline && !this.clockTimer) this.clockTimer = setInterval(() => this.tick(), 250);
  }

  /** Seconds left on the turn clock, as "0:12"; the seat box of whoever is to act shows it. */
  clockText() {
    const left = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  tick() {
    const el = this.root.querySelector("#clock");
    if (!el || !this.deadline) return;
    el.textContent = this.clockText();
    const left = (this.deadline - performance.now()) / 1000;
    el.classList.toggle("low", left <= 5);
    if (this.view?.legalMoves.length && left <= 5 && this.warned !== this.view.version) {
      this.warned = this.view.version;  // once per turn: a screen reader hears it too
      this.announce(t("5 seconds left to move"));
    }
  }

  /** A line of the log: a function saying it (names and language as they are when it is drawn). */
  note(say) {
    this.log.push(say);
    if (this.log.length > 2000) this.log.shift();  // the whole game's log (bounded), scrollable
  }

  /** Bots standing in, players away: what each seat's box says beside the name. */
  seatState(s) {
    const bot = this.info?.seatBots?.[s], name = this.info?.seatNames?.[s] || "";
    if (bot && !name.startsWith("bot:")) return t("a bot plays for now");
    if (!bot && this.info?.seatTaken?.[s] && this.info?.seatHere?.length && !this.info.seatHere[s]) return t("away");
    return null;
  }

  /** Seat controls: take your seat back from the bot standing in, let one play for you, or give an
   * away player's seat to a bot so the table does not stall. */
  standInEl() {
    const v = this.view, info = this.info;
    if (v.finished || !info?.seatBots) return null;
    const mine = v.seat;
    const hostToken = tokens.get(this.tableId).host;
    const items = [];
    if (mine !== undefined && info.seatBots[mine]) {
      items.push(h("span", {}, t("A bot is playing your seat.")), " ",
        h("button#take-back", { onclick: () => this.seatCall(() => referee.takeBackSeat({ tableId: this.tableId }, auth(this.token))) },
          t("Take my seat back")));
    } else if (mine !== undefined) {
      items.push(h("button#hand-over", { onclick: () => this.seatCall(() => once((q, o) => referee.addBots(q, o), { tableId: this.tableId, kind: "heuristic" }, auth(this.token))) },
        t("Let a bot play for me")));
    }
    const me = hostToken ?? (mine !== undefined ? this.token : null);
    if (me) {
      for (let s = 0; s < info.players; s++) {
        if (s === mine || info.seatBots[s] || !info.seatTaken[s] || info.seatHere?.[s]) continue;  // a present player is never benched
        items.push(" ", h("button.hand-seat", { "data-hand-seat": s,
          onclick: () => this.seatCall(() => once((q, o) => referee.addBots(q, o), { tableId: this.tableId, kind: "heuristic", seat: s }, auth(me))) },
        t("Let a bot play for {who}", { who: this.seatName(s, false) })));
      }
    }
    return items.length ? h("section.panel.stand-in#stand-in", {}, ...items) : null;
  }

  async seatCall(call) {
    try {
      const r = await call();
      this.info = r.table;
    } catch (err) { this.refused(err); }
    this.render();
  }

  seatName(seat, you = true) {
    const n = this.info?.seatNames?.[seat];
    // People count seats from 1 (the API from 0).
    const name = n ? (n.startsWith("bot:") ? t("Bot {seat}", { seat: seat + 1 }) : n) : t("Seat {seat}", { seat: seat + 1 });
    return you && this.view?.seat === seat ? t("{name} (you)", { name }) : name;
  }

  refused(err) {
    const r = refusal(err);
    this.message = { text: t("Refused: {message}", { message: r.message }), reason: r.reason, bad: true };
    if (this.view) this.render();
  }

  async submit(move) {
    this.message = null;
    try {
      const r = await referee.submitMove({ tableId: this.tableId, move, expectedVersion: this.view.version,
        idempotencyKey: `${this.tableId}:${this.view.version}:${crypto.randomUUID?.() ?? Math.random()}` },
      auth(this.token));
      this.selected.clear();
      this.setView(r.view);
    } catch (err) {
      this.refused(err);
    }
    this.render();
  }

  // ---- drawing
  header() {
    const info = this.info;
    const link = `${location.origin}/t/${this.tableId}`;
    return h("header", {},
      h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); this.go("/"); } }, t("← lobby")),
      langPicker(() => this.redraw()),
      h("h1", {}, info.title),
      h("div.muted", {}, optionsText(info.options)),
      h("div.invite", {}, t("Invite:"), " ", h("a#invite", { href: link }, link)), this.view ? this.sounds.toggle(() => this.render()) : null);
  }

  messageEl() {
    const m = this.message;
    return h("div#message", { class: m?.bad ? "refusal" : "", "data-reason": m?.reason, role: m?.bad ? "alert" : null }, m ? m.text : "");
  }

  render() {
    if (!this.view) return;
    const v = this.view;
    const mine = v.seat;
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
      h("section.board", {}, this.scoreboardEl(), this.feltEl()),
      this.standInEl(),
      h("section.status", {}, this.statusEl()),
      this.messageEl(),
      mine !== undefined ? h("section.hand", { "aria-label": t("Your hand") }, this.handEl(), this.actionsEl(),
        h("p.muted.keys", {}, t("Keys: 1–9 play that card (or press that button), ← → move between cards, Enter plays the card in focus; Tab reaches the buttons."),
          " ", t("Esc leaves the chat box.")))
        : h("p.muted#spectating", {}, t("You are watching: only public play is shown.")),
      v.finished ? this.overEl() : null,
      h("section.panel.results", {}, h("h2", {}, t("Hands")), this.resultsEl()),
      h("section.panel.log", {}, h("h2", {}, t("Play so far")),
        h("ol#log", { "aria-label": t("Play so far") }, this.log.map((say) => h("li", {}, say())))),
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
    animate(this.root, this.detail, before);
    this.sounds.play(this.view);
  }

  /** Where seat `s` sits on the felt, as seen from this page's seat (you at the bottom, the next seat on your left). */
  placeOf(s) {
    const n = this.detail.players, me = this.view.seat ?? 0;
    return `at-${n}-${(s - me + n) % n}`;
  }

  sideOf(s) { return this.detail.sides?.[s] ?? s; }

  /** "Ann & Cy 7 — Bob & Dee 4": each side's players by name, and its score. */
  scoreboardEl() {
    const d = this.detail;
    const sides = d.scores.map((score, side) => {
      const who = Array.from({ length: d.players }, (_, s) => s).filter((s) => this.sideOf(s) === side).map((s) => this.seatName(s, false));
      return h("span.side", { class: `side side-${side}${d.side === side ? " mine" : ""}`, "data-side": side },
        h("span.side-names", {}, who.join(" & ")), " ", h("b.side-score", {}, scoreList([score])),
        // Points pegged as their tricks fall (Don): this hand's running total beside the score.
        d.hand_points ? h("small.pegged", {}, " ", t("+{n} this hand", { n: d.hand_points[side] })) : null);
    });
    return h("div#scoreboard.scoreboard", {}, sides.flatMap((x, i) => (i ? [" — ", x] : [x])));
  }

  /** The table: the seats around the felt, you at the bottom; the trick's cards in front of who played them. */
  feltEl() {
    const d = this.detail;
    const seats = Array.from({ length: d.players }, (_, s) => this.seatEl(s));
    let trick = d.trick || [];
    let caption = d.trump ? t("Trump: {suit}", { suit: SUITS[d.trump] }) : t("no trump yet");
    if (d.bid) caption += ` · ${t("high bid {n} by {who}", { n: d.bid, who: this.seatName(d.bidder, false) })}`;
    // Trump named in turn: who passed and who named it, while the calls go round.
    if (d.trump_calls?.length && d.phase === "trump") {
      const calls = d.trump_calls.map((c) => this.seatName(c.seat, false) + " " + (c.suit ? SUITS[c.suit] : t("pass")));
      caption += " · " + t("calls: {list}", { list: calls.join(", ") });
    }
    const last = d.tricks?.length ? d.tricks[d.tricks.length - 1] : null;
    let lastShown = false;
    if (last && (!trick.length || this.showLast)) {  // between tricks, or on demand: the last trick, and who took it
      trick = last.cards.map((c, i) => ({ seat: (last.leader + i) % d.players, card: c }));
      lastShown = true;
    }
    // In the felt's corner: the contract, always in sight; between tricks, who took the last one.
    const center = h("div#trick.trick", { class: `trick${lastShown ? " last-trick" : ""}` },
      h("div.contract", {}, caption),
      lastShown ? h("div.muted", {}, t("last trick: {who} took it", { who: this.seatName(last.winner) })) : null);
    const lastButton = last && d.trick?.length ? h("button#last-trick", { "aria-pressed": String(Boolean(this.showLast)),
      onclick: () => { this.showLast = !this.showLast; this.render(); } }, t("Last trick")) : null;
    const played = trick.map((x) => h("div.played", { class: `played ${this.placeOf(x.seat)}${lastShown ? " old" : ""}`, "data-seat": x.seat },
      cardEl(x.card), h("small", {}, this.seatName(x.seat, false))));
    return h("div.felt", {
      class: `felt seats-row n${d.players}`,
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => {  // a card dragged from the hand onto the table is played
        e.preventDefault();
        const card = e.dataTransfer.getData("text/plain");
        if (card) this.submit({ action: { case: "play", value: card } });
      },
    }, ...seats, center, lastButton, ...played);
  }

  seatEl(s) {
    const d = this.detail;
    const bid = (d.bids || []).filter((b) => b.seat === s).map((b) => (b.bid ? t("bid {n}", { n: b.bid }) : t("pass"))).pop();
    const took = (d.tricks || []).filter((x) => x.winner === s).length;
    return h("div.seat", {
      class: ["seat", this.placeOf(s), `side-${this.sideOf(s)}`, d.turn === s && "to-act", this.view.seat === s && "me"].filter(Boolean).join(" "),
      "data-seat": s },
    h("b", {}, this.seatName(s)), d.dealer === s ? h("span.tag", {}, t("dealer")) : null,
    h("div.muted", {}, [d.hand_sizes ? tn("{n} card", "{n} cards", d.hand_sizes[s]) : "",
      d.tricks ? tn("{n} trick", "{n} tricks", took) : ""].filter(Boolean).join(" · ")),
    bid ? h("div.bid", {}, bid) : null,
    this.seatState(s) ? h("div.tag.stand-in", {}, this.seatState(s)) : null,
    d.turn === s ? h("div.turn", {}, t("to act"), this.deadline && !this.view.finished
      ? h("span#clock.clock", { role: "timer", "aria-label": t("time left") }, this.clockText()) : null) : null);
  }

  statusEl() {
    const d = this.detail, v = this.view;
    return h("div", {},
      h("div#phase", {}, t("Phase: {phase}", { phase: phaseName(v.phase) }),
        d.turn !== null && d.turn !== undefined && !v.finished ? ` · ${t("{who} to act", { who: this.seatName(d.turn) })}` : ""),
      d.stock ? h("div#stock", {}, [t("Stock: {n} cards", { n: d.stock.size }),
        d.stock.turned_up ? t("turned up {card}", { card: cardLabel(d.stock.turned_up) }) : "",
        d.stock.top ? t("top card {card}", { card: cardLabel(d.stock.top) }) : "",
        d.stock.turned_down?.length ? t("set aside {cards}", { cards: d.stock.turned_down.map(cardLabel).join(" ") }) : ""]
        .filter(Boolean).join(" · ")) : "",
      d.choices?.length ? h("div#choices", {}, d.choices.map((c) => `${this.seatName(c.seat)} ${choiceWords(c.choice)}`).join(" · ")) : "",
      d.shown ? h("div#shown", {}, t("Discarded face up: {list}", { list: d.shown.map((x) => `${this.seatName(x.seat)} ${x.cards.map(cardLabel).join(" ")}`).join(" · ") })) : "");
  }

  handEl() {
    const v = this.view, d = this.detail;
    const legal = v.legalMoves;
    const plays = new Set(legal.filter((m) => m.action.case === "play").map((m) => m.action.value));
    const discarding = legal.some((m) => m.action.case === "discard");
    const mayGo = new Set(d.discard?.cards || []);  // the cards the rules let go (the referee judges the set)
    const playing = v.phase === "play" && d.turn === v.seat;
    const cards = sortHand(v.hand, d.trump);
    return h("div#hand.cards", { class: `cards${cards.length > 6 ? " fan" : ""}` }, cards.map((c) => cardEl(c, {
      draggable: playing && plays.has(c),
      legal: discarding ? mayGo.has(c) : !playing || plays.has(c),
      selected: this.selected.has(c),
      onclick: () => {
        if (discarding) {
          this.selected.has(c) ? this.selected.delete(c) : this.selected.add(c);
          return this.render();
        }
        // An unavailable card is still sent: the referee says why it cannot be played.
        this.submit({ action: { case: "play", value: c } });
      },
    })));
  }

  actionsEl() {
    const legal = this.view.legalMoves;
    const out = [];
    const bids = legal.filter((m) => m.action.case === "bid" || m.action.case === "pass");
    for (const m of bids) {
      out.push(h("button.bid", { "data-move": moveKey(m), onclick: () => this.submit(m) }, moveLabel(m)));
    }
    for (const m of legal.filter((x) => x.action.case === "choose")) {
      out.push(h("button.choose", { "data-move": moveKey(m), onclick: () => this.submit(m) }, choiceButtonLabel(m.action.value)));
    }
    for (const m of legal.filter((x) => x.action.case === "trump")) {
      out.push(h("button.trump", { "data-move": moveKey(m), onclick: () => this.submit(m) }, t("{suit} trump", { suit: SUITS[m.action.value] })));
    }
    const dd = this.detail.discard;  // how many may go (min..max), which, and one legal discard
    if (dd && legal.some((m) => m.action.case === "discard")) {

      out.push(h("button#discard", {
        "data-example": (dd.example || []).join(" "),
        onclick: () => this.submit({ action: { case: "discard", value: { cards: [...this.selected], count: this.selected.size } } }),
        disabled: this.selected.size < dd.min || this.selected.size > dd.max,
      }, dd.min === dd.max ? tn("Discard {n} selected card ({chosen} chosen)", "Discard {n} selected cards ({chosen} chosen)", dd.min, { chosen: this.selected.size })
        : t("Discard {lo} to {hi} selected cards ({chosen} chosen)", { lo: dd.min, hi: dd.max, chosen: this.selected.size })));
    }
    if (!legal.length && !this.view.finished) out.push(h("span.muted", {}, t("waiting for the others…")));
    return h("div#actions.actions", {}, out);
  }

  resultsEl() {
    if (!this.results.length) return h("p.muted", {}, t("No hand finished yet."));
    const d = this.detail;
    const who = (side) => (side === null || side === undefined ? t("nobody") : d.players === d.scores.length ? this.seatName(side) : t("Side {n}", { n: side + 1 }));
    return h("ol.results", {}, this.results.map((r) => h("li", {},
      t("bid {n} by {who}", { n: r.bid ?? "-", who: r.bidder === null ? "-" : this.seatName(r.bidder) }),
      r.made === false ? ` ${t("(set)")}` : "", ": ",
      Object.entries(r.points || {}).map(([name, side]) => `${pointName(name, this.info?.names)} → ${pointSides(side, who)}`).join(", "),
      ` · ${t("scores {list}", { list: scoreList(r.scores) })}`)));
  }

  overEl() {
    const v = this.view, d = this.detail;
    this.followNext();
    const winner = v.winner === undefined ? null : d.players === d.scores.length ? this.seatName(v.winner) : t("Side {n}", { n: v.winner + 1 });
    return h("section.panel.over#game-over", {}, h("h2", {}, t("Game over")),
      h("p", {}, winner === null ? t("No winner · scores {list}", { list: scoreList(d.scores) })  // a sentence of its own
        : t("Winner: {who} · scores {list}", { who: winner, list: scoreList(d.scores) })),
      v.seat !== undefined ? h("button#play-again", { onclick: (e) => this.playAgain(e.target) }, t("Play again")) : null,
      v.seat === undefined && this.info.nextTableId ? h("button#watch-next", { onclick: () => this.go(`/t/${this.info.nextTableId}`) },
        t("Watch the next game")) : null,
      this.info.nextTableId && v.seat !== undefined ? h("span.muted#next-open", {}, t("a new game with the same seats is open")) : null,
      h("button#download", { onclick: () => this.download() }, t("Download the record")),
      h("button#replay", { onclick: () => this.go(`/replay/${this.tableId}`) }, t("Replay the game")));
  }

  /** The same seats and rules at a new table (whoever asks first opens it; the others join it in their seats). */
  async playAgain(button) {
    button.disabled = true;
    try {
      const r = await referee.rematch({ tableId: this.tableId }, auth(this.token));
      tokens.set(r.tableId, { seat: r.token, seatNo: this.view.seat });
      this.go(`/t/${r.tableId}`);
    } catch (err) {
      button.disabled = false;
      this.refused(err);
    }
  }

  /** After the game: look now and then whether someone opened the next one (so the others see it). */
  followNext() {
    if (this.nextTimer || this.abort.signal.aborted) return;
    this.nextTimer = setInterval(async () => {
      if (this.abort.signal.aborted || this.info.nextTableId) return clearInterval(this.nextTimer);
      try {
        this.info = await referee.getTable({ tableId: this.tableId });
        if (this.info.nextTableId) this.render();
      } catch { /* the next look tries again */ }
    }, 3000);
  }

  async download() {
    try {
      const r = await referee.getRecord({ tableId: this.tableId }, auth(this.token));
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
      const r = await referee.explainRules({ source: { case: "tableId", value: this.tableId }, format: "html" });
      // The server's rules sheet (its HTML escapes every text of the rule file), in a frame of its own.
      box.replaceChildren(h("iframe.rules-frame", { sandbox: "", srcdoc: r.text, title: t("Rules of this table") }));
    } catch (err) { box.textContent = refusal(err).message; }
  }
}
