// The seat's choices: the server's `legal` actions as buttons, taps and keys, each sent back
// unchanged; the Ready and Join buttons; and the player's standing orders (auto win, auto pass).
import { api } from "../net.js";
import { parseTiles, tileEl } from "../tiles.js";
import { sound } from "../sound.js";
import {
  canReady, fmt, legalDiscards, myRoomSeat, prefs, S, seatName, shownTiles,
  spectatingNote, table, tileName,
} from "./state.js";
import { $, el, patch, refusal, toast } from "./ui.js";
import { socket } from "./socket.js";
import { renderMine } from "./hand.js";
import { clearPlayedFor } from "./events.js";
import { call } from "./calls.js";
import {
  actionName, buildSetup, discardOrderRefusal, pick, picking, refusedWin, setupKey, setupNote,
  setupTapRefusal,
} from "./variant_ui.js";

export function readyButton(label) {
  const b = el("button", "button button-big action-ready", label);
  b.id = "btn-ready";
  b.dataset.type = "ready";
  b.onclick = sendReady;
  return b;
}

export function joinButton() {
  const b = el("button", "button button-big", S.join);
  b.id = "btn-join";
  b.onclick = async () => {
    try {
      await api("POST", `/api/rooms/${table.room.id}/join/`, {});
      location.reload();
    } catch (e) {
      toast(refusal(e));
    }
  };
  return b;
}

// This seat's share of the next deal's randomness: 16 bytes from Web Crypto, drawn after the
// server committed to its seed (room.next_commitment), so neither side can steer the wall.
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function sendReady() {
  const client_seed = clientSeed();
  if (!socket.send({ t: "ready", client_seed })) {
    api("POST", `/api/rooms/${table.room.id}/ready/`, { client_seed }).catch((e) => toast(refusal(e)));
  }
}

/** Why a tap on this tile does nothing now, in words (null: it does something). */
function refusedTap(t) {
  const { state } = table;
  const p = state.players[table.mySeat];
  const legal = legalDiscards();
  if (legal.has(t)) return null;
  if (p.won) return S.tap_won;
  if (legal.size) return discardOrderRefusal(p, t, legal) || S.tap_not_allowed;
  const setup = setupTapRefusal();
  if (setup) return setup;
  if (state.legal.length) return S.tap_answer_claim;
  if (state.phase === "ended") return S.tap_hand_over;
  return S.tap_not_your_turn;
}

export function onTileClick(i, t) {
  if (!table.state || table.pending || table.mySeat === null) return;
  if (picking()) {
    pick(i);
    renderMine();
    renderActions();
    return;
  }
  const why = refusedTap(t);
  if (why) {
    toast(why, "info");
    return;
  }
  if (table.selected === i) {
    discard(t);
    return;
  }
  table.selected = i;
  renderMine();
  renderActions();
}

function discard(t) {
  const i = table.state.legal.findIndex((a) => a.type === "discard" && a.tile === t);
  if (i >= 0) act(i);
}

/** Send ``state.legal[index]``; ``standing``: one of the player's standing orders sent it
 * (the notice of what the clock played waits for the player's own move). */
export function act(index, standing = false) {
  const { state } = table;
  if (!state || table.pending) return;
  const action = state.legal[index];
  if (!action) return;
  table.lastAct = action;
  if (!socket.send({ t: "act", v: state.version, action })) {
    toast(S.offline);
    return;
  }
  table.pending = true;
  table.selected = null;
  table.picked.clear();
  if (!standing) clearPlayedFor();
  renderMine();
  renderActions();
}

function actionLabel(a) {
  if (a.type === "hu") {
    return table.state.phase === "play" && table.state.turn === table.mySeat ? S.zimo : S.hu;
  }
  return { peng: S.peng, gang: S.gang, chi: S.chi, pass: S.pass }[a.type] || actionName(a.type)
    || a.type;
}

/** The prompt on one's own turn names what is offered: a win (自摸), a kong, or both. */
function ownOfferPrompt(types) {
  const win = types.includes("hu");
  const kong = types.includes("gang");
  if (win && !kong) return S.own_win_prompt;
  if (kong && !win) return S.own_kong_prompt;
  return S.own_offer_prompt;
}

export function renderActions() {
  patch($("#prompt"), (prompt) => patch($("#actions"), (bar) => buildActions(bar, prompt)));
}

function buildActions(bar, prompt) {
  const { state, room, mySeat } = table;
  if (!state) return; // before the first hand the Ready button is in the seat list
  if (canReady()) bar.append(readyButton(S.ready_next));
  if (mySeat === null) {
    prompt.textContent = spectatingNote();
    if (room && room.free_seats && room.status === "open") bar.append(joinButton());
    return;
  }
  const legal = table.pending ? [] : state.legal;
  if (buildSetup(bar, prompt, legal, act)) return;
  const me = myRoomSeat();
  if (me && me.auto && state.phase !== "ended") {
    prompt.textContent = S.auto_on;
    const b = el("button", "button button-big action-ready", S.auto_off);
    b.id = "btn-auto-off";
    b.onclick = () => call("setAuto", false);
    bar.append(b);
    return;
  }
  const order = ["hu", "gang", "peng", "chi", "pass"];
  const ownTurn = legal.some((a) => a.type === "discard");
  let buttons = legal.map((a, i) => [a, i]).filter(([a]) => order.includes(a.type));
  if (ownTurn && table.skipped === state.version) buttons = [];
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
      table.skipped = table.state.version;
      renderActions();
    };
    bar.append(b);
  }
  const discards = legalDiscards();
  if (discards.size) {
    prompt.textContent = buttons.length ? ownOfferPrompt(buttons.map(([a]) => a.type)) : S.your_turn;
    const refused = state.players[mySeat] && state.players[mySeat].win_refused;
    if (refused) prompt.textContent += ` · ${refusedWin(refused)}`;
    if (table.selected !== null) {
      const t = shownTiles()[table.selected];
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
  const note = setupNote();
  if (note) prompt.textContent += note;
}

/** The player's standing orders: win when possible, pass on pung/kong offers. */
export function assist(prev) {
  const { state } = table;
  if (table.mySeat === null || table.pending) return;
  const me = myRoomSeat();
  if (me && me.auto) return;
  const legal = state.legal;
  const hu = legal.findIndex((a) => a.type === "hu");
  if (prefs.autoWin && hu >= 0) {
    act(hu, true);
    return;
  }
  if (prefs.autoPass && state.phase === "claim" && hu < 0) {
    const pass = legal.findIndex((a) => a.type === "pass");
    if (pass >= 0) {
      act(pass, true);
      return;
    }
  }
  const offered = (s) => Boolean(s && s.legal.some((a) => a.type !== "discard"));
  const myTurn = (s) => Boolean(s && s.legal.some((a) => a.type === "discard"));
  if (offered(state) && !offered(prev)) sound("offer");
  else if (myTurn(state) && !myTurn(prev)) sound("turn");
}

/** Keys: h/p/g/c claim, space or Esc passes, arrows pick a tile and Enter discards it. */
export function installKeys() {
  document.addEventListener("keydown", (ev) => {
    const { state } = table;
    if (!state || table.mySeat === null || ev.target.closest("input, select, textarea")) return;
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
    const setup = setupKey(key);
    if (setup !== null) {
      if (setup >= 0) act(setup);
      return;
    }
    const discards = legalDiscards();
    if (!discards.size) return;
    const all = shownTiles();
    const playable = all.map((t, i) => [t, i]).filter(([t]) => discards.has(t)).map(([, i]) => i);
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      ev.preventDefault();
      const at = playable.indexOf(table.selected);
      const step = ev.key === "ArrowLeft" ? -1 : 1;
      const next = at < 0 ? (step > 0 ? 0 : playable.length - 1)
        : (at + step + playable.length) % playable.length;
      table.selected = playable[next];
      renderMine();
      renderActions();
    } else if (ev.key === "Enter" && table.selected !== null && playable.includes(table.selected)) {
      ev.preventDefault();
      discard(all[table.selected]);
    }
  });
}
