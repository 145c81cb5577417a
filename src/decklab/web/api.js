// REST calls and what the browser keeps: seat tokens per table, the nickname.
import { unreachable, reachable } from "./net.js"; // feel: the "reconnecting" banner

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let csrf = null;

/** The logged-in session's CSRF token (account.js), sent with every request that changes. */
export function setCsrf(value) {
  csrf = value;
}

export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  if (csrf && method !== "GET") headers["x-csrf-token"] = csrf;
  const send = async () => {
    try {
      const got = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      reachable(); // feel
      return got;
    } catch {
      unreachable(); // feel: no answer at all (server down, no network)
      throw new ApiError(0, "unreachable", "The server cannot be reached.");
    }
  };
  let answer = await send();
  if (answer.status === 403 && method !== "GET" && (await answer.clone().json().catch(() => ({}))).error?.code === "csrf") {
    // logged in or out in another tab since this page asked: ask again, try once more
    const me = await fetch("/api/me", { headers: { accept: "application/json" } });
    setCsrf(me.ok ? (await me.json()).csrf : null);
    if (csrf) headers["x-csrf-token"] = csrf;
    else delete headers["x-csrf-token"];
    answer = await send();
  }
  if (answer.status === 204) return null;
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  if (!answer.ok) {
    const err = data && data.error ? data.error : { code: "http", message: `${answer.status} ${answer.statusText}` };
    throw new ApiError(answer.status, err.code, err.message);
  }
  return data;
}

const SEAT_KEY = "decklab.seat.";

/** The seat this browser holds at a table: {token, seat, nickname} or null. */
export function seatAt(tableId) {
  try {
    const raw = localStorage.getItem(SEAT_KEY + tableId);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function keepSeat(tableId, seat) {
  localStorage.setItem(SEAT_KEY + tableId, JSON.stringify(seat));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(SEAT_KEY + tableId);
}

export function nickname() {
  return localStorage.getItem("decklab.nickname") || "";
}

export function setNickname(name) {
  localStorage.setItem("decklab.nickname", name);
}

let gamesCache = null;
export async function games() {
  if (!gamesCache) gamesCache = await api("/api/games");
  return gamesCache;
}

export function newId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
