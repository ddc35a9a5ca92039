// The seat's own tiles and melds at the bottom of the table, with the waits hint; a
// spectator sees seat 0's tiles face down. Melds and flowers are drawn the same for every seat.
import { backEl, parseTiles, sortTiles, tileEl } from "../tiles.js";
import {
  base, fmt, legalDiscards, myTiles, S, shownTiles, table, tileName,
} from "./state.js";
import { $, el, patch } from "./ui.js";
import { call } from "./calls.js";
import { picking, scoreUnit, tileMark } from "./variant_ui.js";

export function meldEl(m) {
  const g = el("span", `meld meld-${m.kind}${m.concealed ? " meld-concealed" : ""}`);
  g.dataset.kind = m.kind;
  if (m.tiles === null) {
    for (let i = 0; i < 4; i++) g.append(backEl("small"));
    return g;
  }
  parseTiles(m.tiles).forEach((t, i) => {
    const hidden = m.concealed && m.kind === "gang" && (i === 0 || i === 3);
    g.append(hidden ? backEl("small") : tileEl(t, "small"));
  });
  return g;
}

/** A seat's laid-out flowers (public; variants with bonus tiles), or null. */
export function flowersEl(p) {
  const tiles = parseTiles(p.flowers || "");
  if (!tiles.length) return null;
  const g = el("span", "meld flowers");
  g.dataset.kind = "flowers";
  g.title = S.flowers;
  for (const t of tiles) g.append(tileEl(t, "small flower"));
  return g;
}

/** The waits a discard of ``t`` leaves (from the server's hint), or null. */
function readyAfter(t) {
  const h = table.state && table.state.hints;
  return (h && h.discards && h.discards[t]) || null;
}

function waitsEl(waits) {
  const box = el("span", "waits");
  for (const w of waits) {
    const item = el("span", `wait${w.left ? "" : " wait-dead"}`);
    item.dataset.tile = w.tile;
    item.dataset.left = w.left;
    item.append(tileEl(w.tile, "mini"), el("small", "wait-left", fmt(S.left_n, { n: w.left })));
    item.title = `${tileName(w.tile)}: ${fmt(S.unseen_n, { n: w.left })} · ${w.fan}${scoreUnit()}`;
    box.append(item);
  }
  return box;
}

function renderHint() {
  const box = $("#hint");
  box.replaceChildren();
  const h = table.mySeat !== null && table.state ? table.state.hints : null;
  let waits = null;
  let label = S.hint_ready;
  if (h && h.waits && h.waits.length) {
    waits = h.waits;
  } else if (h && h.discards) {
    const all = shownTiles();
    const chosen = table.selected !== null ? all[table.selected] : null;
    if (chosen && h.discards[chosen]) {
      waits = h.discards[chosen];
      label = fmt(S.hint_after, { tile: tileName(chosen) });
    } else if (Object.keys(h.discards).length) {
      box.hidden = false;
      box.dataset.kind = "discards";
      box.append(el("span", "hint-label", S.hint_pick));
      return;
    }
  }
  box.hidden = !waits;
  if (!waits) return;
  box.dataset.kind = "waits";
  const total = waits.reduce((a, w) => a + w.left, 0);
  box.append(el("span", "hint-label", label), waitsEl(waits),
    el("span", "hint-total", fmt(S.unseen_n, { n: total })));
}

export function renderMine() {
  patch($("#my-melds"), (meldBox) => patch($("#my-hand"), (handBox) => buildMine(handBox, meldBox)));
  renderHint();
}

function buildMine(handBox, meldBox) {
  const { state, mySeat } = table;
  const k = base();
  handBox.dataset.handSeat = k;
  delete handBox.dataset.won;
  delete handBox.dataset.revealed;
  const p = state.players[k];
  for (const m of p.melds) meldBox.append(meldEl(m));
  const flowers = flowersEl(p);
  if (flowers) meldBox.append(flowers);
  if (mySeat === null) {
    // A spectator sits "at" seat 0 and sees its tiles face down like everyone's.
    if (p.won && p.hand !== undefined) {
      handBox.dataset.won = "1";
      for (const t of sortTiles(parseTiles(p.hand))) handBox.append(tileEl(t));
      handBox.append(tileEl(p.won.tile, "win-tile"));
    } else if (p.hand !== undefined && state.phase === "ended") {
      handBox.dataset.revealed = "1";
      for (const t of sortTiles(parseTiles(p.hand))) handBox.append(tileEl(t));
    } else {
      for (let i = 0; i < p.hand_count; i++) handBox.append(backEl());
    }
    return;
  }
  if (p.won) handBox.dataset.won = "1";
  const legal = legalDiscards();
  const pickable = picking() && !table.pending;
  const { tiles, drawn } = myTiles();
  const all = drawn ? [...tiles, drawn] : tiles;
  all.forEach((t, i) => {
    const isDrawn = drawn && i === all.length - 1;
    const tEl = tileEl(t, isDrawn ? "drawn" : "");
    tEl.dataset.index = i;
    const mark = tileMark(p, t);
    if (mark) tEl.classList.add(mark);
    if (legal.has(t)) {
      tEl.dataset.legal = "discard";
      tEl.classList.add("playable");
      tEl.tabIndex = 0;
    } else if (pickable) {
      tEl.dataset.legal = "pick";
      tEl.classList.add("playable");
    } else if (legal.size) {
      tEl.classList.add("locked");
    }
    if (table.selected === i) tEl.classList.add("selected");
    if (table.picked.has(i)) tEl.classList.add("selected");
    const after = readyAfter(t);
    if (after && legal.has(t)) {
      tEl.classList.add("keeps-ready");
      tEl.title = `${tileName(t)} · ${fmt(S.discard_keeps_ready, { n: after.length })}`;
    }
    tEl.addEventListener("click", () => call("onTileClick", i, t));
    handBox.append(tEl);
  });
  if (p.won) handBox.append(tileEl(p.won.tile, "win-tile"));
}
