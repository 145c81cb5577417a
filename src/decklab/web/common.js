// Pieces shared by the pages: names of seats and bots, move labels, the log list.
import { h } from "./dom.js";
import { cardText } from "./cards.js";

/** Bot levels named for people; the spec is what the server seats. */
// The levels a person chooses from (decklab.bots.levels), weakest first; "greedy" is
// still labelled for tables made before the levels.
export const BOT_LEVELS = [
  { label: "beginner", spec: "beginner" },
  { label: "casual", spec: "casual" },
  { label: "strong", spec: "strong" },
  { label: "expert", spec: "expert" },
];
const OLD_NAMES = { greedy: "casual" };

export function botLabel(spec) {
  const level = BOT_LEVELS.find((b) => b.spec === (OLD_NAMES[spec] || spec));
  return level ? `${level.label} bot` : `bot (${spec})`;
}

export function seatLabel(seat) {
  if (!seat) return "";
  if (seat.kind === "bot") return botLabel(seat.bot);
  if (seat.kind === "open") return "open seat";
  if (seat.bot_account) return `${seat.nickname || seat.seat} (bot)`;
  return seat.nickname || seat.seat;
}

/** An action's canonical text as people read it: card tokens with suit symbols. */
export function moveText(action) {
  return action.split(/\s+/).map(cardText).join(" ");
}

/** A sentence with its card tokens (``7D``, ``TH``) written as people read them. */
export function sayText(text) {
  return String(text).replace(/\b(10|[2-9TJQKA])([SHDCX])\b/g, (m) => cardText(m));
}

/**
 * The game log as an ordered list numbered by entry (``start`` keeps the numbers
 * when only the newest entries are shown).
 */
export function logList(entries, start = 1) {
  const ol = h("ol", { start: start > 1 ? start : null });
  for (const e of entries) {
    ol.append(h("li", { "data-actor": e.actor, "data-index": e.index }, sayText(e.say || `${e.actor}: ${e.text}`)));
  }
  return h("div.log", { role: "log", "aria-live": "polite", "aria-label": "Game log", tabindex: "0" }, ol);
}

export function scoreTable(result, seats, lowerIsBetter, unit) {
  const scores = result && result.scores ? result.scores : {};
  const winners = new Set((result && result.winners) || []);
  const order = Object.keys(scores).sort((a, b) => (lowerIsBetter ? scores[a] - scores[b] : scores[b] - scores[a]));
  const byName = Object.fromEntries((seats || []).map((s) => [s.seat, s]));
  return h("table.scores", {},
    h("caption", {}, "Final scores"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col" }, unit ? `Score (${unit})` : "Score"), h("th", { scope: "col" }, "Result"))),
    h("tbody", {}, order.map((seat) => h("tr", { class: winners.has(seat) ? "winner" : null },
      h("th", { scope: "row" }, seat), h("td", {}, seatLabel(byName[seat])), h("td", {}, String(scores[seat])),
      h("td", {}, winners.has(seat) ? "winner" : "")))));
}

function points(value) {
  const n = Number(value);
  return n > 0 ? `+${n}` : String(n);
}

/**
 * Each seat's score taken apart (the server's ``breakdown``: labelled rows that add
 * up to the total), one table per seat, best first. ``mine`` opens the viewer's own.
 */
export function breakdownList(breakdown, seats, mine = null) {
  if (!breakdown || !breakdown.seats) return null;
  const unit = breakdown.unit || "points";
  const byName = Object.fromEntries((seats || []).map((s) => [s.seat, s]));
  const names = Object.keys(breakdown.seats).sort((a, b) => {
    const d = breakdown.seats[b].total - breakdown.seats[a].total;
    return breakdown.lower_is_better ? -d : d;
  });
  const rows = names.reduce((n, seat) => n + breakdown.seats[seat].rows.length, 0);
  const open = rows <= 16;
  return h("div.breakdown", {},
    h("h3", {}, "How the scores add up"),
    names.map((seat) => {
      const got = breakdown.seats[seat];
      const who = seatLabel(byName[seat]);
      return h("details.breakdown-seat", { "data-seat": seat, open: open || seat === mine ? true : null },
        h("summary", {}, h("strong", {}, seat), who && who !== seat ? ` ${who}` : "", seat === mine ? " (you)" : "",
          `: ${got.total} ${unit}`),
        h("table", {},
          h("caption.visually-hidden", {}, `${seat}'s score`),
          h("thead.visually-hidden", {}, h("tr", {}, h("th", { scope: "col" }, "for"), h("th", { scope: "col" }, unit))),
          h("tbody", {}, got.rows.map((r) => h("tr", {},
            h("td", {}, sayText(r.label)), h("td.pts", {}, points(r.points))))),
          h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "total"), h("td.pts", {}, String(got.total))))));
    }));
}

export function link(href, text, attrs = {}) {
  return h("a", { href, "data-nav": "", ...attrs }, text);
}
