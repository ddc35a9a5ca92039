// The hand page's review panel (复盘): a player of the hand asks for a review of their own
// play; the server replays the hand with the Strong bot on a worker and stores the result.
// This file asks (POST), polls the seat's review until it is ready and lists the moments,
// each linked to the replay's step where the decision was made. No rules here.
import { api } from "./net.js";
import { parseTiles, tileEl, tileNameIn } from "./tiles.js";

const boot = JSON.parse(document.getElementById("hand-boot").textContent);
const R = boot.review;
const S = R ? R.strings : {};
const MOVES = boot.strings; // the replay's words for moves (discards, Pung, Kong, …)
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const POLL_MS = 1000;
// A tile in a reason's phrase ("keeps 9p"): named in the reader's words (九筒, 9 Dots).
const TILE_CODE = /(?<![0-9A-Za-z])([1-9][mps]|[1-7]z)(?![0-9A-Za-z])/g;
const $ = (sel) => document.querySelector(sel);

function fmt(s, args = {}) {
  return s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function said(obj) {
  return obj ? obj[LANG] || obj["zh-hans"] || obj.en || "" : "";
}
function seatName(k) {
  const p = boot.record.players[k];
  if (!p) return "?";
  return p.bot_names ? said(p.bot_names) : p.name || "—";
}

/** A move as the replay words it, its tiles drawn as tiles. */
function moveEl(who, a) {
  const out = el("span", "review-move");
  out.dataset.type = a.type;
  out.append(`${fmt(S.who, { who })} ${MOVES[a.type] || MOVES.choice} `);
  const tiles = a.tile ? [a.tile] : typeof a.tiles === "string" ? parseTiles(a.tiles) : [];
  for (const t of tiles) out.append(tileEl(t, "mini"));
  return out;
}

function momentEl(entry) {
  const li = el("li", `review-moment${entry.same ? " is-same" : ""}`);
  li.dataset.seq = entry.seq;
  // The step before the move: the position the player decided from.
  const step = Math.max(0, entry.seq - 1);
  const link = el("a", "review-step", fmt(S.step, { n: step }));
  link.href = `#step=${step}`;
  // The replay follows the address's step; bring its board into view.
  link.addEventListener("click", () => $("#replay").scrollIntoView({ block: "start" }));
  const moves = el("div", "review-moves");
  const played = moveEl(S.you, entry.played);
  played.classList.add("review-played");
  moves.append(played);
  if (entry.same) {
    moves.append(el("p", "review-same", S.same));
  } else {
    const strong = moveEl(S.strong, entry.strong);
    strong.classList.add("review-strong");
    moves.append(strong);
  }
  const reason = said(entry.reason).replace(TILE_CODE, (code) => tileNameIn(LANG, code));
  li.append(link, moves, el("p", "review-reason", reason));
  return li;
}

function reviewEl(review) {
  const box = el("section", "review-result");
  box.dataset.seat = review.seat;
  const mine = review.seat === R.seat;
  const head = el("header", "review-head");
  head.append(el("h3", "", `${fmt(S.hand, { n: review.hand_number })} · ${
    mine ? S.yours : fmt(S.of_seat, { name: seatName(review.seat) })}`));
  const entries = review.entries || [];
  if (!entries.length) {
    box.append(head, el("p", "muted", S.nothing));
    return box;
  }
  const same = entries.filter((e) => e.same).length;
  head.append(el("span", "review-agreed", fmt(S.agreed, { same, total: entries.length })));
  const filter = el("label", "review-filter");
  const box2 = el("input");
  box2.type = "checkbox";
  filter.append(box2, ` ${S.only_diff}`);
  head.append(filter);
  const list = el("ol", "review-moments");
  for (const e of entries) list.append(momentEl(e));
  box2.onchange = () => box.classList.toggle("only-diff", box2.checked);
  box.classList.add("review-list");
  box.append(head, list);
  return box;
}

function status(text, state) {
  const s = $("#review-status");
  s.className = `review-status${state ? ` is-${state}` : ""}`;
  s.dataset.state = state || "";
  s.textContent = text;
}

function show(review) {
  const list = $("#review-list");
  const old = list.querySelector(`.review-result[data-seat="${review.seat}"]`);
  const box = reviewEl(review);
  if (old) old.replaceWith(box);
  else if (review.seat === R.seat) list.prepend(box);
  else list.append(box);
}

function refusal(e) {
  const words = (S.errors && S.errors[e.code]) || S[e.code];
  return words || fmt(S.error, { detail: e.detail || e.code });
}

/** Shows a review once ready; polls while it is pending. */
async function follow(review) {
  while (review.status === "pending") {
    status(S.pending, "pending");
    await new Promise((r) => setTimeout(r, POLL_MS));
    try {
      review = await api("GET", `${R.url}${review.seat}/`);
    } catch (e) {
      status(refusal(e), "error");
      return;
    }
  }
  if (review.status === "failed") {
    status(S.failed, "failed");
    return;
  }
  if (review.seat === R.seat) {
    const ask = $("#review-ask");
    if (ask) ask.hidden = true;
  }
  status("", "done");
  show(review);
}

async function ask() {
  const button = $("#review-ask");
  button.disabled = true;
  status(S.pending, "pending");
  try {
    await follow(await api("POST", R.url));
  } catch (e) {
    status(refusal(e), "error");
  } finally {
    button.disabled = false;
  }
}

async function init() {
  if (!R) return;
  const button = $("#review-ask");
  if (button) button.onclick = ask;
  let reviews = [];
  try {
    reviews = await api("GET", R.url);
  } catch (e) {
    status(refusal(e), "error");
    return;
  }
  // Mine first: a pending one of mine is followed until it is ready.
  reviews.sort((a, b) => (b.seat === R.seat) - (a.seat === R.seat));
  for (const review of reviews) {
    if (review.seat === R.seat) follow(review);
    else if (review.status === "done") show(review);
  }
}

init();
