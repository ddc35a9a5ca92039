// The table page. It renders the server's view of the hand and offers exactly the server's
// `legal` actions, sent back unchanged; it holds no rules.
import { api, TableSocket } from "./net.js";
import { backEl, formatTiles, parseTiles, sortTiles, tileEl, tileLabel } from "./tiles.js";

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
  const t = el("div", `toast toast-${kind}`, message);
  t.setAttribute("role", kind === "error" ? "alert" : "status");
  box.append(t);
  setTimeout(() => t.classList.add("toast-out"), 3500);
  setTimeout(() => t.remove(), 4200);
}

function setConn(status) {
  const c = $("#conn");
  c.className = `conn conn-${status}`;
  c.dataset.status = status;
  c.textContent = S[status] || status;
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
    const me = room.seats.find((s) => s.user_id === boot.user_id);
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
    const prev = state;
    const newer = !prev || d.hand > prev.hand || (d.hand === prev.hand && msg.v >= prev.version);
    if (!newer) return;
    if (prev && d.hand === prev.hand && msg.v > prev.version + 1) {
      socket.send({ t: "sync" }); // a gap: the layer dropped something, fetch a snapshot
    }
    if (!prev || d.hand !== prev.hand) {
      selected = null;
      exchangeSel.clear();
      if (handEnd && handEnd.hand < d.hand) closeResult();
    }
    if (prev && prev.phase !== d.phase) exchangeSel.clear();
    state = d;
    pending = false;
    if (selected !== null && !legalDiscards().size) selected = null;
    renderState();
  } else if (msg.t === "hand_end") {
    if (!handEnd || handEnd.hand !== d.hand) settled = null;
    handEnd = d;
    renderResult();
  } else if (msg.t === "settled") {
    if (handEnd && d.hand === handEnd.hand) {
      settled = d;
      renderResult();
    }
  } else if (msg.t === "error") {
    pending = false;
    toast(d.message || d.code);
    if (d.code === "stale" || /version/i.test(d.message || "")) socket.send({ t: "sync" });
    if (state) renderActions();
  }
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
  $("#room-rules").textContent = [mode ? named(mode) : "", timer].filter(Boolean).join(" · ");
  $("#room-rules").title = ruleSummary().join(", ");
  $("#room-club").hidden = !room.club;
  if (room.club) {
    $("#room-club").textContent = fmt(S.club_preset, {
      club: room.club_name, preset: room.preset_name, n: room.preset.version,
    });
  }
  const code = $("#room-code");
  if (room.private && mySeat !== null) {
    api("GET", `/api/rooms/${room.id}/`).then((r) => {
      if (r.code) {
        code.hidden = false;
        code.textContent = `${S.invite_code}: ${r.code}`;
      }
    }).catch(() => {});
  }
  const leave = $("#btn-leave");
  leave.hidden = mySeat === null || room.status === "finished";
  renderPrestart();
  renderPlates();
  renderActions();
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
    li.append(el("span", "prestart-wind", [...S.winds][s.index]));
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
        .catch((e) => toast(e.detail));
      li.append(rm);
    }
    list.append(li);
  }
  box.append(el("h2", "prestart-title",
    room.free_seats ? S.waiting_players : S.waiting_ready));
  box.append(list);
  const row = el("div", "prestart-actions");
  if (room.owner_id === boot.user_id && room.free_seats && room.status === "open") {
    const add = el("button", "button button-quiet", S.add_bot);
    add.id = "btn-add-bot";
    add.onclick = () => api("POST", `/api/rooms/${room.id}/bots/`).catch((e) => toast(e.detail));
    row.append(add);
  }
  if (mySeat === null) {
    box.append(el("p", "muted", S.spectating));
    if (room.free_seats && room.status === "open") row.append(joinButton());
  }
  box.append(row);
}

function joinButton() {
  const b = el("button", "button button-big", S.join);
  b.id = "btn-join";
  b.onclick = async () => {
    try {
      await api("POST", `/api/rooms/${room.id}/join/`, {});
      location.reload();
    } catch (e) {
      toast(e.detail);
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

function sendReady() {
  if (!socket.send({ t: "ready" })) {
    api("POST", `/api/rooms/${room.id}/ready/`).catch((e) => toast(e.detail));
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
    wind.title = state.dealer === k ? S.dealer : "";
    plate.append(wind);
  }
  const name = el("span", "plate-name", seatName(k));
  plate.append(name);
  if (rs && rs.is_bot) plate.append(el("span", "tag", S.bot));
  if (rs && rs.user_id && !rs.is_bot && !rs.connected) plate.append(el("span", "tag tag-off", "⚡"));
  if (p && p.left) plate.append(el("span", "tag tag-off", S.left));
  if (p && p.que) {
    const q = el("span", `que que-${p.que}`, SUIT_CHARS[p.que]);
    q.title = S.missing;
    plate.append(q);
  }
  if (p && p.won) plate.append(el("span", "won-badge", "胡"));
  if (rs) {
    const delta = state ? state.deltas[k] : 0;
    const score = el("span", "score", String(rs.score + (state && state.phase !== "ended" ? delta : 0)));
    if (delta) score.append(el("small", delta > 0 ? "plus" : "minus", ` ${delta > 0 ? "+" : ""}${delta}`));
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
  row.append(melds, hand);
  area.append(row);
}

function renderPools() {
  for (let k = 0; k < 4; k++) {
    const pool = $(`.pool-${posOf(k)}`);
    pool.replaceChildren();
    pool.dataset.seat = k;
    const p = state.players[k];
    p.discards.forEach((t, i) => {
      const last = state.claim && state.claim.from === k && i === p.discards.length - 1;
      pool.append(tileEl(t, `discard${last ? " is-claimable" : ""}`));
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
    winds.append(w);
  }
  const claim = $("#claim-tile");
  claim.replaceChildren();
  if (state.claim) claim.append(tileEl(state.claim.tile, "claim"));
}

function renderMine() {
  const handBox = $("#my-hand");
  const meldBox = $("#my-melds");
  handBox.replaceChildren();
  meldBox.replaceChildren();
  const k = base();
  handBox.dataset.handSeat = k;
  delete handBox.dataset.won;
  const p = state.players[k];
  for (const m of p.melds) meldBox.append(meldEl(m));
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
    tEl.addEventListener("click", () => onTileClick(i, t));
    handBox.append(tEl);
  });
  if (p.won) handBox.append(tileEl(p.won.tile, "win-tile"));
}

function onTileClick(i, t) {
  if (!state || pending) return;
  if (state.legal.some((a) => a.type === "exchange")) {
    if (exchangeSel.has(i)) exchangeSel.delete(i);
    else if (exchangeSel.size < 3) exchangeSel.add(i);
    renderMine();
    renderActions();
    return;
  }
  if (!legalDiscards().has(t)) return;
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
  const bar = $("#actions");
  const prompt = $("#prompt");
  bar.replaceChildren();
  prompt.textContent = "";
  if (canReady()) {
    const b = el("button", "button button-big action-ready", state ? S.ready_next : S.ready);
    b.id = "btn-ready";
    b.dataset.type = "ready";
    b.onclick = sendReady;
    bar.append(b);
  }
  if (!state) return;
  if (mySeat === null) {
    prompt.textContent = S.spectating;
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
  const order = ["hu", "gang", "peng", "chi", "pass"];
  const buttons = legal.map((a, i) => [a, i]).filter(([a]) => order.includes(a.type));
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
  const discards = legalDiscards();
  if (discards.size) {
    prompt.textContent = buttons.length ? S.claim_prompt : S.your_turn;
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
    prompt.textContent = S.claim_prompt;
  } else if (state.phase === "play" && state.turn !== mySeat) {
    prompt.textContent = fmt(S.turn_of, { name: seatName(state.turn) });
  }
  if (state.exchange_direction && state.phase !== "ended" && !state.players[mySeat].discards.length
    && state.phase !== "play") {
    prompt.textContent += ` · ${fmt(S.exchange_dir, { dir: S[state.exchange_direction] || state.exchange_direction })}`;
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

function renderState() {
  if (!state) return;
  $("#table").dataset.phase = state.phase;
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

function itemsLine(won) {
  const parts = won.items.map((it) => `${named(boot.patterns[it.id]) || it.id} ${it.value}${S.fan}`);
  const sum = won.items.reduce((a, it) => a + it.value, 0);
  let line = `${parts.join(" + ")} = ${won.total}${S.fan}`;
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
  const deltas = handEnd.result ? handEnd.result.deltas : [0, 0, 0, 0];
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
    if (settled.ratings && settled.ratings.length) {
      const byseat = [null, null, null, null];
      for (const r of settled.ratings) byseat[r.seat] = r.change;
      const tr = el("tr", "ratings");
      tr.append(el("th", "", S.rating));
      byseat.forEach((v) => tr.append(el("td", v > 0 ? "plus" : v < 0 ? "minus" : "",
        v === null ? "–" : `${v > 0 ? "+" : ""}${v.toFixed(2)}`)));
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
  if (!wins.length) dlg.append(el("p", "result-drawn", S.drawn_game));
  else if (r.reason === "exhausted") dlg.append(el("p", "result-note", S.wall_out));
  for (const w of wins) {
    const sec = el("section", "result-win");
    sec.dataset.seat = w.seat;
    const title = el("h3", "");
    title.append(el("span", "won-badge", "胡"), ` ${seatName(w.seat)} · ${winDescription(w)}`);
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
      const s = el("span", "result-item", `${named(boot.patterns[it.id]) || it.id} ${it.value}${S.fan}`);
      s.dataset.pattern = it.id;
      items.append(s);
    }
    items.append(el("strong", "result-total", itemsLine(w).split(" = ").pop()));
    sec.append(items);
    dlg.append(sec);
  }
  const cha = handEnd.cha;
  if (cha) {
    const sec = el("section", "result-cha");
    sec.append(el("h3", "", S.cha));
    const ul = el("ul", "");
    if (cha.hua_zhu && cha.hua_zhu.length) ul.append(el("li", "", `${S.hua_zhu}: ${cha.hua_zhu.map(seatName).join(", ")}`));
    const ready = Object.entries(cha.ready || {});
    if (ready.length) ul.append(el("li", "", `${S.ready_hand}: ${ready.map(([s, f]) => `${seatName(Number(s))} ${f}${S.fan}`).join(", ")}`));
    if (cha.not_ready && cha.not_ready.length) ul.append(el("li", "", `${S.not_ready_hand}: ${cha.not_ready.map(seatName).join(", ")}`));
    if (ul.children.length) {
      sec.append(ul);
      dlg.append(sec);
    }
  }
  const tsec = el("section", "result-transfers");
  tsec.append(el("h3", "", S.transfers));
  if (handEnd.transfers.length) {
    const ul = el("ul", "transfers");
    for (const t of handEnd.transfers) ul.append(transferLine(t));
    tsec.append(ul);
  } else {
    tsec.append(el("p", "muted", S.no_transfers));
  }
  dlg.append(tsec);
  dlg.append(scoresTable());
  if (room && room.status === "finished") {
    const fin = el("section", "result-final");
    fin.append(el("h3", "", S.final));
    const order = [...room.seats].sort((a, b) => b.score - a.score);
    const ol = el("ol", "standings");
    for (const s of order) {
      ol.append(el("li", "", `${s.user_id ? displayName(s) : S.empty_seat} · ${s.score}`));
    }
    fin.append(ol, el("p", "muted", S.game_over));
    dlg.append(fin);
  }
  const foot = el("footer", "result-foot");
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
    const a = el("a", "button", S.back_to_lobby);
    a.href = boot.lobby_url;
    foot.append(a);
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

function tick() {
  const box = $("#timer");
  let text = "";
  if (state && state.phase !== "ended") {
    const d = state.deadline || state.turn_deadline;
    if (d) {
      const left = Math.max(0, Math.ceil((Date.parse(d) - serverNow()) / 1000));
      // A bot's turn carries its short thinking delay as a deadline: not worth a clock.
      text = left >= 1 && (state.deadline || room?.discard_seconds) ? String(left) : "";
      box.classList.toggle("is-urgent", left <= 5);
      box.classList.toggle("is-mine", Boolean(state.deadline));
    }
  } else if (room && room.next_hand_at && room.status !== "finished") {
    const left = Math.max(0, Math.ceil((Date.parse(room.next_hand_at) - serverNow()) / 1000));
    text = fmt(S.next_hand_in, { s: left });
  }
  box.textContent = text;
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
    toast(e.detail);
  }
});

$("#my-hand").title = S.keys;
window.__table = { get state() { return state; }, get room() { return room; }, tileLabel };
socket.connect();
