// The referee's own API (proto/smear/referee/v1/referee.proto) over the Connect protocol: the same
// services, checks and error codes as gRPC; no second, hand-written API.
import { createClient, ConnectError, Code } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { Referee } from "./gen/smear/referee/v1/referee_pb.js";
import { lang } from "./i18n.js";

/** Every call says the player's language: refusals, titles and rules sheets come back in it. */
const speaks = (next) => async (req) => {
  req.header.set("accept-language", lang());
  return await next(req);
};
export const transport = createConnectTransport({ baseUrl: window.location.origin, interceptors: [speaks] });
export const referee = createClient(Referee, transport);

/** Call options carrying a token as `authorization: Bearer`. */
export function auth(token, signal) {
  return { headers: { authorization: `Bearer ${token}` }, signal };
}

/** The referee's reason code (google.rpc.ErrorInfo) and message of a failed call. */
export function refusal(err) {
  const e = ConnectError.from(err);
  let reason = Code[e.code] || "UNKNOWN";
  for (const d of e.details) {
    if (d.type === "google.rpc.ErrorInfo" && d.debug && d.debug.reason) reason = d.debug.reason;
  }
  return { reason, message: e.rawMessage, code: e.code };
}

export { Code, ConnectError };

/** A fresh idempotency key: 128 random bits (crypto.getRandomValues works on plain http too). */
export function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A call that makes something (a table, a seat, bots), sent with an idempotency key and sent again
 * with the same key when its answer is lost: the referee answers the retry as it answered the first
 * (the same table, the same seat token), so a dropped connection never costs a seat. */
export async function once(call, req, options) {
  const keyed = { ...req, idempotencyKey: newKey() };
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(keyed, options);
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (attempt >= 4 || ![Code.Unavailable, Code.Unknown, Code.DeadlineExceeded].includes(code)) throw err;
      await new Promise((done) => setTimeout(done, 250 * (attempt + 1)));
    }
  }
}

/** What this browser keeps (localStorage) per table, tournament or club id under `prefix`: tokens, so a
 * reload or a dropped connection keeps the seat, the director's desk or the membership. */
export function kept(prefix) {
  return {
    get: (id) => JSON.parse(localStorage.getItem(`${prefix}${id}`) || "{}"),
    set(id, patch) { localStorage.setItem(`${prefix}${id}`, JSON.stringify({ ...this.get(id), ...patch })); },
  };
}

export const tokens = kept("smear:table:");
