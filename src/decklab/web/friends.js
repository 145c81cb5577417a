// Friends, on the account page: the list (add by username, remove), invitations to a
// seat (yours, with a link to take it; and inviting a friend to one of your waiting
// tables), and a rematch with the same people for your finished tables.
import { h, fill } from "./dom.js";
import { api } from "./api.js";
import { link } from "./common.js";

export class FriendsPanel {
  constructor(games) {
    this.games = games;
    this.el = h("section.panel#friends", { "aria-labelledby": "friends-h" });
  }

  async start() {
    await this.draw();
    return this.el;
  }

  say(text, error = false) {
    const out = this.el.querySelector("#friends-status");
    if (!out) return; // not drawn (yet, or any more): nothing to tell
    out.textContent = text;
    out.className = error ? "error" : "";
  }

  async act(work) {
    try {
      await work();
    } catch (e) {
      this.say(e.message || String(e), true);
    }
  }

  async draw(message = "") {
    const [{ friends }, { invitations }] = await Promise.all([api("/api/me/friends"), api("/api/me/invitations")]);
    const waiting = this.games.active.filter((g) => g.status === "waiting");
    const finished = this.games.finished.filter((g) => g.status === "finished").slice(0, 5);
    fill(this.el,
      h("h2#friends-h", {}, "Friends"),
      h("p#friends-status", { role: "status", "aria-live": "polite" }, message),
      friends.length
        ? h("ul#friends-list", {}, friends.map((f) => h("li", { "data-friend": f.username },
          link(`/player/${encodeURIComponent(f.username)}`, f.username), " ",
          h("button", { type: "button", "aria-label": `Remove ${f.username}`, onclick: () => this.act(() => this.remove(f.username)) }, "Remove"))))
        : h("p", {}, "No friends yet."),
      h("form#friend-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.add()); } },
        h("div.field", {}, h("label", { for: "friend-name" }, "Add a friend by username"), h("input#friend-name", { maxlength: 32, required: true, autocomplete: "off" })),
        h("button", { type: "submit" }, "Add")),
      h("h3", {}, "Invitations to you"),
      invitations.length
        ? h("ul#my-invitations", {}, invitations.map((i) => h("li", { "data-table": i.table },
          link(`/table/${i.table}`, `${i.game} · ${i.players} players · seat ${i.seat}`), ` from ${i.from}`)))
        : h("p", {}, "None."),
      friends.length && waiting.length ? h("form#invite-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.invite()); } },
        h("h3", {}, "Invite a friend to a seat"),
        h("div.field", {}, h("label", { for: "invite-friend" }, "Friend"),
          h("select#invite-friend", {}, friends.map((f) => h("option", { value: f.username }, f.username)))),
        h("div.field", {}, h("label", { for: "invite-table" }, "Your table waiting for players"),
          h("select#invite-table", {}, waiting.map((g) => h("option", { value: g.table }, `${g.game} · ${g.players} players (${g.table})`)))),
        h("div.field", {}, h("label", { for: "invite-seat" }, "Seat (p1, p2, …)"), h("input#invite-seat", { maxlength: 8, required: true, value: "p2" })),
        h("button", { type: "submit" }, "Invite")) : null,
      finished.length ? h("div", {}, h("h3", {}, "Rematch with the same people"),
        h("ul#rematches", {}, finished.map((g) => h("li", { "data-table": g.table }, `${g.game} · ${g.players} players `,
          h("button", { type: "button", onclick: () => this.act(() => this.rematch(g.table)) }, "Rematch"))))) : null);
  }

  async add() {
    const got = await api("/api/me/friends", { method: "POST", body: { username: this.el.querySelector("#friend-name").value.trim() } });
    await this.draw(`${got.username} is on your friends list.`);
  }

  async remove(username) {
    await api(`/api/me/friends/${encodeURIComponent(username)}`, { method: "DELETE" });
    await this.draw(`${username} removed.`);
  }

  async invite() {
    const table = this.el.querySelector("#invite-table").value;
    const got = await api(`/api/tables/${encodeURIComponent(table)}/invite`, { method: "POST",
      body: { seat: this.el.querySelector("#invite-seat").value.trim(), username: this.el.querySelector("#invite-friend").value } });
    await this.draw(`Seat ${got.seat} is kept for ${got.username}.`);
  }

  async rematch(table) {
    const got = await api(`/api/tables/${encodeURIComponent(table)}/rematch`, { method: "POST" });
    window.decklabNavigate(`/table/${got.id}`);
  }
}
