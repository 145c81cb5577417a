// Choosing a move on the cards: every card and zone carries a key, a word of the
// canonical action texts that concern it. Selecting keys narrows the legal
// actions to those whose words include them all; nothing else is ever offered.

export function words(action) {
  return action.trim().split(/\s+/);
}

/** The legal actions that use every selected key. */
export function narrow(legal, selected) {
  return legal.filter((a) => {
    const w = words(a);
    return selected.every((k) => w.includes(k));
  });
}

/** Every word used by some action in ``actions``. */
export function keysOf(actions) {
  const out = new Set();
  for (const a of actions) for (const w of words(a)) out.add(w);
  return out;
}

/**
 * The selection after choosing ``key``: toggled off if already chosen; added if
 * some action still uses the whole selection; otherwise a fresh selection.
 * Returns {selected, candidates, play}: ``play`` is the action to send when only
 * one remains.
 */
export function choose(legal, selected, key) {
  let next;
  if (selected.includes(key)) next = selected.filter((k) => k !== key);
  else {
    next = [...selected, key];
    if (narrow(legal, next).length === 0) next = [key];
  }
  const candidates = next.length ? narrow(legal, next) : legal.slice();
  return {
    selected: candidates.length ? next : [],
    candidates: candidates.length ? candidates : legal.slice(),
    play: next.length && candidates.length === 1 ? candidates[0] : null,
  };
}

/** Every key a card or a zone of ``layout`` carries: the words a tap on the table can choose. */
export function tableKeys(layout) {
  const out = new Set();
  if (!layout) return out;
  for (const row of layout.rows || []) {
    for (const zone of row.zones || []) {
      if (zone.key) out.add(zone.key);
      for (const card of zone.cards || []) if (card.key) out.add(card.key);
    }
  }
  return out;
}

/**
 * The words that tell ``candidates`` apart and that nothing on the table shows (a
 * verb, "up" or "down"), in the order they first come: the remaining choices of a
 * move, offered as buttons (in the action bar, or as the parts of a target).
 */
export function offTableChoices(candidates, onTable) {
  if (candidates.length < 2) return [];
  const sets = candidates.map((a) => new Set(words(a)));
  const out = [];
  for (const a of candidates) {
    for (const w of words(a)) {
      if (onTable.has(w) || out.includes(w)) continue;
      if (!sets.every((s) => s.has(w))) out.push(w);
    }
  }
  return out;
}

/** The selection that choosing ``key`` leads to (as :func:`choose`, without toggling off). */
export function selectionWith(legal, selected, key) {
  if (selected.includes(key)) return selected.slice();
  const next = [...selected, key];
  return narrow(legal, next).length ? next : [key];
}

/**
 * A target that one tap cannot settle alone, split into parts: the words off the
 * table that the moves through ``key`` still differ by. Tapping a part chooses the
 * key and the word at once, so a card then a half of a seat is a whole move.
 * Returns [] when there is nothing to split.
 */
export function targetParts(legal, selected, key, onTable) {
  const next = selectionWith(legal, selected, key);
  const through = narrow(legal, next);
  return offTableChoices(through, onTable).filter((w) => narrow(through, [w]).length > 0);
}

/** Legal actions no tap on the table can reach: not one of their words lies on it. */
export function offTableActions(legal, onTable) {
  return legal.filter((a) => !words(a).some((w) => onTable.has(w)));
}
