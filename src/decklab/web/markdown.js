// A small markdown reader for the project's own rule texts: headings, paragraphs,
// lists, tables, code, emphasis and links. It builds DOM nodes (text stays text),
// and links ruling ids (F3, L7, …) to the rulings page when there is one.
import { h } from "./dom.js";

const RULING = /\b([A-Z]{1,2}\d{1,2})\b/g;

function inline(text, rulings) {
  const out = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(...ids(text.slice(last, m.index), rulings));
    const t = m[0];
    if (m[1]) out.push(h("code", {}, t.slice(1, -1)));
    else if (m[2]) out.push(h("strong", {}, ...inline(t.slice(2, -2), rulings)));
    else if (m[3]) out.push(h("em", {}, ...inline(t.slice(1, -1), rulings)));
    else {
      const lm = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(t);
      const href = lm[2];
      const safe = /^(https?:|\/|#)/.test(href) ? href : null;
      out.push(safe ? h("a", { href: safe }, lm[1]) : lm[1]);
    }
    last = m.index + t.length;
  }
  if (last < text.length) out.push(...ids(text.slice(last), rulings));
  return out;
}

function ids(text, rulings) {
  if (!rulings) return [text];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(RULING)) {
    if (!rulings.has(m[1])) continue;
    out.push(text.slice(last, m.index));
    out.push(h("a.ruling", { href: `/rulings#${m[1]}`, "data-nav": "" }, m[1]));
    last = m.index + m[1].length;
  }
  out.push(text.slice(last));
  return out;
}

/** Markdown text → a list of elements. ``rulings``: the set of ruling ids to link, or null. */
export function markdown(text, rulings = null, { anchors = false } = {}) {
  const lines = text.replace(/\r/g, "").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const head = /^(#{1,4})\s+(.*)$/.exec(line);
    if (head) {
      const level = Math.min(4, head[1].length + 1); // the page has its own h1
      out.push(h(`h${level}`, {}, ...inline(head[2], rulings)));
      i++;
      continue;
    }
    if (line.startsWith("```")) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      out.push(h("pre", {}, h("code", {}, body.join("\n"))));
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|?\s*$/.test(r));
      const [first, ...rest] = body;
      out.push(h("table", {},
        h("thead", {}, h("tr", {}, cells(first).map((c) => h("th", { scope: "col" }, ...inline(c, rulings))))),
        h("tbody", {}, rest.map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, ...inline(c, rulings))))))));
      continue;
    }
    const bullet = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (bullet) {
      const ordered = /\d/.test(bullet[2]);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length) {
        const b = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (!b) break;
        let item = b[3];
        i++;
        while (i < lines.length && lines[i].trim() && !/^(\s*)([-*]|\d+\.)\s+/.test(lines[i]) && /^\s+/.test(lines[i])) {
          item += ` ${lines[i].trim()}`;
          i++;
        }
        const idm = anchors ? /^([A-Z]{1,2}\d{1,2})\./.exec(item) : null;
        list.append(h("li", { id: idm ? idm[1] : null, tabindex: idm ? "-1" : null }, ...inline(item, rulings)));
      }
      out.push(list);
      continue;
    }
    const para = [line.trim()];
    i++;
    while (i < lines.length && lines[i].trim() && !/^(#{1,4}\s|\s*[-*]\s|\s*\d+\.\s|\s*\||```)/.test(lines[i])) {
      para.push(lines[i].trim());
      i++;
    }
    out.push(h("p", {}, ...inline(para.join(" "), rulings)));
  }
  return out;
}

/** Ruling ids defined in a rulings text ("- F3. …"). */
export function rulingIds(text) {
  const found = new Set();
  for (const m of text.matchAll(/^\s*[-*]\s+([A-Z]{1,2}\d{1,2})\./gm)) found.add(m[1]);
  return found;
}
