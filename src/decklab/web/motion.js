// Motion between two frames of a table, knowing no game (FLIP with the Web
// Animations API): snapshot() the cards before a redraw, animate() after it.
//
// A card is known across redraws by its identity: its token (data-card, set by
// cards.js) and which occurrence of that token it is, or, for a card nobody may see
// ("??"), its place: the zone and its index there. Then, comparing the two frames:
// - a card in both that moved slides from where it was (a play, a take, a sort);
// - a card that turned over flips (a remembered face-down card shown);
// - a new face-up card where a face-down one lay flips in place (a reveal);
// - another new card flies from where a card left (an opponent's card from their
//   hand; turning over on the way if it was face down), else from a pile that shrank (a deal from the deck), else from the middle;
// - a card that left with nowhere to land travels, as a ghost, to a pile that grew
//   (a trick taken, a score pile growing), and the pile swells a little.
// Everything ends within MAX_MS; nothing moves under prefers-reduced-motion.

const MAX_MS = 300;
const SLIDE_MS = 240;
const FLIP_MS = 280;
const EASE = "cubic-bezier(.2, .7, .3, 1)";

export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function zoneKey(zone) {
  if (zone.dataset.zone) return `k:${zone.dataset.zone}`;
  const title = zone.querySelector(".zone-title, .zone-btn");
  return `t:${zone.dataset.owner || ""}:${title ? title.textContent : ""}`;
}

function zoneCount(zone, cards) {
  const count = zone.querySelector(":scope > .count");
  const n = count ? parseInt(count.textContent, 10) : NaN;
  return Number.isFinite(n) ? n : cards.length;
}

/** Every card under ``root`` by identity, and every zone's place and count. */
function collect(root) {
  const cards = new Map();
  const zones = new Map();
  const seenZones = new Map();
  const seenTokens = new Map();
  for (const zone of root.querySelectorAll(".zone")) {
    let key = zoneKey(zone);
    const n = seenZones.get(key) || 0;
    seenZones.set(key, n + 1);
    if (n) key += `#${n}`;
    const els = [...zone.querySelectorAll("[data-card]")];
    zones.set(key, { el: zone, rect: zone.getBoundingClientRect(), count: zoneCount(zone, els) });
    els.forEach((el, i) => {
      const token = el.dataset.card;
      const slot = `${key}/${i}`;
      let id = `s:${slot}`;
      if (token && token !== "??") {
        const k = seenTokens.get(token) || 0;
        seenTokens.set(token, k + 1);
        id = `c:${token}#${k}`;
      }
      cards.set(id, { id, el, slot, zone: key, up: el.dataset.up === "1", rect: el.getBoundingClientRect() });
    });
  }
  return { cards, zones, felt: root.getBoundingClientRect() };
}

/** The table's cards before a redraw (null when there will be no motion). */
export function snapshot(root) {
  if (!root || reducedMotion()) return null;
  return collect(root);
}

function run(el, keyframes, options, stats, kind) {
  const anim = el.animate(keyframes, { duration: SLIDE_MS, easing: EASE, fill: "backwards", ...options, id: `motion-${kind}` });
  stats.duration = Math.max(stats.duration, (options.delay || 0) + (options.duration || SLIDE_MS));
  return anim;
}

function ghostLayer() {
  let layer = document.querySelector(".motion-ghosts");
  if (!layer) {
    layer = document.createElement("div");
    layer.className = "motion-ghosts";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  return layer;
}

/** A card that is no longer on the table, shown where it was, for an animation to carry off. */
function ghost(entry) {
  const el = entry.el;
  el.classList.add("motion-ghost");
  el.removeAttribute("id");
  el.setAttribute("aria-hidden", "true");
  el.inert = true;
  Object.assign(el.style, { left: `${entry.rect.left}px`, top: `${entry.rect.top}px`, width: `${entry.rect.width}px`, height: `${entry.rect.height}px` });
  ghostLayer().append(el);
  return el;
}

function shift(from, to) {
  return { dx: from.left - to.left, dy: from.top - to.top };
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** The card turns over on its way (or where it lies): the old side turns away over
 * the first half of the way, the new side turns in over the second. */
function flip(now, was, stats) {
  const { dx, dy } = shift(was.rect, now.rect);
  const turn = "perspective(500px) rotateY";
  const old = ghost(was);
  run(old, [{ transform: `${turn}(0deg)` }, { transform: `translate(${-dx / 2}px, ${-dy / 2}px) ${turn}(90deg)` }],
    { duration: FLIP_MS / 2, easing: "ease-in", fill: "forwards" }, stats, "flip-out")
    .finished.finally(() => old.remove());
  run(now.el, [
    { transform: `translate(${dx / 2}px, ${dy / 2}px) ${turn}(-90deg)`, offset: 0 },
    { transform: `translate(${dx / 2}px, ${dy / 2}px) ${turn}(-90deg)`, offset: 0.5 },
    { transform: `${turn}(0deg)` },
  ], { duration: FLIP_MS, easing: "ease-out" }, stats, "flip-in");
  stats.flips += 1;
  if (now.up) stats.reveals += 1;
}

function slide(now, from, stats, extra = {}) {
  const { dx, dy } = shift(from, now.rect);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && !extra.fade) return;
  run(now.el, [
    { transform: `translate(${dx}px, ${dy}px)${extra.scale ? ` scale(${extra.scale})` : ""}`, opacity: extra.fade ? 0 : 1 },
    { transform: "none", opacity: 1 },
  ], { duration: extra.duration || SLIDE_MS, delay: extra.delay || 0 }, stats, extra.kind || "slide");
  stats.moves += 1;
}

/** A card that left with nowhere to land on this table: off to ``to`` (a pile), or fading. */
function leave(was, to, stats) {
  const el = ghost(was);
  let end = { transform: "scale(.7)", opacity: 0 };
  if (to) {
    const a = centre(was.rect);
    const b = centre(to);
    end = { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.6)`, opacity: 0.3 };
  }
  run(el, [{ transform: "none", opacity: 1 }, end], { duration: SLIDE_MS, fill: "forwards" }, stats, "leave")
    .finished.finally(() => el.remove());
  stats.leaves += 1;
}

/**
 * Animate the redrawn table under ``root`` from ``before`` (a snapshot()). Returns what
 * moved: {moves, flips, reveals (flips face up), enters, leaves, duration (ms until all is still)}.
 */
export function animate(root, before) {
  const stats = { moves: 0, flips: 0, reveals: 0, enters: 0, leaves: 0, duration: 0 };
  if (!root || !before || reducedMotion() || !before.cards.size || typeof Element.prototype.animate !== "function") {
    window.decklabMotion = stats;
    return stats;
  }
  const after = collect(root);
  const appeared = [];
  for (const now of after.cards.values()) {
    const was = before.cards.get(now.id);
    if (!was) appeared.push(now);
    else if (was.up !== now.up) flip(now, was, stats);
    else slide(now, was.rect, stats);
  }
  const vanished = [...before.cards.values()].filter((was) => !after.cards.has(was.id));
  const bySlot = new Map(vanished.map((was) => [was.slot, was]));
  const used = new Set();
  const rest = [];
  for (const now of appeared) {
    const was = bySlot.get(now.slot);
    if (was && !was.up && now.up) { // a face-down card here became this one: a reveal
      used.add(was);
      flip(now, was, stats);
    } else rest.push(now);
  }
  const left = vanished.filter((was) => !used.has(was));
  const grew = [];
  const shrank = [];
  for (const [key, zone] of after.zones) {
    const old = before.zones.get(key);
    if (old && zone.count > old.count) grew.push(zone);
    if (old && zone.count < old.count) shrank.push(old);
  }
  // new cards: from where a card left, else from a pile that shrank, else from the middle
  const spare = [...left];
  rest.forEach((now, i) => {
    const was = spare.shift();
    if (was) {
      used.add(was);
      if (!was.up && now.up) flip(now, was, stats); // a hidden card shown on its way
      else slide(now, was.rect, stats);
      return;
    }
    const source = shrank.length ? shrank[0].rect : before.felt;
    const c = centre(source);
    const from = { left: c.x - now.rect.width / 2, top: c.y - now.rect.height / 2 };
    const delay = Math.min(i * 25, MAX_MS - 200);
    slide(now, from, stats, { fade: true, scale: 0.8, delay, duration: 200, kind: "enter" });
    stats.enters += 1;
  });
  // cards that left with nowhere to land: off to a pile that grew
  const target = grew.length ? grew[0].rect : null;
  for (const was of left) if (!used.has(was)) leave(was, target, stats);
  for (const zone of grew) {
    const pile = zone.el.querySelector(".cards") || zone.el;
    run(pile, [{ transform: "scale(1)" }, { transform: "scale(1.08)", offset: 0.5 }, { transform: "scale(1)" }],
      { duration: SLIDE_MS }, stats, "pile");
  }
  window.decklabMotion = stats;
  return stats;
}
