// The 大结算 drawn on a canvas in the browser, from the same data the page shows (the
// summary API's shape: players with totals, counts, marks and best hands; hands with their
// deltas), and saved as a PNG. No image is made on the server.

const INK = "#f5efe0";
const PLUS = "#8fe3a6";
const MINUS = "#ffb0a8";
const GOLD = "#f3d36b";

const tone = (v) => (v > 0 ? PLUS : v < 0 ? MINUS : INK);

function bestLine(p) {
  if (!p.best) return "";
  const items = p.best.items.map((i) => `${i.name} ${i.value}`).join(", ");
  return `${p.name}: ${p.best.total}${items ? ` (${items})` : ""}`;
}

/**
 * Draw ``data`` ({variant, ended_at, players, hands}) on ``canvas`` with the words in
 * ``S`` ({title, total, wins, self_draws, fed, best, big_winner, top_feeder, hand}).
 */
export function drawSummary(canvas, data, S) {
  const scale = window.devicePixelRatio || 1;
  const width = 640;
  const rowH = 34;
  const bests = data.players.filter((p) => p.best);
  const height = 120 + rowH * (data.players.length + 1) + 30 + 22 * (bests.length + 1)
    + 40 + 24 * (data.hands.length + 1) + 30;
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#1f4d3a";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = INK;
  ctx.font = "bold 26px sans-serif";
  ctx.fillText(S.title, 24, 44);
  ctx.font = "15px sans-serif";
  ctx.fillText([data.variant, data.ended_at].filter(Boolean).join(" · "), 24, 72);
  const cols = [24, 250, 340, 420, 520];
  let y = 110;
  ctx.font = "bold 14px sans-serif";
  ["", S.total, S.wins, S.self_draws, S.fed].forEach((h, i) => ctx.fillText(h, cols[i], y));
  ctx.font = "16px sans-serif";
  for (const p of data.players) {
    y += rowH;
    const marks = p.marks.map((m) => S[m]).join(" ");
    ctx.fillStyle = INK;
    ctx.fillText(p.name, cols[0], y);
    if (marks) {
      ctx.fillStyle = GOLD;
      ctx.font = "12px sans-serif";
      ctx.fillText(marks, cols[0], y + 14);
      ctx.font = "16px sans-serif";
    }
    ctx.fillStyle = tone(p.total);
    ctx.fillText(String(p.total), cols[1], y);
    ctx.fillStyle = INK;
    ctx.fillText(String(p.wins), cols[2], y);
    ctx.fillText(String(p.self_draws), cols[3], y);
    ctx.fillText(String(p.fed), cols[4], y);
  }
  y += 44;
  ctx.font = "bold 13px sans-serif";
  ctx.fillText(S.best, 24, y);
  ctx.font = "13px sans-serif";
  for (const p of bests) {
    y += 22;
    ctx.fillText(bestLine(p).slice(0, 80), 24, y);
  }
  y += 40;
  ctx.font = "bold 13px sans-serif";
  ctx.fillText(S.hand, 24, y);
  data.players.forEach((p, i) => ctx.fillText(p.name.slice(0, 10), 90 + i * 130, y));
  ctx.font = "13px sans-serif";
  for (const h of data.hands) {
    y += 24;
    ctx.fillStyle = INK;
    ctx.fillText(String(h.number), 24, y);
    h.deltas.forEach((d, i) => {
      ctx.fillStyle = tone(d);
      ctx.fillText(String(d), 90 + i * 130, y);
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
