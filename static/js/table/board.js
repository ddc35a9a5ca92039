// The table around the seat: name plates, the other seats' hands, the discard pools, the
// centre, the payments feed and what the variant shows everyone; renderState draws it all.
import { backEl, parseTiles, setWildKinds, sortTiles, tileEl } from "../tiles.js";
import {
  boot, fmt, named, posOf, S, seatName, table, tileName, windOf,
} from "./state.js";
import { $, el } from "./ui.js";
import { flowersEl, meldEl, renderMine } from "./hand.js";
import { renderActions } from "./actions.js";
import { queBadge, stateBadge } from "./variant_ui.js";

function plateEl(k) {
  const { state, room, settled } = table;
  const p = state ? state.players[k] : null;
  const rs = room ? room.seats[k] : null;
  const plate = el("div", "plate");
  plate.dataset.seat = k;
  if (state && state.turn === k && state.phase === "play") plate.classList.add("is-turn");
  if (p && p.won) plate.classList.add("has-won");
  if (state) {
    const wind = el("span", `wind${state.dealer === k ? " is-dealer" : ""}`, windOf(k));
    wind.title = state.dealer === k ? `${S.seat_wind} · ${S.dealer}` : S.seat_wind;
    plate.append(wind);
  }
  const name = el("span", "plate-name", seatName(k));
  name.title = seatName(k);
  plate.append(name);
  if (rs && rs.is_bot) plate.append(el("span", "tag", S.bot));
  if (rs && rs.auto) plate.append(el("span", "tag tag-auto", S.auto_tag));
  if (rs && rs.user_id && !rs.is_bot && !rs.connected) plate.append(el("span", "tag tag-off", "⚡"));
  if (p && p.left) plate.append(el("span", "tag tag-off", S.left));
  if (rs && rs.rank) plate.append(el("span", "tag tag-rank", `${rs.rank.label[document.documentElement.lang] || rs.rank.label.en} · ${rs.rank.points}`));
  const badge = queBadge(p);
  if (badge) plate.append(badge);
  if (p && p.won) plate.append(el("span", "won-badge", S.hu));
  if (rs) {
    // The running total always includes this hand: seats' stored scores catch up only when
    // the hand is settled, and then the settlement's totals are the truth.
    const delta = state ? state.deltas[k] : 0;
    const isSettled = settled && state && settled.hand === state.hand;
    const total = isSettled ? settled.scores[k] : rs.score + delta;
    const score = el("span", "score", String(total));
    score.title = S.running_total;
    if (delta) {
      const d = el("small", delta > 0 ? "plus" : "minus", ` (${delta > 0 ? "+" : ""}${delta})`);
      d.title = S.hand_deltas;
      score.append(d);
    }
    plate.append(score);
  }
  return plate;
}

export function renderPlates() {
  for (let k = 0; k < 4; k++) {
    const pos = posOf(k);
    const area = pos === "bottom" ? $("#my-plate") : $(`.seat-${pos}`);
    const old = area.querySelector(".plate");
    const plate = plateEl(k);
    if (old) old.replaceWith(plate);
    else area.prepend(plate);
  }
}

function renderOpponent(k) {
  const { state } = table;
  const pos = posOf(k);
  const area = $(`.seat-${pos}`);
  const p = state.players[k];
  area.replaceChildren(plateEl(k));
  const row = el("div", "seat-row");
  const hand = el("div", "hand");
  hand.dataset.handSeat = k;
  if (p.hand !== undefined && p.won) {
    hand.dataset.won = "1";
    for (const t of sortTiles(parseTiles(p.hand))) hand.append(tileEl(t, "small"));
    hand.append(tileEl(p.won.tile, "small win-tile"));
  } else if (p.hand !== undefined && state.phase === "ended") {
    hand.dataset.revealed = "1";
    for (const t of sortTiles(parseTiles(p.hand))) hand.append(tileEl(t, "small"));
  } else {
    for (let i = 0; i < p.hand_count; i++) hand.append(backEl("small"));
  }
  const melds = el("div", "melds");
  for (const m of p.melds) melds.append(meldEl(m));
  const flowers = flowersEl(p);
  if (flowers) melds.append(flowers);
  row.append(melds, hand);
  area.append(row);
}

function renderPools() {
  const { state, lastDiscard } = table;
  for (let k = 0; k < 4; k++) {
    const pool = $(`.pool-${posOf(k)}`);
    pool.replaceChildren();
    pool.dataset.seat = k;
    const p = state.players[k];
    const latest = state.claim ? { seat: state.claim.from, n: p.discards.length } : lastDiscard;
    p.discards.forEach((t, i) => {
      const last = state.claim && state.claim.from === k && i === p.discards.length - 1;
      const tile = tileEl(t, `discard${last ? " is-claimable" : ""}`);
      if (latest && latest.seat === k && latest.n === i + 1) {
        tile.classList.add("is-last");
        tile.title = `${tileName(t)} · ${S.last_discard}`;
      }
      pool.append(tile);
    });
  }
}

function renderCenter() {
  const { state } = table;
  $("#wall-count").textContent = state.wall_count;
  const winds = $("#center-winds");
  winds.replaceChildren();
  for (let k = 0; k < 4; k++) {
    const w = el("span", `cw cw-${posOf(k)}${state.turn === k && state.phase === "play" ? " is-turn" : ""}`
      + `${state.dealer === k ? " is-dealer" : ""}`, windOf(k));
    if (state.dealer === k) w.title = S.dealer;
    winds.append(w);
  }
  const claim = $("#claim-tile");
  claim.replaceChildren();
  if (state.claim) claim.append(tileEl(state.claim.tile, "claim"));
}

export function transferLine(t) {
  const li = el("li", "transfer");
  li.dataset.reason = t.reason;
  li.append(el("span", "t-from", seatName(t.from)), el("span", "t-arrow", " → "),
    el("span", "t-to", seatName(t.to)), el("strong", "t-amount", ` ${t.amount} `),
    el("span", "t-reason", named(boot.reasons[t.reason]) || t.reason));
  return li;
}

function renderFeed() {
  const feed = $("#feed");
  feed.replaceChildren();
  if (!table.state.transfers.length) {
    feed.hidden = true;
    return;
  }
  feed.hidden = false;
  feed.append(el("h3", "", S.feed));
  const ul = el("ul", "transfers");
  for (const t of table.state.transfers.slice(-6)) ul.append(transferLine(t));
  feed.append(ul);
}

/** What the variant shows everyone: the wild indicator and wilds, the dealer's streak. */
function renderTableInfo() {
  const { state } = table;
  setWildKinds(parseTiles(state.wild_kinds || ""), S.wild);
  const wild = $("#room-wild");
  wild.replaceChildren();
  wild.hidden = !state.indicator;
  if (state.indicator) {
    wild.append(el("span", "", S.indicator), tileEl(state.indicator, "mini indicator"));
    const kinds = parseTiles(state.wild_kinds || "");
    if (kinds.length) {
      wild.append(el("span", "", S.wilds));
      for (const t of kinds) wild.append(tileEl(t, "mini"));
    }
  }
  const streak = $("#room-streak");
  const m = state.match || {};
  const parts = [];
  if (boot.winds) parts.push(fmt(S.prevailing, { wind: S.winds[m.prevailing || 0] }));
  if (m.streak > 1) parts.push(fmt(S.streak, { n: m.streak }));
  const badge = stateBadge(state);
  if (badge) parts.push(badge.text);
  streak.textContent = parts.join(" · ");
  streak.hidden = !parts.length;
  if (badge) streak.title = badge.help;
}

export function renderState() {
  const { state, room } = table;
  if (!state) return;
  $("#table").dataset.phase = state.phase;
  renderTableInfo();
  $("#prestart").hidden = true;
  for (let k = 0; k < 4; k++) if (posOf(k) !== "bottom") renderOpponent(k);
  renderPools();
  renderCenter();
  renderMine();
  renderPlates();
  renderActions();
  renderFeed();
  if (room) {
    $("#room-hand").textContent = fmt(S.hand_no, { n: state.hand, total: room.hands_total });
  }
}
