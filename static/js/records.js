// The match page's "save as image": draws the 大结算 on a canvas from the page's data
// (json_script "records-boot") and offers it as a PNG download.
const boot = JSON.parse(document.getElementById("records-boot").textContent);
const S = boot.strings;

function draw(canvas) {
  const scale = window.devicePixelRatio || 1;
  const width = 640;
  const rowH = 34;
  const handRows = boot.hands.length;
  const height = 120 + rowH * (boot.players.length + 1) + 40 + 24 * (handRows + 1) + 30;
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#1f4d3a";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#f5efe0";
  ctx.font = "bold 26px sans-serif";
  ctx.fillText(S.title, 24, 44);
  ctx.font = "15px sans-serif";
  ctx.fillText(`${boot.variant} · ${boot.ended_at}`, 24, 72);
  const cols = [24, 250, 340, 420, 520];
  let y = 110;
  ctx.font = "bold 14px sans-serif";
  ["", S.total, S.wins, S.self_draws, S.fed].forEach((h, i) => ctx.fillText(h, cols[i], y));
  ctx.font = "16px sans-serif";
  for (const p of boot.players) {
    y += rowH;
    const marks = p.marks.map((m) => S[m]).join(" ");
    ctx.fillStyle = "#f5efe0";
    ctx.fillText(p.name, cols[0], y);
    if (marks) {
      ctx.fillStyle = "#f3d36b";
      ctx.font = "12px sans-serif";
      ctx.fillText(marks, cols[0], y + 14);
      ctx.font = "16px sans-serif";
    }
    ctx.fillStyle = p.total > 0 ? "#8fe3a6" : p.total < 0 ? "#ffb0a8" : "#f5efe0";
    ctx.fillText(String(p.total), cols[1], y);
    ctx.fillStyle = "#f5efe0";
    ctx.fillText(String(p.wins), cols[2], y);
    ctx.fillText(String(p.self_draws), cols[3], y);
    ctx.fillText(String(p.fed), cols[4], y);
  }
  y += 48;
  ctx.font = "bold 13px sans-serif";
  ctx.fillText(S.hand, 24, y);
  boot.players.forEach((p, i) => ctx.fillText(p.name.slice(0, 10), 90 + i * 130, y));
  ctx.font = "13px sans-serif";
  for (const h of boot.hands) {
    y += 24;
    ctx.fillStyle = "#f5efe0";
    ctx.fillText(String(h.number), 24, y);
    h.deltas.forEach((d, i) => {
      ctx.fillStyle = d > 0 ? "#8fe3a6" : d < 0 ? "#ffb0a8" : "#f5efe0";
      ctx.fillText(String(d), 90 + i * 130, y);
    });
  }
}

const button = document.getElementById("save-image");
const link = document.getElementById("image-link");
button.addEventListener("click", () => {
  const canvas = document.getElementById("summary-canvas");
  draw(canvas);
  canvas.toBlob((blob) => {
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(blob);
    link.download = boot.filename;
    link.hidden = false;
    link.click();
  }, "image/png");
});
