// What a table page knows, with one owner: the table's lobby line (info), this seat's view (the typed View),
// the log, the hands scored, the cards picked for a discard, the message shown, the turn clock. The page's
// drawing (felt.js, hand.js, table.js) reads it; only these methods change it.
import { phaseName, t } from "./i18n.js";

export class TableState {
  constructor(tableId) {
    this.tableId = tableId;
    this.info = null;  // the lobby's line of the table (TableInfo): names, seats, bots, next table
    this.view = null;  // this seat's (or a spectator's) view
    this.current = null;  // the hand being played (the view's HandInPlay), or null between hands
    this.log = [];  // lines of the play so far: functions saying them (names and language as drawn)
    this.results = [];  // each hand scored
    this.selected = new Set();  // cards picked for a discard
    this.message = null;  // { text, reason, bad, lost }
    this.afterSeq = 0n;  // the last event seen
    this.deadline = 0;  // performance.now() when the turn clock runs out (0: none)
    this.gameOver = null;
    this.showLast = false;  // the last trick shown on demand
    this.warned = null;  // the version whose five-second warning was given
  }

  /** A newer view (an older one, answered late, is ignored); the turn to announce, or null. */
  setView(v) {
    if (this.view && v.version < this.view.version) return null;
    const turn = v.legalMoves.length && this.view?.version !== v.version  // once per position, not at each refresh
      ? t("Your turn: {phase}", { phase: phaseName(v.phase) }) : null;
    this.view = v;
    this.current = v.current ?? null;
    // The turn clock counts down here from what the server said was left (no clock skew between them).
    this.deadline = v.turnLeft > 0 ? performance.now() + v.turnLeft * 1000 : 0;
    return turn;
  }

  setInfo(info) { this.info = info; }

  /** Who sits where changed (a Seats event): every page shows it at once. */
  seated({ seatTaken, seatNames, spectators, seatBots, seatHere }) {
    Object.assign(this.info, { seatTaken, seatNames, spectators, seatBots, seatHere });
  }

  seen(seq) { if (seq > this.afterSeq) this.afterSeq = seq; }

  /** A line of the log: a function saying it (names and language as they are when it is drawn). */
  note(say) {
    this.log.push(say);
    if (this.log.length > 2000) this.log.shift();  // the whole game's log (bounded), scrollable
    return say;
  }

  scored(hand, result) { this.results.push({ hand, ...result }); }

  over(gameOver) { this.gameOver = gameOver; }

  say(message) { this.message = message; }

  pick(card) { this.selected.has(card) ? this.selected.delete(card) : this.selected.add(card); }

  unpick() { this.selected.clear(); }

  toggleLast() { this.showLast = !this.showLast; }

  /** Whether the five-second warning is due now (once per turn). */
  warnNow() {
    const left = (this.deadline - performance.now()) / 1000;
    if (!this.view?.legalMoves.length || left > 5 || this.warned === this.view.version) return false;
    this.warned = this.view.version;
    return true;
  }

  /** Seconds left on the turn clock, as "0:12"; the seat box of whoever is to act shows it. */
  clockText() {
    const left = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  seatName(seat, you = true) {
    const n = this.info?.seatNames?.[seat];
    // People count seats from 1 (the API from 0).
    const name = n ? (n.startsWith("bot:") ? t("Bot {seat}", { seat: seat + 1 }) : n) : t("Seat {seat}", { seat: seat + 1 });
    return you && this.view?.seat === seat ? t("{name} (you)", { name }) : name;
  }

  /** Bots standing in, players away: what each seat's box says beside the name. */
  seatState(s) {
    const bot = this.info?.seatBots?.[s], name = this.info?.seatNames?.[s] || "";
    if (bot && !name.startsWith("bot:")) return t("a bot plays for now");
    if (!bot && this.info?.seatTaken?.[s] && this.info?.seatHere?.length && !this.info.seatHere[s]) return t("away");
    return null;
  }

  /** Where seat `s` sits on the felt, as seen from this page's seat (you at the bottom, the next seat on your left). */
  placeOf(s) {
    const n = this.view.players, me = this.view.seat ?? 0;
    return `at-${n}-${(s - me + n) % n}`;
  }

  sideOf(s) { return this.view.sides[s] ?? s; }
}
