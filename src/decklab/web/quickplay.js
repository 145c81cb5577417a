// Quick play: a box per game ("players from–to, wait, bot level") that seats you at a
// table that is filling, and the waiting view (who sits, the countdown) that goes to
// the table once it starts: full, or filled with bots at the deadline.
import { h, fill } from "./dom.js";
import { api, keepSeat, nickname, setNickname } from "./api.js";
import { BOT_LEVELS } from "./common.js";
import { currentUser } from "./account.js";

const WAITS = [10, 30, 60, 120, 300];

function numberField(id, label, min, max, value) {
  return h("span.field", {}, h("label", { for: id }, label),
    h("input", { id, type: "number", min, max, step: 1, value, inputmode: "numeric" }));
}

/** The quick-play box of one game (a game for several only). */
export function quickPlayBox(game, waitingEl) {
  const low = Math.max(2, game.min_players);
  if (game.max_players < 2) return null;
  const id = (part) => `qp-${game.name}-${part}`;
  const out = h("output", { "aria-live": "polite" });
  const form = h("form.quickplay", { "data-quickplay": game.name, onsubmit: async (ev) => {
    ev.preventDefault();
    const value = (part) => form.querySelector(`#${CSS.escape(id(part))}`).value;
    const name = currentUser() ? currentUser().username : (nickname() || "guest");
    const body = {
      game: game.name, min_players: Number(value("min")), max_players: Number(value("max")),
      wait_s: Number(value("wait")), level: value("level"), nickname: name,
    };
    out.textContent = "";
    try {
      const got = await api("/api/quickplay", { method: "POST", body });
      if (!currentUser()) setNickname(name);
      keepSeat(got.table, { token: got.token, seat: got.seat, nickname: name });
      waitFor(got.table, got.token, waitingEl);
    } catch (e) {
      out.textContent = e.message;
    }
  } },
  h("fieldset", {}, h("legend", {}, "Quick play"),
    numberField(id("min"), "Players from", low, game.max_players, low),
    numberField(id("max"), "to", low, game.max_players, Math.min(game.max_players, low + 2)),
    h("span.field", {}, h("label", { for: id("wait") }, "Wait"),
      h("select", { id: id("wait") }, WAITS.map((s) => h("option", { value: s, selected: s === 60 ? true : null }, s < 60 ? `${s} s` : `${s / 60} min`)))),
    h("span.field", {}, h("label", { for: id("level") }, "then bots"),
      h("select", { id: id("level") }, BOT_LEVELS.map((l) => h("option", { value: l.spec, selected: l.spec === "casual" ? true : null }, l.label)))),
    h("button", { type: "submit" }, "Play now"), out));
  return form;
}

/** Show who sits at the filling table and the seconds left, until it starts. */
export function waitFor(tableId, token, el) {
  clearInterval(el._qpTimer);
  const poll = async () => {
    let view;
    try {
      view = await api(`/api/quickplay/${tableId}`);
    } catch (e) {
      el.textContent = e.message;
      return;
    }
    if (view.status === "playing" || view.status === "finished") {
      clearInterval(el._qpTimer);
      window.decklabNavigate(`/table/${tableId}`);
      return;
    }
    if (view.status !== "waiting") {
      clearInterval(el._qpTimer);
      fill(el, h("p", {}, "This table was discarded."));
      return;
    }
    const people = view.seats.filter((s) => s.kind === "human").map((s) => s.nickname);
    fill(el,
      h("h2", {}, "Waiting for players"),
      h("p", {}, `${people.length} of ${view.max_players} seated: ${people.join(", ")}`),
      h("p.countdown", { "data-seconds": Math.ceil(view.seconds_left) },
        `${Math.ceil(view.seconds_left)} s left, then ${view.level} bots take the empty seats.`),
      h("button", { type: "button", onclick: async () => {
        clearInterval(el._qpTimer);
        try { await api(`/api/quickplay/${tableId}/leave`, { method: "POST", token }); } catch { /* gone already */ }
        fill(el);
      } }, "Leave"));
  };
  el._qpTimer = setInterval(poll, 1000);
  poll();
}
