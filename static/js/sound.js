// Table sounds, made here with WebAudio (no sound files): short tones, off until switched on.

let enabled = false;
let ctx = null;

// Each sound is a few notes: [frequency Hz, start s, length s, wave].
const SOUNDS = {
  discard: [[520, 0, 0.05, "triangle"]],
  turn: [[660, 0, 0.09, "sine"], [880, 0.1, 0.12, "sine"]],
  offer: [[740, 0, 0.08, "square"], [740, 0.12, 0.08, "square"]],
  peng: [[392, 0, 0.12, "sawtooth"], [523, 0.1, 0.16, "sawtooth"]],
  chi: [[392, 0, 0.12, "triangle"], [494, 0.1, 0.14, "triangle"]],
  gang: [[330, 0, 0.12, "sawtooth"], [440, 0.1, 0.12, "sawtooth"], [660, 0.2, 0.18, "sawtooth"]],
  hu: [[523, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [784, 0.24, 0.12, "sine"],
    [1047, 0.36, 0.3, "sine"]],
  zimo: [[523, 0, 0.12, "sine"], [784, 0.12, 0.12, "sine"], [1047, 0.24, 0.35, "sine"]],
};

export function setSound(on) {
  enabled = Boolean(on);
}

export function sound(kind) {
  if (!enabled || !SOUNDS[kind]) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === "suspended") ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, start, length, wave] of SOUNDS[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.12, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // no audio device: sounds are optional
  }
}
