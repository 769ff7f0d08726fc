// The table page's calls to the referee, in one place: the table's events as a stream that reconnects,
// the view fetched again after events (one call at a time, a late answer never overwriting a newer
// view), moves, seats, bots, the rematch, the record and the rules sheet. Tokens are this browser's
// (api.js); what the answers change is the page's to put in its state.
import { auth, once, referee, refusal, tokens } from "./api.js";
import { CODES } from "./gen/codes.js";

export class TableLink {
  constructor(tableId) {
    this.tableId = tableId;
    this.abort = new AbortController();
  }

  get closed() { return this.abort.signal.aborted; }

  close() { this.abort.abort(); }

  get tokens() { return tokens.get(this.tableId); }

  /** This page's token: its seat's, else a spectator's (null before joining). */
  get token() {
    const t = this.tokens;
    return t.seat ?? t.spectator ?? null;
  }

  table() { return referee.getTable({ tableId: this.tableId }); }

  /** Sit (`role` {case: "seat", value}) or watch; the token is kept in this browser. */
  async join(role, name) {
    const r = await once((q, o) => referee.joinTable(q, o), { tableId: this.tableId, role, name });
    tokens.set(this.tableId, role.case === "seat" ? { seat: r.token, seatNo: role.value } : { spectator: r.token });
    return r;
  }

  /** The table's events, for ever: `on.event(ev)` each; after a lost connection `on.lost()` and a retry
   * (waiting longer each time); a token the table does not know ends it with `on.gone(refusal)`. */
  async watch(afterSeq, on) {
    let delay = 500;
    while (!this.closed) {
      try {
        const stream = referee.watchTable({ tableId: this.tableId, afterSeq: afterSeq() }, auth(this.token, this.abort.signal));
        for await (const ev of stream) {
          delay = 500;
          await on.event(ev);
        }
      } catch (err) {
        if (this.closed) return;
        const r = refusal(err);
        if (r.reason === CODES.UNAUTHENTICATED || r.reason === CODES.NOT_FOUND) {
          tokens.set(this.tableId, { seat: undefined, spectator: undefined });
          return on.gone(r);
        }
        on.lost();
      }
      await new Promise((ok) => setTimeout(ok, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  /** Fetch the view again soon: `on.view(v)` with each answer, then `on.done()`; `on.error(err)` if it fails.
   * Calls asked for meanwhile are one more fetch, never a second at once. */
  refreshSoon(on) {
    this.wanted = true;
    if (this.refreshing) return;
    this.refreshing = true;
    (async () => {
      try {
        await new Promise((ok) => setTimeout(ok, 30));
        while (this.wanted && !this.closed) {
          this.wanted = false;
          on.view(await referee.getView({ tableId: this.tableId }, auth(this.token, this.abort.signal)));
        }
        on.done();
      } catch (err) {
        if (!this.closed) on.error(err);
      } finally {
        this.refreshing = false;
      }
    })();
  }

  submit(move, version) {
    return referee.submitMove({ tableId: this.tableId, move, expectedVersion: version,
      idempotencyKey: `${this.tableId}:${version}:${crypto.randomUUID?.() ?? Math.random()}` }, auth(this.token));
  }

  /** Bots the server plays: in the free seats (as the host), or in `seat` (`token`: who asks). */
  addBots(kind, token, seat = undefined) {
    const ask = seat === undefined ? { tableId: this.tableId, kind } : { tableId: this.tableId, kind, seat };
    return once((q, o) => referee.addBots(q, o), ask, auth(token));
  }

  takeBack() { return referee.takeBackSeat({ tableId: this.tableId }, auth(this.token)); }

  async rematch(seatNo) {
    const r = await referee.rematch({ tableId: this.tableId }, auth(this.token));
    tokens.set(r.tableId, { seat: r.token, seatNo });
    return r;
  }

  record() { return referee.getRecord({ tableId: this.tableId }, auth(this.token)); }

  rules() { return referee.explainRules({ source: { case: "tableId", value: this.tableId }, format: "html" }); }
}
