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
