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
  const rings = layout.rows.filter((r) => r.arrange === "ring");
  let ring = null;
  layout.rows.forEach((row, i) => {
    if (rings.length && row.arrange === "ring") {
      if (!ring) table.append((ring = renderRing(layout, rings, pick)));
    } else if (!(rings.length && row.arrange === "middle")) {
      table.append(renderRow(row, i, pick));
    }
  });
  return table;
}

/**
 * How many of ``others`` seats (all but the one at the bottom) sit on the left, at
 * the top and on the right of the table: the top takes what the sides leave.
 */
export function ringSides(others) {
  const side = Math.floor(others / 3);
  return { left: side, top: others - 2 * side, right: side };
}

/**
 * The seats of the ``ring`` rows around an oval table, the ``middle`` rows inside it:
 * the viewer's own zone (or the first, for a spectator) at the bottom, the others
 * clockwise from it: up the left side, across the top, down the right side. The
 * document order is the seating order (the viewer last), so focus goes round the
 * table; a narrow table (CSS, by the felt's own width) draws the seats as one row.
 */
function renderRing(layout, rings, pick) {
  const seats = rings.flatMap((r) => r.zones);
  let at = seats.findIndex((z) => z.owner && z.owner === layout.viewer);
  if (at < 0) at = 0;
  const order = [...seats.slice(at + 1), ...seats.slice(0, at)];
  const { left, top } = ringSides(order.length);
  const label = rings.map((r) => r.title).find(Boolean) || "Around the table";
  const group = (name, zones) => h(`div.ring-${name}`, {}, zones.map((z) => renderZone(z, pick)));
  const middle = h("div.ring-mid", {});
  layout.rows.forEach((row, i) => {
    if (row.arrange === "middle") middle.append(renderRow(row, i, pick));
  });
  return h("section.ring", { "aria-label": label, "data-seats": String(seats.length), class: left ? "sided" : "unsided" },
    group("left", order.slice(0, left)),
    group("top", order.slice(left, left + top)),
    group("right", order.slice(left + top)),
    middle,
    group("bottom", seats.length ? [seats[at]] : []));
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
