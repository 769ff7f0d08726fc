// A club's pages: a director creates it (/club) and adds members, each given a link whose token sits in
// the URL's fragment (never sent to a server in a request line, kept by this browser); the club's page
// (/club/ID) shows its ladder per rule file with each member's chart, its seasons and the club tables
// still playing, where a member takes a seat as themself.
import { createClient } from "@connectrpc/connect";
import { auth, kept, referee, refusal, tokens, transport } from "./api.js";
import { Club } from "./gen/smear/referee/v1/referee_pb.js";
import { t } from "./i18n.js";
import { back } from "./tournament.js";
import { h } from "./ui.js";

const club = createClient(Club, transport);
const saved = kept("smear:club:");

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
  const errors = h("div");
  root.replaceChildren(h("header", {}, back(go), h("h1", {}, t("New club"))),
    h("form.panel", {
      async onsubmit(e) {
        e.preventDefault();
        const chosen = boxes.map((b) => b.querySelector("input")).filter((x) => x.checked).map((x) => ({ rulesName: x.value }));
        try {
          const settings = { rate_by: rateBy.value, season_start: start.value, provisional_games: Number(provisional.value) };
          const made = await club.createClub({ name: name.value, ruleFiles: chosen, settingsJson: JSON.stringify(settings) });
          saved.set(made.clubId, { director: made.directorToken });
          go(`/club/${made.clubId}`);
        } catch (err) {
          errors.replaceChildren(h("p.refusal", {}, said(err)));
        }
      },
    }, h("label", {}, t("Name"), " ", name), h("fieldset", {}, h("legend", {}, t("The club's rule files")), boxes),
    h("div", {}, h("label", {}, t("Ratings kept"), " ", rateBy), " ", h("label", {}, t("A new season"), " ", start), " ",
      h("label", {}, t("Provisional until this many games"), " ", provisional)),
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
  const timer = setInterval(() => page.refresh().catch(() => {}), 3000);
  return () => clearInterval(timer);
}

class ClubPage {
  constructor(root, id, go) {
    Object.assign(this, { root, id, go, message: null, chart: null });
  }

  get token() { const s = saved.get(this.id); return s.director || s.member; }

  async refresh() {
    const token = this.token;
    this.state = await club.getClub({ clubId: this.id }, token ? auth(token) : undefined);
    if (this.chart) this.history = JSON.parse((await club.getMemberHistory({ clubId: this.id, memberId: this.chart })).historyJson);
    this.render();
  }

  async act(fn, done) {
    try {
      await fn();
      this.message = done;
    } catch (err) {
      this.message = said(err);
    }
    await this.refresh();
  }

  addMember(name) {
    return this.act(async () => {
      const m = await club.addMember({ clubId: this.id, name }, auth(this.token));
      const links = saved.get(this.id).links || [];
      links.push({ member: m.memberId, name, link: `${location.origin}/club/${this.id}#member=${m.memberToken}` });
      saved.set(this.id, { links });
    }, t("{name} is a member: hand them their link", { name }));
  }

  openTable(rules) {
    return this.act(() => club.openClubTable({ clubId: this.id, rules }, auth(this.token)), t("a club table is open"));
  }

  async sit(tableId, seat) {
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
    const ladder = JSON.parse(s.ladderJson);
    const files = Object.fromEntries(s.ruleFiles.map((f) => [f.rules.split("@")[0], f.title]));
    const current = s.seasons[s.seasons.length - 1];
    const links = saved.get(this.id).links || [];
    const newName = h("input#c-member-name", { placeholder: t("member's name"), maxlength: 40 });
    const rulesSel = h("select#c-table-rules", {}, s.ruleFiles.map((f) => h("option", { value: f.rules.split("@")[0] }, f.title)));
    this.root.replaceChildren(...[
      h("header", {}, back(this.go), h("h1", {}, s.name),
        h("span.muted", {}, t("season {n}", { n: current.season }), s.me ? ` · ${t("you are {name}", { name: who(s.me) })}` : "")),
      this.message ? h("p#c-message", { role: "status" }, this.message) : null,
      s.director ? h("section.panel.director", {}, h("h2", {}, t("Director")),
        h("form", { onsubmit: (e) => { e.preventDefault(); if (newName.value.trim()) this.addMember(newName.value); } },
          newName, " ", h("button#c-add-member", { type: "submit" }, t("Add member"))),
        links.length ? h("ul#c-links", {}, links.map((l) => h("li", {}, l.name, " · ",
          h("a.member-link", { href: l.link, "data-member": l.member }, t("member link"))))) : null,
        h("p", {}, h("a#c-director-link", { href: `${location.origin}/club/${this.id}#director=${saved.get(this.id).director}` },
          t("your director link: keep it private, it opens this page as the director on another device"))),
        h("button#c-close-season", { onclick: () => { if (confirm(t("Close season {n}?", { n: current.season }))) this.act(() => club.closeSeason({ clubId: this.id }, auth(this.token)), t("season closed")); } },
          t("Close season {n}", { n: current.season }))) : null,
      s.me || s.director ? h("section.panel", {}, h("h2", {}, t("Play")),
        h("label", {}, t("Rules"), " ", rulesSel), " ",
        h("button#c-open-table", { onclick: () => this.openTable(rulesSel.value) }, t("Open a club table"))) : null,
      h("section.panel", {}, h("h2", {}, t("Club tables")), s.tables.length ? h("ul#c-tables", {}, s.tables.map((tb) => this.tableEl(tb, who)))
        : h("p.muted", {}, t("no club table is playing"))),
      ...Object.entries(ladder).map(([key, rungs]) => h("section.panel.ladder", { "data-rules": key },
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

  tableEl(tb, who) {
    const mine = saved.get(this.id).member && this.state.me;
    const seated = tb.seatMembers;
    const info = tb.table;
    return h("li.club-table", { "data-table": tb.tableId }, h("b", {}, info?.title || tb.tableId.slice(0, 8)), " ",
      h("ol", {}, seated.map((m, i) => {
        const taken = info ? info.seatTaken[i] : Boolean(m);
        const label = m ? who(m) : taken ? `${info.seatNames[i] || t("a player")} (${t("guest")})` : t("free seat");
        return h("li", { "data-seat": i }, label,
          mine && !taken && !seated.includes(this.state.me) ? [" ", h("button.sit", { "data-seat": i, onclick: () => this.sit(tb.tableId, i) }, t("Sit here"))] : null);
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
