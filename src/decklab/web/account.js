// Accounts: who is logged in (and the CSRF token their requests carry), the account
// page (sign up, log in with a password or a passkey, log out, log out everywhere,
// add a passkey, change the password, export, delete) and "My games". Playing as a
// guest needs none of it: the lobby's nickname is enough.
import { h, fill } from "./dom.js";
import { api, setCsrf, keepSeat, seatAt } from "./api.js";
import { link } from "./common.js";
import { FriendsPanel } from "./friends.js";

let me = null;

/** The logged-in account ({username, csrf, has_password, passkeys}) or null. */
export function currentUser() {
  return me;
}

function become(who) {
  me = who;
  setCsrf(who ? who.csrf : null);
  const nav = document.getElementById("account-link");
  if (nav) nav.textContent = who ? who.username : "Log in";
}

/** Ask the server who is logged in (once at start, and after every change). */
export async function loadMe() {
  try {
    become(await api("/api/me"));
  } catch {
    become(null);
  }
  return me;
}

/** Keep every seat of the account in this browser, so the table pages find their tokens. */
async function followSeats() {
  const games = await api("/api/me/games");
  for (const g of [...games.active, ...games.finished]) {
    if (g.token) keepSeat(g.table, { token: g.token, seat: g.seat, nickname: me.username });
  }
  return games;
}

/** This browser's guest seats: {table, token} for each kept seat token. */
function guestSeats() {
  const found = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("decklab.seat.")) continue;
    const table = key.slice("decklab.seat.".length);
    const seat = seatAt(table);
    if (seat && seat.token) found.push({ table, token: seat.token });
  }
  return found;
}

function passkeysSupported() {
  return typeof PublicKeyCredential !== "undefined" && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";
}

export class AccountPage {
  constructor(root) {
    this.root = root;
  }

  async start() {
    document.title = "Your account — decklab";
    await loadMe();
    if (me) await this.drawIn();
    else this.drawOut();
  }

  say(text, error = false) {
    const out = this.root.querySelector("#account-status");
    if (!out) return; // the player has gone on to another page: nothing to tell here
    out.textContent = text;
    out.className = error ? "error" : "";
  }

  async act(work, done) {
    try {
      await work();
      if (done) this.say(done);
    } catch (e) {
      this.say(e.message || String(e), true);
    }
  }

  field(id, label, attrs = {}) {
    return h("div.field", {}, h("label", { for: id }, label), h(`input#${id}`, { maxlength: 256, required: true, ...attrs }));
  }

  drawOut() {
    const guests = guestSeats();
    fill(this.root,
      h("h1", { tabindex: "-1" }, "Your account"),
      h("p.lede", {}, "An account keeps your games on every device you log in on. You can always play as a guest instead: ",
        link("/", "back to the lobby"), "."),
      h("p#account-status", { role: "status", "aria-live": "polite" }),
      h("section.panel", { "aria-labelledby": "login-h" },
        h("h2#login-h", {}, "Log in"),
        h("form#login-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.login()); } },
          this.field("login-name", "Username", { autocomplete: "username webauthn", maxlength: 32 }),
          this.field("login-password", "Password", { type: "password", autocomplete: "current-password" }),
          h("button", { type: "submit" }, "Log in")),
        passkeysSupported() ? h("p", {}, h("button#passkey-login", { type: "button", onclick: () => this.act(() => this.passkeyLogin()) }, "Log in with a passkey")) : null),
      h("section.panel", { "aria-labelledby": "signup-h" },
        h("h2#signup-h", {}, "Sign up"),
        h("form#signup-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.signup()); } },
          this.field("signup-name", "Username (2–20 letters, digits, _ or -)", { autocomplete: "username", maxlength: 20 }),
          this.field("signup-password", "Password (at least 8 characters)", { type: "password", autocomplete: "new-password", minlength: 8 }),
          guests.length ? h("div.field", {}, h("label", {}, h("input#signup-claim", { type: "checkbox", checked: true }),
            ` Bring this browser's ${guests.length} guest game${guests.length === 1 ? "" : "s"} into the account`)) : null,
          h("button", { type: "submit" }, "Sign up"))));
  }

  async login() {
    const username = this.root.querySelector("#login-name").value.trim();
    const password = this.root.querySelector("#login-password").value;
    become(await api("/api/account/login", { method: "POST", body: { username, password } }));
    await this.drawIn();
  }

  async signup() {
    const username = this.root.querySelector("#signup-name").value.trim();
    const password = this.root.querySelector("#signup-password").value;
    const claim = this.root.querySelector("#signup-claim");
    become(await api("/api/account/signup", { method: "POST", body: { username, password } }));
    if (claim && claim.checked) {
      const got = await api("/api/me/claim", { method: "POST", body: { seats: guestSeats() } });
      for (const c of got.claimed) keepSeat(c.table, { token: c.token, seat: c.seat, nickname: username });
    }
    await this.drawIn();
  }

  async passkeyLogin() {
    const { ceremony, options } = await api("/api/account/passkeys/login/begin", { method: "POST" });
    const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    become(await api("/api/account/passkeys/login/finish", { method: "POST", body: { ceremony, credential: credential.toJSON() } }));
    await this.drawIn();
  }

  async addPasskey() {
    const { ceremony, options } = await api("/api/account/passkeys/register/begin", { method: "POST" });
    const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    await api("/api/account/passkeys/register/finish", { method: "POST", body: { ceremony, credential: credential.toJSON() } });
    await loadMe();
    await this.drawIn("Passkey added: you can log in with it now.");
  }

  async drawIn(message = "") {
    const games = await followSeats();
    const row = (g) => h("li", { "data-table": g.table, "data-turn": g.your_turn ? "yes" : null },
      link(`/table/${g.table}`, `${g.game} · ${g.players} players · seat ${g.seat}`), " · ",
      g.status === "finished" ? (g.outcome && g.outcome.aborted ? "aborted" : "finished") : g.your_turn ? h("strong", {}, "your turn") : g.status === "waiting" ? "waiting for players" : `${(g.to_move || []).join(", ") || "nobody"} to play`,
      g.deadline ? h("span.deadline", {}, " · move by ", h("time", { datetime: g.deadline }, new Date(g.deadline).toLocaleString())) : null);
    fill(this.root,
      h("h1", { tabindex: "-1" }, `Hello, ${me.username}`),
      h("p#account-status", { role: "status", "aria-live": "polite" }, message),
      h("p", {}, link(`/player/${encodeURIComponent(me.username)}`, "Your ratings and their history", { id: "my-ratings" })),
      h("section.panel", { "aria-labelledby": "mine-h" },
        h("h2#mine-h", {}, "My games"),
        h("h3", {}, "In play"),
        games.active.length ? h("ul#my-active", {}, games.active.map(row)) : h("p", {}, "None: create a table in the lobby."),
        h("h3", {}, "Finished"),
        games.finished.length ? h("ul#my-finished", {}, games.finished.map(row)) : h("p", {}, "None yet.")),
      h("section.panel", { "aria-labelledby": "sessions-h" },
        h("h2#sessions-h", {}, "Logging in"),
        h("p", {}, `Passkeys: ${me.passkeys}. `,
          passkeysSupported() ? h("button#passkey-add", { type: "button", onclick: () => this.act(() => this.addPasskey()) }, "Add a passkey") : "This browser has no passkeys."),
        h("p", {},
          h("button#logout", { type: "button", onclick: () => this.act(() => this.logout("/api/account/logout")) }, "Log out"), " ",
          h("button#logout-everywhere", { type: "button", onclick: () => this.act(() => this.logout("/api/account/logout-everywhere")) }, "Log out everywhere")),
        h("form#password-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.changePassword(), "Password changed; your other devices are logged out."); } },
          h("h3", {}, "Change the password"),
          me.has_password ? this.field("password-current", "Current password", { type: "password", autocomplete: "current-password" }) : null,
          this.field("password-new", "New password", { type: "password", autocomplete: "new-password", minlength: 8 }),
          h("button", { type: "submit" }, "Change"))),
      h("section.panel", { "aria-labelledby": "data-h" },
        h("h2#data-h", {}, "Your data"),
        h("p", {}, h("a#export", { href: "/api/account/export", download: `decklab-${me.username}.json` }, "Export your data (JSON)")),
        h("form#delete-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(() => this.remove()); } },
          h("h3", {}, "Delete the account"),
          h("p", {}, "Your account, sessions, passkeys, chat lines and statistics are deleted. Finished games keep your seat as “deleted player”."),
          this.field("delete-confirm", "Type your username", { maxlength: 32, autocomplete: "off" }),
          me.has_password ? this.field("delete-password", "Password", { type: "password", autocomplete: "current-password" }) : null,
          h("button.danger", { type: "submit" }, "Delete my account"))));
    // The panels below load after the page is drawn, and the player may follow a link
    // (a table under "In play") before they do: then they belong to a page that is gone.
    const data = this.root.querySelector("#data-h").closest("section");
    const friends = await new FriendsPanel(games).start().catch(() => null);
    if (!data.isConnected) return;
    if (friends) data.before(friends);
    const mail = await this.mailPanel().catch(() => null);
    if (mail && data.isConnected) data.before(mail);
  }

  /** Mail of turns and invitations: the address and each kind on or off (per account). */
  async mailPanel() {
    const prefs = await api("/api/account/notifications");
    const check = (id, key, label) => h("div.field.check", {},
      h(`input#${id}`, { type: "checkbox", checked: prefs[key] ? true : null }), h("label", { for: id }, label));
    const save = async () => {
      const got = await api("/api/account/notifications", { method: "PUT", body: {
        email: this.root.querySelector("#mail-address").value.trim(),
        email_turn: this.root.querySelector("#mail-turn").checked,
        email_invite: this.root.querySelector("#mail-invite").checked } });
      this.root.querySelector("#mail-address").value = got.email || "";
    };
    return h("section.panel", { "aria-labelledby": "mail-h" },
      h("h2#mail-h", {}, "Mail"),
      prefs.mail_enabled ? h("p", {}, "At most one mail per table an hour.")
        : h("p", {}, "This server sends no mail; your choices are kept for when it does."),
      h("form#mail-form", { onsubmit: (ev) => { ev.preventDefault(); this.act(save, "Mail settings saved."); } },
        h("div.field", {}, h("label", { for: "mail-address" }, "Email address (empty: no mail)"),
          h("input#mail-address", { type: "email", maxlength: 254, autocomplete: "email", value: prefs.email || "" })),
        check("mail-turn", "email_turn", "Mail me when it is my turn at a turn-based table"),
        check("mail-invite", "email_invite", "Mail me when a friend invites me"),
        h("button", { type: "submit" }, "Save")));
  }

  async logout(path) {
    await api(path, { method: "POST" });
    become(null);
    this.drawOut();
    this.say("Logged out.");
  }

  async changePassword() {
    const current = this.root.querySelector("#password-current");
    await api("/api/account/password", { method: "POST", body: { current: current ? current.value : "", new: this.root.querySelector("#password-new").value } });
  }

  async remove() {
    const password = this.root.querySelector("#delete-password");
    await api("/api/account/delete", { method: "POST", body: { confirm: this.root.querySelector("#delete-confirm").value.trim(), password: password ? password.value : null } });
    become(null);
    this.drawOut();
    this.say("Your account is deleted.");
  }
}
