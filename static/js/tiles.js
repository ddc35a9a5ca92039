// Mahjong tile faces drawn as SVG at runtime (no image files, no fonts beyond the system's CJK).
// A tile is named in the rules' notation: "5m" 万, "5p" 筒, "5s" 条, "1z".."7z" honours, "1f".."8f".

const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = ["", "东", "南", "西", "北", "白", "发", "中"];
const FLOWERS = ["", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const RED = "#c0221b";
const GREEN = "#17804a";
const BLUE = "#1d3f8f";
const INK = "#1b1b1b";
const CJK = "'Noto Serif CJK SC','Songti SC','STSong','SimSun','Noto Sans CJK SC','PingFang SC',"
  + "'Microsoft YaHei','WenQuanYi Micro Hei',serif";

// Tile art lives in a 60 x 80 box.
const W = 60;
const H = 80;

function text(x, y, size, fill, s, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" font-family="${CJK}" font-weight="${weight}"`
    + ` fill="${fill}" text-anchor="middle" dominant-baseline="central">${s}</text>`;
}

function characters(n) {
  return text(30, 23, 27, INK, NUMERALS[n]) + text(30, 57, 30, RED, "萬");
}

function dot(x, y, r, color) {
  // A 筒 pip: coloured ring, ivory ring, coloured core with a small highlight.
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>`
    + `<circle cx="${x}" cy="${y}" r="${r * 0.72}" fill="#fbf7ec"/>`
    + `<circle cx="${x}" cy="${y}" r="${r * 0.5}" fill="${color}"/>`
    + `<circle cx="${x}" cy="${y}" r="${r * 0.18}" fill="#fbf7ec"/>`;
}

const DOT_LAYOUTS = {
  1: [[30, 40, 20, RED]],
  2: [[30, 22, 11, GREEN], [30, 58, 11, BLUE]],
  3: [[15, 16, 9, BLUE], [30, 40, 9, RED], [45, 64, 9, GREEN]],
  4: [[17, 21, 10, BLUE], [43, 21, 10, GREEN], [17, 59, 10, GREEN], [43, 59, 10, BLUE]],
  5: [[16, 18, 9, BLUE], [44, 18, 9, GREEN], [30, 40, 9, RED], [16, 62, 9, GREEN],
    [44, 62, 9, BLUE]],
  6: [[18, 15, 8.5, GREEN], [42, 15, 8.5, GREEN], [18, 42, 8.5, RED], [42, 42, 8.5, RED],
    [18, 65, 8.5, RED], [42, 65, 8.5, RED]],
  7: [[14, 11, 7, GREEN], [30, 20, 7, GREEN], [46, 29, 7, GREEN], [19, 48, 7.5, RED],
    [41, 48, 7.5, RED], [19, 67, 7.5, RED], [41, 67, 7.5, RED]],
  8: [[19, 12, 7.5, BLUE], [41, 12, 7.5, BLUE], [19, 31, 7.5, BLUE], [41, 31, 7.5, BLUE],
    [19, 50, 7.5, BLUE], [41, 50, 7.5, BLUE], [19, 69, 7.5, BLUE], [41, 69, 7.5, BLUE]],
  9: [[13, 15, 7.5, BLUE], [30, 15, 7.5, BLUE], [47, 15, 7.5, BLUE],
    [13, 40, 7.5, RED], [30, 40, 7.5, RED], [47, 40, 7.5, RED],
    [13, 65, 7.5, GREEN], [30, 65, 7.5, GREEN], [47, 65, 7.5, GREEN]],
};

function circles(n) {
  return DOT_LAYOUTS[n].map(([x, y, r, c]) => dot(x, y, r, c)).join("");
}

function stick(x, y, h, color, angle = 0) {
  // A 条 bamboo stick: a rounded stem with a joint in the middle and caps at both ends.
  const w = 7;
  const rot = angle ? ` transform="rotate(${angle} ${x} ${y})"` : "";
  const top = y - h / 2;
  return `<g${rot}><rect x="${x - w / 2}" y="${top}" width="${w}" height="${h}" rx="3.5"`
    + ` fill="${color}"/>`
    + `<rect x="${x - w / 2 - 1}" y="${y - 1.3}" width="${w + 2}" height="2.6" rx="1.3" fill="${color}"`
    + ` stroke="#fbf7ec" stroke-width="0.8"/>`
    + `<line x1="${x}" y1="${top + 3}" x2="${x}" y2="${top + h - 3}" stroke="#fbf7ec"`
    + ` stroke-width="1.2" stroke-opacity="0.55"/></g>`;
}

const STICK_LAYOUTS = {
  2: [[30, 22, 26, GREEN], [30, 58, 26, BLUE]],
  3: [[30, 22, 26, GREEN], [18, 58, 26, GREEN], [42, 58, 26, GREEN]],
  4: [[18, 22, 26, GREEN], [42, 22, 26, BLUE], [18, 58, 26, BLUE], [42, 58, 26, GREEN]],
  5: [[15, 22, 26, GREEN], [45, 22, 26, BLUE], [30, 40, 26, RED], [15, 58, 26, BLUE],
    [45, 58, 26, GREEN]],
  6: [[15, 22, 26, GREEN], [30, 22, 26, GREEN], [45, 22, 26, GREEN], [15, 58, 26, BLUE],
    [30, 58, 26, BLUE], [45, 58, 26, BLUE]],
  7: [[30, 14, 20, RED], [15, 40, 20, GREEN], [30, 40, 20, GREEN], [45, 40, 20, GREEN],
    [15, 66, 20, GREEN], [30, 66, 20, GREEN], [45, 66, 20, GREEN]],
  9: [[15, 14, 20, GREEN], [30, 14, 20, RED], [45, 14, 20, BLUE], [15, 40, 20, GREEN],
    [30, 40, 20, RED], [45, 40, 20, BLUE], [15, 66, 20, GREEN], [30, 66, 20, RED],
    [45, 66, 20, BLUE]],
};

function bamboo(n) {
  if (n === 1) return bird();
  if (n === 8) {
    // Two "M" shapes, as on real 八条 tiles.
    const out = [];
    for (const [cy, color] of [[22, GREEN], [58, BLUE]]) {
      out.push(stick(10, cy, 24, color), stick(50, cy, 24, color));
      out.push(stick(23, cy, 26, color, cy < 40 ? 22 : -22));
      out.push(stick(37, cy, 26, color, cy < 40 ? -22 : 22));
    }
    return out.join("");
  }
  return STICK_LAYOUTS[n].map(([x, y, h, c]) => stick(x, y, h, c)).join("");
}

function bird() {
  // 幺鸡: a small green bird on a branch.
  return `<path d="M12 64 Q30 58 50 66" stroke="#7a4a1c" stroke-width="3" fill="none"/>`
    + `<path d="M16 50 Q10 30 26 24 Q40 20 44 34 Q48 48 34 56 Q24 60 16 50 Z" fill="${GREEN}"/>`
    + `<path d="M20 48 Q14 62 8 70 M24 52 Q22 66 18 74" stroke="${GREEN}" stroke-width="3"`
    + ` fill="none" stroke-linecap="round"/>`
    + `<circle cx="40" cy="22" r="8" fill="${GREEN}"/>`
    + `<path d="M47 20 L55 23 L47 26 Z" fill="${RED}"/>`
    + `<circle cx="42" cy="20" r="2" fill="#fbf7ec"/><circle cx="42.5" cy="20" r="1" fill="${INK}"/>`
    + `<path d="M24 34 Q32 30 38 38 Q30 44 24 34 Z" fill="${RED}"/>`
    + `<path d="M34 13 Q38 4 44 8" stroke="${RED}" stroke-width="2.2" fill="none"/>`;
}

function honour(n) {
  if (n === 5) {
    // 白板: an empty blue frame.
    return `<rect x="11" y="12" width="38" height="56" rx="3" fill="none" stroke="${BLUE}"`
      + ` stroke-width="3.5"/><rect x="16" y="17" width="28" height="46" rx="2" fill="none"`
      + ` stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  const color = n === 6 ? GREEN : n === 7 ? RED : INK;
  const glyph = HONOURS[n];
  return text(30, 41, 40, color, glyph, 900);
}

function flower(n) {
  const color = n <= 4 ? RED : BLUE;
  return text(30, 38, 32, color, FLOWERS[n]) + text(50, 70, 13, GREEN, String(n <= 4 ? n : n - 4));
}

// The small corner index, for players who do not read the characters: the number, the
// wind's letter, a letter for each dragon and flower.
const INDEX_HONOURS = ["", "E", "S", "W", "N", "Wh", "G", "R"];
const INDEX_FLOWERS = ["", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"];

function cornerIndex(code) {
  const n = Number(code[0]);
  const suit = code[1];
  const label = suit === "z" ? INDEX_HONOURS[n] : suit === "f" ? INDEX_FLOWERS[n] : String(n);
  return `<text class="tile-index" x="3" y="3" font-size="13" font-family="sans-serif"`
    + ` font-weight="700" fill="${INK}" stroke="#fbf7ec" stroke-width="3" paint-order="stroke"`
    + ` text-anchor="start" dominant-baseline="hanging">${label}</text>`;
}

const INDEX_KEY = "mh-tile-index";

/** Whether faces show their corner index: the reader's choice, else on for English pages. */
export function tileIndexOn() {
  try {
    const kept = localStorage.getItem(INDEX_KEY);
    if (kept !== null) return kept === "1";
  } catch {
    // private mode: the page's language decides
  }
  return !(document.documentElement.lang || "").toLowerCase().startsWith("zh");
}

/** Show or hide every face's corner index, and keep the choice in this browser. */
export function setTileIndex(on, keep = true) {
  document.documentElement.classList.toggle("tile-index-on", on);
  if (!keep) return;
  try {
    localStorage.setItem(INDEX_KEY, on ? "1" : "0");
  } catch {
    // private mode: for this page only
  }
}

setTileIndex(tileIndexOn(), false);

const cache = new Map();

export function faceSvg(code) {
  if (cache.has(code)) return cache.get(code);
  const n = Number(code[0]);
  const suit = code[1];
  let art = "";
  if (suit === "m") art = characters(n);
  else if (suit === "p") art = circles(n);
  else if (suit === "s") art = bamboo(n);
  else if (suit === "z") art = honour(n);
  else if (suit === "f") art = flower(n);
  const svg = `<svg viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">${art}`
    + `${cornerIndex(code)}</svg>`;
  cache.set(code, svg);
  return svg;
}

const SUIT_NAMES = { m: "万", p: "筒", s: "条" };

export function tileLabel(code) {
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === "z") return HONOURS[n];
  if (suit === "f") return FLOWERS[n];
  return `${NUMERALS[n]}${SUIT_NAMES[suit] || ""}`;
}

const EN_SUITS = { m: "Characters", p: "Dots", s: "Bamboo" };
const EN_HONOURS = ["", "East wind", "South wind", "West wind", "North wind", "White dragon",
  "Green dragon", "Red dragon"];
const EN_FLOWERS = ["", "Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo flower",
  "Chrysanthemum"];

/** A tile in words in ``lang``: 五筒 in Chinese, "5 Dots" / "Red dragon" in English. */
export function tileNameIn(lang, code) {
  if (lang === "zh-hans") return tileLabel(code);
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === "z") return EN_HONOURS[n];
  if (suit === "f") return EN_FLOWERS[n];
  return `${n} ${EN_SUITS[suit]}`;
}

// How a tile is named to the reader (tooltips, screen readers): Chinese unless a page says.
let tileName = tileLabel;

/** Name tiles in the page's language, e.g. "5 Dots" on an English page. */
export function setTileNames(namer) {
  tileName = namer;
}

// The kinds that are wild at this table (from the state's public `wild_kinds`) and how a
// wild is called in the page's language; every face of such a kind is marked.
let wildKinds = new Set();
let wildWord = "wild";

/** Mark these tile codes as wild on every face drawn from now on. */
export function setWildKinds(codes, word) {
  wildKinds = new Set(codes);
  if (word) wildWord = word;
}

/** A face-up tile element. */
export function tileEl(code, extraClass = "") {
  const el = document.createElement("span");
  const wild = wildKinds.has(code);
  el.className = `tile face ${extraClass}${wild ? " wild" : ""}`.trim();
  el.dataset.tile = code;
  if (wild) el.dataset.wild = "1";
  const name = wild ? `${tileName(code)} (${wildWord})` : tileName(code);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", name);
  el.title = name;
  el.innerHTML = faceSvg(code);
  return el;
}

/** A face-down tile (no information about the tile in the DOM). */
export function backEl(extraClass = "") {
  const el = document.createElement("span");
  el.className = `tile back ${extraClass}`.trim();
  el.setAttribute("aria-hidden", "true");
  return el;
}

const ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };

/** "123m55z" -> ["1m","2m","3m","5z","5z"] */
export function parseTiles(s) {
  const out = [];
  let digits = [];
  for (const ch of s || "") {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if (ch in ORDER) {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

export function sortTiles(list) {
  return [...list].sort((a, b) => ORDER[a[1]] - ORDER[b[1]] || Number(a[0]) - Number(b[0]));
}

/** The canonical string of a multiset of tiles: ["5m","1m"] -> "15m". */
export function formatTiles(list) {
  let out = "";
  let suit = null;
  for (const t of sortTiles(list)) {
    if (suit !== null && t[1] !== suit) out += suit;
    out += t[0];
    suit = t[1];
  }
  return suit === null ? "" : out + suit;
}
