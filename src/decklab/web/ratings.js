// Ratings: a game's leaderboard (people and bot levels on one scale), a player's page
// with a rating history plot (inline SVG, no library), and the bots' ratings shown on
// each game's rules page. The figures come from /api/leaderboard, /api/players.
import { h, s, fill } from "./dom.js";
import { api, games } from "./api.js";
import { botLabel, link } from "./common.js";

// A bot level's name is "bot:<level>" (no username holds a colon); a bot account's is
// its username, and both have `bot: true`.
function isLevel(name) {
  return name.startsWith("bot:");
}

function playerName(entry) {
  return isLevel(entry.name) ? botLabel(entry.name.slice(4)) : entry.name;
}

function playerLink(entry) {
  return link(`/player/${encodeURIComponent(entry.name)}`, playerName(entry));
}

function ratingText(entry) {
  return `${entry.rating.toFixed(1)} (μ ${entry.mu.toFixed(1)} ± ${entry.sigma.toFixed(1)})`;
}

function standings(entries, caption) {
  return h("table.leaderboard", {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
    h("tbody", {}, entries.map((e) => h("tr", { "data-bot": e.bot ? "yes" : null, "data-player": e.name },
      h("td", {}, String(e.rank ?? "")), h("td", {}, playerLink(e), e.bot ? " (bot)" : ""), h("td", {}, ratingText(e)), h("td", {}, String(e.games))))));
}

/** A game's bot levels rated against people, for the game's page (null when none yet). */
export async function botRatings(game) {
  let got;
  try {
    got = await api(`/api/ratings/${encodeURIComponent(game)}`);
  } catch {
    return null;
  }
  return h("section.bot-ratings", { "aria-labelledby": "bot-ratings-h" },
    h("h2#bot-ratings-h", {}, "The bots, rated against people"),
    got.bots.length
      ? standings(got.bots, "Bot levels on the players' scale (from rated tables with people)")
      : h("p", {}, "No rated game with a bot yet."),
    h("p", {}, link(`/leaderboard/${encodeURIComponent(got.game)}`, "The whole leaderboard")));
}

/** The rating after each rated table, as a line with a dot per table (one series per game). */
export function historyPlot(points, width = 480, height = 180) {
  const pad = 32;
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys, 0);
  let hi = Math.max(...ys, 1);
  if (hi - lo < 1) hi = lo + 1;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return s("svg", { class: "rating-plot", viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": `Rating after each of ${points.length} rated games, from ${ys[0].toFixed(1)} to ${ys[ys.length - 1].toFixed(1)}` },
  s("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: "currentColor", "stroke-opacity": 0.4 }),
  s("line", { x1: pad, y1: pad, x2: pad, y2: height - pad, stroke: "currentColor", "stroke-opacity": 0.4 }),
  s("text", { x: 2, y: y(hi) + 4, "font-size": 11, fill: "currentColor" }, hi.toFixed(0)),
  s("text", { x: 2, y: y(lo) + 4, "font-size": 11, fill: "currentColor" }, lo.toFixed(0)),
  s("path", { d: path, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  points.map((p, i) => s("circle.point", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 4, fill: "currentColor" },
    s("title", {}, `${p.game}: ${p.rating.toFixed(1)} (place ${p.place}) ${p.at.slice(0, 10)}`))));
}

export class LeaderboardPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
  }

  async start() {
    const got = await api(`/api/leaderboard/${encodeURIComponent(this.game)}`);
    const spec = (await games()).find((g) => g.name === got.game);
    const title = spec ? spec.title : got.game;
    document.title = `${title} leaderboard — decklab`;
    fill(this.root,
      h("nav.crumbs", { "aria-label": "Breadcrumbs" }, link("/", "Lobby"), " › ", link(`/rules/${got.game}`, title), " › Leaderboard"),
      h("h1", { tabindex: "-1" }, `${title}: leaderboard`),
      h("p.lede", {}, "Ratings from rated tables (Weng–Lin, as OpenSkill computes them): the figure is μ − 3σ, a rating the player is very likely above. Bot levels are rated on the same scale."),
      got.entries.length ? standings(got.entries, `Players of ${title}, best first`) : h("p#no-ratings", {}, "No rated game finished yet."));
  }

  stop() {}
}

export class PlayerPage {
  constructor(root, name) {
    this.root = root;
    this.name = name;
  }

  async start() {
    const got = await api(`/api/players/${encodeURIComponent(this.name)}`);
    const shown = isLevel(got.name) ? botLabel(got.name.slice(4)) : got.bot ? `${got.name} (bot)` : got.name;
    document.title = `${shown} — decklab`;
    const byGame = new Map();
    for (const p of got.history) {
      if (!byGame.has(p.game)) byGame.set(p.game, []);
      byGame.get(p.game).push(p);
    }
    fill(this.root,
      h("nav.crumbs", { "aria-label": "Breadcrumbs" }, link("/", "Lobby"), " › Player"),
      h("h1", { tabindex: "-1" }, shown),
      got.ratings.length
        ? h("ul#player-ratings", {}, got.ratings.map((r) => h("li", { "data-game": r.game },
          link(`/leaderboard/${r.game}`, r.game), `: ${ratingText(r)}, ${r.games} rated game${r.games === 1 ? "" : "s"}`)))
        : h("p#no-ratings", {}, "No rated game yet."),
      [...byGame].map(([game, points]) => h("section.rating-history", { "data-game": game },
        h("h2", {}, `Rating history: ${game}`), historyPlot(points))));
  }

  stop() {}
}
