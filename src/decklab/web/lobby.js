// The lobby: the games with their rules, a form built from each game's options
// spec, the live list of public tables, and joining by link.
import { h, fill } from "./dom.js";
import { api, games, keepSeat, nickname, setNickname } from "./api.js";
import { BOT_LEVELS, seatLabel, link } from "./common.js";
import { currentUser } from "./account.js";
import { quickPlayBox } from "./quickplay.js";

// Ruling ids in parentheses, e.g. "(F1)", "(F1, F2)" or "(N8; default: …)": for the
// rules page, not for a form (a remark after the ids repeats what the form says).
const RULING_REFS = /\s*\(([A-Z]{1,2}\d{1,2}(?:(?:,\s*|\s+and\s+)[A-Z]{1,2}\d{1,2})*)(?:;[^)]*)?\)/g;

function plain(text) {
  const refs = [...String(text).matchAll(RULING_REFS)].map((m) => m[1]);
  return { text: String(text).replace(RULING_REFS, "").trim(), refs };
}

/** An option's help and its default, in words: "Off by default", "By default: 3". */
function optionHelp(opt) {
  const help = plain(opt.help);
  const given = plain(opt.default_text);
  let usual;
  if (opt.kind === "bool") usual = opt.default ? "On by default." : "Off by default.";
  else {
    const value = given.text.replace(/^'(.*)'$/, "$1").replace(/^None$/, "none");
    usual = `By default: ${value}${/[.!?]$/.test(value) ? "" : "."}`;
  }
  const sentence = help.text && !/[.!?]$/.test(help.text) ? `${help.text}.` : help.text;
  const text = `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)} ${usual}`.trim();
  const refs = [...new Set([...help.refs, ...given.refs])];
  return { text, title: refs.length ? `Rulings: ${refs.join(", ")}` : null };
}

function optionField(game, opt) {
  const id = `opt-${opt.name}`;
  const help = optionHelp(opt);
  let input;
  if (opt.kind === "bool") {
    input = h("input", { id, type: "checkbox", name: opt.name, checked: opt.default ? true : null, "aria-describedby": `${id}-help ${id}-err` });
  } else if (opt.choices) {
    input = h("select", { id, name: opt.name, "aria-describedby": `${id}-help ${id}-err` },
      h("option", { value: "" }, "default"), opt.choices.map((c) => h("option", { value: String(c) }, String(c))));
  } else if (opt.kind === "int") {
    input = h("input", { id, type: "number", name: opt.name, inputmode: "numeric", step: 1, min: opt.minimum ?? null, max: opt.maximum ?? null,
      placeholder: opt.default_text, "aria-describedby": `${id}-help ${id}-err` });
  } else if (opt.kind === "seat") {
    input = h("select", { id, name: opt.name, "aria-describedby": `${id}-help ${id}-err` }, h("option", { value: "" }, opt.default_text));
    for (let i = 1; i <= game.max_players; i++) input.append(h("option", { value: `p${i}` }, `p${i}`));
  } else {
    input = h("input", { id, type: "text", name: opt.name, placeholder: opt.default_text, maxlength: 64, "aria-describedby": `${id}-help ${id}-err` });
  }
  input.dataset.kind = opt.kind;
  return h("div.field", { "data-option": opt.name },
    h("label", { for: id }, opt.name.replaceAll("_", " ")),
    input,
    h("small", { id: `${id}-help`, title: help.title, "data-rulings": help.title ? help.title.slice(9) : null }, help.text),
    h("span.field-error", { id: `${id}-err`, role: "alert" }));
}

export class LobbyPage {
  constructor(root) {
    this.root = root;
  }

  async start() {
    document.title = "decklab — card games";
    this.games = await games();
    this.tablesEl = h("div.table-list", { "aria-live": "polite" });
    this.waitingEl = h("section.panel.quickplay-waiting", { "aria-live": "polite" });
    this.formEl = h("form.create", { novalidate: true, onsubmit: (ev) => this.create(ev) });
    fill(this.root,
      h("h1", { tabindex: "-1" }, "decklab"),
      h("p.lede", {}, "Five homemade card games. Sit down with friends or bots, watch a game, or replay one."),
      h("section.panel", { "aria-labelledby": "you-h" },
        h("h2#you-h", {}, "You"),
        h("label", { for: "nick" }, "Nickname"),
        h("input#nick", { maxlength: 32, autocomplete: "nickname", value: currentUser() ? currentUser().username : nickname(), readonly: currentUser() ? true : null, onchange: (ev) => setNickname(ev.target.value.trim()) })),
      h("section", { "aria-labelledby": "games-h" },
        h("h2#games-h", {}, "The games"),
        h("ul.game-list", {}, this.games.map((g) => h("li.game", { "data-game": g.name },
          h("h3", {}, g.title),
          h("p.players", {}, g.min_players === g.max_players ? `${g.min_players} player${g.min_players === 1 ? "" : "s"}` : `${g.min_players}–${g.max_players} players`,
            g.simultaneous ? " · everyone plays at once" : "", g.hidden_information ? " · hidden cards" : ""),
          h("p", {}, g.summary),
          h("p.buttons", {}, link(`/rules/${g.name}`, `Rules of ${g.title}`), " ",
            h("button", { type: "button", "data-new": g.name, onclick: () => this.choose(g.name, true) }, `New ${g.title} table`)),
          quickPlayBox(g, this.waitingEl))))),
      this.waitingEl,
      h("section.panel", { "aria-labelledby": "create-h" }, h("h2#create-h", {}, "Create a table"), this.formEl),
      h("section.panel", { "aria-labelledby": "tables-h" }, h("h2#tables-h", {}, "Public tables"), this.tablesEl),
      h("section.panel", { "aria-labelledby": "bylink-h" },
        h("h2#bylink-h", {}, "Join by link"),
        h("form.bylink", { onsubmit: (ev) => this.byLink(ev) },
          h("label", { for: "link" }, "Table link or id"),
          h("input#link", { type: "text", maxlength: 300 }),
          h("button", { type: "submit" }, "Go")),
        h("p", {}, link("/rulings", "All rulings"))));
    this.choose(this.games[0].name, false);
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 3000);
  }

  stop() {
    clearInterval(this.timer);
    clearInterval(this.waitingEl?._qpTimer);
  }

  choose(name, focus) {
    this.game = this.games.find((g) => g.name === name);
    this.drawForm();
    if (focus) this.formEl.querySelector("#game").focus();
  }

  drawForm() {
    const g = this.game;
    const players = h("input#players", { type: "number", min: g.min_players, max: g.max_players, value: g.default_players, step: 1,
      "aria-describedby": "players-err", onchange: () => this.drawSeats() });
    this.seatsEl = h("fieldset.seats-choice", {}, h("legend", {}, "Seats"));
    fill(this.formEl,
      h("div.field", {},
        h("label", { for: "game" }, "Game"),
        h("select#game", { onchange: (ev) => this.choose(ev.target.value, false) },
          this.games.map((x) => h("option", { value: x.name, selected: x.name === g.name ? true : null }, x.title)))),
      g.min_players !== g.max_players
        ? h("div.field", {}, h("label", { for: "players" }, `Players (${g.min_players}–${g.max_players})`), players, h("span#players-err.field-error", { role: "alert" }))
        : null,
      this.seatsEl,
      g.options.length ? h("fieldset.options", {}, h("legend", {}, "Options"), g.options.map((o) => optionField(g, o))) : null,
      g.solo ? h("div.field", {}, h("label", { for: "deal" }, "Deal number (empty: a new deal)"),
        h("input#deal", { type: "number", min: 0, step: 1, inputmode: "numeric", "aria-describedby": "deal-err" }), h("span#deal-err.field-error", { role: "alert" })) : null,
      g.solo ? null : h("div.field.check", {}, h("input#public", { type: "checkbox", checked: true }), h("label", { for: "public" }, "Listed in the lobby (public)")),
      g.solo || !currentUser() ? null : h("div.field.check", {}, h("input#rated", { type: "checkbox" }), h("label", { for: "rated" }, "Rated (only accounts may sit; the result changes ratings)")),
      h("fieldset.clock", {}, h("legend", {}, "Clock (optional)"),
        h("div.field", {}, h("label", { for: "clock-base" }, "Minutes each"), h("input#clock-base", { type: "number", min: 0, step: 1, placeholder: "no clock" })),
        h("div.field", {}, h("label", { for: "clock-inc" }, "Seconds added per move"), h("input#clock-inc", { type: "number", min: 0, step: 1, value: 0 })),
        h("div.field", {}, h("label", { for: "clock-out" }, "When time runs out"),
          h("select#clock-out", {}, h("option", { value: "bot" }, "a bot takes over"), h("option", { value: "forfeit" }, "the seat forfeits")))),
      g.solo ? null : h("fieldset.turn", {}, h("legend", {}, "Turn-based (play over days; instead of a clock)"),
        h("div.field", {}, h("label", { for: "turn-hours" }, "Hours for each move"), h("input#turn-hours", { type: "number", min: 0, step: 1, placeholder: "live table", "aria-describedby": "turn-err" }), h("span#turn-err.field-error", { role: "alert" })),
        h("div.field", {}, h("label", { for: "turn-out" }, "When a deadline passes"),
          h("select#turn-out", {}, h("option", { value: "bot" }, "a bot plays that move"), h("option", { value: "skip" }, "the turn is skipped (where the rules allow)"), h("option", { value: "forfeit" }, "the seat forfeits")))),
      h("p#create-error.error", { role: "alert" }),
      h("button.primary", { type: "submit" }, "Create the table"));
    this.drawSeats();
  }

  playerCount() {
    const input = this.formEl.querySelector("#players");
    return input ? Number(input.value) : this.game.default_players;
  }

  drawSeats() {
    const n = this.playerCount();
    const g = this.game;
    const err = this.formEl.querySelector("#players-err");
    if (err) err.textContent = Number.isInteger(n) && n >= g.min_players && n <= g.max_players ? "" : `${g.title} is for ${g.min_players} to ${g.max_players} players.`;
    const keep = [...this.seatsEl.querySelectorAll(".seat-field")].map((f) => ({ choice: f.querySelector("select").value, name: f.querySelector("input.seat-account").value }));
    fill(this.seatsEl, h("legend", {}, "Seats"));
    const count = Number.isInteger(n) ? Math.max(g.min_players, Math.min(g.max_players, n)) : g.default_players;
    for (let i = 1; i <= count; i++) {
      const kept = keep[i - 1] || {};
      const choice = kept.choice || (i === 1 ? "you" : "bot:casual");
      // a registered bot account (docs/server.md, "Bot accounts"): named here, checked by the server
      const account = h("input.seat-account", { id: `seat-${i}-account`, type: "text", maxlength: 32, autocomplete: "off", value: kept.name || null,
        placeholder: "bot account's name", "aria-label": `p${i}: bot account's name`, "aria-describedby": `seat-${i}-err`, hidden: choice === "account" ? null : true });
      this.seatsEl.append(h("div.field.seat-field", {},
        h("label", { for: `seat-${i}` }, `p${i}`),
        h("select", { id: `seat-${i}`, "data-seat": `p${i}`, onchange: (ev) => { account.hidden = ev.target.value !== "account"; if (!account.hidden) account.focus(); } },
          h("option", { value: "you", selected: choice === "you" ? true : null }, "you"),
          h("option", { value: "open", selected: choice === "open" ? true : null }, "open for a person"),
          BOT_LEVELS.map((b) => h("option", { value: `bot:${b.spec}`, selected: choice === `bot:${b.spec}` ? true : null }, `${b.label} bot`)),
          h("option", { value: "account", selected: choice === "account" ? true : null }, "bot account…")),
        account,
        h("span.field-error", { id: `seat-${i}-err`, role: "alert" })));
    }
  }

  /** One seat of the request body; a bot account's seat without a name goes to ``errors``. */
  seatBody(field, errors) {
    const value = field.querySelector("select").value;
    if (value.startsWith("bot:")) return { kind: "bot", bot: value.slice(4) };
    if (value !== "account") return { kind: "open" };
    const name = field.querySelector("input.seat-account").value.trim();
    if (!name) errors[field.querySelector("select").id] = "Name the bot account to seat.";
    return { kind: "account", name };
  }

  showErrors(errors) {
    for (const el of this.formEl.querySelectorAll(".field-error")) el.textContent = "";
    for (const [field, message] of Object.entries(errors)) {
      const target = this.formEl.querySelector(field === "players" ? "#players-err" : field === "deal" ? "#deal-err" : field === "turn" ? "#turn-err"
        : /^seat-\d+$/.test(field) ? `#${field}-err` : `#opt-${CSS.escape(field)}-err`);
      if (target) target.textContent = message;
    }
  }

  collect() {
    const g = this.game;
    const errors = {};
    const options = {};
    for (const opt of g.options) {
      const input = this.formEl.querySelector(`#opt-${CSS.escape(opt.name)}`);
      if (opt.kind === "bool") {
        if (input.checked !== Boolean(opt.default)) options[opt.name] = input.checked;
        continue;
      }
      const raw = input.value.trim();
      if (!raw) continue;
      if (opt.kind === "int") {
        const v = Number(raw);
        if (!Number.isInteger(v)) errors[opt.name] = "a whole number";
        else if (opt.minimum !== null && v < opt.minimum) errors[opt.name] = `at least ${opt.minimum}`;
        else if (opt.maximum !== null && v > opt.maximum) errors[opt.name] = `at most ${opt.maximum}`;
        else options[opt.name] = v;
      } else {
        options[opt.name] = raw;
      }
    }
    const n = this.playerCount();
    if (!Number.isInteger(n) || n < g.min_players || n > g.max_players) errors.players = `${g.title} is for ${g.min_players} to ${g.max_players} players.`;
    const fields = [...this.seatsEl.querySelectorAll(".seat-field")];
    const seats = fields.map((f) => f.querySelector("select").value);
    const body = { game: g.name, players: seats.length, options, seats: fields.map((f) => this.seatBody(f, errors)) };
    const publicBox = this.formEl.querySelector("#public");
    body.public = publicBox ? publicBox.checked : false;
    const ratedBox = this.formEl.querySelector("#rated");
    if (ratedBox && ratedBox.checked) body.rated = true;
    const deal = this.formEl.querySelector("#deal");
    if (deal && deal.value.trim()) {
      const v = Number(deal.value);
      if (!Number.isInteger(v) || v < 0) errors.deal = "a whole number, 0 or more";
      else body.deal = v;
    }
    const base = Number(this.formEl.querySelector("#clock-base").value || 0);
    if (base > 0) {
      body.clock = { base_s: base * 60, increment_s: Number(this.formEl.querySelector("#clock-inc").value || 0), on_timeout: this.formEl.querySelector("#clock-out").value };
    }
    const hours = Number((this.formEl.querySelector("#turn-hours") || {}).value || 0);
    if (hours > 0) {
      if (body.clock) errors.turn = "a table is live (a clock) or turn-based, not both";
      body.turn = { move_s: hours * 3600, on_deadline: this.formEl.querySelector("#turn-out").value };
    }
    return { body, errors, you: seats.indexOf("you") };
  }

  async create(ev) {
    ev.preventDefault();
    const { body, errors, you } = this.collect();
    const out = this.formEl.querySelector("#create-error");
    out.textContent = "";
    this.showErrors(errors);
    if (Object.keys(errors).length) {
      out.textContent = "Please correct the fields marked above.";
      return;
    }
    const name = (this.root.querySelector("#nick").value || "").trim();
    if (you >= 0 && !name) {
      out.textContent = "Choose a nickname (under “You”) to sit at the table.";
      this.root.querySelector("#nick").focus();
      return;
    }
    try {
      const table = await api("/api/tables", { method: "POST", body });
      if (table.creator_token) localStorage.setItem(`decklab.creator.${table.id}`, table.creator_token); // moderation: the creator may remove a person before the start
      if (you >= 0) {
        setNickname(name);
        const got = await api(`/api/tables/${table.id}/join`, { method: "POST", body: { seat: `p${you + 1}`, nickname: name } });
        keepSeat(table.id, { token: got.token, seat: got.seat, nickname: name });
      }
      window.decklabNavigate(`/table/${table.id}`);
    } catch (e) {
      const m = /option (\w+)/.exec(e.message) || /has no option '(\w+)'/.exec(e.message);
      const bot = this.badBotSeat(e.message, body);
      if (bot) {
        this.showErrors({ [bot]: e.message });
        out.textContent = "Please correct the fields marked above.";
      } else if (m && this.formEl.querySelector(`#opt-${CSS.escape(m[1])}-err`)) {
        this.showErrors({ [m[1]]: e.message });
        out.textContent = "Please correct the fields marked above.";
      } else {
        out.textContent = e.message;
      }
    }
  }

  /** The seat field ("seat-2") of the bot account the server refused, if it names one. */
  badBotSeat(message, body) {
    const m = /^(['"])(.*)\1 is not a bot account/.exec(message);
    if (!m) return null;
    const index = body.seats.findIndex((s) => s.kind === "account" && s.name.trim() === m[2]);
    return index >= 0 ? `seat-${index + 1}` : null;
  }

  async refresh() {
    let tables;
    try {
      tables = await api("/api/tables");
    } catch {
      return;
    }
    const titles = Object.fromEntries(this.games.map((g) => [g.name, g.title]));
    if (!tables.length) {
      fill(this.tablesEl, h("p", {}, "No public table right now: create one."));
      return;
    }
    fill(this.tablesEl, h("ul.tables", {}, tables.map((t) => h("li", { "data-table": t.id },
      h("strong", {}, titles[t.game] || t.game), ` · ${t.players} players · ${t.rated ? "rated · " : ""}${t.status} · `,
      t.seats.map((s) => `${s.seat} ${seatLabel(s)}`).join(", "), " ",
      link(`/table/${t.id}`, t.open_seats.length ? `Join (${t.open_seats.length} open)` : "Watch", { "aria-label": `${t.open_seats.length ? "Join" : "Watch"} table ${t.id}` })))));
  }

  byLink(ev) {
    ev.preventDefault();
    const raw = this.root.querySelector("#link").value.trim();
    const m = /(?:table|replay)\/([A-Za-z0-9_-]+)/.exec(raw);
    const id = m ? m[1] : raw.replace(/[^A-Za-z0-9_-]/g, "");
    if (id) window.decklabNavigate(raw.includes("/replay/") ? `/replay/${id}` : `/table/${id}`);
  }
}
