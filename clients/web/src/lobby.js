// The lobby: open tables, a new table from a rule file of the server or from pasted house rules.
import { once, referee, refusal, tokens } from "./api.js";
import { langPicker, optionsText, t } from "./i18n.js";
import { h, refreshing } from "./ui.js";

export async function lobbyPage(root, go) {
  const [{ rules }, tables] = await Promise.all([referee.listRules({}), referee.listTables({ includeFinished: true })]);
  const list = h("div#tables");
  const form = createForm(rules, go);
  root.replaceChildren(
    h("header", {}, langPicker(), h("h1", {}, t("Smear tables")),
      link("/replay", t("replay a record file"), go), link("/tournament", t("run a tournament"), go), " · ", link("/club", t("start a club"), go)),
    h("section.panel", {}, h("h2", {}, t("Open a table")), form),
    h("section.panel", {}, h("h2", {}, t("Tables")), list),
  );
  const refresh = async () => {
    const { tables: rows } = await referee.listTables({ includeFinished: true });
    list.replaceChildren(rows.length ? tableList(rows, go) : h("p.muted", {}, t("No tables yet: open one.")));
  };
  list.replaceChildren(tableList(tables.tables, go));
  return refreshing(refresh);
}

function tableList(rows, go) {
  return h("table.lobby", {},
    h("tr", {}, h("th", {}, t("Rules")), h("th", {}, t("Options")), h("th", {}, t("Seats")), h("th", {}, t("State")),
      h("th", {}, h("span.sr-only", {}, t("Join or watch")))),
    rows.map((row) => {
      const free = row.seatTaken.filter((x) => !x).length;
      const state = row.finished ? t("finished") : row.started || !free ? t("playing") : t("waiting");  // a full table is dealt
      return h("tr", { "data-table": row.tableId },
        h("td", {}, row.title, row.houseRules ? h("span.tag", {}, t("house rules")) : null),
        h("td.muted", {}, optionsText(row.options)),
        h("td", {}, row.seatNames.map((n, i) => (n.startsWith("bot:") ? t("Bot {seat}", { seat: i + 1 }) : n) || (row.seatTaken[i] ? t("taken") : t("free"))).join(" · ")),
        h("td", {}, state, free && !row.finished ? ` ${t("({n} free)", { n: free })}` : "",
          row.spectators ? ` · ${t("{n} watching", { n: row.spectators })}` : ""),
        h("td", {}, row.finished ? link(`/replay/${row.tableId}`, t("replay"), go)
          : link(`/t/${row.tableId}`, free ? t("join") : t("watch"), go)));
    }));
}

function link(href, text, go) {
  return h("a", { href, onclick: (e) => { e.preventDefault(); go(href); } }, text);
}

/** The rules of a new table or tournament: a shipped rule file (its options), or house rules pasted
 * or uploaded and checked as they are typed (mistakes at line:col before anything is made). Ids take
 * `prefix` ("" for the lobby's table form, "t-" for the tournament form). */
export function rulesPicker(rules, prefix = "") {
  const select = h(`select#${prefix}rules`, { name: "rules" },
    rules.map((r) => h("option", { value: r.name }, r.title)), h("option", { value: "" }, t("House rules (paste below)…")));
  if (rules.some((r) => r.name === "four_point_ne_wisconsin")) select.value = "four_point_ne_wisconsin";  // the seed variant first
  const players = h(`select#${prefix}players`, { name: "players" });
  const options = h("div.options");
  const house = h(`textarea#${prefix}house`, { rows: 10, placeholder: "extends: four_point_ne_wisconsin\nname: Our house rules\n...", spellcheck: "false" });
  const upload = h(`input#${prefix}house-file`, { type: "file", accept: ".yaml,.yml,text/yaml,text/plain",
    onchange: async () => {
      house.value = await upload.files[0].text();
      house.dispatchEvent(new Event("input"));
    } });
  const houseBox = h("div.house", { hidden: true }, h("label", { for: `${prefix}house` }, t("Your rule file (YAML): paste it, or"), " "),
    upload, house);
  const errors = h(`div#${prefix}errors.errors`);
  const show = (r) => {
    players.replaceChildren(...(r ? r.players : []).map((n) => h("option", { value: n }, t("{n} players", { n }))));
    options.replaceChildren(...(r ? r.options : []).map(optionInput));
  };
  const fill = () => {
    const r = rules.find((x) => x.name === select.value);
    houseBox.hidden = !!r;
    errors.replaceChildren();
    show(r);
  };
  let timer = null;
  const check = async () => {
    const checked = await referee.checkRules({ text: house.value, fileName: "house.yaml" });
    if (!checked.ok) {
      errors.replaceChildren(h("p", {}, t("The rule file has mistakes:")), ...checked.diagnostics.map(diagnosticEl));
      show(null);
      return false;
    }
    // Warnings (a later language's findings, likely slips): the file plays, but its author should look.
    errors.replaceChildren(h("p.ok", {}, `✓ ${checked.rules.title}: ${t("{n} players", { n: checked.rules.players.join("/") })}`),
      ...checked.diagnostics.map(diagnosticEl));
    show(checked.rules);
    return true;
  };
  house.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => check().catch((err) => errors.replaceChildren(h("p.refusal", {}, refusal(err).message))), 600);
  });
  select.addEventListener("change", fill);
  fill();
  return {
    select, players, options, houseBox, errors,
    /** The options as chosen, each as text. */
    chosen() {
      const opts = {};
      for (const el of options.querySelectorAll("[data-option]")) opts[el.dataset.option] = el.type === "checkbox" ? String(el.checked) : el.value;
      return opts;
    },
    /** The rule file's name, or the house rules' text once they check clean (null while they have mistakes). */
    async rules() {
      if (select.value) return { name: select.value };
      clearTimeout(timer);
      return (await check()) ? { text: house.value } : null;
    },
  };
}

function createForm(rules, go) {
  const picker = rulesPicker(rules);
  const { errors } = picker;
  const clock = clockSelect("clock");
  const submit = h("button#create", { type: "submit" }, t("Create table"));
  const form = h("form", {
    async onsubmit(e) {
      e.preventDefault();
      submit.disabled = true;
      try {
        const chosen = await picker.rules();
        if (!chosen) return;
        const req = { options: picker.chosen(), players: Number(picker.players.value), turnSeconds: Number(clock.value),
          rules: chosen.name ? { case: "rulesName", value: chosen.name } : { case: "rulesText", value: chosen.text } };
        errors.replaceChildren();
        const made = await once((r, o) => referee.createTable(r, o), req);
        tokens.set(made.tableId, { host: made.hostToken });
        go(`/t/${made.tableId}`);
      } catch (err) {
        const r = refusal(err);
        errors.replaceChildren(h("p.refusal", {}, `${r.reason}: ${r.message}`));
      } finally {
        submit.disabled = false;
      }
    },
  }, h("label", {}, t("Rules"), " ", picker.select), " ", h("label", {}, t("Players"), " ", picker.players), " ",
  h("label", {}, t("Turn clock"), " ", clock), picker.options, picker.houseBox, errors, submit);
  return form;
}

/** The turn clock's choices (off by default): when a seat's time runs out, the house bot moves for it. */
export function clockSelect(id) {
  return h(`select#${id}`, { title: t("when a player's time runs out, the house bot moves for them") },
    h("option", { value: 0 }, t("off")),
    [15, 30, 60, 120].map((n) => h("option", { value: n }, t("{n} seconds a move", { n }))));
}

export function optionInput(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.type === "bool") input = h("input", { type: "checkbox", id, "data-option": o.name, checked: o.defaultValue === "true" });
  else if (o.type === "choice") {
    input = h("select", { id, "data-option": o.name }, o.choices.map((c) => h("option", { value: c, selected: c === o.defaultValue }, c)));
  } else {
    input = h("input", { type: "number", id, "data-option": o.name, value: o.defaultValue, min: o.min, max: o.max });
  }
  return h("div.option", { title: o.description }, h("label", { for: id }, o.name), input,
    h("small.muted", {}, o.description));
}

/** A located diagnostic as the compiler prints it: file:line:col, the line, a caret, the hint. */
export function diagnosticEl(d) {
  return h(d.severity === "warning" ? "div.diagnostic.warning" : "div.diagnostic", {},
    h("div", {}, h("b", {}, `${d.path}:${d.line}:${d.column}`), d.severity === "warning" ? `: ${t("warning")}: ${d.message}` : `: ${d.message}`),
    d.sourceLine ? h("pre", {}, `${d.sourceLine}\n${" ".repeat(Math.max(0, d.column - 1))}^`) : null,
    d.hint ? h("div.hint", {}, `hint: ${d.hint}`) : null);
}
