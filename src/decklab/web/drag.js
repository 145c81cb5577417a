// Drag a card onto a place: the same choices as two taps (the card, then the place),
// made with pointer events, so a mouse, a pen or a finger can drag. Nothing here knows
// a game: a card and a place are whatever carries a data-key on the table.

const SLOP = 10; // px a press may wander and still be a tap

/**
 * Let the cards under ``root`` be dragged. ``drop(cardKey, placeKey, part)`` is called
 * when a dragged card is let go over another target (``part``: the half of a split
 * place, such as a seat's "face up"); a press that does not travel stays a tap, and its
 * click does the work. Returns a function that removes the listeners.
 */
export function dragToPlay(root, drop) {
  let from = null;
  const clear = () => {
    if (from && from.ghost) from.ghost.remove();
    if (from && from.el) from.el.classList.remove("dragging");
    from = null;
  };
  const down = (ev) => {
    if (ev.button !== 0 || !ev.isPrimary) return;
    const card = ev.target.closest && ev.target.closest(".card-btn[data-key]");
    if (!card || !root.contains(card)) return;
    const r = card.getBoundingClientRect();
    from = { el: card, key: card.dataset.key, x: ev.clientX, y: ev.clientY, dx: ev.clientX - r.left, dy: ev.clientY - r.top, id: ev.pointerId, ghost: null };
  };
  const move = (ev) => {
    if (!from || ev.pointerId !== from.id) return;
    if (!from.ghost) {
      if (Math.hypot(ev.clientX - from.x, ev.clientY - from.y) < SLOP) return;
      const ghost = from.el.cloneNode(true);
      ghost.className = "drag-ghost";
      ghost.removeAttribute("data-key");
      ghost.setAttribute("aria-hidden", "true");
      document.body.append(ghost);
      from.ghost = ghost;
      from.el.classList.add("dragging");
    }
    ev.preventDefault();
    from.ghost.style.left = `${ev.clientX - from.dx}px`;
    from.ghost.style.top = `${ev.clientY - from.dy}px`;
  };
  const up = (ev) => {
    if (!from || ev.pointerId !== from.id) return;
    const dragged = from.ghost !== null;
    const key = from.key;
    clear();
    if (!dragged) return; // a tap: the click that follows chooses the card
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const place = under && under.closest("[data-key]");
    // the browser may still send a click for the press: it must not choose again
    const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
    root.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => root.removeEventListener("click", swallow, { capture: true }), 0);
    if (!place || !root.contains(place) || place.classList.contains("card-btn") && place.dataset.key === key) return;
    drop(key, place.dataset.key, place.dataset.part || null);
  };
  const cancel = () => clear();
  root.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
  return () => {
    clear();
    root.removeEventListener("pointerdown", down);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
  };
}
