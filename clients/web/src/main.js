// The web client's entry: a lobby at /, a table at /t/ID, replays at /replay[/ID], tournaments at /tournament[/ID], clubs at /club[/ID] (history API; the server serves this page for both).
import { clubPage, newClubPage } from "./club.js";
import { lobbyPage } from "./lobby.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";
import { newTournamentPage, tournamentPage } from "./tournament.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

const root = document.getElementById("app");
let leave = null;

async function route() {
  if (leave) leave();
  leave = null;
  const path = location.pathname;
  const table = path.match(/^\/t\/([0-9a-f]{1,64})$/);
  const replay = path.match(/^\/replay(?:\/([0-9a-f]{1,64}))?$/);
  const tourney = path.match(/^\/tournament(?:\/([0-9a-f]{1,64}))?$/);
  const clubId = path.match(/^\/club(?:\/([0-9a-f]{1,64}))?$/);
  try {
    if (table) leave = await tablePage(root, table[1], go);
    else if (replay) leave = await replayPage(root, replay[1], go);
    else if (tourney) leave = tourney[1] ? await tournamentPage(root, tourney[1], go) : await newTournamentPage(root, go);
    else if (clubId) leave = clubId[1] ? await clubPage(root, clubId[1], go) : await newClubPage(root, go);
    else leave = await lobbyPage(root, go);
  } catch (err) {
    root.replaceChildren(h("p.refusal", {}, String(err.rawMessage || err.message || err)),
      h("a", { href: "/" }, t("back to the lobby")));
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", route);
window.addEventListener("smear:lang", route);  // a new language: the page again, in it
route();
