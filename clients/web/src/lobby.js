// The lobby: open tables, a new table from a rule file of the server or from pasted house rules.
import { referee, refusal, tokens } from "./api.js";
import { h } from "./ui.js";

export async function lobbyPage(root, go) {
  const [{ rules }, tables] = await Promise.all([referee.listRules({}), referee.listTables({ includeFinished: true })]);
  const list = h("div#tables");
  const form = createForm(rules, go);
  root.replaceChildren(
    h("header", {}, h("h1", {}, "Smear tables"),
      link("/replay", "replay a record file", go), link("/tournament", "run a tournament", go)),
    h("section.panel", {}, h("h2", {}, "Open a table"), form),
    h("section.panel", {}, h("h2", {}, "Tables"), list),
  );
  const refresh = async () => {
    const { tables: rows } = await referee.listTables({ includeFinished: true });
    list.replaceChildren(rows.length ? tableList(rows, go) : h("p.muted", {}, "No tables yet: open one."));
  };
  list.replaceChildren(tableList(tables.tables, go));
  const timer = setInterval(() => refresh().catch(() => {}), 3000);
  return () => clearInterval(timer);
}

function tableList(rows, go) {
  return h("table.lobby", {},
    h("tr", {}, h("th", {}, "Rules"), h("th", {}, "Options"), h("th", {}, "Seats"), h("th", {}, "State"), h("th", {})),
    rows.map((t) => {
      const free = t.seatTaken.filter((x) => !x).length;
      const state = t.finished ? "finished" : t.started ? "playing" : "waiting";
      return h("tr", { "data-table": t.tableId },
        h("td", {}, t.title, t.houseRules ? h("span.tag", {}, "house rules") : null),
        h("td.muted", {}, Object.entries(t.options).map(([k, v]) => `${k}=${v}`).join(", ")),
        h("td", {}, t.seatNames.map((n, i) => n || (t.seatTaken[i] ? "taken" : "free")).join(" · ")),
        h("td", {}, state, free && !t.finished ? ` (${free} free)` : "", t.spectators ? ` · ${t.spectators} watching` : ""),
        h("td", {}, t.finished ? link(`/replay/${t.tableId}`, "replay", go) : link(`/t/${t.tableId}`, free ? "join" : "watch", go)));
    }));
}

function link(href, text, go) {
  return h("a", { href, onclick: (e) => { e.preventDefault(); go(href); } }, text);
}

function createForm(rules, go) {
  const select = h("select#rules", { name: "rules" },
    rules.map((r) => h("option", { value: r.name }, r.title)), h("option", { value: "" }, "House rules (paste below)…"));
  const players = h("select#players", { name: "players" });
  const options = h("div.options");
  const house = h("textarea#house", { rows: 10, placeholder: "extends: four_point_ne_wisconsin\nname: Our house rules\n...", spellcheck: "false" });
  const upload = h("input#house-file", { type: "file", accept: ".yaml,.yml,text/yaml,text/plain",
    onchange: async () => {
      house.value = await upload.files[0].text();
      house.dispatchEvent(new Event("input"));
    } });
  const houseBox = h("div.house", { hidden: true }, h("label", { for: "house" }, "Your rule file (YAML): paste it, or "),
    upload, house);
  const errors = h("div#errors.errors");
  const show = (r) => {
    players.replaceChildren(...(r ? r.players : []).map((n) => h("option", { value: n }, `${n} players`)));
    options.replaceChildren(...(r ? r.options : []).map(optionInput));
  };
  const fill = () => {
    const r = rules.find((x) => x.name === select.value);
    houseBox.hidden = !!r;
    errors.replaceChildren();
    show(r);
  };
  // House rules are checked as they are typed: mistakes at line:col before any table exists.
  let timer = null;
  const check = async () => {
    const checked = await referee.checkRules({ text: house.value, fileName: "house.yaml" });
    if (!checked.ok) {
      errors.replaceChildren(h("p", {}, "The rule file has mistakes:"), ...checked.diagnostics.map(diagnosticEl));
      show(null);
      return false;
    }
    errors.replaceChildren(h("p.ok", {}, `✓ ${checked.rules.title}: ${checked.rules.players.join(" or ")} players`));
    show(checked.rules);
    return true;
  };
  house.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => check().catch((err) => errors.replaceChildren(h("p.refusal", {}, refusal(err).message))), 600);
  });
  select.addEventListener("change", fill);
  fill();
  const submit = h("button#create", { type: "submit" }, "Create table");
  const form = h("form", {
    async onsubmit(e) {
      e.preventDefault();
      submit.disabled = true;
      try {
        const opts = {};
        for (const el of options.querySelectorAll("[data-option]")) {
          opts[el.dataset.option] = el.type === "checkbox" ? String(el.checked) : el.value;
        }
        const req = { options: opts, players: Number(players.value) };
        if (select.value) req.rules = { case: "rulesName", value: select.value };
        else {
          clearTimeout(timer);
          if (!(await check())) return;
          req.rules = { case: "rulesText", value: house.value };
          req.players = Number(players.value);
        }
        errors.replaceChildren();
        const made = await referee.createTable(req);
        tokens.set(made.tableId, { host: made.hostToken });
        go(`/t/${made.tableId}`);
      } catch (err) {
        const r = refusal(err);
        errors.replaceChildren(h("p.refusal", {}, `${r.reason}: ${r.message}`));
      } finally {
        submit.disabled = false;
      }
    },
  }, h("label", {}, "Rules ", select), " ", players, options, houseBox, errors, submit);
  return form;
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
  return h("div.diagnostic", {},
    h("div", {}, h("b", {}, `${d.path}:${d.line}:${d.column}`), `: ${d.message}`),
    d.sourceLine ? h("pre", {}, `${d.sourceLine}\n${" ".repeat(Math.max(0, d.column - 1))}^`) : null,
    d.hint ? h("div.hint", {}, `hint: ${d.hint}`) : null);
}
