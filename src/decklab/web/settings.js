// What a person sets for this device: the theme, the deck's colours, sound. Kept in
// the browser's storage and applied to <html> (data-theme, data-deck) before the
// first paint: index.html loads this module render-blocking. The settings control
// sits in the site's header on every page.
import { h } from "./dom.js";

const KEYS = { theme: "decklab.theme", deck: "decklab.deck", sound: "decklab.sound", notify: "decklab.notify" };
export const THEMES = ["auto", "light", "dark"];

function read(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v;
  } catch {
    return fallback; // storage refused (a private window): defaults, not an error
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* not remembered, still applied to this page */
  }
  window.dispatchEvent(new CustomEvent("decklab-settings", { detail: { key, value } }));
}

/** "auto" (follow the system), "light" or "dark". */
export function theme() {
  const t = read(KEYS.theme, "auto");
  return THEMES.includes(t) ? t : "auto";
}

/** Whether the four-colour deck is on (the default) rather than red and black. */
export function fourColours() {
  return read(KEYS.deck, "four") !== "two";
}

/** Sound is off until the person turns it on. */
export function soundOn() {
  return read(KEYS.sound, "off") === "on";
}

/** System notifications ("your turn" while the tab is hidden): off until the person
 * turns them on here, which asks the browser's permission. */
export function notifyOn() {
  return read(KEYS.notify, "off") === "on";
}

/** Turn notifications on (asking the browser's permission; refused: stays off) or off. */
export async function setNotify(on) {
  if (on && typeof Notification !== "undefined" && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission().catch(() => "denied");
    if (answer !== "granted") on = false;
  }
  if (on && typeof Notification === "undefined") on = false;
  write(KEYS.notify, on ? "on" : "off");
  return on;
}

/** The theme that shows now: the choice, or the system's when the choice is auto. */
export function shownTheme() {
  const t = theme();
  if (t !== "auto") return t;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Put the settings on <html>. data-theme is always the theme that shows (the system's
 * when the choice is auto), so theme.css has one dark list, under the attribute. */
export function apply() {
  const root = document.documentElement;
  root.dataset.theme = shownTheme();
  if (fourColours()) delete root.dataset.deck;
  else root.dataset.deck = "two";
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute("content", shownTheme() === "dark" ? "#0d2419" : "#143f29");
}

export function setTheme(value) {
  write(KEYS.theme, THEMES.includes(value) ? value : "auto");
  apply();
}

export function setFourColours(on) {
  write(KEYS.deck, on ? "four" : "two");
  apply();
}

export function setSound(on) {
  write(KEYS.sound, on ? "on" : "off");
}

/** The control in the header: a disclosure with the settings. */
export function settingsControl() {
  const themeSelect = h("select#set-theme", { onchange: (ev) => setTheme(ev.target.value) },
    THEMES.map((t) => h("option", { value: t, selected: t === theme() ? true : null },
      { auto: "As the system", light: "Light", dark: "Dark" }[t])));
  const deck = h("input#set-deck", { type: "checkbox", checked: fourColours() ? true : null,
    onchange: (ev) => setFourColours(ev.target.checked) });
  const sound = h("input#set-sound", { type: "checkbox", checked: soundOn() ? true : null,
    onchange: (ev) => setSound(ev.target.checked) });
  const notify = h("input#set-notify", { type: "checkbox", checked: notifyOn() ? true : null,
    onchange: async (ev) => { ev.target.checked = await setNotify(ev.target.checked); } });
  return h("details.settings", {},
    h("summary", { "aria-label": "Settings" }, "Settings"),
    h("div.settings-panel", {},
      h("div.field", {}, h("label", { for: "set-theme" }, "Theme"), themeSelect),
      h("div.field.check", {}, deck, h("label", { for: "set-deck" }, "Four-colour deck")),
      h("div.field.check", {}, sound, h("label", { for: "set-sound" }, "Sound")),
      h("div.field.check", {}, notify, h("label", { for: "set-notify" }, "Notify me of my turn"))));
}

apply();
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", apply); // "auto" follows it
window.addEventListener("storage", (ev) => {
  if (Object.values(KEYS).includes(ev.key)) apply(); // another tab changed a setting
});
