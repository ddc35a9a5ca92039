// The result dialog at a hand's end: each win with its tiles, items and payments, the other
// payments, the scores (totals once settled), the final standings, and what to do next.
import { parseTiles, sortTiles, tileEl } from "../tiles.js";
import {
  boot, canReady, displayName, fmt, named, S, seatName, table,
} from "./state.js";
import { $, el } from "./ui.js";
import { meldEl } from "./hand.js";
import { transferLine } from "./board.js";
import { sendReady } from "./actions.js";
import { endChecksEl, winParts } from "./variant_ui.js";

// Payments to a winner that belong to its win though not made by it (the variant's data).
const winReasons = boot.variant.result.win_reasons || [];

function winDescription(w) {
  if (w.win_type === "self_draw") return S.self_draw;
  if (w.win_type === "rob_kong") return fmt(S.rob_kong, { name: seatName(w.from) });
  return fmt(S.on_discard, { name: seatName(w.from) });
}

function scoresTable() {
  const { settled, handEnd, room } = table;
  const grid = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", ""));
  for (let k = 0; k < 4; k++) head.append(el("th", "", seatName(k)));
  grid.append(head);
  const deltas = settled ? settled.deltas : handEnd.result ? handEnd.result.deltas : [0, 0, 0, 0];
  const row = (label, values, cls) => {
    const tr = el("tr", cls);
    tr.append(el("th", "", label));
    values.forEach((v) => {
      const td = el("td", v > 0 ? "plus" : v < 0 ? "minus" : "", v === null ? "…"
        : `${v > 0 && cls !== "totals" ? "+" : ""}${v}`);
      tr.append(td);
    });
    grid.append(tr);
  };
  row(S.hand_deltas, deltas, "hand-deltas");
  if (settled) {
    row(S.totals, settled.scores, "totals");
    if (settled.ratings && settled.ratings.length && room.rated) {
      const byseat = [null, null, null, null];
      for (const r of settled.ratings) byseat[r.seat] = r.change;
      const tr = el("tr", "ratings");
      tr.append(el("th", "", S.rating));
      byseat.forEach((v) => tr.append(el("td", v > 0 ? "plus" : v < 0 ? "minus" : "",
        v === null ? "–" : `${v > 0 ? "+" : ""}${v}`)));
      grid.append(tr);
    }
  } else {
    row(S.totals, [null, null, null, null], "totals pending");
  }
  return grid;
}

function winSection(w, transfers, how, winPaid) {
  const sec = el("section", "result-win");
  sec.dataset.seat = w.seat;
  const title = el("h3", "");
  title.append(el("span", "won-badge", S.hu), ` ${seatName(w.seat)} · ${winDescription(w)}`);
  sec.append(title);
  const tiles = el("div", "result-tiles");
  const p = table.handEnd.hands[w.seat];
  const melds = el("span", "melds");
  for (const m of (p && p.melds) || []) melds.append(meldEl(m));
  const hand = el("span", "hand");
  for (const t of sortTiles(parseTiles(w.hand))) hand.append(tileEl(t, "small"));
  tiles.append(melds, hand, tileEl(w.tile, "small win-tile"));
  sec.append(tiles);
  const items = el("p", "result-items");
  items.dataset.total = w.total;
  const parts = winParts(w);
  for (const it of parts.items) {
    const s = el("span", "result-item", it.text);
    s.dataset.pattern = it.id;
    items.append(s);
  }
  items.append(el("strong", "result-total", parts.total));
  sec.append(items);
  // In words first (the patterns, who paid whom); the algebra folded beneath.
  const paid = transfers.filter((t) => t.win === w.order
    || (winReasons.includes(t.reason) && t.to === w.seat));
  if (paid.length) {
    const ul = el("ul", "transfers result-paid");
    for (const t of paid) {
      ul.append(transferLine(t));
      winPaid.add(t);
    }
    sec.append(ul);
  }
  if (how) {
    const fold = el("details", "result-how");
    fold.append(el("summary", "", S.how_computed), el("p", "result-explain", named(how)));
    sec.append(fold);
  }
  return sec;
}

export function renderResult() {
  const { handEnd, settled, state, room } = table;
  const dlg = $("#result");
  if (!handEnd || table.dismissedResult === handEnd.hand) return;
  if (state && state.hand > handEnd.hand) return;
  dlg.replaceChildren();
  dlg.dataset.hand = handEnd.hand;
  const r = handEnd.result || {};
  const wins = handEnd.wins || [];
  dlg.dataset.resultReason = wins.length ? "win" : "exhausted";
  const head = el("header", "result-head");
  head.append(el("h2", "", fmt(S.result_title, { n: handEnd.hand })));
  head.id = "result-title";
  dlg.append(head);
  const body = el("div", "result-body");
  dlg.append(body);
  if (!wins.length) body.append(el("p", "result-drawn", S.drawn_game));
  else if (r.reason === "exhausted") body.append(el("p", "result-note", S.wall_out));
  const explain = handEnd.explain || [];
  // Payments during play come with the result; end-of-hand ones (查叫, refunds) with the
  // settlement, which repeats them all.
  const transfers = settled ? settled.transfers : handEnd.transfers;
  const winPaid = new Set();
  wins.forEach((w, n) => body.append(winSection(w, transfers, explain[n], winPaid)));
  const checks = endChecksEl(handEnd, settled);
  if (checks) body.append(checks);
  const others = transfers.filter((t) => !winPaid.has(t));
  if (others.length || !transfers.length) {
    const tsec = el("section", "result-transfers");
    tsec.append(el("h3", "", winPaid.size ? S.other_payments : S.transfers));
    if (others.length) {
      const ul = el("ul", "transfers");
      for (const t of others) ul.append(transferLine(t));
      tsec.append(ul);
    } else {
      tsec.append(el("p", "muted", S.no_transfers));
    }
    body.append(tsec);
  }
  body.append(scoresTable());
  if (room && room.status === "finished") {
    const fin = el("section", "result-final");
    fin.append(el("h3", "", S.final));
    const order = [...room.seats].sort((a, b) => b.score - a.score);
    const ol = el("ol", "standings");
    for (const s of order) {
      ol.append(el("li", "", `${s.user_id ? displayName(s) : S.empty_seat} · ${s.score}`));
    }
    fin.append(ol, el("p", "muted", S.game_over));
    body.append(fin);
  }
  dlg.append(resultFoot());
  if (!dlg.open) dlg.showModal();
}

function resultFoot() {
  const { handEnd, room } = table;
  const foot = el("footer", "result-foot");
  if (room && room.status !== "finished") {
    const next = el("p", "result-next");
    next.append(el("span", "next-hand", ""));
    foot.append(next);
  }
  if (canReady()) {
    const b = el("button", "button button-big", S.ready_next);
    b.id = "btn-result-ready";
    b.dataset.type = "ready";
    b.onclick = () => {
      sendReady();
      closeResult();
    };
    foot.append(b);
  }
  if (room && room.status === "finished") {
    const a = el("a", "button", room.club ? S.back_to_club : S.back_to_lobby);
    a.id = "result-back";
    a.href = boot.lobby_url;
    foot.append(a);
  }
  if (handEnd.hand_id) {
    // The replay of this hand, with the check of its deal against the revealed seed.
    const replay = el("a", "button button-quiet", S.replay_hand);
    replay.id = "result-replay";
    replay.href = `/hands/${handEnd.hand_id}/`;
    replay.target = "_blank";
    replay.rel = "noopener";
    foot.append(replay);
  }
  const close = el("button", "button button-quiet", S.close);
  close.id = "btn-result-close";
  close.onclick = closeResult;
  foot.append(close);
  return foot;
}

export function closeResult() {
  const dlg = $("#result");
  if (table.handEnd) table.dismissedResult = table.handEnd.hand;
  if (dlg.open) dlg.close();
}

export function installResult() {
  $("#result").addEventListener("cancel", () => {
    if (table.handEnd) table.dismissedResult = table.handEnd.hand;
  });
}
