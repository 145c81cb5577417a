// Keys at the table: one tab stop for all the cards and places (a roving tabindex),
// and arrows that go to the nearest target in their direction, so the hand, a grid
// and the zones around the table are crossed the way they are laid out.

/** What the arrows move between: the playable cards and places, on the table and in the dock. */
export const TARGETS = ".felt .card-btn, .felt .zone-btn";

/** Whether a key press belongs to a field being typed in (then it is no shortcut). */
export function isTyping(el) {
  return el instanceof Element && (el.matches("input, textarea, select, [contenteditable]") || !!el.closest("[contenteditable]"));
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * The target an arrow goes to from ``from``: Left and Right the previous and next in
 * reading order (going round at the ends); Up and Down the nearest one whose centre
 * lies above or below, across a little sideways if need be. ``ok`` filters targets.
 */
export function arrowTarget(root, from, key, ok = () => true) {
  const all = [...root.querySelectorAll(TARGETS)].filter((el) => el === from || ok(el));
  if (all.length < 2) return null;
  const i = all.indexOf(from);
  if (key === "ArrowRight") return all[(i + 1) % all.length];
  if (key === "ArrowLeft") return all[(i - 1 + all.length) % all.length];
  const here = centre(from);
  const down = key === "ArrowDown";
  let best = null;
  let bestScore = Infinity;
  for (const el of all) {
    if (el === from) continue;
    const c = centre(el);
    const dy = down ? c.y - here.y : here.y - c.y;
    if (dy < 8) continue;
    const score = dy + 2.5 * Math.abs(c.x - here.x);
    if (score < bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best;
}

/** Make ``stop`` the table's one tab stop. */
export function rove(root, stop) {
  for (const el of root.querySelectorAll(TARGETS)) el.setAttribute("tabindex", el === stop ? "0" : "-1");
}
