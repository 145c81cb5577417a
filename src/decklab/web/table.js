// A table, live: the layout the server sends drawn by the generic renderer, moves
// chosen on the cards, whose turn and who is still thinking, presence, clocks, the
// log, chat, the end-of-game summary, solo undo and hints, and reconnecting.
import { h, fill } from "./dom.js";
import { api, ApiError, seatAt, keepSeat, forgetSeat, nickname, setNickname, games, newId } from "./api.js";
import { Live } from "./live.js";
import { renderLayout, renderZone, seatZones, ownRows, renderOwn } from "./layout.js";
import { choose, narrow, keysOf, tableKeys, offTableChoices, offTableActions, targetParts, selectionWith } from "./moves.js";
import { TARGETS, arrowTarget, rove, isTyping } from "./keys.js";
import { seatLabel, moveText, logList, scoreTable, breakdownList, link } from "./common.js";
import { snapshot, animate } from "./motion.js"; // feel: cards travel between frames
import { cue } from "./sound.js"; // feel: turn, play, reveal, end
import { yourTurn } from "./notice.js"; // "your turn" in the tab's title and favicon
import { dragToPlay } from "./drag.js";
import { unreachable, reachable } from "./net.js"; // feel: the "reconnecting" banner

const LOG_SHOWN = 200;
/** How long a move chosen on the cards waits, taking it back possible, before it is sent. */
const UNDO_MS = 2000;
/** A clock with less than this left (beyond the window) sends at once. */
const CLOCK_MARGIN_MS = 5000;

/** The undo window in ms: ``decklab.undoMs`` in the browser's storage when set (tests shorten it). */
function undoWindow() {
  try {
    const kept = localStorage.getItem("decklab.undoMs");
    if (kept !== null && kept.trim() !== "" && Number.isFinite(Number(kept))) return Math.max(0, Number(kept));
  } catch {
    /* storage refused: the default */
  }
  return UNDO_MS;
}

function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const sec = String(total % 60).padStart(2, "0");
  return `${m}:${sec}`;
}

export class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.id = tableId;
    this.seat = seatAt(tableId);
    this.frame = null; // the table part of the last sync/event
    this.log = new Map();
    this.chat = [];
    this.selected = [];
    this.sending = null;
    this.sendingId = null; // the client id of the move on its way
    this.undoAfter = null; // that id, when an undo was asked before its answer came
    this.message = "";
    this.hint = null;
    this.next = null;
    this.summary = null;
    this.spec = null;
    this.stats = null;
    this.held = null;
    this.receivedAt = performance.now();
    this.conn = "connecting";
    this.scheduled = false;
    this.pending = null; // a move chosen on the cards, waiting out its undo window
    this.onKey = (ev) => this.key(ev);
  }

  async start() {
    this.root.append(h("p.loading", {}, "Loading the table…"));
    try {
      this.summary = await api(`/api/tables/${encodeURIComponent(this.id)}`);
      this.spec = (await games()).find((g) => g.name === this.summary.game) || null;
    } catch (err) {
      if (err.code === "unreachable") throw err; // feel: the page says "reconnecting" and loads when the server is back
      fill(this.root, h("h1", { tabindex: "-1" }, "No such table"),
        h("p.error", { role: "alert" }, err.message), h("p", {}, link("/", "Back to the lobby")));
      return;
    }
    document.title = `${this.spec ? this.spec.title : this.summary.game} — decklab`;
    this.build();
    this.connect();
    this.ticker = setInterval(() => this.tick(), 500);
    document.addEventListener("keydown", this.onKey);
    this.undrag = dragToPlay(this.root, (card, place, part) => this.dropOn(card, place, part));
    this.loadStats();
  }

  stop() {
    yourTurn(false);
    clearInterval(this.ticker);
    if (this.dockSize) this.dockSize.disconnect();
    document.documentElement.style.removeProperty("--dock-h");
    this.clearPending();
    document.removeEventListener("keydown", this.onKey);
    if (this.undrag) this.undrag();
    if (this.live) this.live.close();
  }

  connect() {
    if (this.live) this.live.close();
    this.live = new Live(this.id, this.seat ? this.seat.token : null,
      (f) => this.onFrame(f), (s) => this.onStatus(s));
    window.decklabLive = this.live; // for tests of reconnecting
    window.decklabTable = this;
    this.live.connect();
  }

  // ------------------------------------------------------------ frames
  onStatus(status) {
    this.conn = status;
    if (status === "reconnecting") unreachable("live"); // feel
    else reachable("live"); // feel
    this.renderConn();
  }

  onFrame(f) {
    switch (f.type) {
      case "sync":
        this.applySync(f);
        break;
      case "event":
        if (f.state) this.setState(f.state);
        for (const line of f.log || []) {
          if (!this.log.has(line.index) && (!this.seat || line.actor !== this.seat.seat)) this.announce(line.say || `${line.actor}: ${line.text}`);
          this.log.set(line.index, line);
        }
        // an undo (or a change made through another server process) may shorten the log
        if (f.kind === "undo" || f.kind === "update") this.resync();
        if (f.kind === "join") this.refreshSummary();
        if (f.kind === "remove") { // moderation: the creator removed a person before the start
          if (this.seat && f.detail.seat === this.seat.seat) { forgetSeat(this.id); this.seat = null; this.chatError = "The table's creator removed you from your seat."; }
          this.refreshSummary();
        }
        break;
      case "presence":
        if (this.frame) this.frame.seats = f.seats;
        break;
      case "chat":
        if (!this.chat.some((m) => m.id === f.id)) this.chat.push(f);
        this.chatArrived(f);
        break;
      case "ack":
        if (this.undoAfter && f.client_id === this.undoAfter) {
          // the move an undo was asked for during is in: undo it now, at its version
          this.undoAfter = null;
          this.live.request({ type: "undo", version: f.version });
        }
        this.sending = null;
        break;
      case "hint":
        this.hint = f;
        break;
      case "again":
        this.next = f.next;
        if (this.seat) keepSeat(f.next, { ...this.seat });
        break;
      case "error":
        if (this.chatSent && f.client_id === this.chatSent.id) {
          // a refused chat line stays in the input, and the refusal shows beside it
          this.chatSent = null;
          this.chatError = f.code === "rate_limited" ? `Not sent: ${f.message}. Your message is kept: send it again shortly.` : `Not sent: ${f.message}`;
          break;
        }
        if (f.client_id === this.undoAfter) this.undoAfter = null; // the move was refused: nothing to undo
        this.sending = null;
        if (f.sync) this.applySync(f.sync);
        this.message = f.code === "stale" ? "The table moved on before your move arrived: choose again." : f.message;
        break;
      default:
        break;
    }
    this.schedule();
  }

  applySync(f) {
    this.log = new Map((f.log || []).map((l) => [l.index, l]));
    this.chat = f.chat || [];
    this.setState(f.state);
  }

  setState(state) {
    const before = this.frame ? this.frame.version : null;
    this.frame = state;
    this.receivedAt = performance.now();
    if (state.version !== before) {
      if (this.pending && !this.legal.includes(this.pending.action)) {
        // the table moved on (a clock, a bot taking the seat): the waiting move is void
        this.clearPending();
        this.message = "The table moved on before your move was sent: choose again.";
      }
      if (!this.pending) this.selected = [];
      if (this.hint && this.hint.version !== String(state.version) && Number(this.hint.version) !== state.version) this.hint = null;
    }
    if (state.terminal && !this.held) {
      if (this.alone) {
        this.held = {};
        this.loadStats();
      } else this.loadHeld();
    }
  }

  async resync() {
    try {
      const f = await api(`/api/tables/${encodeURIComponent(this.id)}/state`, { token: this.seat && this.seat.token });
      // frames newer than this answer may have come meanwhile: never go back in time
      if (this.frame && f.state && f.state.version < this.frame.version) return;
      this.applySync(f);
      this.schedule();
    } catch {
      /* the live connection will bring it */
    }
  }

  async refreshSummary() {
    try {
      this.summary = await api(`/api/tables/${encodeURIComponent(this.id)}`);
      this.schedule();
    } catch {
      /* keep the old one */
    }
  }

  async loadStats() {
    if (!this.spec || !this.spec.solo || !this.seat) return;
    try {
      const got = await api(`/api/stats/${encodeURIComponent(this.seat.nickname)}?game=${encodeURIComponent(this.spec.name)}`);
      this.stats = got.games[this.spec.name] || null;
      this.schedule();
    } catch {
      this.stats = null;
    }
  }

  async loadHeld() {
    // What everyone held: the finished table as each seat saw it at the end.
    this.held = {};
    const n = this.summary.players;
    const steps = this.frame ? null : 0;
    try {
      const info = await api(`/api/tables/${encodeURIComponent(this.id)}`);
      const last = info.actions ?? steps;
      for (let i = 1; i <= n; i++) {
        const seat = `p${i}`;
        const got = await api(`/api/tables/${encodeURIComponent(this.id)}/replay?step=${last}&seat=${seat}`,
          { token: this.seat && this.seat.token });
        this.held[seat] = got.layout;
      }
    } catch {
      this.held = {};
    }
    this.loadStats();
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  // ------------------------------------------------------------ acting
  get legal() {
    return (this.frame && this.frame.legal) || [];
  }

  select(key) {
    // choosing on the table while a move waits takes that move back first
    if (this.pending) this.clearPending();
    const got = choose(this.legal, this.selected, key);
    this.selected = got.selected;
    this.message = "";
    if (got.play) this.propose(got.play);
    else {
      this.focusNext = true;
      this.schedule();
    }
  }

  /** A card dragged onto a place: the card chosen afresh, then the place (or its part). */
  dropOn(card, place, part) {
    if (this.pending) this.clearPending();
    this.selected = [];
    this.select(card);
    if (this.pending || !this.selected.includes(card)) return; // the card alone was a move, or none
    if (part) this.selectPart(place, part);
    else this.select(place);
  }

  /** A part of a split target (a seat's "face up" half): its key and its word at once. */
  selectPart(key, word) {
    if (this.pending) this.clearPending();
    this.selected = selectionWith(this.legal, this.selected, key).filter((k) => k !== word);
    this.select(word);
  }

  /** Say a line to screen readers (another seat's move) through the live region. */
  announce(text) {
    if (!this.els || !this.els.say) return;
    this.said = (this.said || []).concat(String(text)).slice(-3);
    this.els.say.textContent = this.said.join(" ");
  }

  // ------------------------------------------------------------ keys
  /**
   * The table's keys: arrows move across the cards and places (a roving tab stop),
   * Enter or Space plays what has focus (it is a button), Escape takes back a waiting
   * move; u or Ctrl+Z undoes (alone) or takes back, h asks a hint, m opens the moves.
   */
  key(ev) {
    if (ev.key === "Escape" && this.pending) {
      ev.preventDefault();
      this.takeBack();
      return;
    }
    if (ev.altKey || ev.metaKey || isTyping(ev.target)) return;
    const ctrlZ = ev.ctrlKey && (ev.key === "z" || ev.key === "Z");
    if (ev.ctrlKey && !ctrlZ) return;
    if (ev.key === "u" || ev.key === "U" || ctrlZ) {
      if (this.pending) this.takeBack();
      else if (this.frame && (this.frame.can_undo || this.sending) && this.alone) this.undo();
      else return;
      ev.preventDefault();
    } else if (ev.key === "h" || ev.key === "H") {
      if (!this.spec || !this.spec.solo || !this.seat || !this.legal.length) return;
      ev.preventDefault();
      this.askHint();
    } else if (ev.key === "m" || ev.key === "M") {
      if (!this.legal.length) return;
      ev.preventDefault();
      this.showMoves();
    } else if (ev.key.startsWith("Arrow") && ev.target instanceof Element && ev.target.matches(TARGETS)) {
      const next = arrowTarget(this.root, ev.target, ev.key, (el) => this.eligible(el));
      if (!next) return;
      ev.preventDefault();
      rove(this.root, next);
      next.focus();
    }
  }

  /** Whether arrows stop at a target: any playable one, or, once a choice is made, those that keep a move. */
  eligible(el) {
    if (!this.selected.length) return true;
    if (el.getAttribute("aria-pressed") === "true" || el.dataset.part) return true;
    return keysOf(narrow(this.legal, this.selected)).has(el.dataset.key);
  }

  /** The list of legal moves, opened and focused: the fallback, one tap (or m) away. */
  showMoves() {
    this.allOpen = true;
    this.focusMoves = true;
    this.schedule();
  }

  /** Whether a move chosen on the cards waits out an undo window before it is sent. */
  usesWindow(ms) {
    if (ms <= 0 || !this.summary || this.summary.players <= 1) return false; // alone, the server undoes
    const f = this.frame;
    const mine = this.seat && this.seat.seat;
    if (f && f.clock && f.clock.remaining_ms && mine && f.clock.remaining_ms[mine] !== null && f.clock.remaining_ms[mine] !== undefined) {
      const left = this.clockLeft(mine);
      if (left !== null && left < ms + CLOCK_MARGIN_MS) return false;
    }
    return true;
  }

  /** The one move the cards narrowed to: sent after a short window in which it can be taken back. */
  propose(action) {
    const ms = undoWindow();
    if (!this.usesWindow(ms)) {
      this.play(action);
      return;
    }
    this.pending = { action, ms, since: performance.now(), back: this.focusMark() };
    this.pending.timer = setTimeout(() => this.sendPending(), ms);
    this.pending.ticker = setInterval(() => this.countdown(), 100);
    this.focusPending = true;
    this.schedule();
  }

  clearPending() {
    if (!this.pending) return null;
    const was = this.pending;
    clearTimeout(was.timer);
    clearInterval(was.ticker);
    this.pending = null;
    return was;
  }

  sendPending() {
    const was = this.clearPending();
    if (!was) return;
    this.refocus = was.back;
    if (!this.legal.includes(was.action)) {
      this.selected = [];
      this.message = "The table moved on before your move was sent: choose again.";
      this.schedule();
      return;
    }
    this.play(was.action);
  }

  takeBack() {
    const was = this.clearPending();
    if (!was) return;
    this.refocus = was.back;
    this.selected = [];
    this.message = `Taken back: ${moveText(was.action)} was not played.`;
    this.schedule();
  }

  countdown() {
    if (!this.pending || !this.els) return;
    const left = Math.max(0, this.pending.ms - (performance.now() - this.pending.since));
    const el = this.els.bar.querySelector(".countdown");
    if (el) el.textContent = `${(left / 1000).toFixed(1)} s`;
  }

  play(action) {
    // a move made at the table by keys brings focus back to the table for the next one
    const at = this.pending ? this.pending.back : this.refocus || this.focusMark();
    if (at && /^\[data-(key|word|role="bar-move")/.test(at)) this.wantTable = true;
    this.clearPending();
    if (!this.legal.includes(action) || this.sending) return;
    this.sending = action;
    this.played = (this.played || 0) + 1;
    this.selected = [];
    this.message = "";
    this.lastPlayed = action;
    this.sendingId = this.live.intent(action);
    this.schedule();
  }

  undo() {
    if (this.sending) {
      // Asked while the move is on its way: it means that move, which the version the
      // page shows does not hold yet (an undo named at it would be refused as stale).
      this.undoAfter = this.sendingId;
      return;
    }
    this.live.request({ type: "undo", version: this.frame.version });
  }

  /** Whether a bot plays this page's seat now (a game still going on). */
  get botPlaysMine() {
    const f = this.frame;
    if (!this.seat || !f || f.status !== "playing" || f.terminal) return false;
    return !!f.seats.find((s) => s.seat === this.seat.seat)?.zombie;
  }

  reclaim() {
    this.message = "";
    this.live.request({ type: "reclaim" });
    this.schedule();
  }

  // The hint in the game's words; the bot's figures one click away (kept open across redraws).
  hintParts(hint) {
    const said = hint.explanation || hint.reason;
    const out = [h("p.hint", { "aria-live": "polite" }, h("strong", {}, `Hint: ${moveText(hint.action)}. `), said)];
    if (hint.explanation) {
      const figures = [h("p", {}, hint.reason)];
      if (hint.runner_up && typeof hint.margin === "number") {
        const by = hint.unit ? `${hint.margin.toFixed(2)} ${hint.unit}` : `${(100 * hint.margin).toFixed(1)}% of sampled games`;
        figures.push(h("p", {}, `Next best: ${moveText(hint.runner_up)} (difference ${by}).`));
      }
      out.push(h("details.hint-figures", { open: this.hintOpen ? true : null, ontoggle: (e) => { this.hintOpen = e.target.open; } },
        h("summary", {}, "The figures behind it"), ...figures));
    }
    return out;
  }

  askHint() {
    this.hint = { pending: true };
    this.live.request({ type: "hint" });
    this.schedule();
  }

  async join(seatName) {
    const input = this.root.querySelector("#join-nick");
    const name = (input && input.value.trim()) || nickname();
    const err = this.root.querySelector("#join-error");
    if (!name) {
      if (err) err.textContent = "Choose a nickname first.";
      if (input) input.focus();
      return;
    }
    try {
      const got = await api(`/api/tables/${encodeURIComponent(this.id)}/join`, { method: "POST", body: { seat: seatName, nickname: name } });
      setNickname(name);
      this.seat = { token: got.token, seat: got.seat, nickname: name };
      keepSeat(this.id, this.seat);
      this.connect();
      this.loadStats();
    } catch (e) {
      if (err) err.textContent = e.message;
    }
  }

  async again() {
    try {
      const got = await api(`/api/tables/${encodeURIComponent(this.id)}/again`, { method: "POST", token: this.seat.token });
      keepSeat(got.id, { ...this.seat });
      window.decklabNavigate(`/table/${got.id}`);
    } catch (e) {
      this.message = e.message;
      this.schedule();
    }
  }

  async retry() {
    // The same deal again, at a new table: a game played alone has a public deal number.
    const options = Object.fromEntries(Object.entries(this.summary.options || {})
      .filter(([, v]) => v === null || ["string", "number", "boolean"].includes(typeof v)));
    try {
      const table = await api("/api/tables", { method: "POST", body: {
        game: this.summary.game, players: 1, options, public: false, deal: this.summary.deal, seats: [{ kind: "open" }] } });
      const got = await api(`/api/tables/${encodeURIComponent(table.id)}/join`, { method: "POST",
        body: { seat: this.seat.seat, nickname: this.seat.nickname } });
      keepSeat(table.id, { token: got.token, seat: got.seat, nickname: this.seat.nickname });
      window.decklabNavigate(`/table/${table.id}`);
    } catch (e) {
      this.message = e.message;
      this.schedule();
    }
  }

  get alone() {
    return !!this.summary && this.summary.players === 1;
  }

  sendChat(ev) {
    ev.preventDefault();
    const input = this.root.querySelector("#chat-text");
    const text = input.value.trim();
    if (!text) return;
    // The input is emptied only when the line comes back from the table: a refused
    // line (too many at once) stays there to send again.
    const id = newId();
    this.chatError = "";
    if (this.live.send({ type: "chat", text, client_id: id })) this.chatSent = { id, text: text.split(/\s+/).join(" ") };
    else this.chatError = "Not sent: the table is not connected. Your message is kept.";
    this.schedule();
  }

  chatArrived(m) {
    const sent = this.chatSent;
    if (!sent || !this.seat || m.from !== this.seat.seat || m.text !== sent.text) return;
    this.chatSent = null;
    this.chatError = "";
    const input = this.root.querySelector("#chat-text");
    if (input && input.value.trim().split(/\s+/).join(" ") === sent.text) input.value = "";
  }

  // ------------------------------------------------------------ drawing
  build() {
    const title = this.spec ? this.spec.title : this.summary.game;
    this.els = {
      conn: h("p.conn", { role: "status", "aria-live": "polite" }),
      turn: h("p.turn", { "aria-live": "polite" }),
      seats: h("ul.seats", { "aria-label": "Seats" }),
      felt: h("div.felt-wrap", { "data-version": "" }),
      own: h("div.own-wrap"),
      bar: h("section.action-bar", { "aria-label": "Your move" }),
      say: h("p.visually-hidden.announce", { "aria-live": "polite", role: "log" }),
      moves: h("section.panel.moves", { "aria-labelledby": "moves-h" }),
      solo: h("section.panel.solo", { "aria-label": "Playing alone" }),
      end: h("section.panel.end", { "aria-labelledby": "end-h" }),
      join: h("section.panel.join", { "aria-label": "Seats to take" }),
      log: h("section.panel.logp", { "aria-labelledby": "log-h" }),
      chat: h("section.panel.chat", { "aria-labelledby": "chat-h" }),
    };
    fill(this.root,
      h("div.table-page", {},
        h("header.table-head", {},
          h("h1", { tabindex: "-1" }, title),
          h("p.table-meta", {}, `Table ${this.id}`, this.summary.deal !== null && this.spec && this.spec.solo ? ` · deal ${this.summary.deal}` : "",
            this.summary.turn ? ` · turn-based: ${+(this.summary.turn.move_ms / 3600000).toFixed(2)} h a move` : "",
            " · ", link(`/rules/${this.summary.game}`, "Rules"), " · ", link("/", "Lobby")),
          this.els.conn),
        this.els.turn,
        this.els.say,
        this.els.seats,
        h("div.table-grid", {},
          h("div.play", {}, this.els.felt,
            h("div.dock", {}, this.els.own, this.els.bar)),
          h("div.side", {}, this.els.end, this.els.join, this.els.moves, this.els.solo, this.els.log, this.els.chat))));
    this.renderConn();
    // the page keeps room at its end for the docked hand and action bar (fixed on a phone)
    const dock = this.root.querySelector(".dock");
    const page = this.root.querySelector(".table-page");
    if (window.ResizeObserver && dock && page) {
      this.dockSize = new ResizeObserver(() => document.documentElement.style.setProperty("--dock-h", `${dock.offsetHeight}px`));
      this.dockSize.observe(dock);
    }
  }

  renderConn() {
    if (!this.els) return;
    const text = {
      connecting: "Connecting…",
      live: "Connected",
      reconnecting: "Reconnecting… (the table will catch up)",
      refused: "The table refused this connection.",
    }[this.conn] || this.conn;
    this.els.conn.textContent = text;
    this.els.conn.className = `conn conn-${this.conn}`;
    document.body.dataset.conn = this.conn;
  }

  render() {
    if (!this.frame || !this.els) return;
    const focus = this.focusMark();
    const f = this.frame;
    const mine = this.seat ? this.seat.seat : null;
    const legal = this.legal;
    const candidates = this.selected.length ? narrow(legal, this.selected) : legal;
    const onTable = tableKeys(f.layout);
    const pick = legal.length && !this.sending
      ? { usable: keysOf(legal), narrowing: this.selected.length ? keysOf(candidates) : new Set(), selected: this.selected,
        onSelect: (k) => this.select(k),
        parts: (k) => targetParts(legal, this.selected, k, onTable),
        onParts: (k, w) => this.selectPart(k, w),
        label: (w) => wordLabel(f.layout, w) }
      : null;

    // whose turn
    this.els.turn.textContent = this.turnLine();
    this.els.turn.className = `turn${legal.length ? " mine" : ""}`;

    // seats
    fill(this.els.seats, f.seats.map((seat) => this.seatItem(seat, mine)));

    // the table
    const own = ownRows(f.layout);
    const felt = renderLayout(f.layout, pick, own);
    fill(this.els.own, own.size ? renderOwn(f.layout, own, pick) : null);
    if (f.layout.status) felt.prepend(h("p.layout-status", {}, f.layout.status));
    if (f.layout.facts && f.layout.facts.length) {
      // on a round table with nothing in its middle, the facts lie there
      (felt.querySelector(".ring-mid:empty") || felt).append(h("ul.facts", { "aria-label": "Facts" }, f.layout.facts.map((x) => h("li", {}, x))));
    }
    const snap = snapshot(this.els.felt); // feel: motion
    fill(this.els.felt, felt);
    cue(this, f, animate(this.els.felt, snap)); // feel: motion, then sound
    // alone at a table it is always your turn: nothing to tell
    yourTurn(legal.length > 0 && !f.terminal && f.seats.length > 1, this.spec ? this.spec.title : this.summary.game);
    this.els.felt.dataset.version = String(f.version);
    this.els.felt.dataset.terminal = f.terminal ? "true" : "false";
    this.els.felt.dataset.toAct = f.to_act.join(" ");

    this.renderMoves(candidates);
    this.renderBar(candidates, onTable);
    this.renderSolo();
    this.renderJoin();
    this.renderEnd();
    this.renderLog();
    this.renderChat();
    const back = this.roveTable(focus);
    if (this.focusPending && this.pending) {
      this.focusPending = false;
      const undo = this.els.bar.querySelector('[data-role="take-back"]');
      if (undo) undo.focus({ preventScroll: true });
    } else if (this.focusMoves) {
      this.focusMoves = false;
      const first = this.els.moves.querySelector(".all-moves button[data-action]");
      if (first) {
        first.scrollIntoView({ block: "nearest" });
        first.focus({ preventScroll: true });
      }
    } else if (back) {
      // focus came back to the table for the next move
    } else if (this.focusNext && this.tableFocused(focus)) {
      // after a choice by keyboard, focus goes where the move goes on: a target that
      // keeps a move, or the remaining choices in the action bar
      this.focusNext = false;
      const next = this.nextTarget(focus);
      if (next) next.focus({ preventScroll: true });
      else this.restoreFocus(focus);
    } else if (this.refocus) {
      const mark = this.refocus;
      this.refocus = null;
      this.restoreFocus(this.root.querySelector(mark) ? mark : focus);
    } else {
      this.restoreFocus(focus);
    }
    this.focusNext = false;
    // Nothing has focus (the page just opened, or what had it was redrawn away) and it is
    // your move: the table takes it, so a keyboard player starts on the cards, not at the
    // top of the page. Focus someone put elsewhere is never taken.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && legal.length && !f.terminal && !this.pending) {
      const stop = [...this.root.querySelectorAll(TARGETS)].find((el) => el.getAttribute("tabindex") === "0");
      if (stop) stop.focus({ preventScroll: true });
    }
  }

  tableFocused(mark) {
    return !!mark && (mark.startsWith("[data-key") || mark.startsWith("[data-word") || this.wantTable);
  }

  /** After a choice: the target that has focus if it still keeps a move, else the first that does, else a choice button. */
  nextTarget(mark) {
    const here = mark ? this.root.querySelector(mark) : null;
    const targets = [...this.root.querySelectorAll(TARGETS)].filter((el) => this.eligible(el) && el.getAttribute("aria-pressed") !== "true");
    if (here && targets.includes(here)) return here;
    const choice = this.els.bar.querySelector("[data-word], [data-role=\"bar-move\"]");
    return targets[0] || choice || null;
  }

  /**
   * One tab stop for the whole table (roving tabindex): the focused target, or the
   * first playable one. When the target that had focus is gone (the move was played),
   * focus comes back to the table as soon as there is something to play.
   */
  roveTable(mark) {
    const targets = [...this.root.querySelectorAll(TARGETS)];
    const lost = mark && mark.startsWith("[data-key") && !this.root.querySelector(mark);
    if (lost) this.wantTable = true;
    if (!targets.length) return false;
    const here = mark ? this.root.querySelector(mark) : null;
    const stop = here && targets.includes(here) ? here : targets.find((el) => el.classList.contains("narrows")) || targets[0];
    rove(this.root, stop);
    if (this.wantTable && this.legal.length && !this.pending) {
      this.wantTable = false;
      stop.focus({ preventScroll: true });
      return true;
    }
    return false;
  }

  turnLine() {
    const f = this.frame;
    if (f.status === "expired") return "This table expired: nobody took its open seats in time. Start a new one from the lobby.";
    if (f.status === "waiting") return "Waiting for players to take the open seats.";
    if (f.terminal || f.status === "finished") return "The game is over.";
    const mine = this.seat ? this.seat.seat : null;
    const names = f.to_act.map((s) => (s === mine ? "you" : s));
    if (this.spec && this.spec.simultaneous && f.seats.length > 1) {
      const chosen = f.seats.filter((s) => !f.to_act.includes(s.seat)).map((s) => s.seat);
      return `Everyone chooses at once. Still thinking: ${names.join(", ") || "nobody"}${chosen.length ? `; chosen: ${chosen.join(", ")}` : ""}.`;
    }
    return f.to_act.includes(mine) ? "Your turn." : `${names.join(", ")} to play.`;
  }

  seatItem(seat, mine) {
    const f = this.frame;
    let turn = "";
    if (!f.terminal && f.status === "playing") {
      if (f.to_act.includes(seat.seat)) turn = this.spec && this.spec.simultaneous && f.seats.length > 1 ? "thinking" : "to play";
      else if (this.spec && this.spec.simultaneous && f.seats.length > 1) turn = "has chosen";
    }
    const presence = seat.kind === "open" ? "open" : seat.present ? "here" : "away";
    let clock = null;
    if (f.clock && f.clock.remaining_ms && f.clock.remaining_ms[seat.seat] !== null && f.clock.remaining_ms[seat.seat] !== undefined) {
      clock = h("span.clock", { "data-seat": seat.seat, "aria-label": `clock of ${seat.seat}` }, clockText(this.clockLeft(seat.seat)));
    }
    const due = f.turn && f.turn.deadlines ? f.turn.deadlines[seat.seat] : null;
    const deadline = due ? h("span.deadline", { "data-seat": seat.seat, title: due }, `to move by ${new Date(due).toLocaleString()}`) : null;
    return h("li.seat", { "data-seat": seat.seat, class: [turn ? `turn-${turn.replace(" ", "-")}` : "", seat.seat === mine ? "me" : ""].join(" ") },
      h("span.seat-name", {}, `${seat.seat} `, h("strong", {}, seatLabel(seat)), seat.seat === mine ? " (you)" : ""),
      h("span.presence", { class: `presence-${presence}` }, presence),
      seat.zombie && f.status === "playing" && !f.terminal ? h("span.zombie", {}, "a bot plays for them") : null,
      turn ? h("span.seat-turn", {}, turn) : null,
      clock,
      deadline,
      this.removeButton(seat, mine));
  }

  // --- moderation (issue 21 item 7): the creator's "Remove" on a waiting table
  removeButton(seat, mine) {
    const creator = localStorage.getItem(`decklab.creator.${this.id}`);
    if (!creator || this.frame.status !== "waiting" || seat.kind !== "human" || seat.seat === mine) return null;
    return h("button.remove-seat", { type: "button", "data-remove": seat.seat, onclick: async () => {
      try {
        await api(`/api/tables/${encodeURIComponent(this.id)}/seats/${seat.seat}/remove`, { method: "POST", body: { creator_token: creator } });
      } catch (e) {
        this.chatError = e.message;
        this.renderChat();
      }
    } }, "Remove");
  }

  // --- moderation: mute (kept in this browser; an account's mute also on the server) and report
  mutedNames() {
    try {
      return new Set(JSON.parse(localStorage.getItem("decklab.muted") || "[]"));
    } catch {
      return new Set();
    }
  }

  async mute(m) {
    const names = this.mutedNames();
    names.add(m.nickname);
    localStorage.setItem("decklab.muted", JSON.stringify([...names]));
    // a logged-in person's mute of an account also holds on their other devices
    await api(`/api/me/mutes/${encodeURIComponent(m.nickname)}`, { method: "POST" }).catch(() => null);
    this.renderChat();
  }

  async report(m) {
    const reason = window.prompt(`Report ${m.nickname} (${m.from}): why?`);
    if (!reason || !reason.trim()) return;
    try {
      await api(`/api/tables/${encodeURIComponent(this.id)}/report`, { method: "POST", token: this.seat && this.seat.token,
        body: { seat: m.from, reason: reason.trim().slice(0, 500) } });
      this.chatError = "Reported: the table talk so far is kept with your report.";
    } catch (e) {
      this.chatError = `Not reported: ${e.message}`;
    }
    this.renderChat();
  }

  clockLeft(seat) {
    const f = this.frame;
    const left = f.clock.remaining_ms[seat];
    if (left === null || left === undefined) return null;
    return f.clock.running.includes(seat) ? left - (performance.now() - this.receivedAt) : left;
  }

  tick() {
    if (!this.frame || !this.frame.clock || !this.els) return;
    for (const el of this.els.seats.querySelectorAll(".clock")) {
      el.textContent = clockText(this.clockLeft(el.dataset.seat));
    }
  }

  renderMoves(candidates) {
    const f = this.frame;
    const el = this.els.moves;
    const legal = this.legal;
    const parts = [h("h2#moves-h", {}, "Moves")];
    if (this.message) parts.push(h("p.error", { role: "alert" }, this.message));
    if (!this.seat) {
      parts.push(h("p", {}, "You are watching this table."));
    } else if (this.sending) {
      parts.push(h("p.sending", {}, `Playing ${moveText(this.sending)}…`));
    } else if (this.pending && legal.includes(this.pending.action)) {
      parts.push(h("p", {}, `Playing ${moveText(this.pending.action)} unless you take it back.`));
      parts.push(this.allMoves(legal));
    } else if (this.botPlaysMine) {
      // a bot keeps the seat's turns (the clock ran out, or the page was away): the
      // person here takes it back with one click, or by moving from this seat anywhere
      parts.push(h("p.zombie-banner", { role: "status" }, "A bot is playing your seat until you take it back."),
        h("p.buttons", {}, h("button.primary", { type: "button", "data-role": "reclaim", onclick: () => this.reclaim() }, "Take my seat back")));
    } else if (!legal.length) {
      parts.push(h("p", {}, f.terminal || f.status === "finished" ? "No more moves." : "Not your turn: waiting."));
    } else {
      parts.push(h("p.hint-text", {}, this.selected.length
        ? `Chosen: ${this.selected.map(moveText).join(", ")}. ${candidates.length} move${candidates.length === 1 ? "" : "s"} left.`
        : "Click or tap a card or a place to choose a move, or pick one below."));
      if (this.selected.length) {
        parts.push(h("ul.candidates", { "aria-label": "Moves with your choice" }, candidates.map((a) => h("li", {}, this.moveButton(a)))));
      }
      parts.push(this.allMoves(legal));
    }
    fill(el, parts);
  }

  /** The move waiting out its undo window: what it is, how long is left, Undo and Play now. */
  pendingBlock(p) {
    const elapsed = performance.now() - p.since;
    const bar = h("div.pending-bar", { "aria-hidden": "true" }, h("span"));
    // the bar drains in CSS; a redraw resumes it where it was (no animation when motion is reduced)
    bar.style.setProperty("--undo-ms", `${p.ms}ms`);
    bar.style.setProperty("--undo-elapsed", `${-Math.min(elapsed, p.ms)}ms`);
    return h("div.pending", { "data-pending": p.action },
      h("p", { role: "status" }, "Playing ", h("strong", {}, moveText(p.action)),
        ` in ${(p.ms / 1000).toFixed(1)} seconds unless you take it back. `,
        h("span.countdown", { "aria-hidden": "true" }, `${(Math.max(0, p.ms - elapsed) / 1000).toFixed(1)} s`)),
      bar,
      h("p.buttons", {},
        h("button.primary", { type: "button", "data-role": "take-back", "aria-keyshortcuts": "Escape U", onclick: () => this.takeBack() }, "Undo (Esc)"),
        h("button", { type: "button", "data-role": "send-now", onclick: () => this.sendPending() }, "Play it now")));
  }

  /**
   * The action bar, docked at the bottom with the hand: the move waiting out its
   * window (Undo, Play now), what is chosen, the choices the table cannot show (a
   * verb, face up or down), Undo and Hint alone, and the list of moves.
   */
  renderBar(candidates, onTable) {
    const el = this.els.bar;
    const f = this.frame;
    const legal = this.legal;
    const parts = [];
    const buttons = h("div.bar-buttons", {});
    if (!this.seat) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    if (this.sending) parts.push(h("p.bar-status", {}, `Playing ${moveText(this.sending)}…`));
    else if (this.pending && legal.includes(this.pending.action)) parts.push(this.pendingBlock(this.pending));
    else if (!legal.length) parts.push(h("p.bar-status", {}, f.terminal ? "The game is over." : this.turnLine()));
    else if (this.selected.length) {
      parts.push(h("p.bar-status", {}, `Chosen: ${this.selected.map((k) => wordLabel(f.layout, k)).join(", ")}`));
      for (const w of offTableChoices(candidates, onTable)) {
        buttons.append(h("button.choice", { type: "button", "data-word": w, onclick: () => this.select(w) }, wordLabel(f.layout, w)));
      }
      buttons.append(h("button", { type: "button", "data-role": "clear", onclick: () => { this.selected = []; this.schedule(); } }, "Clear"));
    } else {
      parts.push(h("p.bar-status", {}, "Your turn: tap a card or a place."));
      for (const a of offTableActions(legal, onTable)) {
        buttons.append(h("button.choice", { type: "button", "data-role": "bar-move", "data-bar-action": a, onclick: () => this.play(a) }, moveText(a)));
      }
    }
    if (this.spec && this.spec.solo) {
      buttons.append(h("span.solo", {},
        h("button", { type: "button", "data-role": "undo", "aria-keyshortcuts": "U Control+Z", disabled: f.can_undo ? null : true, onclick: () => this.undo() }, "Undo"),
        h("button", { type: "button", "data-role": "hint", "aria-keyshortcuts": "H", disabled: legal.length ? null : true, onclick: () => this.askHint() }, "Hint")));
    }
    if (legal.length) buttons.append(h("button", { type: "button", "data-role": "show-moves", "aria-keyshortcuts": "M", onclick: () => this.showMoves() }, "Moves"));
    if (buttons.childNodes.length) parts.push(buttons);
    fill(el, parts);
  }

  /** The full list of legal moves, one click away; its buttons send at once. */
  allMoves(legal) {
    const all = h("details#all-moves.all-moves", { open: this.allOpen || legal.length <= 6 ? true : null },
      h("summary", {}, `All legal moves (${legal.length})`),
      h("ul", {}, legal.map((a) => h("li", {}, this.moveButton(a)))));
    all.addEventListener("toggle", () => { this.allOpen = all.open; });
    return all;
  }

  moveButton(action) {
    const hinted = this.hint && this.hint.action === action;
    return h("button.move", { type: "button", "data-action": action, class: hinted ? "hinted" : null, onclick: () => this.play(action) },
      moveText(action), hinted ? " (hint)" : "");
  }

  renderSolo() {
    const el = this.els.solo;
    const f = this.frame;
    if (!this.spec || !this.spec.solo || !this.seat) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const parts = [h("h2", {}, "Playing alone")];
    if (this.summary.deal !== null) parts.push(h("p", {}, `Deal number ${this.summary.deal} — anyone can play the same deal.`));
    parts.push(h("p.keys-help", {}, "Undo and Hint are in the bar under your cards (keys: u or Ctrl+Z, h)."));
    if (this.hint && this.hint.pending) parts.push(h("p.hint", { "aria-live": "polite" }, "Thinking of a hint…"));
    else if (this.hint) parts.push(...this.hintParts(this.hint));
    if (this.stats) {
      const st = this.stats;
      parts.push(h("dl.stats", { "aria-label": "Your statistics" },
        h("dt", {}, "games"), h("dd", {}, String(st.games)),
        h("dt", {}, "perfect"), h("dd", {}, String(st.perfect)),
        h("dt", {}, "average"), h("dd", {}, st.average === null ? "—" : st.average.toFixed(1)),
        h("dt", {}, "best"), h("dd", {}, st.best === null ? "—" : String(st.best)),
        h("dt", {}, "streak"), h("dd", {}, `${st.current_streak} (longest ${st.longest_streak})`),
        h("dt", {}, "unfinished"), h("dd", {}, String(st.unfinished ?? 0))));
    }
    fill(el, parts);
  }

  renderJoin() {
    const el = this.els.join;
    const f = this.frame;
    const open = f.seats.filter((s) => s.kind === "open");
    if (f.status === "expired") {
      el.hidden = false;
      fill(el, h("h2", {}, "Expired"), h("p", {}, "Nobody took the open seats in time: this table is closed."));
      return;
    }
    if (this.seat) {
      el.hidden = !open.length;
      if (open.length) {
        fill(el, h("h2", {}, "Invite"), h("p", {}, `Waiting for ${open.map((s) => s.seat).join(", ")}. Send this link:`),
          h("input.share", { readonly: true, value: location.href, "aria-label": "Link to this table" }));
      }
      return;
    }
    el.hidden = false;
    if (!open.length) {
      fill(el, h("h2", {}, "Watching"), h("p", {}, "Every seat is taken: you watch as a spectator."));
      return;
    }
    const current = this.root.querySelector("#join-nick");
    fill(el, h("h2", {}, "Take a seat"),
      h("label", { for: "join-nick" }, "Nickname"),
      h("input#join-nick", { maxlength: 32, autocomplete: "nickname", value: current ? current.value : nickname() }),
      h("p#join-error.error", { role: "alert" }),
      h("p.buttons", {}, open.map((s) => [h("button", { type: "button", "data-join": s.seat, onclick: () => this.join(s.seat) }, `Sit at ${s.seat}`), " "])),
      h("p", {}, "Or just watch: spectators see what every player sees of the table, and nothing more."));
  }

  renderEnd() {
    const el = this.els.end;
    const f = this.frame;
    if (!f.terminal && f.status !== "finished") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const result = f.result || (f.outcome ? f.outcome : null);
    const parts = [h("h2#end-h", {}, "Game over")];
    if (result && result.reason) parts.push(h("p", {}, result.reason));
    if (this.alone) {
      // Alone, nobody "wins": say the score and whether it was perfect; there is no
      // one else whose hand to show.
      const scores = (result && result.scores) || {};
      const seat = Object.keys(scores)[0];
      const perfect = !!(result && result.winners && result.winners.length);
      const unit = this.spec && this.spec.score_unit;
      if (seat !== undefined) parts.push(h("p.solo-score", {}, `Your score: ${scores[seat]}${unit ? ` ${unit}` : ""}.`));
      parts.push(h("p.solo-verdict", {}, perfect ? "A perfect game!" : "Not a perfect game this time."));
      parts.push(breakdownList(f.breakdown, f.seats, this.seat ? this.seat.seat : null));
    }
    if (!this.alone && result && result.winners) {
      const w = result.winners;
      parts.push(h("p.winners", {}, w.length ? `Won by ${w.join(", ")}.` : "Nobody won."));
    }
    if (!this.alone) {
      parts.push(scoreTable(result, f.seats, this.spec && this.spec.lower_is_better, this.spec && this.spec.score_unit));
      parts.push(breakdownList(f.breakdown, f.seats, this.seat ? this.seat.seat : null));
    }
    if (!this.alone && this.held && Object.keys(this.held).length) {
      const held = h("div.held", {}, h("h3", {}, "What everyone held"));
      for (const [seat, layout] of Object.entries(this.held)) {
        const zones = seatZones(layout, seat);
        if (!zones.length) continue;
        held.append(h("div.held-seat", { "aria-label": `${seat} at the end` }, h("h4", {}, seat), h("div.zones", {}, zones.map((z) => renderZone(z, null)))));
      }
      parts.push(held);
    }
    const buttons = h("p.buttons", {});
    if (this.seat) buttons.append(h("button", { type: "button", "data-role": "again", onclick: () => this.again() }, this.alone ? "Play a new deal" : "Play again"), " ");
    if (this.seat && this.alone && this.summary.deal !== null) {
      buttons.append(h("button", { type: "button", "data-role": "retry", onclick: () => this.retry() }, "Retry this deal"), " ");
    }
    if (this.next) buttons.append(link(`/table/${this.next}`, "Next game"), " ");
    buttons.append(link(`/replay/${this.id}${this.seat ? `?as=${this.seat.seat}` : ""}`, "Replay this game"));
    parts.push(buttons);
    fill(el, parts);
  }

  renderLog() {
    // Redrawn only when it changed; it follows the newest entry unless the reader
    // scrolled back to read older ones (then it stays where they are).
    const all = [...this.log.values()].sort((a, b) => a.index - b.index);
    const entries = all.slice(-LOG_SHOWN);
    const stamp = `${all.length}:${entries.length ? entries[entries.length - 1].index : ""}:${entries.map((e) => e.say).join("").length}`;
    if (stamp === this.logStamp) return;
    this.logStamp = stamp;
    const old = this.els.log.querySelector(".log");
    const follow = !old || old.scrollHeight - old.scrollTop - old.clientHeight < 24;
    const kept = old ? old.scrollTop : 0;
    const box = logList(entries, all.length - entries.length + 1);
    fill(this.els.log, h("h2#log-h", {}, "Log"), box);
    box.scrollTop = follow ? box.scrollHeight : kept;
  }

  renderChat() {
    const el = this.els.chat;
    if (this.alone) {
      // nobody to talk to at a table of one
      el.hidden = true;
      return;
    }
    const typed = this.root.querySelector("#chat-text");
    const value = typed ? typed.value : "";
    const muted = this.mutedNames(); // moderation: muted names' lines are not shown
    const mineFrom = this.seat ? this.seat.seat : null;
    const tools = (m) => (m.from === mineFrom ? [] : [
      h("button.chat-mute", { type: "button", title: `Mute ${m.nickname}`, onclick: () => this.mute(m) }, "Mute"),
      h("button.chat-report", { type: "button", title: `Report ${m.nickname}`, onclick: () => this.report(m) }, "Report")]);
    const list = h("ul.chat-list", { "aria-live": "polite", "aria-label": "Messages" },
      this.chat.filter((m) => !muted.has(m.nickname)).map((m) => h("li", { "data-chat": m.id }, h("strong", {}, `${m.nickname} (${m.from}): `), h("span.chat-text", {}, m.text), ...tools(m))));
    const parts = [h("h2#chat-h", {}, "Table talk"), list];
    if (this.seat) {
      parts.push(h("form.chat-form", { onsubmit: (ev) => this.sendChat(ev) },
        h("label", { for: "chat-text" }, "Say something"),
        h("input#chat-text", { maxlength: 500, autocomplete: "off", value, "aria-describedby": "chat-error" }),
        h("button", { type: "submit" }, "Send"),
        h("p#chat-error.error", { role: "alert" }, this.chatError || "")));
    } else {
      parts.push(h("p", {}, "Spectators read the table talk; players write it."));
    }
    fill(el, parts);
    list.scrollTop = list.scrollHeight;
  }

  focusMark() {
    const a = document.activeElement;
    if (!a || a === document.body || !this.root.contains(a)) return null;
    if (a.id) return `#${a.id}`;
    if (a.dataset.part) return `[data-key="${CSS.escape(a.dataset.key)}"][data-part="${CSS.escape(a.dataset.part)}"]`;
    for (const attr of ["data-action", "data-key", "data-word", "data-role", "data-join"]) {
      const v = a.getAttribute(attr);
      if (v !== null) return `[${attr}="${CSS.escape(v)}"]`;
    }
    return null;
  }

  restoreFocus(mark) {
    if (!mark) return;
    const el = this.root.querySelector(mark);
    if (el && document.activeElement !== el) el.focus({ preventScroll: true });
    else if (!el) {
      const heading = this.root.querySelector("#moves-h");
      if (heading) {
        heading.setAttribute("tabindex", "-1");
        heading.focus({ preventScroll: true });
      }
    }
  }
}

/** How a word of the moves reads on a button: the layout's own gloss ("face up") or the word as a card. */
function wordLabel(layout, word) {
  const gloss = layout && layout.words ? layout.words[word] : null;
  return gloss || moveText(word);
}

export { ApiError };
