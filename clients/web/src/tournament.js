// Tournaments with people: the director's page (create, start rounds, seat slips, bots standing in,
// tables still playing, live standings) and the public page anyone can follow.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { auth, referee, refusal } from "./api.js";
import { Tournament } from "./gen/smear/referee/v1/referee_pb.js";
import { optionInput } from "./lobby.js";
import { h } from "./ui.js";

const tournament = createClient(Tournament, createConnectTransport({ baseUrl: window.location.origin }));
const saved = {
  get: (id) => JSON.parse(localStorage.getItem(`smear:tournament:${id}`) || "{}"),
  set(id, patch) { localStorage.setItem(`smear:tournament:${id}`, JSON.stringify({ ...this.get(id), ...patch })); },
};

function back(go) {
  return h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, "← lobby");
}

export async function newTournamentPage(root, go) {
  const { rules } = await referee.listRules({});
  const select = h("select#t-rules", {}, rules.map((r) => h("option", { value: r.name }, r.title)));
  const options = h("div.options");
  const fill = () => options.replaceChildren(...rules.find((r) => r.name === select.value).options.map(optionInput));
  select.addEventListener("change", fill);
  fill();
  const name = h("input#t-name", { placeholder: "Club night", maxlength: 100 });
  const entrants = h("textarea#t-entrants", { rows: 8, placeholder: "one name per line" });
  const rounds = h("input#t-rounds", { type: "number", min: 1, max: 50, value: 3 });
  const pairing = h("select#t-pairing", {}, h("option", { value: "swiss" }, "Swiss"), h("option", { value: "round_robin" }, "round robin"));
  const hands = h("input#t-hands", { type: "number", min: 0, max: 100, value: 0 });
  const duplicate = h("input#t-duplicate", { type: "checkbox" });
  const teams = h("input#t-teams", { type: "checkbox" });
  const errors = h("div.errors");
  root.replaceChildren(h("header", {}, back(go), h("h1", {}, "New tournament")),
    h("form.panel", {
      async onsubmit(e) {
        e.preventDefault();
        const opts = {};
        for (const el of options.querySelectorAll("[data-option]")) {
          opts[el.dataset.option] = el.type === "checkbox" ? String(el.checked) : el.value;
        }
        try {
          const made = await tournament.createTournament({
            name: name.value, rulesName: select.value, options: opts, rounds: Number(rounds.value),
            entrants: entrants.value.split("\n").map((x) => x.trim()).filter(Boolean), pairing: pairing.value,
            duplicate: duplicate.checked, teams: teams.checked, handsPerRound: Number(hands.value),
          });
          saved.set(made.tournamentId, { director: made.directorToken });
          go(`/tournament/${made.tournamentId}`);
        } catch (err) {
          errors.replaceChildren(h("p.refusal", {}, `${refusal(err).reason}: ${refusal(err).message}`));
        }
      },
    }, h("label", {}, "Name ", name), " ", h("label", {}, "Rules ", select), options,
    h("label", { for: "t-entrants" }, "Entrants"), entrants,
    h("div", {}, h("label", {}, "Rounds ", rounds), " ", h("label", {}, "Pairing ", pairing), " ",
      h("label", {}, "Hands per round (0: a whole game) ", hands), " ",
      h("label", {}, duplicate, " duplicate (every table of a round plays the same boards)"), " ",
      h("label", {}, teams, " entrants are fixed teams")),
    errors, h("button#t-create", { type: "submit" }, "Create tournament")));
}

export async function tournamentPage(root, id, go) {
  const page = new TournamentPage(root, id, go);
  await page.refresh();
  const timer = setInterval(() => page.refresh().catch(() => {}), 3000);
  return () => clearInterval(timer);
}

class TournamentPage {
  constructor(root, id, go) {
    Object.assign(this, { root, id, go, message: null });
  }

  get director() { return saved.get(this.id).director; }

  async refresh() {
    this.state = await tournament.getStandings({ tournamentId: this.id });
    this.render();
  }

  async startRound() {
    try {
      const r = await tournament.startRound({ tournamentId: this.id }, auth(this.director));
      const slips = saved.get(this.id).slips || {};
      slips[r.round] = r.tables.map((t) => ({ table: t.table, tableId: t.tableId, seats: t.seats, tokens: t.seatTokens }));
      saved.set(this.id, { slips });
      this.message = null;
    } catch (err) {
      this.message = `${refusal(err).reason}: ${refusal(err).message}`;
    }
    await this.refresh();
  }

  async standIn(tableId, token) {
    try {
      await referee.addBots({ tableId, kind: "search:200ms" }, auth(token));
      this.message = "a search bot now plays that seat";
    } catch (err) {
      this.message = `${refusal(err).reason}: ${refusal(err).message}`;
    }
    this.render();
  }

  render() {
    const s = this.state;
    const names = s.entrants;
    const standings = JSON.parse(s.standingsJson);
    const last = s.rounds[s.rounds.length - 1];
    const canStart = this.director && s.rounds.length < s.roundsPlanned && (!last || last.finishedTables === last.tables);
    const slips = saved.get(this.id).slips || {};
    this.root.replaceChildren(...[
      h("header", {}, back(this.go), h("h1", {}, s.name), h("span.muted", {}, `${s.rules} · round ${s.rounds.length} of ${s.roundsPlanned}`)),
      this.director ? h("section.panel.director", {}, h("h2", {}, "Director"),
        h("button#start-round", { disabled: !canStart, onclick: () => this.startRound() },
          s.rounds.length < s.roundsPlanned ? `Start round ${s.rounds.length + 1}` : "All rounds started"),
        h("button#print", { onclick: () => window.print() }, "Print seat slips"),
        this.message ? h("p#t-message", {}, this.message) : null) : null,
      h("section.panel", {}, h("h2", {}, "Standings"), h("table.lobby#standings", {},
        h("tr", {}, ["#", "entrant", "games", "wins", "points for", "against", "difference"].map((x) => h("th", {}, x))),
        standings.map((r) => h("tr", {}, [r.rank, r.name, r.games, r.wins, r.points_for, r.points_against, r.difference].map((x) => h("td", {}, x)))))),
      ...[...s.rounds].reverse().map((rnd) => h("section.panel.round", { "data-round": rnd.round },
        h("h2", {}, `Round ${rnd.round}: ${rnd.finishedTables} of ${rnd.tables} tables finished`),
        h("div.muted", {}, `seed commitment ${rnd.commitment.slice(0, 16)}…`, rnd.seed ? ` · seed ${rnd.seed}` : ""),
        h("div.slips", {}, rnd.tableStates.map((t) => this.tableEl(rnd.round, t, names, slips[rnd.round]))))),
    ].filter(Boolean));
  }

  tableEl(round, t, names, slips) {
    const slip = slips?.find((x) => x.tableId === t.tableId);
    const link = (token) => `${location.origin}/t/${t.tableId}#seat=${token}`;
    return h("div.slip", { "data-table": t.tableId },
      h("b", {}, `Table ${t.table + 1}`), t.finished ? h("span.tag", {}, "finished") : h("span.tag", {}, "playing"),
      h("ol", { start: 0 }, t.seats.map((entrant, seat) => h("li", {}, names[entrant] ?? `entrant ${entrant}`,
        slip && !t.finished ? [" · ", h("a.seat-link", { href: link(slip.tokens[seat]), "data-seat": seat }, "seat link"),
          " ", h("button.stand-in", { onclick: () => this.standIn(t.tableId, slip.tokens[seat]) }, "bot stands in")] : null))),
      h("a", { href: t.finished ? `/replay/${t.tableId}` : `/t/${t.tableId}`,
        onclick: (e) => { e.preventDefault(); this.go(t.finished ? `/replay/${t.tableId}` : `/t/${t.tableId}`); } },
      t.finished ? "replay" : "watch"));
  }
}
