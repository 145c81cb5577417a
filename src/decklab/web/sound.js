// Sounds made with WebAudio (no files): a chime when it becomes your turn, and
// short sounds for a play, a reveal and the end of a game. Off until the person
// turns it on in the settings; the choice is remembered on this device.
import { soundOn } from "./settings.js";

let context = null;

/** The one AudioContext, made on first use (a browser lets it sound only after a gesture). */
function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One note: an oscillator through a gain envelope (quick attack, exponential decay). */
function note(ctx, { freq, at = 0, length = 0.18, type = "sine", level = 0.18 }) {
  const t = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(level, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

/** A card laid down: a short burst of filtered noise. */
function slap(ctx, level = 0.25) {
  const length = 0.07;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  const gain = ctx.createGain();
  gain.gain.value = level;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  turn: (ctx) => { // two rising bell notes
    note(ctx, { freq: 659.25, length: 0.35, level: 0.16 });
    note(ctx, { freq: 987.77, at: 0.12, length: 0.45, level: 0.14 });
  },
  play: (ctx) => slap(ctx),
  reveal: (ctx) => { // a quick upward arpeggio
    [523.25, 659.25, 783.99].forEach((freq, i) => note(ctx, { freq, at: i * 0.06, length: 0.16, type: "triangle", level: 0.12 }));
  },
  end: (ctx) => { // a small cadence
    [392, 523.25, 659.25, 1046.5].forEach((freq, i) => note(ctx, { freq, at: i * 0.11, length: 0.3 + i * 0.08, type: "triangle", level: 0.13 }));
  },
};

/** Play one of "turn", "play", "reveal", "end" if sound is on; returns whether it sounded. */
export function play(kind) {
  if (!soundOn() || !SOUNDS[kind]) return false;
  const ctx = audio();
  if (!ctx) return false;
  try {
    SOUNDS[kind](ctx);
  } catch {
    return false; // a browser without some node: silence, never an error on the page
  }
  window.decklabSounds = [...(window.decklabSounds || []).slice(-19), kind]; // what sounded, for tests
  return true;
}

/** Turning sound on is a gesture: make the context then, so later cues may sound. */
window.addEventListener("decklab-settings", (ev) => {
  if (ev.detail.key === "decklab.sound" && ev.detail.value === "on") play("turn");
});

const seen = new WeakMap();

/**
 * The sound a new frame of a table deserves, from the frame alone: the end when it
 * just ended, a chime when it just became your turn, otherwise a reveal (motion saw a
 * card turn face up) or a play (the table's version moved on). Nothing on the first
 * frame a page draws. ``moved`` is what motion.animate() reported.
 */
export function cue(page, frame, moved) {
  const was = seen.get(page);
  const now = { version: frame.version, mine: (frame.legal || []).length > 0, over: !!frame.terminal };
  seen.set(page, now);
  if (!was || was.version === now.version) return null;
  let kind = null;
  if (now.over && !was.over) kind = "end";
  else if (now.mine && !was.mine) kind = "turn";
  else if (moved && moved.reveals) kind = "reveal";
  else kind = "play";
  play(kind);
  return kind;
}
