// Small DOM helpers: every piece of text goes in as text (never as markup).

/** h("button.move", {onclick, "data-action": a}, "text", child) */
export function h(tag, attrs = {}, ...children) {
  const [base, ...classes] = tag.split(".");
  const [name, id] = base.split("#");
  const svg = name === "svg" || attrs.svg;
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", name)
    : document.createElement(name);
  if (classes.length) el.setAttribute("class", classes.join(" "));
  if (id) el.setAttribute("id", id);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false || key === "svg") continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.setAttribute("class", [el.getAttribute("class"), value].filter(Boolean).join(" "));
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** An SVG element (namespaced). */
export function s(tag, attrs = {}, ...children) {
  return h(tag, { ...attrs, svg: true }, ...children);
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replace an element's children. */
export function fill(el, ...children) {
  return append(clear(el), children);
}

export const SEAT_RE = /^p\d+$/;
