// A table's talk: short lines and preset reactions from its seats (and its spectators, when the host
// allows), shown as text, never as markup; the host's switches to mute a seat and let spectators speak.
import { auth, referee, tokens } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

// The preset reactions (the server knows their codes): a face, and the words a screen reader says.
export const REACTIONS = {
  thumbs_up: ["👍", () => t("thumbs up")], laugh: ["😄", () => t("laughs")], wow: ["😮", () => t("wow")],
  oops: ["😬", () => t("oops")], good_game: ["🤝", () => t("good game")], well_played: ["👏", () => t("well played")],
};

export class ChatPanel {
  constructor(page) {
    this.page = page;  // the table page: its table, its tokens, its names for the seats
    this.lines = [];
  }

  /** A line the watch stream brought. */
  heard(line) {
    this.lines.push(line);
    if (this.lines.length > 100) this.lines.shift();
    this.draw();
  }

  /** The panel: kept across redraws (what you are typing stays), its lines updated in place. */
  el() {
    if (!this.box) {
      const text = h("input#chat-text", { maxlength: 200, "aria-label": t("Say something to the table"), placeholder: t("Say something…"),
        onkeydown: (e) => {  // Enter says the line; Esc leaves the box, so the digits play cards again
          if (e.key === "Enter") send();
          else if (e.key === "Escape") text.blur();
        } });
      const send = async () => {
        if (!text.value.trim()) return;
        if (await this.say({ case: "text", value: text.value })) text.value = "";
      };
      const reactions = Object.entries(REACTIONS).map(([code, [face, words]]) => h("button.reaction", {
        "data-reaction": code, "aria-label": words(), title: words(), onclick: () => this.say({ case: "reaction", value: code }) }, face));
      this.list = h("ol#chat", { "aria-label": t("Table talk") });
      this.box = h("section.panel.chat", {}, h("h2", {}, t("Table talk")), this.list,
        h("div.chat-say", {}, text, h("button#chat-send", { onclick: send }, t("Send")), ...reactions), h("div#chat-host"));
    }
    this.draw();
    return this.box;
  }

  draw() {
    if (!this.list) return;
    this.list.replaceChildren(...this.lines.map((x) => h("li", {},
      h("b", {}, x.seat >= 0 ? this.page.seatName(x.seat) : t("a spectator")), ": ",
      x.reaction ? `${REACTIONS[x.reaction]?.[0] ?? ""} ${REACTIONS[x.reaction]?.[1]() ?? x.reaction}` : x.text)));
    this.list.scrollTop = this.list.scrollHeight;
    const host = tokens.get(this.page.tableId).host;
    const box = this.box.querySelector("#chat-host");
    if (host && !box.childElementCount && this.page.players) {  // the host mutes seats and may let spectators speak
      const boxes = Array.from({ length: this.page.players }, (_, s) => h("input", { type: "checkbox", "data-mute": s, id: `mute-${s}` }));
      const spectators = h("input#spectators-chat", { type: "checkbox" });
      const apply = () => this.moderate(boxes.filter((b) => b.checked).map((b) => Number(b.dataset.mute)), spectators.checked);
      for (const b of [...boxes, spectators]) b.addEventListener("change", apply);
      box.replaceChildren(h("span.muted", {}, t("Host:"), " "),
        ...boxes.flatMap((b, s) => [h("label", { for: b.id }, b, " ", t("mute {who}", { who: this.page.seatName(s, false) })), " "]),
        h("label", { for: "spectators-chat" }, spectators, " ", t("spectators may chat")));
    }
  }

  async say(what) {
    try {
      await referee.chat({ tableId: this.page.tableId, say: what }, auth(this.page.token));
      return true;
    } catch (err) {
      this.page.refused(err);
      return false;
    }
  }

  async moderate(muted, spectatorsMayChat) {
    try {
      await referee.moderateChat({ tableId: this.page.tableId, muted, spectatorsMayChat }, auth(tokens.get(this.page.tableId).host));
    } catch (err) { this.page.refused(err); }
  }
}
