// The table page. It renders the server's view of the hand and offers exactly the server's
// `legal` actions, sent back unchanged; it holds no rules.
import { api, TableSocket } from "./net.js";
import {
  backEl, formatTiles, parseTiles, setTileIndex, setTileNames, setWildKinds, sortTiles, tileEl,
  tileIndexOn, tileLabel, tileNameIn,
} from "./tiles.js";
import { setSound, sound } from "./sound.js";

const boot = JSON.parse(document.getElementById("table-boot").textContent);
const S = boot.strings;
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const $ = (sel, root = document) => root.querySelector(sel);
const POS = ["bottom", "right", "top", "left"]; // next seat (k+1) on the right: counter-clockwise
const SUIT_CHARS = { m: "万", p: "筒", s: "条" };

let room = null; // last `room` payload
let state = null; // last `state` payload
let handEnd = null; // last `hand_end` payload
let settled = null; // last `settled` payload for handEnd.hand
let mySeat = boot.seat; // null: spectator
let selected = null; // index into the rendered hand of the tile picked for discard
const exchangeSel = new Set(); // indices picked for 换三张
let pending = false; // an action was sent; wait for the next state
let dismissedResult = null; // hand number whose result dialog was closed
let lastAct = null; // the last action we sent, to send again if it arrived on a stale version
let retry = null; // that action, while the fresh state it may be sent again on is awaited
let myChow = false; // this seat answered the open claim with a chow
let lastDiscard = null; // {seat, n}: the latest discard, for the marker (from the events)
let skipped = null; // version whose own-turn kong/win offer was waved away ("Skip")
const prefs = loadPrefs(); // the table options kept in this browser

function loadPrefs() {
  try {
    return { autoWin: false, autoPass: false, sound: false,
      ...JSON.parse(localStorage.getItem("mh-table-prefs") || "{}") };
  } catch {
    return { autoWin: false, autoPass: false, sound: false };
  }
}
function savePrefs() {
  try {
    localStorage.setItem("mh-table-prefs", JSON.stringify(prefs));
  } catch {
    // private mode: the options last for this page only
  }
}

function fmt(s, args = {}) {
  return s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
}
function named(obj) {
  return obj ? obj[LANG] || obj["zh-hans"] || obj.en : "";
}
function el(tag, cls, textContent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (textContent !== undefined) e.textContent = textContent;
  return e;
}
function base() {
  return mySeat ?? 0;
}
function posOf(seat) {
  return POS[(seat - base() + 4) % 4];
}
function displayName(s) {
  return s.bot_names ? named(s.bot_names) : s.name; // bots are named in both languages
}
function seatName(k) {
  const s = room && room.seats[k];
  if (!s || !s.user_id) return S.empty_seat;
  return displayName(s);
}
function windOf(k) {
  if (!state) return "";
  return [...S.winds][(k - state.dealer + 4) % 4];
}

// ---- toasts and connection ---------------------------------------------------------------

function toast(message, kind = "error") {
  const box = $("#toasts");
  // The same words twice in a row (a double tap) are one toast, not a stack.
  const last = box.lastElementChild;
  if (last && last.textContent === message && !last.classList.contains("toast-out")) return;
  const t = el("div", `toast toast-${kind}`, message);
  t.setAttribute("role", kind === "error" ? "alert" : "status");
  box.append(t);
  setTimeout(() => t.classList.add("toast-out"), 3500);
  setTimeout(() => t.remove(), 4200);
}

/** A server refusal in the reader's language: by its code, else the server's words. */
function refusal(e) {
  return (boot.errors && boot.errors[e.code]) || e.detail || e.message || e.code;
}

function setConn(status) {
  const c = $("#conn");
  c.className = `conn conn-${status}`;
  c.dataset.status = status;
  c.textContent = S[status] || status;
}

// ---- what happened: call-outs, the last-discard marker, moves played for us -----------

/** A tile in words: 五筒 in Chinese, "5 Dots" in English. */
function tileName(code) {
  return tileNameIn(LANG, code);
}

setTileNames(tileName);

function callout(seat, kind) {
  const c = el("div", `callout callout-${posOf(seat)} callout-${kind}`, S[`call_${kind}`]);
  c.dataset.seat = seat;
  c.dataset.kind = kind;
  $("#callouts").append(c);
  sound(kind);
  setTimeout(() => c.remove(), 1800);
}

// Moves the server may make for a seat whose clock ran out (it announces none of them).
const TIMEOUT_MOVES = new Set(["TileDiscarded", "ClaimAnswered", "SuitChosen", "TilesChosen",
  "KongDeclared"]);

function playedForMe(e) {
  if (e.type === "TileDiscarded") return fmt(S.auto_discard, { tile: tileName(e.tile) });
  if (e.type === "ClaimAnswered" && e.action && e.action.type === "pass") return S.auto_pass;
  if (e.type === "SuitChosen" && e.suit) return fmt(S.auto_que, { suit: S[e.suit] });
  if (e.type === "TilesChosen") return S.auto_exchange;
  return S.auto_move;
}

function onEvents(events, ours) {
  for (const e of events) {
    if (e.type === "TileDiscarded") {
      lastDiscard = { seat: e.seat, n: state.players[e.seat].discards.length };
      myChow = false;
      sound("discard");
    } else if (e.type === "ClaimAnswered" && e.seat === mySeat) {
      myChow = Boolean(e.action && e.action.type === "chi");
    } else if (e.type === "TileClaimed") {
      callout(e.seat, e.meld.kind);
      // A pung or kong outranks a chow: say so to the one whose chow it overrode.
      if (myChow && e.seat !== mySeat) {
        toast(fmt(S.chow_overridden, { name: seatName(e.seat), kind: S[e.meld.kind] }), "info");
      }
      myChow = false;
    } else if (e.type === "KongDeclared") {
      callout(e.seat, "gang");
    } else if (e.type === "HandWon") {
      for (const w of e.wins) callout(w.seat, w.win_type === "self_draw" ? "zimo" : "hu");
      const winner = e.wins.find((w) => w.seat !== mySeat);
      if (myChow && winner) toast(fmt(S.chow_overridden, { name: seatName(winner.seat), kind: S.hu }), "info");
      myChow = false;
    }
  }
  if (mySeat === null) return;
  const mine = events.filter((e) => e.seat === mySeat && TIMEOUT_MOVES.has(e.type));
  if (!mine.length) return;
  const me = myRoomSeat();
  if (!ours && !(me && (me.auto || me.left))) toast(playedForMe(mine[0]), "info");
}

/** The player's standing orders: win when possible, pass on pung/kong offers. */
function assist(prev) {
  if (mySeat === null || pending) return;
  const me = myRoomSeat();
  if (me && me.auto) return;
  const legal = state.legal;
  const hu = legal.findIndex((a) => a.type === "hu");
  if (prefs.autoWin && hu >= 0) {
    act(hu);
    return;
  }
  if (prefs.autoPass && state.phase === "claim" && hu < 0) {
    const pass = legal.findIndex((a) => a.type === "pass");
    if (pass >= 0) {
      act(pass);
      return;
    }
  }
  const offered = (s) => Boolean(s && s.legal.some((a) => a.type !== "discard"));
  const myTurn = (s) => Boolean(s && s.legal.some((a) => a.type === "discard"));
  if (offered(state) && !offered(prev)) sound("offer");
  else if (myTurn(state) && !myTurn(prev)) sound("turn");
}

// ---- socket ----------------------------------------------------------------------------

const socket = new TableSocket(boot.ws, {
  // During a hand, and after it until its settlement has arrived.
  expectsMessages: () =>
    Boolean(state && (state.phase !== "ended" || !settled || settled.hand !== state.hand)),
  onStatus: (status, code) => {
    setConn(status);
    if (code === 4403 || code === 4404) toast(S.offline);
  },
  onMessage: (msg) => {
    try {
      handle(msg);
    } catch (e) {
      console.error(e);
    }
  },
});

function handle(msg) {
  const d = msg.d;
  if (msg.t === "room") {
    room = d;
    const me = room.seats.find((s) => s.user_id === boot.user_id && !s.left);
    const seat = me ? me.index : null;
    if (seat !== mySeat) {
      mySeat = seat;
      socket.ws && socket.ws.close(); // re-open to be put in the seat's group
    }
    renderRoom();
    if (state) renderState();
    if (handEnd) renderResult();
  } else if (msg.t === "state") {
    if (d.server_time) clockSkew = Date.parse(d.server_time) - Date.now();
    const fresh = !state || d.hand > state.hand || (d.hand === state.hand && msg.v > state.version);
    const prev = state;
    const newer = !prev || d.hand > prev.hand || (d.hand === prev.hand && msg.v >= prev.version);
    if (!newer) return;
    if (prev && d.hand === prev.hand && msg.v > prev.version + 1) {
      socket.send({ t: "sync" }); // a gap: the layer dropped something, fetch a snapshot
    }
    if (!prev || d.hand !== prev.hand) {
      selected = null;
      lastDiscard = null;
      exchangeSel.clear();
      if (handEnd && handEnd.hand < d.hand) {
        if ($("#result").open) toast(fmt(S.hand_started, { n: d.hand }), "info");
        closeResult();
      }
    }
    if (prev && prev.phase !== d.phase) exchangeSel.clear();
    // The first state after we sent an action settles it (ours, or another that beat it,
    // and then ours comes back refused): a move of our seat in any other state was not
    // sent by us: the clock ran out and the server played it.
    const ours = pending;
    state = d;
    pending = false;
    if (fresh) onEvents(d.events || [], ours);
    if (selected !== null && !legalDiscards().size) selected = null;
    renderState();
    if (retry) {
      const again = retry;
      retry = null;
      const i = state.legal.findIndex((a) => JSON.stringify(a) === JSON.stringify(again));
      if (i >= 0) act(i);
      else toast(S.moved_on, "info");
    } else if (fresh) assist(prev);
  } else if (msg.t === "hand_end") {
    if (!handEnd || handEnd.hand !== d.hand) settled = null;
    handEnd = d;
    renderResult();
    addHandLink(d);
  } else if (msg.t === "settled") {
    if (handEnd && d.hand === handEnd.hand) {
      settled = d;
      renderResult();
      if (state) renderPlates();
    }
  } else if (msg.t === "error") {
    pending = false;
    if (d.code === "stale" && lastAct) {
      // Others moved while ours was on its way (bots choose their suits at the same
      // moment): fetch the table and send ours again if it is still allowed.
      retry = lastAct;
      socket.send({ t: "sync" });
      return;
    }
    toast(refusal(d));
    if (d.code === "stale" || /version/i.test(d.message || "")) socket.send({ t: "sync" });
    if (state) renderActions();
  }
}

/** The room's "Hands" menu: a finished hand's replay link, newest first. */
function addHandLink(d) {
  const list = $("#room-hands-list");
  if (!list || !d.hand_id || list.querySelector(`[data-hand-id="${d.hand_id}"]`)) return;
  const li = el("li", "");
  li.dataset.handId = d.hand_id;
  const a = el("a", "", fmt(S.hand_link, { n: d.hand }));
  a.href = `/hands/${d.hand_id}/`;
  li.append(a);
  list.prepend(li);
  $("#menu-hands").hidden = false;
  const none = $("#room-hands-none");
  if (none) none.remove();
}

// ---- room ------------------------------------------------------------------------------

function ruleSummary() {
  const out = [];
  const choices = room.rule_choices || {};
  for (const [id, value] of Object.entries(choices)) {
    const names = boot.choices[id];
    let v = value;
    if (names && names[value]) v = named(names[value]);
    else if (value === true) v = "✓";
    else if (value === false) v = "✗";
    else if (value === null) v = S.no_cap;
    out.push(`${id === "mode" ? "" : `${id}: `}${v}`);
  }
  return out;
}

function renderRoom() {
  $("#room-variant").textContent = named(room.variant_name);
  const handNo = Math.min(room.hands_played + (state && state.phase !== "ended" ? 0 : 1),
    room.hands_total);
  $("#room-hand").textContent = fmt(S.hand_no, {
    n: state ? state.hand : Math.max(1, handNo), total: room.hands_total,
  });
  const mode = room.rules && room.rules.mode && boot.choices.mode[room.rules.mode];
  const timer = room.discard_seconds
    ? `${room.discard_seconds}${S.seconds}/${room.claim_seconds}${S.seconds}` : S.no_timer;
  const rated = room.rated ? S.rated : S.unrated;
  $("#room-rules").textContent = [mode ? named(mode) : "", timer, rated].filter(Boolean).join(" · ");
  $("#room-rules").title = [room.rated ? S.rated_help : S.unrated_help, ...ruleSummary()].join(", ");
  $("#room-club").hidden = !room.club;
  if (room.club) {
    $("#room-club").textContent = fmt(S.club_preset, {
      club: room.club_name, preset: room.preset_name, n: room.preset.version,
    });
  }
  renderWatchers();
  const code = $("#room-code");
  if (room.private && mySeat !== null) {
    api("GET", `/api/rooms/${room.id}/`).then((r) => {
      if (r.code) {
        code.hidden = false;
        code.replaceChildren(el("span", "code-label", `${S.invite_code}: `), r.code);
        code.title = S.invite_code;
      }
    }).catch(() => {});
  }
  const leave = $("#btn-leave");
  leave.hidden = mySeat === null || room.status === "finished";
  renderPrestart();
  renderPlates();
  renderActions();
  renderTools();
}

/** How many watch the table (spectators' sockets, counted by the server). */
function renderWatchers() {
  const box = $("#room-watchers");
  const n = room.watchers || 0;
  box.hidden = !n;
  const words = fmt(S.watchers, { n });
  // An eye and the number (the words for screen readers and as the tooltip): short
  // enough for a phone's header.
  const eye = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  eye.setAttribute("viewBox", "0 0 24 24");
  eye.setAttribute("class", "eye");
  eye.setAttribute("aria-hidden", "true");
  eye.innerHTML = '<path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" '
    + 'stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.5" fill="currentColor"/>';
  box.replaceChildren(eye, el("span", "", String(n)), el("span", "visually-hidden", words));
  box.title = words;
  box.dataset.watchers = n;
}

/** What a spectator is told: watching, and how late when the room delays spectators. */
function spectatingNote() {
  return room && room.spectator_delay
    ? `${S.spectating} ${fmt(S.spectator_late, { n: room.spectator_delay })}` : S.spectating;
}

function renderPrestart() {
  const box = $("#prestart");
  const show = !state && room.status !== "finished";
  box.hidden = !show;
  box.replaceChildren();
  if (!show) return;
  const list = el("ul", "prestart-seats");
  for (const s of room.seats) {
    const li = el("li", `prestart-seat${s.ready ? " is-ready" : ""}`);
    li.dataset.seat = s.index;
    li.append(el("span", "prestart-name", s.user_id ? displayName(s) : S.empty_seat));
    if (s.is_bot) li.append(el("span", "tag", S.bot));
    if (s.user_id === boot.user_id) li.append(el("span", "tag tag-you", S.you));
    if (s.user_id && !s.is_bot) {
      li.append(el("span", `tag ${s.ready ? "tag-ready" : ""}`, s.ready ? S.is_ready : S.not_ready));
    }
    if (s.is_bot && room.owner_id === boot.user_id && room.status === "open") {
      const rm = el("button", "button button-small button-quiet", "×");
      rm.title = S.remove_bot;
      rm.setAttribute("aria-label", S.remove_bot);
      rm.onclick = () => api("DELETE", `/api/rooms/${room.id}/bots/${s.index}/`)
        .catch((e) => toast(refusal(e)));
      li.append(rm);
    }
    list.append(li);
  }
  box.append(el("h2", "prestart-title",
    room.free_seats ? S.waiting_players : S.waiting_ready));
  box.append(list);
  // The rules' countdown for the last player to be ready (Ningbo), filled in by tick().
  box.append(el("p", "prestart-next starts-in", ""));
  if (room.next_commitment) {
    // The server's seed for this deal is fixed already: its SHA-256, checkable afterwards.
    const fair = el("p", "prestart-fair", `${S.commitment}: `);
    fair.id = "prestart-commitment";
    const code = el("code", "", `${room.next_commitment.slice(0, 16)}…`);
    code.title = room.next_commitment;
    fair.dataset.commitment = room.next_commitment;
    fair.append(code);
    fair.title = S.commitment_help;
    box.append(fair);
    // What it is, in one line, and where the whole scheme is told.
    const why = el("p", "prestart-fair-why muted", `${S.commitment_line} `);
    const more = el("a", "", S.fair_link);
    more.href = "/fair/";
    why.append(more);
    box.append(why);
  }
  const row = el("div", "prestart-actions");
  if (canReady()) row.append(readyButton(S.ready));
  if (room.owner_id === boot.user_id && room.free_seats && room.status === "open") {
    const add = el("button", "button button-quiet", S.add_bot);
    add.id = "btn-add-bot";
    add.onclick = () => api("POST", `/api/rooms/${room.id}/bots/`).catch((e) => toast(refusal(e)));
    row.append(add);
  }
  if (mySeat === null) {
    box.append(el("p", "muted", spectatingNote()));
    if (room.free_seats && room.status === "open") row.append(joinButton());
  }
  box.append(row);
}

function readyButton(label) {
  const b = el("button", "button button-big action-ready", label);
  b.id = "btn-ready";
  b.dataset.type = "ready";
  b.onclick = sendReady;
  return b;
}

function joinButton() {
  const b = el("button", "button button-big", S.join);
  b.id = "btn-join";
  b.onclick = async () => {
    try {
      await api("POST", `/api/rooms/${room.id}/join/`, {});
      location.reload();
    } catch (e) {
      toast(refusal(e));
    }
  };
  return b;
}

function myRoomSeat() {
  return room && mySeat !== null ? room.seats[mySeat] : null;
}

function canReady() {
  const me = myRoomSeat();
  if (!me || me.ready || room.status === "finished") return false;
  return !state || state.phase === "ended";
}

// This seat's share of the next deal's randomness: 16 bytes from Web Crypto, drawn after the
// server committed to its seed (room.next_commitment), so neither side can steer the wall.
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sendReady() {
  const client_seed = clientSeed();
  if (!socket.send({ t: "ready", client_seed })) {
    api("POST", `/api/rooms/${room.id}/ready/`, { client_seed }).catch((e) => toast(refusal(e)));
  }
}

// ---- state -----------------------------------------------------------------------------

function legalDiscards() {
  if (!state || pending) return new Set();
  return new Set(state.legal.filter((a) => a.type === "discard").map((a) => a.tile));
}

function myTiles() {
  const p = state.players[mySeat];
  const tiles = sortTiles(parseTiles(p.hand));
  let drawn = p.drawn || null;
  if (drawn) {
    const i = tiles.lastIndexOf(drawn);
    if (i >= 0) tiles.splice(i, 1);
    else drawn = null;
  }
  return { tiles, drawn };
}

function meldEl(m) {
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

function plateEl(k) {
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
  if (p && p.que) {
    const q = el("span", `que que-${p.que}`, S[`que_${p.que}`] || SUIT_CHARS[p.que]);
    q.title = `${S.missing}: ${S[p.que]}`;
    plate.append(q);
  }
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

function renderPlates() {
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

/** A seat's laid-out flowers (public; variants with bonus tiles), or null. */
function flowersEl(p) {
  const tiles = parseTiles(p.flowers || "");
  if (!tiles.length) return null;
  const g = el("span", "meld flowers");
  g.dataset.kind = "flowers";
  g.title = S.flowers;
  for (const t of tiles) g.append(tileEl(t, "small flower"));
  return g;
}

function renderPools() {
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

/** The waits a discard of ``t`` leaves (from the server's hint), or null. */
function readyAfter(t) {
  const h = state && state.hints;
  return (h && h.discards && h.discards[t]) || null;
}

function waitsEl(waits) {
  const box = el("span", "waits");
  for (const w of waits) {
    const item = el("span", `wait${w.left ? "" : " wait-dead"}`);
    item.dataset.tile = w.tile;
    item.dataset.left = w.left;
    item.append(tileEl(w.tile, "mini"), el("small", "wait-left", fmt(S.left_n, { n: w.left })));
    item.title = `${tileName(w.tile)}: ${fmt(S.unseen_n, { n: w.left })} · ${w.fan}${S.fan}`;
    box.append(item);
  }
  return box;
}

function renderHint() {
  const box = $("#hint");
  box.replaceChildren();
  const h = mySeat !== null && state ? state.hints : null;
  let waits = null;
  let label = S.hint_ready;
  if (h && h.waits && h.waits.length) {
    waits = h.waits;
  } else if (h && h.discards) {
    const { tiles, drawn } = myTiles();
    const all = drawn ? [...tiles, drawn] : tiles;
    const pick = selected !== null ? all[selected] : null;
    if (pick && h.discards[pick]) {
      waits = h.discards[pick];
      label = fmt(S.hint_after, { tile: tileName(pick) });
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

/**
 * Re-render ``box`` by building it afresh off the page, and swap only if something changed:
 * states arrive several times a second while bots play, and replacing a button or a tile
 * between a finger's down and up would swallow the tap.
 */
function patch(box, build) {
  const fresh = box.cloneNode(false);
  build(fresh);
  const same = fresh.innerHTML === box.innerHTML
    && [...fresh.attributes].every((a) => box.getAttribute(a.name) === a.value)
    && fresh.attributes.length === box.attributes.length;
  if (!same) box.replaceWith(fresh);
}

function renderMine() {
  patch($("#my-melds"), (meldBox) => patch($("#my-hand"), (handBox) => buildMine(handBox, meldBox)));
  renderHint();
}

function buildMine(handBox, meldBox) {
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
  const { tiles, drawn } = myTiles();
  const legal = legalDiscards();
  const exchanging = state.legal.some((a) => a.type === "exchange") && !pending;
  const all = drawn ? [...tiles, drawn] : tiles;
  all.forEach((t, i) => {
    const isDrawn = drawn && i === all.length - 1;
    const tEl = tileEl(t, isDrawn ? "drawn" : "");
    tEl.dataset.index = i;
    if (p.que && t[1] === p.que) tEl.classList.add("is-que");
    if (legal.has(t)) {
      tEl.dataset.legal = "discard";
      tEl.classList.add("playable");
      tEl.tabIndex = 0;
    } else if (exchanging) {
      tEl.dataset.legal = "exchange";
      tEl.classList.add("playable");
    } else if (legal.size) {
      tEl.classList.add("locked");
    }
    if (selected === i) tEl.classList.add("selected");
    if (exchangeSel.has(i)) tEl.classList.add("selected");
    const after = readyAfter(t);
    if (after && legal.has(t)) {
      tEl.classList.add("keeps-ready");
      tEl.title = `${tileName(t)} · ${fmt(S.discard_keeps_ready, { n: after.length })}`;
    }
    tEl.addEventListener("click", () => onTileClick(i, t));
    handBox.append(tEl);
  });
  if (p.won) handBox.append(tileEl(p.won.tile, "win-tile"));
}

/** Why a tap on this tile does nothing now, in words (null: it does something). */
function refusedTap(t) {
  const p = state.players[mySeat];
  const legal = legalDiscards();
  if (legal.has(t)) return null;
  if (p.won) return S.tap_won;
  if (legal.size) {
    if (p.que && t[1] !== p.que && [...legal].every((x) => x[1] === p.que)) {
      return fmt(S.tap_que_first, { suit: S[p.que] });
    }
    return S.tap_not_allowed;
  }
  if (state.phase === "ding_que") return S.tap_choose_que;
  if (state.phase === "exchange") return S.exchange_waiting;
  if (state.legal.length) return S.tap_answer_claim;
  if (state.phase === "ended") return S.tap_hand_over;
  return S.tap_not_your_turn;
}

function onTileClick(i, t) {
  if (!state || pending || mySeat === null) return;
  if (state.legal.some((a) => a.type === "exchange")) {
    if (exchangeSel.has(i)) exchangeSel.delete(i);
    else if (exchangeSel.size < 3) exchangeSel.add(i);
    else toast(S.tap_three_only, "info");
    renderMine();
    renderActions();
    return;
  }
  const why = refusedTap(t);
  if (why) {
    toast(why, "info");
    return;
  }
  if (selected === i) {
    discard(t);
    return;
  }
  selected = i;
  renderMine();
  renderActions();
}

function discard(t) {
  const i = state.legal.findIndex((a) => a.type === "discard" && a.tile === t);
  if (i >= 0) act(i);
}

function act(index) {
  if (!state || pending) return;
  const action = state.legal[index];
  if (!action) return;
  lastAct = action;
  if (!socket.send({ t: "act", v: state.version, action })) {
    toast(S.offline);
    return;
  }
  pending = true;
  selected = null;
  exchangeSel.clear();
  renderMine();
  renderActions();
}

/** Why the tiles that make a winning shape may not win here (the variant's minimum). */
function refusedWin(r) {
  if (r.refused === "min_tai") return fmt(S.win_refused_min, { tai: r.tai, min: r.min_tai });
  return S.win_refused_other;
}

function actionLabel(a) {
  if (a.type === "hu") {
    return state.phase === "play" && state.turn === mySeat ? S.zimo : S.hu;
  }
  return { peng: S.peng, gang: S.gang, chi: S.chi, pass: S.pass }[a.type] || a.type;
}

function selectedExchange() {
  if (exchangeSel.size !== 3) return -1;
  const { tiles, drawn } = myTiles();
  const all = drawn ? [...tiles, drawn] : tiles;
  const pick = formatTiles([...exchangeSel].map((i) => all[i]));
  return state.legal.findIndex((a) => a.type === "exchange" && a.tiles === pick);
}

function renderActions() {
  patch($("#prompt"), (prompt) => patch($("#actions"), (bar) => buildActions(bar, prompt)));
}

function buildActions(bar, prompt) {
  if (!state) return; // before the first hand the Ready button is in the seat list
  if (canReady()) bar.append(readyButton(S.ready_next));
  if (mySeat === null) {
    prompt.textContent = spectatingNote();
    if (room && room.free_seats && room.status === "open") bar.append(joinButton());
    return;
  }
  const legal = pending ? [] : state.legal;
  const types = new Set(legal.map((a) => a.type));
  if (types.has("ding_que")) {
    prompt.textContent = S.que_prompt;
    legal.forEach((a, i) => {
      if (a.type !== "ding_que") return;
      const b = el("button", `button button-big suit-button suit-${a.suit}`);
      b.append(el("span", "suit-char", SUIT_CHARS[a.suit]), el("small", "", S[a.suit]));
      b.dataset.type = "ding_que";
      b.dataset.suit = a.suit;
      b.dataset.actionIndex = i;
      b.onclick = () => act(i);
      bar.append(b);
    });
    return;
  }
  if (types.has("exchange")) {
    prompt.textContent = S.exchange_prompt;
    const i = selectedExchange();
    const b = el("button", "button button-big", S.exchange_confirm);
    b.dataset.type = "exchange";
    b.disabled = i < 0;
    if (i >= 0) b.dataset.actionIndex = i;
    b.onclick = () => i >= 0 && act(i);
    bar.append(b);
    return;
  }
  if (state.phase === "exchange" && !legal.length) prompt.textContent = S.exchange_waiting;
  if (state.phase === "ding_que" && !legal.length) prompt.textContent = S.que_waiting;
  const me = myRoomSeat();
  if (me && me.auto && state.phase !== "ended") {
    prompt.textContent = S.auto_on;
    const b = el("button", "button button-big action-ready", S.auto_off);
    b.id = "btn-auto-off";
    b.onclick = () => setAuto(false);
    bar.append(b);
    return;
  }
  const order = ["hu", "gang", "peng", "chi", "pass"];
  const ownTurn = legal.some((a) => a.type === "discard");
  let buttons = legal.map((a, i) => [a, i]).filter(([a]) => order.includes(a.type));
  if (ownTurn && skipped === state.version) buttons = [];
  buttons.sort((x, y) => order.indexOf(x[0].type) - order.indexOf(y[0].type));
  for (const [a, i] of buttons) {
    const b = el("button", `button button-big action-${a.type}`);
    b.append(el("span", "", actionLabel(a)));
    if (a.tile && a.type === "gang") b.append(tileEl(a.tile, "mini"));
    if (a.tiles) for (const t of parseTiles(a.tiles)) b.append(tileEl(t, "mini"));
    b.dataset.type = a.type;
    b.dataset.actionIndex = i;
    b.onclick = () => act(i);
    bar.append(b);
  }
  if (ownTurn && buttons.length) {
    // On one's own turn a kong or a win is an offer, not a claim: discarding goes on.
    const b = el("button", "button button-big action-pass", S.skip);
    b.dataset.type = "skip";
    b.title = S.skip_hint;
    b.onclick = () => {
      skipped = state.version;
      renderActions();
    };
    bar.append(b);
  }
  const discards = legalDiscards();
  if (discards.size) {
    prompt.textContent = buttons.length ? S.own_offer_prompt : S.your_turn;
    const refused = state.players[mySeat] && state.players[mySeat].win_refused;
    if (refused) prompt.textContent += ` · ${refusedWin(refused)}`;
    if (selected !== null) {
      const { tiles, drawn } = myTiles();
      const all = drawn ? [...tiles, drawn] : tiles;
      const t = all[selected];
      const b = el("button", "button button-big action-discard");
      b.append(el("span", "", S.discard), tileEl(t, "mini"));
      b.dataset.type = "discard";
      b.onclick = () => discard(t);
      bar.append(b);
    }
  } else if (buttons.length) {
    prompt.textContent = state.claim
      ? fmt(S.claim_prompt_tile, { tile: tileName(state.claim.tile), name: seatName(state.claim.from) })
      : S.claim_prompt;
  } else if (state.phase === "play" && state.turn !== mySeat) {
    prompt.textContent = fmt(S.turn_of, { name: seatName(state.turn) });
  } else if (state.phase === "ended" && room && room.status !== "finished") {
    prompt.append(el("span", "", S.hand_over), " ", el("span", "next-hand", ""));
  }
  const dir = state.exchange_direction;
  if (dir && state.phase !== "ended" && !state.players[mySeat].discards.length
    && state.phase !== "play") {
    prompt.textContent += ` · ${fmt(S.tiles_passed_dir, { dir: S[dir.replace("_", "")] || dir })}`;
  }
}

function transferLine(t) {
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
  if (!state.transfers.length) {
    feed.hidden = true;
    return;
  }
  feed.hidden = false;
  feed.append(el("h3", "", S.feed));
  const ul = el("ul", "transfers");
  for (const t of state.transfers.slice(-6)) ul.append(transferLine(t));
  feed.append(ul);
}

/** What the variant shows everyone: the wild indicator and wilds, the dealer's streak. */
function renderTableInfo() {
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
  if (state.streak_factor) parts.push(fmt(S.dealer_factor, { n: state.streak_factor }));
  streak.textContent = parts.join(" · ");
  streak.hidden = !parts.length;
  if (state.streak_factor) streak.title = S.streak_factor_help;
}

function renderState() {
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

// ---- result dialog ---------------------------------------------------------------------

// How the variant counts a win's items: added fan (番), added tai (台), or multipliers (×).
const MULTIPLIES = boot.unit === "times";

function itemText(it) {
  const name = named(boot.patterns[it.id]) || it.id;
  return MULTIPLIES ? `${name} ×${it.value}` : `${name} ${it.value}${S[boot.unit] || S.fan}`;
}

function itemsLine(won) {
  const parts = won.items.map(itemText);
  if (MULTIPLIES) return `${parts.join(" · ")} = ×${won.total}`;
  // 台: the hand is worth 1 before its items (T = 1 + Σ台).
  if (boot.unit === "tai") return `1 + ${parts.join(" + ")} = ${won.total}${S.tai}`;
  const sum = won.items.reduce((a, it) => a + it.value, 0);
  let line = `${parts.join(" + ")} = ${won.total}${S[boot.unit] || S.fan}`;
  if (sum !== won.total) line += ` (${S.capped})`;
  return line;
}

function winDescription(w) {
  if (w.win_type === "self_draw") return S.self_draw;
  if (w.win_type === "rob_kong") return fmt(S.rob_kong, { name: seatName(w.from) });
  return fmt(S.on_discard, { name: seatName(w.from) });
}

function scoresTable() {
  const table = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", ""));
  for (let k = 0; k < 4; k++) head.append(el("th", "", seatName(k)));
  table.append(head);
  const deltas = settled ? settled.deltas : handEnd.result ? handEnd.result.deltas : [0, 0, 0, 0];
  const row = (label, values, cls) => {
    const tr = el("tr", cls);
    tr.append(el("th", "", label));
    values.forEach((v) => {
      const td = el("td", v > 0 ? "plus" : v < 0 ? "minus" : "", v === null ? "…"
        : `${v > 0 && cls !== "totals" ? "+" : ""}${v}`);
      tr.append(td);
    });
    table.append(tr);
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
      table.append(tr);
    }
  } else {
    row(S.totals, [null, null, null, null], "totals pending");
  }
  return table;
}

function renderResult() {
  const dlg = $("#result");
  if (!handEnd || dismissedResult === handEnd.hand) return;
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
  wins.forEach((w, n) => {
    const sec = el("section", "result-win");
    sec.dataset.seat = w.seat;
    const title = el("h3", "");
    title.append(el("span", "won-badge", S.hu), ` ${seatName(w.seat)} · ${winDescription(w)}`);
    sec.append(title);
    const tiles = el("div", "result-tiles");
    const p = handEnd.hands[w.seat];
    const melds = el("span", "melds");
    for (const m of (p && p.melds) || []) melds.append(meldEl(m));
    const hand = el("span", "hand");
    for (const t of sortTiles(parseTiles(w.hand))) hand.append(tileEl(t, "small"));
    tiles.append(melds, hand, tileEl(w.tile, "small win-tile"));
    sec.append(tiles);
    const items = el("p", "result-items");
    items.dataset.total = w.total;
    for (const it of w.items) {
      const s = el("span", "result-item", itemText(it));
      s.dataset.pattern = it.id;
      items.append(s);
    }
    items.append(el("strong", "result-total", itemsLine(w).split(" = ").pop()));
    sec.append(items);
    // In words first (the patterns, who paid whom); the algebra folded beneath.
    const paid = transfers.filter((t) => t.win === w.order
      || (t.reason === "gang_shang_pao" && t.to === w.seat));
    if (paid.length) {
      const ul = el("ul", "transfers result-paid");
      for (const t of paid) {
        ul.append(transferLine(t));
        winPaid.add(t);
      }
      sec.append(ul);
    }
    const how = explain[n];
    if (how) {
      const fold = el("details", "result-how");
      fold.append(el("summary", "", S.how_computed), el("p", "result-explain", named(how)));
      sec.append(fold);
    }
    body.append(sec);
  });
  const cha = handEnd.cha || (settled && settled.details && settled.details.cha);
  if (cha) {
    const sec = el("section", "result-cha");
    sec.append(el("h3", "", S.end_checks));
    const ul = el("ul", "");
    if (cha.hua_zhu && cha.hua_zhu.length) ul.append(el("li", "", `${S.hua_zhu}: ${cha.hua_zhu.map(seatName).join(", ")}`));
    const ready = Object.entries(cha.ready || {});
    if (ready.length) ul.append(el("li", "", `${S.ready_hand}: ${ready.map(([s, f]) => `${seatName(Number(s))} ${f}${S.fan}`).join(", ")}`));
    if (cha.not_ready && cha.not_ready.length) ul.append(el("li", "", `${S.not_ready_hand}: ${cha.not_ready.map(seatName).join(", ")}`));
    if (ul.children.length) {
      sec.append(ul);
      body.append(sec);
    }
  }
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
  dlg.append(foot);
  if (!dlg.open) dlg.showModal();
}

function closeResult() {
  const dlg = $("#result");
  if (handEnd) dismissedResult = handEnd.hand;
  if (dlg.open) dlg.close();
}
$("#result").addEventListener("cancel", () => {
  if (handEnd) dismissedResult = handEnd.hand;
});

// ---- timer -----------------------------------------------------------------------------

// Server time minus ours, from the last state: countdowns use the server's clock.
let clockSkew = 0;
const serverNow = () => Date.now() + clockSkew;

// A clock face drawn inline: emoji fonts are not everywhere.
const CLOCK_SVG = '<svg viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6.5" '
  + 'fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 4.2V8l2.6 1.6" fill="none" '
  + 'stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';

/** Whether a person (not a bot, not 托管) is making ``seat``'s current decision. */
function personDecides(seat) {
  const rs = room && room.seats[seat];
  return Boolean(rs && rs.user_id && !rs.is_bot && !rs.left && !rs.auto);
}

function tick() {
  const box = $("#timer");
  let left = null;
  let mine = false;
  if (state && state.phase !== "ended") {
    // Only where a person is deciding: a bot's turn carries its thinking delay as a deadline.
    if (state.deadline && personDecides(mySeat)) {
      left = Math.ceil((Date.parse(state.deadline) - serverNow()) / 1000);
      mine = true;
    } else if (state.turn_deadline && state.phase === "play" && personDecides(state.turn)) {
      left = Math.ceil((Date.parse(state.turn_deadline) - serverNow()) / 1000);
    }
  }
  box.replaceChildren();
  if (left !== null && left >= 1) {
    const icon = el("span", "timer-icon");
    icon.innerHTML = CLOCK_SVG;
    box.append(icon, el("span", "timer-n", String(left)), el("small", "timer-unit", S.sec_unit));
    box.classList.toggle("is-urgent", mine && left <= 5);
    box.classList.toggle("is-mine", mine);
  }
  let next = "";
  if (state && state.phase === "ended" && room && room.next_hand_at && room.status !== "finished") {
    const s = Math.max(0, Math.ceil((Date.parse(room.next_hand_at) - serverNow()) / 1000));
    next = fmt(S.next_hand_in, { s });
  }
  for (const n of document.querySelectorAll(".next-hand")) n.textContent = next;
  let starts = "";
  if (!state && room && room.status === "open" && room.next_hand_at) {
    const s = Math.max(0, Math.ceil((Date.parse(room.next_hand_at) - serverNow()) / 1000));
    starts = fmt(S.starts_in, { s });
  }
  for (const n of document.querySelectorAll(".starts-in")) n.textContent = starts;
}
setInterval(tick, 250);

// ---- keyboard ---------------------------------------------------------------------------

document.addEventListener("keydown", (ev) => {
  if (!state || mySeat === null || ev.target.closest("input, select, textarea")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const find = (type) => state.legal.findIndex((a) => a.type === type);
  const key = ev.key.toLowerCase();
  const byKey = { h: "hu", p: "peng", g: "gang", c: "chi" };
  if (byKey[key] && find(byKey[key]) >= 0) {
    ev.preventDefault();
    act(find(byKey[key]));
    return;
  }
  if ((key === " " || key === "escape") && find("pass") >= 0) {
    ev.preventDefault();
    act(find("pass"));
    return;
  }
  if (["1", "2", "3"].includes(key)) {
    const i = state.legal.findIndex((a) => a.type === "ding_que" && a.suit === "mps"[Number(key) - 1]);
    if (i >= 0) act(i);
    return;
  }
  const discards = legalDiscards();
  if (!discards.size) return;
  const { tiles, drawn } = myTiles();
  const all = drawn ? [...tiles, drawn] : tiles;
  const playable = all.map((t, i) => [t, i]).filter(([t]) => discards.has(t)).map(([, i]) => i);
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    const at = playable.indexOf(selected);
    const step = ev.key === "ArrowLeft" ? -1 : 1;
    const next = at < 0 ? (step > 0 ? 0 : playable.length - 1)
      : (at + step + playable.length) % playable.length;
    selected = playable[next];
    renderMine();
    renderActions();
  } else if (ev.key === "Enter" && selected !== null && playable.includes(selected)) {
    ev.preventDefault();
    discard(all[selected]);
  }
});

// ---- boot ------------------------------------------------------------------------------

$("#btn-leave").addEventListener("click", async () => {
  if (!window.confirm(S.leave_confirm)) return;
  try {
    await api("POST", `/api/rooms/${boot.room_id}/leave/`);
    location.href = boot.lobby_url;
  } catch (e) {
    toast(refusal(e));
  }
});

// ---- tools: 托管, standing orders, sounds, a second tab --------------------------------

async function setAuto(on) {
  try {
    room = await api("POST", `/api/rooms/${boot.room_id}/auto/`, { auto: on });
    renderRoom();
    if (state) renderState();
  } catch (e) {
    toast(refusal(e));
  }
}

function renderTools() {
  const b = $("#btn-auto");
  const me = myRoomSeat();
  b.hidden = !me || room.status === "finished";
  const on = Boolean(me && me.auto);
  b.setAttribute("aria-pressed", String(on));
  b.classList.toggle("is-on", on);
}

$("#btn-auto").addEventListener("click", () => {
  const me = myRoomSeat();
  if (me) setAuto(!me.auto);
});
for (const [id, key] of [["#opt-auto-win", "autoWin"], ["#opt-auto-pass", "autoPass"],
  ["#opt-sound", "sound"]]) {
  const box = $(id);
  box.checked = Boolean(prefs[key]);
  box.addEventListener("change", () => {
    prefs[key] = box.checked;
    savePrefs();
    setSound(prefs.sound);
    if (key === "sound" && box.checked) sound("turn"); // so one hears what was switched on
    if (state) assist(null);
  });
}
setSound(prefs.sound);
const indexBox = $("#opt-tile-index");
indexBox.checked = tileIndexOn();
indexBox.addEventListener("change", () => setTileIndex(indexBox.checked));
// One open menu at a time; a tap elsewhere closes it.
document.addEventListener("click", (ev) => {
  for (const d of document.querySelectorAll(".tool-menu[open]")) {
    if (!d.contains(ev.target)) d.open = false;
  }
});

// Two tabs of one browser at one seat both act for it: say so.
if ("BroadcastChannel" in window && boot.seat !== null) {
  const tabs = new BroadcastChannel(`mh-room-${boot.room_id}`);
  const me = Math.random().toString(36).slice(2);
  tabs.onmessage = (ev) => {
    if (!ev.data || ev.data.from === me) return;
    $("#tabs-note").hidden = false;
    if (ev.data.hello) tabs.postMessage({ from: me });
  };
  tabs.postMessage({ from: me, hello: true });
}

$("#my-hand").title = S.keys;
window.__table = {
  get state() { return state; },
  get room() { return room; },
  get handEnd() { return handEnd; },
  tileLabel,
  sync: () => socket.send({ t: "sync" }),
};
socket.connect();
