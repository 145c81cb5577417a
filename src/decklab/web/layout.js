// The one table renderer: it draws the layout the server sends (rows of zones of
// cards, built by each game from the seat's view) and knows no game.
import { h } from "./dom.js";
import { cardElement } from "./cards.js";

const SPREADS = new Set(["row", "fan", "column", "stack", "grid"]);

/**
 * Draw ``layout`` into a new element. ``pick`` (optional) is
 * {usable: Set of keys an action uses, narrowing: Set, selected: [], onSelect(key)}.
 */
export function renderLayout(layout, pick = null) {
  const table = h("div.felt", { "data-viewer": layout.viewer || "spectator" });
  layout.rows.forEach((row, i) => table.append(renderRow(row, i, pick)));
  return table;
}

function usable(pick, key) {
  return Boolean(pick && key && pick.usable.has(key));
}

function renderRow(row, index, pick) {
  const el = h("section.band", {
    "aria-label": row.title || (row.owner ? `${row.owner}'s space` : `part ${index + 1} of the table`),
    "data-owner": row.owner,
    class: row.highlight ? "lit" : null,
  });
  if (row.title) el.append(h("h3.band-title", {}, row.title));
  const zones = h("div.zones");
  for (const zone of row.zones) zones.append(renderZone(zone, pick));
  el.append(zones);
  return el;
}

export function renderZone(zone, pick) {
  const spread = SPREADS.has(zone.spread) ? zone.spread : "row";
  const choosable = usable(pick, zone.key);
  const el = h("div.zone", {
    class: [`spread-${spread}`, zone.highlight ? "lit" : "", choosable ? "choosable" : "",
      choosable && pick.narrowing.has(zone.key) ? "narrows" : "",
      pick && zone.key && pick.selected.includes(zone.key) ? "chosen" : ""].filter(Boolean).join(" "),
    "data-zone": zone.key,
    "data-owner": zone.owner,
    role: "group",
    "aria-label": [zone.title, zone.note].filter(Boolean).join(", "),
  });
  const head = h("div.zone-head");
  if (choosable) {
    head.append(h("button.zone-btn", {
      type: "button",
      "data-key": zone.key,
      "aria-pressed": pick.selected.includes(zone.key) ? "true" : "false",
      onclick: (ev) => { ev.stopPropagation(); pick.onSelect(zone.key); },
    }, zone.title));
    el.addEventListener("click", () => pick.onSelect(zone.key));
  } else {
    head.append(h("span.zone-title", {}, zone.title));
  }
  if (zone.note) head.append(h("span.zone-note", {}, zone.note));
  el.append(head);
  const cards = h("div.cards");
  if (spread === "grid" && zone.columns) cards.style.setProperty("--columns", String(zone.columns));
  zone.cards.forEach((card) => {
    const can = usable(pick, card.key);
    cards.append(cardElement(card, {
      owner: zone.owner,
      onSelect: can ? pick.onSelect : null,
      selected: can && pick.selected.includes(card.key),
      narrows: can && pick.narrowing.has(card.key),
    }));
  });
  if (!zone.cards.length) cards.append(h("span.zone-empty", {}, "—"));
  el.append(cards);
  if (zone.count !== null && zone.count !== undefined && (spread === "stack" || zone.count !== zone.cards.length)) {
    el.append(h("span.count", {}, `${zone.count} card${zone.count === 1 ? "" : "s"}`));
  }
  return el;
}

/** The zones of one seat (rows or zones it owns), for the end-of-game summary. */
export function seatZones(layout, seat) {
  const out = [];
  for (const row of layout.rows) {
    for (const zone of row.zones) {
      if (zone.owner === seat || (row.owner === seat && !zone.owner)) out.push(zone);
    }
  }
  return out;
}
