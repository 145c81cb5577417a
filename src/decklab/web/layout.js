// The one table renderer: it draws the layout the server sends (rows of zones of
// cards, built by each game from the seat's view) and knows no game.
import { h } from "./dom.js";
import { cardElement } from "./cards.js";

const SPREADS = new Set(["row", "fan", "column", "stack", "grid"]);

/**
 * Draw ``layout`` into a new element. ``pick`` (optional) is
 * {usable: Set of keys an action uses, narrowing: Set, selected: [], onSelect(key),
 * parts(key) → the words a target splits into, onParts(key, word), label(word)}.
 * ``skip`` holds the indexes of rows drawn elsewhere (the viewer's own, docked).
 */
export function renderLayout(layout, pick = null, skip = new Set()) {
  const table = h("div.felt", { "data-viewer": layout.viewer || "spectator" });
  const rings = layout.rows.filter((r) => r.arrange === "ring");
  let ring = null;
  layout.rows.forEach((row, i) => {
    if (skip.has(i)) return;
    if (rings.length && row.arrange === "ring") {
      if (!ring) table.append((ring = renderRing(layout, rings, pick)));
    } else if (!(rings.length && row.arrange === "middle")) {
      table.append(renderRow(row, i, pick, layout.viewer));
    }
  });
  return table;
}

/**
 * The rows of the viewer's own space (their hand): band rows the viewer owns. A
 * phone docks them at the bottom of the screen with the action bar, so they never
 * scroll away; a spectator has none.
 */
export function ownRows(layout) {
  const out = new Set();
  if (!layout.viewer) return out;
  layout.rows.forEach((row, i) => {
    if ((row.arrange || "band") === "band" && row.owner && row.owner === layout.viewer) out.add(i);
  });
  return out;
}

/** The viewer's own rows (``ownRows``) drawn as a felt of their own, for the dock. */
export function renderOwn(layout, rows, pick = null) {
  const felt = h("div.felt.own", { "data-viewer": layout.viewer || "spectator", "aria-label": "Your space" });
  layout.rows.forEach((row, i) => {
    if (rows.has(i)) felt.append(renderRow(row, i, pick, layout.viewer));
  });
  return felt;
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
  const group = (name, zones) => h(`div.ring-${name}`, {}, zones.map((z) => renderZone(z, pick, layout.viewer)));
  const middle = h("div.ring-mid", {});
  layout.rows.forEach((row, i) => {
    if (row.arrange === "middle") middle.append(renderRow(row, i, pick, layout.viewer));
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

function renderRow(row, index, pick, viewer = null) {
  const el = h("section.band", {
    "aria-label": row.title || (row.owner ? `${row.owner}'s space` : `part ${index + 1} of the table`),
    "data-owner": row.owner,
    class: row.highlight ? "lit" : null,
  });
  if (row.title) el.append(h("h3.band-title", {}, row.title));
  const zones = h("div.zones");
  for (const zone of row.zones) zones.append(renderZone(zone, pick, viewer || null, row.owner));
  el.append(zones);
  return el;
}

/** Spreads whose cards overlap: two playable cards there would share a hit area. */
const OVERLAPPING = new Set(["fan", "column"]);

export function renderZone(zone, pick, viewer = null, rowOwner = null) {
  const spread = SPREADS.has(zone.spread) ? zone.spread : "row";
  const choosable = usable(pick, zone.key);
  const parts = choosable && pick.parts ? pick.parts(zone.key) : [];
  // a card whose key is its zone's is chosen by the zone (one target, not a pile of them)
  const playable = zone.cards.filter((c) => usable(pick, c.key) && !(choosable && c.key === zone.key));
  const owner = zone.owner || rowOwner;
  const el = h("div.zone", {
    class: [`spread-${spread}`, zone.highlight ? "lit" : "", choosable ? "choosable" : "",
      choosable && pick.narrowing.has(zone.key) ? "narrows" : "",
      pick && zone.key && pick.selected.includes(zone.key) ? "chosen" : "",
      playable.length > 1 && OVERLAPPING.has(spread) ? "opened" : "",
      playable.length ? "has-play" : "",
      owner && viewer && owner !== viewer ? "theirs" : ""].filter(Boolean).join(" "),
    "data-zone": zone.key,
    "data-owner": zone.owner,
    role: "group",
    "aria-label": [zone.title, zone.note].filter(Boolean).join(", "),
  });
  const head = h("div.zone-head");
  if (choosable && parts.length) {
    // one target the table cannot settle alone (a seat, face up or down): its parts
    head.append(h("span.zone-title", {}, zone.title));
    const split = h("div.zone-parts", { role: "group", "aria-label": zone.title });
    for (const word of parts) {
      split.append(h("button.zone-btn.part", {
        type: "button",
        "data-key": zone.key,
        "data-part": word,
        "aria-label": `${zone.title}: ${pick.label ? pick.label(word) : word}`,
        onclick: (ev) => { ev.stopPropagation(); pick.onParts(zone.key, word); },
      }, pick.label ? pick.label(word) : word));
    }
    el.append(head, split);
  } else if (choosable) {
    head.append(h("button.zone-btn", {
      type: "button",
      "data-key": zone.key,
      "aria-pressed": pick.selected.includes(zone.key) ? "true" : "false",
      onclick: (ev) => { ev.stopPropagation(); pick.onSelect(zone.key); },
    }, zone.title));
    el.addEventListener("click", () => pick.onSelect(zone.key));
    el.append(head);
  } else {
    head.append(h("span.zone-title", {}, zone.title));
    el.append(head);
  }
  if (zone.note) head.append(h("span.zone-note", {}, zone.note));
  const cards = h("div.cards");
  if (spread === "grid" && zone.columns) cards.style.setProperty("--columns", String(zone.columns));
  zone.cards.forEach((card, i) => {
    const can = playable.includes(card);
    cards.append(cardElement(card, {
      owner: zone.owner,
      onSelect: can ? pick.onSelect : null,
      selected: can && pick.selected.includes(card.key),
      narrows: can && pick.narrowing.has(card.key),
      id: cardId(card, zone, i),
    }));
  });
  if (!zone.cards.length) cards.append(h("span.zone-empty", {}, "—"));
  el.append(cards);
  if (zone.count !== null && zone.count !== undefined && (spread === "stack" || zone.count !== zone.cards.length)) {
    el.append(h("span.count", {}, `${zone.count} card${zone.count === 1 ? "" : "s"}`));
  }
  return el;
}

/**
 * A card's stable id (``data-card``) from one frame to the next: its token when the
 * viewer knows it, otherwise its place (the zone and the position in it), so a card
 * can be followed as it moves (motion) without telling more than the table shows.
 */
export function cardId(card, zone, index) {
  if (card.token && card.token !== "??") return card.token;
  return `${zone.owner || zone.key || zone.title}:${index}`;
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
