// The 大结算 at the table: once the match is over and recorded (the room payload's
// match_id), its summary is read from /api/matches/<id>/summary/ and shown over the table to
// every seat and spectator: totals, wins, 自摸/点炮, best hands, the 大赢家 / 最佳炮手 marks
// and the hand-by-hand table. "Save as image" draws the same data on a canvas (a PNG made
// in the browser); the record page holds the rest. A reload shows it again: the snapshot's
// room payload carries the match id.
import { api } from "../net.js";
import { drawSummary, savePNG } from "../summary_image.js";
import { boot, fmt, named, S, table } from "./state.js";
import { $, el, refusal, toast } from "./ui.js";
import { SPEC, winParts } from "./variant_ui.js";

let fetched = null; // the match id whose summary was asked for
let data = null; // {match, summary}

function imageWords() {
  return {
    title: S.summary_title, total: S.sum_total, wins: S.sum_wins, self_draws: S.sum_self_draws,
    fed: S.sum_fed, best: S.sum_best, big_winner: S.big_winner, top_feeder: S.top_feeder,
    hand: S.sum_hand, hand_no: S.hand_no_short,
  };
}

function cell(tag, text, v) {
  return el(tag, v > 0 ? "plus" : v < 0 ? "minus" : "", text);
}

function standings(players) {
  const grid = el("table", "standings");
  grid.id = "summary-standings";
  const head = el("tr");
  for (const h of ["", S.sum_total, S.sum_wins, S.sum_self_draws, S.sum_fed]) {
    head.append(el("th", "", h));
  }
  grid.append(el("thead"), el("tbody"));
  grid.tHead.append(head);
  for (const p of players) {
    const tr = el("tr");
    tr.dataset.seat = p.seat;
    const who = el("th", "", p.name);
    for (const m of p.marks) {
      const mark = el("span", `mark mark-${m}`, S[m]);
      mark.dataset.mark = m;
      who.append(" ", mark);
    }
    tr.append(who, cell("td", String(p.total), p.total), el("td", "", String(p.wins)),
      el("td", "", String(p.self_draws)), el("td", "", String(p.fed)));
    grid.tBodies[0].append(tr);
  }
  return grid;
}

function bestHands(players) {
  const ul = el("ul", "best-hands");
  ul.id = "summary-best";
  for (const p of players.filter((q) => q.best)) {
    const li = el("li");
    li.dataset.seat = p.seat;
    li.append(el("b", "", p.name), `: ${fmt(S.hand_no_short, { n: p.best.number })} · `,
      el("span", "best-line", winParts(p.best).line));
    ul.append(li);
  }
  return ul;
}

function perHand(players, hands) {
  const grid = el("table", "per-hand");
  grid.id = "summary-hands";
  const head = el("tr");
  head.append(el("th", "", "#"));
  for (const p of players) head.append(el("th", "", p.name));
  head.append(el("th", "", S.sum_wins));
  grid.append(el("thead"), el("tbody"));
  grid.tHead.append(head);
  for (const h of hands) {
    const tr = el("tr");
    tr.dataset.hand = h.id;
    tr.append(el("th", "", String(h.number)));
    for (const d of h.deltas) tr.append(cell("td", String(d), d));
    const wins = h.wins.map((w) => `${w.name}: ${w.win_type === "self_draw" ? S.self_draw
      : fmt(S.on_discard, { name: w.from_name })} (${winParts(w).total})`);
    tr.append(el("td", "", wins.join("; ") || S.sum_drawn));
    grid.tBodies[0].append(tr);
  }
  return grid;
}

function scroller(child) {
  const box = el("div", "scroll-x");
  box.append(child);
  return box;
}

function render() {
  const { match, summary } = data;
  const dlg = $("#summary");
  dlg.replaceChildren();
  dlg.dataset.match = match.id;
  dlg.dataset.endedBy = match.ended_by;
  const head = el("header", "result-head");
  head.append(el("h2", "", S.summary_title));
  head.id = "summary-title";
  const variant = table.room ? named(table.room.variant_name) : match.variant;
  head.append(el("p", "muted", `${variant} · ${S[`ended_${match.ended_by}`] || match.ended_by}`));
  const body = el("div", "result-body");
  body.append(scroller(standings(summary.players)));
  if (summary.players.some((p) => p.best)) {
    body.append(el("h3", "", S.sum_best), bestHands(summary.players));
  }
  body.append(el("h3", "", S.sum_hand), scroller(perHand(summary.players, summary.hands)));
  const canvas = el("canvas");
  canvas.id = "summary-canvas";
  canvas.hidden = true;
  body.append(canvas);
  const foot = el("footer", "result-foot");
  const save = el("button", "button", S.save_image);
  save.type = "button";
  save.id = "summary-save";
  const link = el("a", "button button-quiet", S.save_image);
  link.id = "summary-image-link";
  link.hidden = true;
  save.onclick = () => {
    drawSummary(canvas, {
      variant,
      club: (table.room && table.room.club_name) || "",
      room: fmt(S.room_no, { n: match.room }),
      ended: S[`ended_${match.ended_by}`] || match.ended_by,
      ended_at: match.ended_at.slice(0, 16).replace("T", " "),
      result: SPEC,
      players: summary.players,
      hands: summary.hands,
    }, imageWords());
    savePNG(canvas, `match-${match.id}.png`, link);
  };
  const record = el("a", "button button-quiet", S.match_record);
  record.id = "summary-record";
  record.href = `/records/matches/${match.id}/`;
  const back = el("a", "button button-quiet", table.room && table.room.club
    ? S.back_to_club : S.back_to_lobby);
  back.id = "summary-back";
  back.href = boot.lobby_url;
  const close = el("button", "button button-quiet", S.close);
  close.type = "button";
  close.id = "summary-close";
  close.onclick = () => dlg.close();
  foot.append(save, link, record, back, close);
  dlg.append(head, body, foot);
}

/** Show the summary (fetched once per match). */
export function openSummary() {
  if (!data) return;
  // Shown over the last hand's result, which stays open beneath it.
  render();
  const dlg = $("#summary");
  if (!dlg.open) dlg.showModal();
}

/** The room changed: once its match is recorded, fetch and show the 大结算. */
export function renderSummary() {
  const { room } = table;
  const id = room && room.status === "finished" ? room.match_id : null;
  $("#btn-summary").hidden = !id;
  if (!id || fetched === id) return;
  fetched = id;
  Promise.all([api("GET", `/api/matches/${id}/`), api("GET", `/api/matches/${id}/summary/`)])
    .then(([match, summary]) => {
      data = { match, summary };
      openSummary();
    })
    .catch((e) => {
      fetched = null; // asked again with the next room payload
      toast(refusal(e));
    });
}

export function installSummary() {
  $("#btn-summary").addEventListener("click", openSummary);
}
