"""The standings report a club pins on the wall (standings.html), in its players' language."""
from __future__ import annotations

import html
from typing import Any

from smear_dsl.i18n import rules_title, tr_for
from smear_referee.tournament.archive import archive_rules


def standings_html(archive: dict[str, Any], lang: str = "en") -> str:
    """The report a club pins on the wall, in its players' language: the rules, the standings, every
    round's seating and results, the boards compared across tables, and (folded away) the seeds."""
    e, spec = html.escape, _spec_of(archive)
    tr = tr_for(lang)
    t = tr.t
    title = rules_title(spec, lang) if spec else archive.get("title", archive["rules"])
    on_off = {"true": t("on"), "false": t("off")}
    options = ", ".join(f"{k} = {on_off.get(str(v).lower(), v)}" for k, v in archive["options"].items()) or t("none")
    rows = "".join(f"<tr><td>{s['rank']}</td><td>{e(s['name'])}</td><td>{s['games']}</td><td>{s['wins']}</td>"
                   f"<td>{s['points_for']}</td><td>{s['points_against']}</td><td>{s['difference']:+d}</td></tr>"
                   for s in archive["standings"])
    bots = "".join(f"<li>{e(x['name'])}: {e(x['bot'])}</li>" for x in archive["entrants"] if x.get("bot"))
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    audit = "".join(f"<li>{e(a['action'])} {e(names.get(a['entrant'], '?'))}: {e(a.get('reason', ''))}</li>"
                    for a in archive.get("audit", []))
    checks = "".join("<li>" + t("round {n}: commitment {hash}, seed {seed}", n=r["round"] + 1,
                                hash=f"<code>{r['commitment']}</code>", seed=f"<code>{e(r['seed'])}</code>") + "</li>"
                     for r in archive["rounds"])
    who = t("{n} teams", n=len(archive["entrants"])) if archive.get("teams") else \
        t("{n} entrants", n=len(archive["entrants"]))
    pairing = {"swiss": t("Swiss"), "round_robin": t("round robin")}.get(archive["pairing"], archive["pairing"])
    about = t("Rules {title} ({code}), {players} players, options: {options}.", title=f"<b>{e(title)}</b>",
              code=f"<code>{e(archive['rules'])}</code>", players=archive["players"], options=e(options)) + " " + \
        t("{who}, {rounds} rounds ({pairing}).", who=who, rounds=len(archive["rounds"]), pairing=e(pairing)) + \
        (" " + t("{n} hands a round.", n=archive["hands_per_round"]) if archive.get("hands_per_round") else "")
    director = t("The director's actions")
    head = "".join(f"<th>{x}</th>" for x in ("#", t("entrant"), t("games"), t("wins"), t("points for"), t("against"),
                                              t("difference")))
    return (f"<!DOCTYPE html><html lang='{tr.lang}'><head><meta charset='utf-8'><title>" + e(archive["name"]) +
            "</title><style>body{font:15px system-ui;max-width:56rem;margin:2rem auto;padding:0 1rem}"
            "table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.25em .6em;"
            "text-align:left}td.won{background:#e6f4e6}code{font-size:12px;word-break:break-all}</style></head><body>"
            f"<h1>{e(archive['name'])}</h1><p>{about}</p><h2>" + t("Standings") + "</h2><p>"
            + t("Ranked by wins, then point difference, then points for. Points against: the best opposing final "
                "score of each game, counted from zero.") + f"</p><table><tr>{head}</tr>{rows}</table>"
            "<h2>" + t("Rounds") + f"</h2>{_rounds_html(archive, tr)}{_comparisons_html(archive, tr)}"
            + (f"<h2>{director}</h2><ul>{audit}</ul>" if audit else "")
            + ("<h2>" + t("Players") + f"</h2><ul>{bots}</ul>" if bots else "")
            + "<details><summary>" + t("Verification") + "</summary><p>"
            + t("Each round's seed was committed to (SHA-256) before its first deal and revealed after its last; "
                "{command} re-deals every game from these seeds and recomputes everything above.",
                command="<code>smear-dsl verify-tournament archive.json</code>")
            + f"</p><ul>{checks}</ul></details></body></html>\n")


def _spec_of(archive: dict[str, Any]):
    """The tournament's rules, for their name and version in the reader's language (None if they do not load)."""
    from smear_dsl.errors import RecordError
    try:
        return archive_rules(archive).spec
    except RecordError:
        return None


def _rounds_html(archive: dict[str, Any], tr) -> str:
    """Every round: each table's sides, their scores and who won."""
    e, t = html.escape, tr.t
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    n_sides = max((len(x["result"]["scores"]) for r in archive["rounds"] for x in r["tables"]), default=0)
    out = ""
    for rnd in archive["rounds"]:
        lines = ""
        for table in rnd["tables"]:
            res = table["result"]
            sides = [[names.get(u, "?") for x, u in enumerate(table["seats"]) if x % len(res["scores"]) == p]
                     for p in range(len(res["scores"]))]
            cells = "".join(f"<td{' class=won' if res['winner'] == p else ''}>{e(' & '.join(dict.fromkeys(side)))}"
                            f" <b>{score}</b></td>" for p, (side, score) in enumerate(zip(sides, res["scores"])))
            verdict = t("won by {who}", who=e(" & ".join(dict.fromkeys(sides[res["winner"]])))) \
                if res["winner"] is not None else (t("no winner") if res["finished"] else t("unfinished"))
            name = t("Table {n}", n=table["table"] + 1)
            lines += f"<tr><td>{name}</td>{cells}<td>{verdict}</td></tr>"
        heading = t("Round {n} (duplicate: the same boards at every table)", n=rnd["round"] + 1) if rnd["duplicate"] \
            else t("Round {n}", n=rnd["round"] + 1)
        out += (f"<h3>{heading}</h3><table><tr><th></th>"
                + "".join("<th>" + t("Side {n}", n=p + 1) + "</th>" for p in range(n_sides))
                + "<th>" + t("result") + f"</th></tr>{lines}</table>")
    return out


def _comparisons_html(archive: dict[str, Any], tr) -> str:
    """Duplicate boards: who bid each at every table, and what it did to the scores."""
    e, t = html.escape, tr.t
    names = {x["id"]: x["name"] for x in archive["entrants"]}
    comps = ""
    for row in archive.get("duplicate_comparisons", []):
        cells = ""
        for x in row["tables"]:
            if x["bid"]:
                did = t("bid {n} made", n=x["bid"]) if x["made"] else t("bid {n} set", n=x["bid"])
            else:
                did = t("no bid")
            table, bidder = t("Table {n}", n=x["table"] + 1), names.get(x["bidder_entrant"]) or t("nobody")
            cells += f"<td>{table}: {e(bidder)} {did}, {' / '.join(f'{d:+d}' for d in x['delta'])}</td>"
        board = t("round {n} board {b}", n=row["round"] + 1, b=row["board"] + 1)
        comps += f"<tr><td>{board}</td>{cells}</tr>"
    if not comps:
        return ""
    return ("<h2>" + t("The same deals across tables") + "</h2><p>"
            + t("Each board was dealt to the same seats at every table: who bid it, and the score change of each side.")
            + "</p><table>" + comps + "</table>")
