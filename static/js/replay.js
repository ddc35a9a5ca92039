// The hand page: a finished hand's replay (every hand face up, step by step) and the verify
// panel, which re-deals the hand in this browser from its seeds (fair.js, Web Crypto).
// Frames come from GET /api/hands/<id>/frames/; the record is in the page. No rules here.
import { api } from "./net.js";
import { parseTiles, setTileNames, setWildKinds, sortTiles, tileEl, tileNameIn } from "./tiles.js";
import { verify } from "./fair.js";
import { scoreParts } from "./score_line.js";

const boot = JSON.parse(document.getElementById("hand-boot").textContent);
const S = boot.strings;
const record = boot.record;
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const $ = (sel, root = document) => root.querySelector(sel);
const MS_PER_STEP = 1000; // at 1×

let frames = [];
let step = 0;
let speed = 1;
let timer = null;

function fmt(s, args = {}) {
  return s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
}
function named(obj) {
  if (!obj) return "";
  return typeof obj === "string" ? obj : obj[LANG] || obj["zh-hans"] || obj.en;
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function tileName(code) {
  return tileNameIn(LANG, code);
}
setTileNames(tileName);

function seatName(k) {
  const p = record.players[k];
  if (!p) return "?";
  return p.bot_names ? named(p.bot_names) : p.name || "—";
}
function windOf(view, k) {
  return [...S.winds][(k - view.dealer + 4) % 4] || "";
}

// ---- one frame --------------------------------------------------------------------------

function meldEl(m) {
  const g = el("span", `meld meld-${m.kind}${m.concealed ? " meld-concealed" : ""}`);
  g.dataset.kind = m.kind;
  for (const t of parseTiles(m.tiles || "")) g.append(tileEl(t, "small"));
  return g;
}

/** The step's move: who, what, and its tiles drawn as tiles. */
function actionEl(frame) {
  const a = frame.action;
  const out = el("strong", "rp-move");
  if (!a) {
    out.textContent = S.deal;
    return out;
  }
  out.dataset.type = a.type;
  // A variant's own move (a setup choice): its label and the chosen value, from its data.
  const own = boot.variant.setup.find((s) => s.action === a.type);
  const label = own ? named(own.label) : S[a.type] || S.choice;
  const value = own && own.choose ? own.choose.values[a[own.choose.field]] : null;
  const extra = value ? ` ${named(value.name)}` : "";
  out.append(`${seatName(frame.seat)}: ${label}${extra} `);
  const tiles = a.tile ? [a.tile] : typeof a.tiles === "string" ? parseTiles(a.tiles) : [];
  for (const t of tiles) out.append(tileEl(t, "mini"));
  return out;
}

function drawsText(frame) {
  return frame.events
    .filter((e) => e.type === "TileDrawn" && e.tile)
    .map((e) => `${seatName(e.seat)} ${S.draw} ${tileName(e.tile)}`);
}

function seatEl(view, k, frame) {
  const p = view.players[k];
  const box = el("section", "rp-seat");
  box.dataset.seat = k;
  if (frame.seat === k) box.classList.add("is-acting");
  if (p.won) box.classList.add("has-won");
  const plate = el("header", "plate");
  const wind = el("span", `wind${view.dealer === k ? " is-dealer" : ""}`, windOf(view, k));
  wind.title = view.dealer === k ? S.dealer : "";
  plate.append(wind, el("span", "plate-name", seatName(k)));
  if (record.players[k] && record.players[k].is_bot) plate.append(el("span", "tag", S.bot));
  if (p.won) plate.append(el("span", "won-badge", S.hu));
  // Once the hand is over, the settlement's total: the end-of-hand payments (查大叫…) too.
  const deltas = view.phase === "ended" && record.settlement ? record.settlement.deltas : view.deltas;
  if (deltas && deltas[k]) {
    const d = deltas[k];
    plate.append(el("span", `score ${d > 0 ? "plus" : "minus"}`, `${d > 0 ? "+" : ""}${d}`));
  }
  box.append(plate);
  const row = el("div", "rp-row");
  const hand = el("div", "hand");
  hand.dataset.handSeat = k;
  for (const t of sortTiles(parseTiles(p.hand || ""))) hand.append(tileEl(t, "small"));
  if (p.won && p.won.tile) hand.append(tileEl(p.won.tile, "small win-tile"));
  row.append(hand);
  const melds = el("div", "melds");
  for (const m of p.melds) melds.append(meldEl(m));
  const flowers = parseTiles(p.flowers || "");
  if (flowers.length) {
    const g = el("span", "meld flowers");
    g.title = S.flowers;
    for (const t of flowers) g.append(tileEl(t, "small flower"));
    melds.append(g);
  }
  row.append(melds);
  box.append(row);
  const river = el("div", "rp-river");
  for (const t of p.discards) river.append(tileEl(t, "discard"));
  box.append(river);
  return box;
}

// How the variant counts a win's items (its data): added in its unit from a base, or
// multiplied (×).
const R = boot.variant.result;
const SPEC = {
  unit: named(R.unit), combine: R.combine, base: R.base || 0,
  capped: R.capped ? named(R.capped) : "", base_name: S.base_name,
};

function winEl(w) {
  const sec = el("div", "rp-win");
  sec.dataset.seat = w.seat;
  let how = S.self_draw;
  if (w.win_type === "rob_kong") how = fmt(S.rob_kong, { name: seatName(w.from) });
  else if (w.win_type !== "self_draw") how = fmt(S.on_discard, { name: seatName(w.from) });
  const title = el("h3", "");
  title.append(el("span", "won-badge", S.hu), ` ${seatName(w.seat)} · ${how} `);
  if (w.tile) title.append(tileEl(w.tile, "mini"));
  sec.append(title);
  const items = el("p", "result-items");
  items.dataset.total = w.total;
  const withNames = (w.items || []).map((it) => ({ ...it, name: named(boot.patterns[it.id]) || it.id }));
  const parts = scoreParts({ items: withNames, total: w.total }, SPEC);
  for (const it of parts.items) {
    const s = el("span", "result-item", it.text);
    s.dataset.pattern = it.id;
    items.append(s);
  }
  items.append(el("strong", "result-total", parts.total));
  sec.append(items);
  return sec;
}

function render() {
  const frame = frames[step];
  if (!frame) return;
  const view = frame.view;
  setWildKinds(parseTiles(view.wild_kinds || ""), S.wilds);
  $("#rp-step").textContent = fmt(S.step_of, { n: step, total: frames.length - 1 });
  $("#rp-slider").value = String(step);
  const action = $("#rp-action");
  action.replaceChildren(actionEl(frame));
  for (const d of drawsText(frame)) action.append(el("span", "rp-draw", ` · ${d}`));
  action.dataset.step = step;
  const board = $("#rp-board");
  board.replaceChildren();
  board.dataset.step = step;
  const info = el("div", "rp-info");
  info.append(el("span", "", `${S.wall}: ${view.wall_count}`));
  if (view.indicator) {
    info.append(el("span", "", ` · ${S.indicator} `), tileEl(view.indicator, "mini indicator"));
  }
  board.append(info);
  for (let k = 0; k < 4; k++) board.append(seatEl(view, k, frame));
  // The score items: this step's wins first, then every earlier win still standing.
  const wins = $("#rp-wins");
  wins.replaceChildren();
  const shown = view.players.filter((p) => p.won).map((p) => p.won);
  shown.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  for (const w of shown) {
    const e = winEl(w);
    if (frame.wins && frame.wins.some((x) => x.seat === w.seat)) e.classList.add("is-new");
    wins.append(e);
  }
  if (!shown.length) {
    wins.append(el("p", "muted", view.phase === "ended" ? S.drawn_game : S.no_wins));
  }
  $("#rp-back").disabled = step === 0;
  $("#rp-first").disabled = step === 0;
  $("#rp-forward").disabled = step === frames.length - 1;
  $("#rp-last").disabled = step === frames.length - 1;
  const url = new URL(location.href);
  url.hash = `step=${step}`;
  $("#rp-link").value = url.href;
  history.replaceState(null, "", `#step=${step}`);
}

function go(n) {
  step = Math.max(0, Math.min(frames.length - 1, n));
  render();
}

function setPlaying(on) {
  clearInterval(timer);
  timer = null;
  const b = $("#rp-play");
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.textContent = on ? S.pause : S.play;
  if (!on) return;
  if (step >= frames.length - 1) go(0);
  timer = setInterval(() => {
    if (step >= frames.length - 1) setPlaying(false);
    else go(step + 1);
  }, MS_PER_STEP / speed);
}

function stepFromHash() {
  const m = location.hash.match(/step=(\d+)/);
  return m ? Number(m[1]) : 0;
}

async function loadReplay() {
  try {
    frames = await api("GET", boot.frames_url);
  } catch {
    $("#rp-step").textContent = S.load_failed;
    return;
  }
  $("#rp-slider").max = String(frames.length - 1);
  $("#rp-first").onclick = () => { setPlaying(false); go(0); };
  $("#rp-back").onclick = () => { setPlaying(false); go(step - 1); };
  $("#rp-forward").onclick = () => { setPlaying(false); go(step + 1); };
  $("#rp-last").onclick = () => { setPlaying(false); go(frames.length - 1); };
  $("#rp-play").onclick = () => setPlaying(timer === null);
  $("#rp-slider").oninput = (e) => { setPlaying(false); go(Number(e.target.value)); };
  for (const r of document.querySelectorAll("input[name=rp-speed]")) {
    r.onchange = () => {
      speed = Number(r.value);
      if (timer !== null) setPlaying(true);
    };
  }
  $("#rp-copy").onclick = async () => {
    try {
      await navigator.clipboard.writeText($("#rp-link").value);
      $("#rp-copy").textContent = S.copied;
    } catch {
      $("#rp-link").select();
      $("#rp-copy").textContent = S.copy_failed;
    }
  };
  window.addEventListener("hashchange", () => go(stepFromHash()));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === "text") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else return;
    e.preventDefault();
  });
  go(stepFromHash());
  runVerify();
}

// ---- the verify panel ---------------------------------------------------------------------

function line(ok, text) {
  const p = el("p", `verify-line ${ok ? "is-ok" : "is-bad"}`);
  p.append(el("span", "verify-mark", ok ? "✓" : "✗"), ` ${text}`);
  return p;
}

/** A part of the deal in the reader's words: "hand 2" → that seat's name. */
function mismatchName(what) {
  const [kind, seat] = what.split(" ");
  if (kind === "hand") return seatName(Number(seat));
  if (kind === "flowers") return `${seatName(Number(seat))} · ${S.flowers}`;
  return S[kind] || kind;
}

async function runVerify() {
  const out = $("#verify-result");
  const seed = $("#vf-seed").value.trim();
  out.dataset.state = "checking";
  out.replaceChildren(el("p", "muted", S.verifying));
  if (!globalThis.crypto || !crypto.subtle) {
    out.dataset.state = "error";
    out.replaceChildren(el("p", "verify-line is-bad", S.no_crypto));
    return;
  }
  let res;
  try {
    const first = frames[0] ? frames[0].view : null;
    res = await verify(record, boot.deal, first, { server_seed: seed },
      frames.length ? frames : null);
  } catch (e) {
    out.dataset.state = "error";
    out.dataset.ok = "false";
    out.replaceChildren(line(false, fmt(S.verify_error, { error: e.message })));
    return;
  }
  const ok = res.commitment.ok && res.deal.ok && (!res.draws || res.draws.ok);
  out.dataset.state = "done";
  out.dataset.ok = ok ? "true" : "false";
  const head = el("p", `verify-verdict ${ok ? "is-ok" : "is-bad"}`, ok ? S.verify_ok : S.verify_bad);
  head.id = "verify-verdict";
  const c = line(res.commitment.ok, res.commitment.ok ? S.commit_ok : S.commit_bad);
  c.id = "verify-commitment";
  c.dataset.ok = String(res.commitment.ok);
  if (!res.commitment.ok) {
    c.append(el("br"), el("code", "", `${S.computed}: ${res.commitment.computed}`));
    c.append(el("br"), el("code", "", `${S.expected}: ${res.commitment.expected}`));
  }
  const what = res.deal.mismatches.map((m) => mismatchName(m.what)).join(", ");
  const d = line(res.deal.ok, res.deal.ok ? S.deal_ok : fmt(S.deal_bad, { what }));
  d.id = "verify-deal";
  d.dataset.ok = String(res.deal.ok);
  const lines = [head, c, d];
  if (res.draws) {
    const m = res.draws.mismatch;
    const text = res.draws.ok ? fmt(S.draws_ok, { n: res.draws.draws })
      : fmt(S.draws_bad, {
        n: m.seq, got: m.got ? tileName(m.got) : "?", expected: m.expected ? tileName(m.expected) : "—",
      });
    const r = line(res.draws.ok, text);
    r.id = "verify-draws";
    r.dataset.ok = String(res.draws.ok);
    lines.push(r);
  }
  const wall = el("details", "verify-wall");
  wall.append(el("summary", "", S.wall_order), el("code", "", res.notation.wall.join(" ")));
  out.replaceChildren(...lines, wall);
}

function initVerify() {
  const form = $("#verify-form");
  if (!form) return;
  // Someone else's seed to check: /hands/<id>/?server_seed=<hex>
  const asked = new URLSearchParams(location.search).get("server_seed");
  if (asked) $("#vf-seed").value = asked;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    runVerify();
  });
}

initVerify();
if (boot.over) loadReplay();
