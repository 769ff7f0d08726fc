// Tournaments with people: the director's page (create, start rounds, seat slips, bots standing in,
// tables still playing, live standings) and the public page anyone can follow.
import { createClient } from "@connectrpc/connect";
import { auth, kept, once, referee, refusal, transport } from "./api.js";
import { Tournament } from "./gen/smear/referee/v1/referee_pb.js";
import { langPicker, t } from "./i18n.js";
import { clockSelect, rulesPicker } from "./lobby.js";
import { h, refreshing } from "./ui.js";

const tournament = createClient(Tournament, transport);
const saved = kept("smear:tournament:");

/** The way back to the lobby and the language picker: the head of a tournament's or a club's page. */
export function back(go) {
  return [h("a.back", { href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, t("← lobby")), langPicker()];
}


/** What every new tournament's form asks (rounds, pairing, hands per round, duplicate), its ids prefixed
 * `prefix`: the elements, their labelled fields in order, and the values as CreateTournament takes them. */
export function roundFields(prefix) {
  const rounds = h(`input#${prefix}rounds`, { type: "number", min: 1, max: 50, value: 3 });
  const pairing = h(`select#${prefix}pairing`, {}, h("option", { value: "swiss" }, t("Swiss")), h("option", { value: "round_robin" }, t("round robin")));
  const hands = h(`input#${prefix}hands`, { type: "number", min: 0, max: 100, value: 0 });
  const duplicate = h(`input#${prefix}duplicate`, { type: "checkbox" });
  return {
    fields: [h("label", {}, t("Rounds"), " ", rounds), " ", h("label", {}, t("Pairing"), " ", pairing), " ",
      h("label", {}, t("Hands per round (0: a whole game)"), " ", hands), " ",
      h("label", {}, duplicate, " ", t("duplicate (every table of a round plays the same boards)"))],
    request: () => ({ rounds: Number(rounds.value), pairing: pairing.value, handsPerRound: Number(hands.value), duplicate: duplicate.checked }),
  };
}

export async function newTournamentPage(root, go) {
  const { rules } = await referee.listRules({});
  const picker = rulesPicker(rules, "t-");  // a shipped rule file or the club's house rules, checked as typed
  const name = h("input#t-name", { placeholder: t("Club night"), maxlength: 100 });
  const entrants = h("textarea#t-entrants", { rows: 8, placeholder: t("one name per line") });
  const round = roundFields("t-");
  const teams = h("input#t-teams", { type: "checkbox" });
  const clock = clockSelect("t-clock");
  const errors = picker.errors;
  root.replaceChildren(h("header", {}, back(go), h("h1", {}, t("New tournament"))),
    h("form.panel", {
      async onsubmit(e) {
        e.preventDefault();
        try {
          const chosen = await picker.rules();
          if (!chosen) return;
          const made = await tournament.createTournament({
            name: name.value, rulesName: chosen.name ?? "house_rules", rulesText: chosen.text ?? "", options: picker.chosen(),
            players: Number(picker.players.value), ...round.request(),
            entrants: entrants.value.split("\n").map((x) => x.trim()).filter(Boolean),
            teams: teams.checked, turnSeconds: Number(clock.value),
          });
          saved.set(made.tournamentId, { director: made.directorToken });
          go(`/tournament/${made.tournamentId}`);
        } catch (err) {
          errors.replaceChildren(h("p.refusal", {}, `${refusal(err).reason}: ${refusal(err).message}`));
        }
      },
    }, h("label", {}, t("Name"), " ", name), " ", h("label", {}, t("Rules"), " ", picker.select), " ",
    h("label", {}, t("Players"), " ", picker.players), picker.options, picker.houseBox,
    h("label", { for: "t-entrants" }, t("Entrants")), entrants,
    h("div", {}, ...round.fields, " ",
      h("label", {}, teams, " ", t("entrants are fixed teams")), " ",
      h("label", {}, t("Turn clock"), " ", clock)),
    errors, h("button#t-create", { type: "submit" }, t("Create tournament"))));
}

export async function tournamentPage(root, id, go) {
  const page = new TournamentPage(root, id, go);
  await page.refresh();
  return refreshing(() => page.refresh());
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
      slips[r.round] = r.tables.map((x) => ({ table: x.table, tableId: x.tableId, seats: x.seats, tokens: x.seatTokens }));
      saved.set(this.id, { slips });
      this.message = null;
    } catch (err) {
      this.message = `${refusal(err).reason}: ${refusal(err).message}`;
    }
    await this.refresh();
  }

  async standIn(tableId, token) {
    try {
      await once((q, o) => referee.addBots(q, o), { tableId, kind: "search:200ms" }, auth(token));
      this.message = t("a search bot now plays that seat");
    } catch (err) {
      this.message = `${refusal(err).reason}: ${refusal(err).message}`;
    }
    this.render();
  }

  render() {
    const s = this.state;
    const names = s.entrants;
    const standings = s.standings;
    const last = s.rounds[s.rounds.length - 1];
    const canStart = this.director && s.rounds.length < s.roundsPlanned && (!last || last.finishedTables === last.tables);
    const slips = saved.get(this.id).slips || {};
    this.root.replaceChildren(...[
      h("header", {}, back(this.go), h("h1", {}, s.name),
        h("span.muted", {}, `${s.title || s.rules} · ${t("round {n} of {all}", { n: s.rounds.length, all: s.roundsPlanned })}`),
        s.clubId ? h("p", {}, h("a#t-club", { href: `/club/${s.clubId}`, onclick: (e) => { e.preventDefault(); this.go(`/club/${s.clubId}`); } },
          t("a club tournament: its games count on the club's ladder"))) : null),
      this.director ? h("section.panel.director", {}, h("h2", {}, t("Director")),
        h("button#start-round", { disabled: !canStart, onclick: () => this.startRound() },
          s.rounds.length < s.roundsPlanned ? t("Start round {n}", { n: s.rounds.length + 1 }) : t("All rounds started")),
        h("button#print", { onclick: () => window.print() }, t("Print seat slips")),
        this.message ? h("p#t-message", {}, this.message) : null) : null,
      h("section.panel", {}, h("h2", {}, t("Standings")), h("table.lobby#standings", {},
        h("tr", {}, ["#", t("entrant"), t("games"), t("wins"), t("points for"), t("against"), t("difference")].map((x) => h("th", {}, x))),
        standings.map((r) => h("tr", {}, [r.rank, r.name, r.games, r.wins, r.pointsFor, r.pointsAgainst, r.difference].map((x) => h("td", {}, x)))))),
      ...[...s.rounds].reverse().map((rnd) => h("section.panel.round", { "data-round": rnd.round },
        h("h2", {}, t("Round {n}: {done} of {all} tables finished", { n: rnd.round + 1, done: rnd.finishedTables, all: rnd.tables })),
        h("div.muted", {}, t("seed commitment {hash}…", { hash: rnd.commitment.slice(0, 16) }), rnd.seed ? ` · ${t("seed {seed}", { seed: rnd.seed })}` : ""),
        h("div.slips", {}, rnd.tableStates.map((t) => this.tableEl(rnd.round, t, names, slips[rnd.round]))))),
    ].filter(Boolean));
  }

  tableEl(round, tb, names, slips) {
    const slip = slips?.find((x) => x.tableId === tb.tableId);
    const link = (token) => `${location.origin}/t/${tb.tableId}#seat=${token}`;
    return h("div.slip", { "data-table": tb.tableId },
      h("b", {}, t("Table {n}", { n: tb.table + 1 })), tb.finished ? h("span.tag", {}, t("finished")) : h("span.tag", {}, t("playing")),
      h("ol", {}, tb.seats.map((entrant, seat) => h("li", {}, names[entrant] ?? t("entrant {n}", { n: entrant + 1 }),
        slip && !tb.finished ? [" · ", h("a.seat-link", { href: link(slip.tokens[seat]), "data-seat": seat }, t("seat link")),
          " ", h("button.stand-in", { onclick: () => this.standIn(tb.tableId, slip.tokens[seat]) }, t("bot stands in"))] : null))),
      h("a", { href: tb.finished ? `/replay/${tb.tableId}` : `/t/${tb.tableId}`,
        onclick: (e) => { e.preventDefault(); this.go(tb.finished ? `/replay/${tb.tableId}` : `/t/${tb.tableId}`); } },
      tb.finished ? t("replay") : t("watch")));
  }
}
