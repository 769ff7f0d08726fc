// A club's pages: a director creates it (/club) and adds members, each given a link whose token sits in
// the URL's fragment (never sent to a server in a request line, kept by this browser); the club's page
// (/club/ID) shows its ladder per rule file with each member's chart, its seasons and the club tables
// still playing, where a member takes a seat as themself.
import { createClient } from "@connectrpc/connect";
import { auth, kept, referee, refusal, tokens, transport } from "./api.js";
import { Club, Tournament } from "./gen/smear/referee/v1/referee_pb.js";
import { t } from "./i18n.js";
import { back, roundFields } from "./tournament.js";
import { h, refreshing } from "./ui.js";

const club = createClient(Club, transport);
const tournament = createClient(Tournament, transport);
const saved = kept("smear:club:");
const tournaments = kept("smear:tournament:");  // as the tournament's page keeps a director's token
const MODELS = ["PlackettLuce", "BradleyTerryFull", "BradleyTerryPart", "ThurstoneMostellerFull", "ThurstoneMostellerPart"];

const said = (err) => `${refusal(err).reason}: ${refusal(err).message}`;

export async function newClubPage(root, go) {
  const { rules } = await referee.listRules({});
  const name = h("input#c-name", { placeholder: t("Tuesday club"), maxlength: 100 });
  const boxes = rules.map((r) => h("label.rule-choice", {}, h("input", { type: "checkbox", value: r.name, checked: r.name === "four_point_ne_wisconsin" }), " ", r.title));
  const rateBy = h("select#c-rate-by", {}, h("option", { value: "rule_file" }, t("per rule file")),
    h("option", { value: "family" }, t("across the club's rule files")));
  const start = h("select#c-season-start", {}, h("option", { value: "carry" }, t("carries the ratings on")),
    h("option", { value: "reset" }, t("starts everyone afresh")));
  const provisional = h("input#c-provisional", { type: "number", min: 0, max: 1000, value: 10 });
  // The model and its parameters (openskill's defaults), for a director who wants others.
  const model = h("select#c-model", {}, MODELS.map((m) => h("option", { value: m }, m)));
  const param = (name, value) => h(`input#c-${name}`, { type: "number", min: 0, step: "any", value });
  const params = { mu: param("mu", 25), sigma: param("sigma", 8.333), beta: param("beta", 4.167), tau: param("tau", 0.0833) };
  // House rules: a rule file of the club's own (YAML), checked by the server as a table's upload is.
  const houseName = h("input#c-house-name", { placeholder: "house_rules", maxlength: 40 });
  const houseText = h("textarea#c-house-text", { rows: 6, placeholder: "extends: four_point_ne_wisconsin\nname: …" });
  const errors = h("div");
  root.replaceChildren(h("header", {}, back(go), h("h1", {}, t("New club"))),
    h("form.panel", {
      async onsubmit(e) {
        e.preventDefault();
        const chosen = boxes.map((b) => b.querySelector("input")).filter((x) => x.checked).map((x) => ({ rulesName: x.value }));
        if (houseText.value.trim()) chosen.push({ rulesName: houseName.value.trim() || "house_rules", rulesText: houseText.value });
        try {
          const settings = { rateBy: rateBy.value, seasonStart: start.value, provisionalGames: Number(provisional.value), model: model.value };
          for (const [k, el] of Object.entries(params)) settings[k] = Number(el.value);
          const made = await club.createClub({ name: name.value, ruleFiles: chosen, settings });
          saved.set(made.clubId, { director: made.directorToken });
          go(`/club/${made.clubId}`);
        } catch (err) {
          errors.replaceChildren(h("p.refusal", {}, said(err)));
        }
      },
    }, h("label", {}, t("Name"), " ", name), h("fieldset", {}, h("legend", {}, t("The club's rule files")), boxes),
    h("div", {}, h("label", {}, t("Ratings kept"), " ", rateBy), " ", h("label", {}, t("A new season"), " ", start), " ",
      h("label", {}, t("Provisional until this many games"), " ", provisional)),
    h("details#c-rating", {}, h("summary", {}, t("Rating model")), h("label", {}, t("Model"), " ", model), " ",
      ...Object.entries(params).map(([k, el]) => h("label", {}, k, " ", el, " "))),
    h("details#c-house", {}, h("summary", {}, t("House rules")), h("label", {}, t("Name"), " ", houseName),
      h("label", { for: "c-house-text" }, t("Your rule file (YAML)")), houseText),
    errors, h("button#c-create", { type: "submit" }, t("Create club"))));
}

export async function clubPage(root, id, go) {
  const link = location.hash.match(/^#(member|director)=([\w-]+)$/);
  if (link) {  // a member's (or the director's) link: kept here, then out of the address bar
    saved.set(id, { [link[1]]: link[2] });
    history.replaceState(null, "", location.pathname);
  }
  const page = new ClubPage(root, id, go);
  await page.refresh();
  return refreshing(() => page.refresh());
}

class ClubPage {
  constructor(root, id, go) {
    Object.assign(this, { root, id, go, message: null, chart: null, kept: new Map() });
  }

  /** An element made once and kept across the page's refreshes (every 3 s), so what is typed in it stays;
   * made anew when `key` changes (e.g. the members a form lists). */
  keep(name, key, make) {
    const had = this.kept.get(name);
    if (had && had.key === key) return had.el;
    const el = make();
    this.kept.set(name, { key, el });
    return el;
  }

  get token() { const s = saved.get(this.id); return s.director || s.member; }

  async refresh() {
    const token = this.token;
    this.state = await club.getClub({ clubId: this.id }, token ? auth(token) : undefined);
    if (this.chart) this.history = (await club.getMemberHistory({ clubId: this.id, memberId: this.chart })).points;
    this.render();
  }

  /** Do `fn`, then say `done` (or the refusal) and show the page anew; whether it was done. */
  async act(fn, done) {
    let ok = false;
    try {
      await fn();
      this.message = done;
      ok = true;
    } catch (err) {
      this.message = said(err);
    }
    await this.refresh();
    return ok;
  }

  addMember(name) {
    return this.act(async () => {
      const m = await club.addMember({ clubId: this.id, name }, auth(this.token));
      const links = saved.get(this.id).links || [];
      links.push({ member: m.memberId, name, link: `${location.origin}/club/${this.id}#member=${m.memberToken}` });
      saved.set(this.id, { links });
    }, t("{name} is a member: hand them their link", { name }));
  }

  /** A club tournament: the members ticked and the guests named enter; its page keeps the director's token. */
  async openTournament(form, round) {
    const entrants = [...form.querySelectorAll("input[data-member]:checked")].map((x) => x.dataset.member)
      .concat(form.querySelector("#c-guests").value.split("\n").map((x) => x.trim()).filter(Boolean));
    try {
      const made = await tournament.createTournament({
        clubId: this.id, name: form.querySelector("#c-t-name").value, rulesName: form.querySelector("#c-t-rules").value,
        entrants, ...round.request(),
      }, auth(this.token));
      tournaments.set(made.tournamentId, { director: made.directorToken });
      this.go(`/tournament/${made.tournamentId}`);
    } catch (err) {
      this.message = said(err);
      this.render();
    }
  }

  openTable(rules) {
    return this.act(() => club.openClubTable({ clubId: this.id, rules }, auth(this.token)), t("a club table is open"));
  }

  async sit(tableId, seat) {
    if (tokens.get(tableId).seat && tokens.get(tableId).seatNo === seat) return this.go(`/t/${tableId}`);  // kept here already
    try {
      const r = await club.joinClubTable({ tableId, seat }, auth(saved.get(this.id).member));
      tokens.set(tableId, { seat: r.token, seatNo: seat });
      this.go(`/t/${tableId}`);
    } catch (err) {
      this.message = said(err);
      this.render();
    }
  }

  render() {
    const s = this.state;
    const names = Object.fromEntries(s.members.map((m) => [m.memberId, m.name]));
    const who = (m) => names[m] ?? t("a former member");
    const keys = Object.keys(s.ladders).sort();  // a map arrives in no set order
    const files = Object.fromEntries(s.ruleFiles.map((f) => [f.name, f.title]));
    const current = s.seasons[s.seasons.length - 1];
    const links = saved.get(this.id).links || [];
    const newName = this.keep("name", "", () => h("input#c-member-name", { placeholder: t("member's name"), maxlength: 40 }));
    const rulesSel = this.keep("rules", "", () => h("select#c-table-rules", {}, s.ruleFiles.map((f) => h("option", { value: f.name }, f.title))));
    this.root.replaceChildren(...[
      h("header", {}, back(this.go), h("h1", {}, s.name),
        h("span.muted", {}, t("season {n}", { n: current.season }), s.me ? ` · ${t("you are {name}", { name: who(s.me) })}` : "")),
      this.message ? h("p#c-message", { role: "status" }, this.message) : null,
      s.director ? h("section.panel.director", {}, h("h2", {}, t("Director")),
        h("form", { onsubmit: (e) => { e.preventDefault(); if (newName.value.trim()) this.addMember(newName.value).then((ok) => { if (ok) newName.value = ""; }); } },
          newName, " ", h("button#c-add-member", { type: "submit" }, t("Add member"))),
        links.length ? h("ul#c-links", {}, links.map((l) => h("li", {}, l.name, " · ",
          h("a.member-link", { href: l.link, "data-member": l.member }, t("member link"))))) : null,
        h("p", {}, h("a#c-director-link", { href: `${location.origin}/club/${this.id}#director=${saved.get(this.id).director}` },
          t("your director link: keep it private, it opens this page as the director on another device"))),
        this.keep("tournament", s.members.map((m) => m.memberId).join(), () => this.tournamentForm(s)),
        h("button#c-close-season", { onclick: () => { if (confirm(t("Close season {n}?", { n: current.season }))) this.act(() => club.closeSeason({ clubId: this.id }, auth(this.token)), t("season closed")); } },
          t("Close season {n}", { n: current.season }))) : null,
      s.me || s.director ? h("section.panel", {}, h("h2", {}, t("Play")),
        h("label", {}, t("Rules"), " ", rulesSel), " ",
        h("button#c-open-table", { onclick: () => this.openTable(rulesSel.value) }, t("Open a club table"))) : null,
      h("section.panel", {}, h("h2", {}, t("Club tables")), s.tables.length ? h("ul#c-tables", {}, s.tables.map((tb) => this.tableEl(tb, who)))
        : h("p.muted", {}, t("no club table is playing"))),
      s.tournaments.length ? h("section.panel", {}, h("h2", {}, t("Club tournaments")), h("ul#c-tournaments", {},
        s.tournaments.map((x) => h("li", {}, h("a", { href: `/tournament/${x.tournamentId}`,
          onclick: (e) => { e.preventDefault(); this.go(`/tournament/${x.tournamentId}`); } }, x.name))))) : null,
      ...keys.map((key) => [key, s.ladders[key].rungs]).map(([key, rungs]) => h("section.panel.ladder", { "data-rules": key },
        h("h2", {}, t("Ladder: {rules}", { rules: files[key] ?? key })),
        rungs.length ? h("table.lobby", {},
          h("tr", {}, [t("Place"), t("Member"), t("Rating"), t("Skill ± uncertainty"), t("Games"), t("Wins"), t("Usual partners")].map((x) => h("th", {}, x))),
          rungs.map((r) => h("tr", { "data-member": r.member },
            h("td", {}, r.place),
            h("td", {}, h("button.linkish", { onclick: () => { this.chart = r.member; this.refresh(); } }, r.name)),
            h("td", {}, r.rating.toFixed(1), r.provisional ? ` (${t("provisional")})` : ""),
            h("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`), h("td", {}, r.games), h("td", {}, r.wins),
            h("td", {}, r.partners.join(", "))))) : h("p.muted", {}, t("no rated game yet this season")))),
      this.chart ? h("section.panel#c-chart", {}, h("h2", {}, t("{name}'s rating this season", { name: who(this.chart) })), chartOf(this.history || [])) : null,
      h("section.panel", {}, h("h2", {}, t("Seasons")), h("ol#c-seasons", {}, s.seasons.map((x) => h("li", {},
        t("season {n} · games: {games}", { n: x.season, games: x.games }), x.closed ? ` · ${t("closed")}` : "",
        h("div.muted.digest", {}, t("head digest {hash}", { hash: x.head })))))),
      s.me ? h("button#c-leave", { onclick: () => { if (confirm(t("Leave the club? Your name will no longer be shown."))) this.act(() => club.leaveClub({ clubId: this.id }, auth(this.token)), t("you left the club")).then(() => saved.set(this.id, { member: undefined })); } },
        t("Leave the club")) : null,
    ].filter(Boolean));
  }

  tournamentForm(s) {
    const rules = h("select#c-t-rules", {}, s.ruleFiles.map((f) => h("option", { value: f.name }, f.title)));
    const round = roundFields("c-t-");
    return h("details#c-tournament", {}, h("summary", {}, t("Open a club tournament")),
      h("form", { onsubmit: (e) => { e.preventDefault(); this.openTournament(e.target, round); } },
        h("label", {}, t("Name"), " ", h("input#c-t-name", { placeholder: t("Club night"), maxlength: 100 })), " ",
        h("label", {}, t("Rules"), " ", rules),
        h("fieldset", {}, h("legend", {}, t("Members who play")), s.members.map((m) => h("label.rule-choice", {},
          h("input", { type: "checkbox", checked: true, "data-member": m.memberId }), " ", m.name))),
        h("label", { for: "c-guests" }, t("Guests (one name per line; they play unrated)")),
        h("textarea#c-guests", { rows: 2 }),
        h("div", {}, ...round.fields),
        h("button#c-t-create", { type: "submit" }, t("Create tournament"))));
  }

  tableEl(tb, who) {
    const mine = saved.get(this.id).member && this.state.me;
    const seated = tb.seatMembers;
    const info = tb.table;
    return h("li.club-table", { "data-table": tb.tableId }, h("b", {}, info?.title || tb.tableId.slice(0, 8)), " ",
      h("ol", {}, seated.map((m, i) => {
        const taken = info ? info.seatTaken[i] : Boolean(m);
        const label = m ? who(m) : taken ? `${info.seatNames[i] || t("a player")} (${t("guest")})` : t("free seat");
        const own = mine && m === this.state.me && !tb.finished;  // a seat kept for me (a club tournament's), or mine already
        return h("li", { "data-seat": i }, label,
          own ? [" ", h("button.sit.own-seat", { "data-seat": i, onclick: () => this.sit(tb.tableId, i) }, t("Take your seat"))]
            : mine && !taken && !seated.includes(this.state.me) ? [" ", h("button.sit", { "data-seat": i, onclick: () => this.sit(tb.tableId, i) }, t("Sit here"))] : null);
      })),
      h("a", { href: `/t/${tb.tableId}`, onclick: (e) => { e.preventDefault(); this.go(`/t/${tb.tableId}`); } }, t("watch")));
  }
}

/** A member's rating after each rated game this season, as a small line chart (SVG, no library). */
function chartOf(points) {
  if (!points.length) return h("p.muted", {}, t("no rated game yet this season"));
  const W = 320, H = 120, pad = 24;
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys, 0), hi = Math.max(...ys, 1);
  const x = (i) => pad + (points.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (points.length - 1));
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo || 1);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("rating after each game: {list}", { list: ys.map((v) => v.toFixed(1)).join(", ") }));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  points.forEach((p, i) => {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(i));
    dot.setAttribute("cy", y(p.rating));
    dot.setAttribute("r", "3");
    dot.setAttribute("fill", "currentColor");
    const label = document.createElementNS(ns, "text");  // the value and the game, so the chart reads without axes
    label.setAttribute("x", x(i));
    label.setAttribute("y", y(p.rating) - 7);
    label.setAttribute("text-anchor", "middle");
    label.textContent = p.rating.toFixed(1);
    const game = document.createElementNS(ns, "text");
    game.setAttribute("x", x(i));
    game.setAttribute("y", H - 6);
    game.setAttribute("text-anchor", "middle");
    game.textContent = `#${p.game}`;
    svg.append(dot, label, game);
  });
  return svg;
}
