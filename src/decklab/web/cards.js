// Cards drawn as SVG by decklab: rank and suit legible at 40 px wide, suits told
// apart by shape as well as colour (a four-colour deck), face cards with their own
// frame and ornament, a back that says whose card it is.
import { s, h } from "./dom.js";

export const SUITS = {
  S: { name: "spades", symbol: "\u2660", cls: "suit-s" },
  H: { name: "hearts", symbol: "\u2665", cls: "suit-h" },
  D: { name: "diamonds", symbol: "\u2666", cls: "suit-d" },
  C: { name: "clubs", symbol: "\u2663", cls: "suit-c" },
  X: { name: "stars", symbol: "\u2605", cls: "suit-x" },
};
const RANKS = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", 10: "ten", T: "ten", J: "jack", Q: "queen", K: "king",
};
const FACE = new Set(["J", "Q", "K"]);

/** The outline of a suit in a 20×20 box: each suit has its own shape. */
function suitShape(letter, x, y, size) {
  const k = size / 20;
  const t = `translate(${x} ${y}) scale(${k})`;
  const cls = `pip ${SUITS[letter]?.cls || ""}`;
  switch (letter) {
    case "H":
      return s("path", { class: cls, transform: t,
        d: "M10 18.5C3 13 0 9 1.6 5.2 3.4 1.2 8.4 1.6 10 5.4 11.6 1.6 16.6 1.2 18.4 5.2 20 9 17 13 10 18.5Z" });
    case "D":
      return s("path", { class: cls, transform: t, d: "M10 0.5 18 10 10 19.5 2 10Z" });
    case "S":
      return s("path", { class: cls, transform: t,
        d: "M10 1C3 7 0 10.5 1.7 14 3.3 17.2 7.6 16.6 9 14.2L7.6 19.5H12.4L11 14.2C12.4 16.6 16.7 17.2 18.3 14 20 10.5 17 7 10 1Z" });
    case "C":
      return s("g", { class: cls, transform: t },
        s("circle", { cx: 10, cy: 5.6, r: 4.6 }),
        s("circle", { cx: 4.9, cy: 12, r: 4.6 }),
        s("circle", { cx: 15.1, cy: 12, r: 4.6 }),
        s("path", { d: "M9 10 7.6 19.5H12.4L11 10Z" }));
    case "X":
      return s("path", { class: cls, transform: t,
        d: "M10 0.8 12.6 7 19.4 7.4 14.2 11.8 15.8 18.6 10 14.8 4.2 18.6 5.8 11.8 0.6 7.4 7.4 7Z" });
    default:
      return null;
  }
}

/** How a card is read aloud: "queen of hearts", "face-down card of p3". */
export function cardName(card, owner = null) {
  const who = card.label && /^p\d+$/.test(card.label) ? card.label : owner;
  if (!card.token && !card.rank && !card.suit) {
    return card.label ? `empty place ${card.label}` : "empty place";
  }
  if (card.token === "??") return who ? `face-down card of ${who}` : "face-down card";
  let face;
  if (card.rank && card.suit) {
    face = `${RANKS[card.rank] || card.rank} of ${SUITS[card.suit]?.name || card.suit}`;
  } else if (card.suit) {
    face = `${SUITS[card.suit]?.name || card.suit}`;
  } else {
    face = `card ${card.rank || card.token}`;
  }
  const label = card.label && card.label !== who ? `, ${card.label}` : "";
  if (!card.up) return `face-down ${face}${who ? ` of ${who}` : ""} (known to you)${label}`;
  return `${face}${label}${card.label === who && who ? `, ${who}` : ""}`;
}

/** Short text for a card (10♥, Q♠, 5) for lists and the log. */
export function cardText(token) {
  const m = /^(10|[2-9TJQKA])([SHDCX])$/.exec(token || "");
  if (!m) return token;
  return `${m[1] === "T" ? "10" : m[1]}${SUITS[m[2]].symbol}`;
}

const W = 50;
const H = 70;

function frame(extra) {
  return s("rect", { x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 4.5, class: extra });
}

function backPattern(who) {
  const parts = [frame("card-back"), s("rect", { x: 4, y: 4, width: W - 8, height: H - 8, rx: 3, class: "back-inner" })];
  for (let i = 0; i < 6; i++) {
    parts.push(s("path", { class: "back-line", d: `M4 ${8 + i * 11}L${W - 4} ${14 + i * 11}` }));
  }
  if (who) {
    parts.push(s("rect", { x: 9, y: 26, width: 32, height: 17, rx: 3, class: "back-badge" }));
    parts.push(s("text", { x: W / 2, y: 38.5, class: "back-owner" }, who));
  }
  return parts;
}

function corner(rank, suit) {
  const shown = rank === "T" ? "10" : rank;
  const cls = `rank ${SUITS[suit]?.cls || ""}`;
  return [
    s("text", { x: 3, y: 15, class: `${cls}${shown.length > 1 ? " narrow" : ""}` }, shown),
    suitShape(suit, 3.2, 18, 11),
  ];
}

function faceOrnament(rank, suit) {
  // A framed court: J a band, Q a round crown, K a pointed crown — plus the big letter.
  const cls = SUITS[suit]?.cls || "";
  const parts = [s("rect", { x: 15, y: 7, width: 31, height: 56, rx: 3, class: `court ${cls}` })];
  if (rank === "K") {
    parts.push(s("path", { class: `crown ${cls}`, d: "M21 23V13L26 18 30.5 11 35 18 40 13V23Z" }));
  } else if (rank === "Q") {
    parts.push(s("path", { class: `crown ${cls}`, d: "M22 23C22 15 26 13 30.5 13S39 15 39 23Z" }));
    parts.push(s("circle", { class: `crown ${cls}`, cx: 30.5, cy: 11, r: 2 }));
  } else {
    parts.push(s("rect", { class: `crown ${cls}`, x: 22, y: 16, width: 17, height: 6, rx: 1 }));
  }
  parts.push(s("text", { x: 30.5, y: 47, class: `court-letter ${cls}` }, rank));
  parts.push(suitShape(suit, 24.5, 50, 12));
  return parts;
}

/** The SVG of one card (decorative: the accessible name goes on its wrapper). */
export function cardSvg(card, owner = null) {
  const kids = [];
  const who = card.label && /^p\d+$/.test(card.label) ? card.label : owner;
  const empty = !card.token && !card.rank && !card.suit;
  let cls = "card";
  if (empty) {
    kids.push(s("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 4.5, class: "card-place" }));
    cls += " empty";
  } else if (card.token === "??" || !card.up) {
    kids.push(...backPattern(card.token === "??" ? who : null));
    cls += " back";
    if (card.token !== "??") {
      // a card this seat laid face down itself: a back with a peek of its face
      cls += " remembered";
      kids.push(s("rect", { x: 6, y: 6, width: 24, height: 27, rx: 2, class: "peek" }));
      if (card.suit) kids.push(...corner(card.rank, card.suit));
      else kids.push(s("text", { x: 4, y: 20, class: "rank" }, card.rank || card.token));
      if (who) kids.push(s("text", { x: W / 2, y: 60, class: "back-owner small" }, who));
    }
  } else if (card.rank && card.suit) {
    kids.push(frame("card-face"));
    kids.push(...corner(card.rank, card.suit));
    if (FACE.has(card.rank)) {
      kids.push(...faceOrnament(card.rank, card.suit));
      cls += " court-card";
    } else {
      kids.push(suitShape(card.suit, 18, 27, 22));
    }
  } else if (card.suit) {
    kids.push(frame("card-face"));
    kids.push(suitShape(card.suit, 10, 20, 30));
  } else {
    // a bare value (a number card)
    kids.push(frame("card-face"));
    kids.push(s("text", { x: 3, y: 15, class: "rank value" }, card.rank || card.token));
    kids.push(s("text", { x: W / 2, y: 47, class: "value-big" }, card.rank || card.token));
  }
  if (card.highlight) cls += " lit";
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: cls, "aria-hidden": "true", focusable: "false" }, kids);
}

/** A card as an element: a button when it can be chosen, an image otherwise. */
export function cardElement(card, { owner = null, onSelect = null, selected = false, narrows = false, id = null } = {}) {
  const name = cardName(card, owner);
  const caption = card.label ? h("span.card-label", { "aria-hidden": "true" }, card.label) : null;
  const ident = { "data-card": card.token || null, "data-up": card.up && card.token !== "??" ? "1" : "0" }; // motion.js: a card's identity across redraws
  if (onSelect) {
    return h("button.card-btn", {
      ...ident,
      type: "button",
      "aria-label": name,
      "aria-pressed": selected ? "true" : "false",
      "data-key": card.key,
      "data-place": id,
      class: narrows ? "narrows" : null,
      onclick: (ev) => { ev.stopPropagation(); onSelect(card.key); },
    }, cardSvg(card, owner), caption);
  }
  return h("span.card-img", { ...ident, role: "img", "aria-label": name, "data-place": id }, cardSvg(card, owner), caption);
}
