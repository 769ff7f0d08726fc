// The web client's entry: a lobby at /, a table at /t/ID (history API; the server serves this page for both).
import { lobbyPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { h } from "./ui.js";

const root = document.getElementById("app");
let leave = null;

async function route() {
  if (leave) leave();
  leave = null;
  const m = location.pathname.match(/^\/t\/([0-9a-f]{1,64})$/);
  try {
    leave = m ? await tablePage(root, m[1], go) : await lobbyPage(root, go);
  } catch (err) {
    root.replaceChildren(h("p.refusal", {}, String(err.rawMessage || err.message || err)),
      h("a", { href: "/" }, "back to the lobby"));
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", route);
route();
