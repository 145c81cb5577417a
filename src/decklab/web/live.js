// One WebSocket per table, following the server's protocol (docs/server.md): hello
// with the seat token and the last version seen, then versioned events; intents
// name the version they were made at and a client id, so a resent intent after a
// reconnect is answered and never applied twice. A dropped connection is retried
// with growing pauses while the page says "reconnecting".
import { newId } from "./api.js";

export class Live {
  constructor(tableId, token, onFrame, onStatus) {
    this.tableId = tableId;
    this.token = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.version = null;
    this.pending = new Map(); // client_id -> frame to resend until acked
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    this.timer = null;
    this.status = "connecting";
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/api/tables/${encodeURIComponent(this.tableId)}/live`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      if (this.version !== null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (ev) => this.receive(ev.data));
    ws.addEventListener("close", (ev) => this.dropped(ws, ev));
  }

  setStatus(status) {
    if (status !== this.status) {
      this.status = status;
      this.onStatus(status);
    }
  }

  receive(raw) {
    let frame;
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    if (frame.type === "ping") {
      this.send({ type: "pong" });
      return;
    }
    if (frame.type === "welcome") {
      this.retries = 0;
      this.setStatus("live");
      for (const pending of this.pending.values()) this.send(pending);
    }
    if (typeof frame.version === "number" && (frame.type === "sync" || frame.type === "event")) {
      this.version = frame.version;
    }
    if (frame.type === "ack" || frame.type === "hint" || frame.type === "error") {
      if (frame.client_id) this.pending.delete(frame.client_id);
    }
    if (frame.type === "error" && frame.sync && typeof frame.sync.version === "number") {
      this.version = frame.sync.version;
    }
    this.onFrame(frame);
  }

  dropped(ws, ev) {
    if (ws !== this.ws || this.closed) return;
    if (ev.code === 4403) {
      this.setStatus("refused");
      return;
    }
    this.setStatus("reconnecting");
    const pause = Math.min(5000, 300 * 2 ** this.retries);
    this.retries += 1;
    this.timer = setTimeout(() => this.connect(), pause);
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Send a frame that must be answered (intent, undo, hint): resent after a reconnect. */
  request(frame) {
    const full = { ...frame, client_id: newId() };
    this.pending.set(full.client_id, full);
    this.send(full);
    return full.client_id;
  }

  intent(action) {
    return this.request({ type: "intent", action, version: this.version });
  }

  /** Drop the connection now (a test of reconnecting, or leaving the page). */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /** Simulate a network drop: the socket closes and the client reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }
}
