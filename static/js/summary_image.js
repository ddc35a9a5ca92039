// The 大结算 drawn on a canvas in the browser, from the same data the page shows (the
// summary API's shape: players with totals, counts, marks and best hands; hands with their
// deltas), and saved as a PNG. No image is made on the server. Every text is measured: a
// long one is wrapped (the header, the best hands) or cut with "…" to its column (names),
// so nothing runs into its neighbour or off the image.
import { scoreParts } from "./score_line.js";

const INK = "#f5efe0";
const PLUS = "#8fe3a6";
const MINUS = "#ffb0a8";
const GOLD = "#f3d36b";
const WIDTH = 640;
const LEFT = 24;
const RIGHT = WIDTH - 24;
const COLS = [LEFT, 250, 340, 420, 520]; // name, total, wins, self-draws, dealt in
const HAND_COL = 130; // each player's column in the hand-by-hand rows, from x = 90
const FONT = {
  title: "bold 26px sans-serif",
  line: "15px sans-serif",
  head: "bold 14px sans-serif",
  name: "16px sans-serif",
  mark: "bold 11px sans-serif",
  small: "13px sans-serif",
  smallBold: "bold 13px sans-serif",
};

const tone = (v) => (v > 0 ? PLUS : v < 0 ? MINUS : INK);

/** ``text`` cut with "…" to ``width`` pixels in the context's font. */
function cut(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let s = text;
  while (s && ctx.measureText(`${s}…`).width > width) s = s.slice(0, -1);
  return `${s}…`;
}

/** ``text`` broken into lines of at most ``width`` pixels (at spaces, else anywhere). */
function wrap(ctx, text, width) {
  const lines = [];
  let line = "";
  for (const ch of text) {
    const next = line + ch;
    if (ctx.measureText(next).width <= width) {
      line = next;
      continue;
    }
    const space = line.lastIndexOf(" ");
    if (space > 0 && ch !== " ") {
      lines.push(line.slice(0, space));
      line = line.slice(space + 1) + ch;
    } else {
      lines.push(line);
      line = ch === " " ? "" : ch;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function bestText(p, data, S) {
  const parts = scoreParts(p.best, data.result);
  return `${p.name}: ${S.hand_no.replace("%(n)s", p.best.number)} · ${parts.line}`;
}

/**
 * Draw ``data`` ({variant, club, room, ended, ended_at, result, players, hands}: ``club``
 * the club's name or "", ``room`` and ``ended`` in words, ``result`` the variant's result
 * data for score_line.js) on ``canvas`` with the words in ``S`` ({title, total, wins,
 * self_draws, fed, best, big_winner, top_feeder, hand, hand_no}).
 */
export function drawSummary(canvas, data, S) {
  const ctx = canvas.getContext("2d");
  ctx.font = FONT.line;
  const facts = [data.variant, data.club, data.room, data.ended, data.ended_at].filter(Boolean);
  const header = wrap(ctx, facts.join(" · "), RIGHT - LEFT);
  ctx.font = FONT.small;
  const bests = data.players.filter((p) => p.best)
    .map((p) => wrap(ctx, bestText(p, data, S), RIGHT - LEFT));
  const rowH = 38;
  const top = 72 + 22 * header.length + 16;
  const height = top + rowH * (data.players.length + 1) + 30
    + 20 * (bests.flat().length + 1) + 40 + 24 * (data.hands.length + 1) + 20;

  const scale = window.devicePixelRatio || 1;
  canvas.width = WIDTH * scale;
  canvas.height = height * scale;
  ctx.scale(scale, scale);
  ctx.fillStyle = "#1f4d3a";
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.fillStyle = INK;
  ctx.font = FONT.title;
  ctx.fillText(cut(ctx, S.title, RIGHT - LEFT), LEFT, 44);
  ctx.font = FONT.line;
  header.forEach((line, i) => ctx.fillText(line, LEFT, 72 + 22 * i));

  let y = top;
  ctx.font = FONT.head;
  ["", S.total, S.wins, S.self_draws, S.fed].forEach((h, i) => {
    ctx.fillText(cut(ctx, h, (COLS[i + 1] || RIGHT) - COLS[i] - 8), COLS[i], y);
  });
  for (const p of data.players) {
    y += rowH;
    const nameW = COLS[1] - COLS[0] - 12;
    ctx.fillStyle = INK;
    ctx.font = FONT.name;
    ctx.fillText(cut(ctx, p.name, nameW), COLS[0], p.marks.length ? y - 6 : y);
    if (p.marks.length) {
      ctx.fillStyle = GOLD;
      ctx.font = FONT.mark;
      ctx.fillText(cut(ctx, p.marks.map((m) => S[m]).join(" · "), nameW), COLS[0], y + 9);
    }
    ctx.font = FONT.name;
    ctx.fillStyle = tone(p.total);
    ctx.fillText(String(p.total), COLS[1], y);
    ctx.fillStyle = INK;
    ctx.fillText(String(p.wins), COLS[2], y);
    ctx.fillText(String(p.self_draws), COLS[3], y);
    ctx.fillText(String(p.fed), COLS[4], y);
  }
  y += 44;
  ctx.font = FONT.smallBold;
  ctx.fillText(S.best, LEFT, y);
  ctx.font = FONT.small;
  for (const line of bests.flat()) {
    y += 20;
    ctx.fillText(line, LEFT, y);
  }
  y += 40;
  ctx.font = FONT.smallBold;
  ctx.fillText(cut(ctx, S.hand, 90 - LEFT - 8), LEFT, y);
  data.players.forEach((p, i) => ctx.fillText(cut(ctx, p.name, HAND_COL - 10), 90 + i * HAND_COL, y));
  ctx.font = FONT.small;
  for (const h of data.hands) {
    y += 24;
    ctx.fillStyle = INK;
    ctx.fillText(String(h.number), LEFT, y);
    h.deltas.forEach((d, i) => {
      ctx.fillStyle = tone(d);
      ctx.fillText(String(d), 90 + i * HAND_COL, y);
    });
  }
}

/** Offer the canvas as a PNG download named ``filename`` through the link ``link``. */
export function savePNG(canvas, filename, link) {
  canvas.toBlob((blob) => {
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(blob);
    link.download = filename;
    link.hidden = false;
    link.click();
  }, "image/png");
}
