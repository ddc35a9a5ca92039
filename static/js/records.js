// The match page's "save as image": draws the 大结算 on a canvas from the page's data
// (json_script "records-boot") and offers it as a PNG download; writes the best hands'
// sums.
import { scoreParts } from "./score_line.js";
import { drawSummary, savePNG } from "./summary_image.js";

const boot = JSON.parse(document.getElementById("records-boot").textContent);

// Each best hand as its items adding up to its value (the server wrote the bare items).
for (const p of boot.players) {
  const line = p.best && document.querySelector(`.best-line[data-seat="${p.seat}"]`);
  if (line) line.textContent = scoreParts(p.best, boot.result).line;
}

document.getElementById("save-image").addEventListener("click", () => {
  const canvas = document.getElementById("summary-canvas");
  drawSummary(canvas, boot, boot.strings);
  savePNG(canvas, boot.filename, document.getElementById("image-link"));
});
