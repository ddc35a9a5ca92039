// The match page's "save as image": draws the 大结算 on a canvas from the page's data
// (json_script "records-boot") and offers it as a PNG download.
import { drawSummary, savePNG } from "./summary_image.js";

const boot = JSON.parse(document.getElementById("records-boot").textContent);

document.getElementById("save-image").addEventListener("click", () => {
  const canvas = document.getElementById("summary-canvas");
  drawSummary(canvas, boot, boot.strings);
  savePNG(canvas, boot.filename, document.getElementById("image-link"));
});
