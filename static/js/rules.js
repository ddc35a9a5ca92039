// The rules page's example hands: each written in notation by the server, drawn as tiles here.
import { setTileNames, tileEl, tileNameIn } from "./tiles.js";

const lang = document.documentElement.lang === "en" ? "en" : "zh-hans";
setTileNames((code) => tileNameIn(lang, code));
for (const box of document.querySelectorAll(".tiles[data-tiles]")) {
  const tiles = box.dataset.tiles.split(" ").map((code) => tileEl(code));
  box.replaceChildren(...tiles, " + ", tileEl(box.dataset.win, "win"));
}
