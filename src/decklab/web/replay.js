// The replay viewer: step through a game as any seat or as a spectator saw it;
// the address names the step and the side, so a link shares exactly this view.
import { h, s, fill } from "./dom.js";
import { api, games, seatAt } from "./api.js";
import { renderLayout } from "./layout.js";
import { logList, link, scoreTable, breakdownList } from "./common.js";
import { snapshot, animate } from "./motion.js"; // feel

// Drawn icons, not font glyphs: fonts on some systems lack ⏮ and ⏭ and show empty boxes.
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};

function icon(name) {
  return s("svg.icon", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICONS[name], fill: "currentColor" }));
}

export class ReplayPage {
  constructor(root, tableId) {
    this.root = root;
    this.id = tableId;
    const q = new URLSearchParams(location.search);
    this.step = q.has("step") ? Number(q.get("step")) : null;
    this.as = q.get("as") || "spectator";
    this.seat = seatAt(tableId);
  }

  async start() {
    try {
      this.summary = await api(`/api/tables/${encodeURIComponent(this.id)}`);
    } catch (e) {
      fill(this.root, h("h1", { tabindex: "-1" }, "No such table"), h("p.error", { role: "alert" }, e.message));
      return;
    }
    this.spec = (await games()).find((g) => g.name === this.summary.game);
    this.steps = this.summary.actions;
    if (this.step === null || !Number.isInteger(this.step)) this.step = this.steps;
    this.step = Math.max(0, Math.min(this.steps, this.step));
    document.title = `Replay of ${this.spec ? this.spec.title : this.summary.game} — decklab`;
    const sides = ["spectator", ...this.summary.seats.map((s) => s.seat)];
    this.slider = h("input#step", { type: "range", min: 0, max: this.steps, value: this.step, "aria-label": "Step",
      oninput: (ev) => this.go(Number(ev.target.value)) });
    this.view = h("div.felt-wrap");
    this.logEl = h("section.panel.logp", { "aria-labelledby": "log-h" });
    this.where = h("p.where", { "aria-live": "polite" });
    this.error = h("p.error", { role: "alert" });
    this.share = h("input.share", { readonly: true, "aria-label": "Link to this step" });
    fill(this.root,
      h("nav.crumbs", { "aria-label": "Breadcrumbs" }, link("/", "Lobby"), " › ", link(`/table/${this.id}`, "Table"), " › Replay"),
      h("h1", { tabindex: "-1" }, `Replay: ${this.spec ? this.spec.title : this.summary.game}`),
      h("div.replay-controls", { role: "group", "aria-label": "Replay controls" },
        h("button", { type: "button", "data-step": "first", onclick: () => this.go(0) }, icon("first"), " Start"),
        h("button", { type: "button", "data-step": "prev", onclick: () => this.go(this.step - 1) }, icon("prev"), " Back"),
        this.slider,
        h("button", { type: "button", "data-step": "next", onclick: () => this.go(this.step + 1) }, "Forward ", icon("next")),
        h("button", { type: "button", "data-step": "last", onclick: () => this.go(this.steps) }, "End ", icon("last")),
        h("label", { for: "as" }, "Seen as"),
        h("select#as", { onchange: (ev) => { this.as = ev.target.value; this.load(); } },
          sides.map((s) => h("option", { value: s, selected: s === this.as ? true : null }, s)))),
      this.where, this.error,
      h("p", {}, h("label", { for: "share" }, "Share this view: "), this.share),
      h("div.table-grid", {}, h("div.play", {}, this.view), h("div.side", {}, this.logEl)));
    this.share.id = "share";
    this.root.addEventListener("keydown", (ev) => {
      if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
      if (ev.key === "ArrowLeft") this.go(this.step - 1);
      if (ev.key === "ArrowRight") this.go(this.step + 1);
    });
    await this.load();
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.steps, step));
    this.load();
  }

  async load() {
    const step = this.step;
    const url = `/replay/${this.id}?step=${step}&as=${encodeURIComponent(this.as)}`;
    history.replaceState(null, "", url);
    this.share.value = location.href;
    this.slider.value = String(step);
    try {
      const got = await api(`/api/tables/${encodeURIComponent(this.id)}/replay?step=${step}&seat=${encodeURIComponent(this.as)}`,
        { token: this.seat && this.seat.token });
      if (step !== this.step) return;
      this.error.textContent = "";
      this.where.textContent = `Step ${got.step} of ${got.steps}, seen as ${got.viewer}.`;
      const felt = renderLayout(got.layout, null);
      if (got.layout.status) felt.prepend(h("p.layout-status", {}, got.layout.status));
      const snap = snapshot(this.view); // feel: motion between steps
      fill(this.view, felt);
      animate(this.view, snap); // feel
      if (got.terminal && got.result) {
        this.view.append(scoreTable(got.result, this.summary.seats, this.spec && this.spec.lower_is_better, this.spec && this.spec.score_unit));
        const parts = breakdownList(got.breakdown, this.summary.seats, got.viewer);
        if (parts) this.view.append(parts);
      }
      this.view.dataset.step = String(got.step);
      fill(this.logEl, h("h2#log-h", {}, "Log"), logList(got.log));
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  stop() {}
}
