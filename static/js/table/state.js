// What the table page knows: the boot data, the server's last payloads and this browser's
// choices, in one object every table module reads and writes, and the questions asked of it.
import { parseTiles, sortTiles, tileNameIn } from "../tiles.js";

export const boot = JSON.parse(document.getElementById("table-boot").textContent);
export const S = boot.strings;
export const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const POS = ["bottom", "right", "top", "left"]; // next seat (k+1) on the right: counter-clockwise

export const table = {
  room: null, // last `room` payload
  state: null, // last `state` payload
  handEnd: null, // last `hand_end` payload
  settled: null, // last `settled` payload for handEnd.hand
  mySeat: boot.seat, // null: spectator
  selected: null, // index into the rendered hand of the tile picked for discard
  picked: new Set(), // indices of the tiles picked in a setup phase (e.g. to pass on)
  pending: false, // an action was sent; wait for the next state
  dismissedResult: null, // hand number whose result dialog was closed
  lastAct: null, // the last action we sent, to send again if it arrived on a stale version
  retry: null, // that action, while the fresh state it may be sent again on is awaited
  myChow: false, // this seat answered the open claim with a chow
  lastDiscard: null, // {seat, n}: the latest discard, for the marker (from the events)
  skipped: null, // version whose own-turn kong/win offer was waved away ("Skip")
  clockSkew: 0, // server time minus ours, from the last state: countdowns use the server's clock
  playedFor: [], // the server's PlayedFor events shown in the notice, until we move
  playedSeen: new Set(), // "hand:seq" of every PlayedFor event noted, so none comes back
};

export const prefs = loadPrefs(); // the table options kept in this browser

function loadPrefs() {
  try {
    return { autoWin: false, autoPass: false, sound: false,
      ...JSON.parse(localStorage.getItem("mh-table-prefs") || "{}") };
  } catch {
    return { autoWin: false, autoPass: false, sound: false };
  }
}
export function savePrefs() {
  try {
    localStorage.setItem("mh-table-prefs", JSON.stringify(prefs));
  } catch {
    // private mode: the options last for this page only
  }
}

export function fmt(s, args = {}) {
  return s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
}
export function named(obj) {
  return obj ? obj[LANG] || obj["zh-hans"] || obj.en : "";
}
/** A tile in words: 五筒 in Chinese, "5 Dots" in English. */
export function tileName(code) {
  return tileNameIn(LANG, code);
}

export function base() {
  return table.mySeat ?? 0;
}
export function posOf(seat) {
  return POS[(seat - base() + 4) % 4];
}
export function displayName(s) {
  return s.bot_names ? named(s.bot_names) : s.name; // bots are named in both languages
}
export function seatName(k) {
  const s = table.room && table.room.seats[k];
  if (!s || !s.user_id) return S.empty_seat;
  return displayName(s);
}
export function windOf(k) {
  if (!table.state) return "";
  return [...S.winds][(k - table.state.dealer + 4) % 4];
}

export function myRoomSeat() {
  const { room, mySeat } = table;
  return room && mySeat !== null ? room.seats[mySeat] : null;
}

export function canReady() {
  const me = myRoomSeat();
  if (!me || me.ready || table.room.status === "finished") return false;
  return !table.state || table.state.phase === "ended";
}

/** What a spectator is told: watching, and how late when the room delays spectators. */
export function spectatingNote() {
  const { room } = table;
  return room && room.spectator_delay
    ? `${S.spectating} ${fmt(S.spectator_late, { n: room.spectator_delay })}` : S.spectating;
}

export function legalDiscards() {
  if (!table.state || table.pending) return new Set();
  return new Set(table.state.legal.filter((a) => a.type === "discard").map((a) => a.tile));
}

/** The seat's concealed tiles, sorted, with the one just drawn (if any) kept apart. */
export function myTiles() {
  const p = table.state.players[table.mySeat];
  const tiles = sortTiles(parseTiles(p.hand));
  let drawn = p.drawn || null;
  if (drawn) {
    const i = tiles.lastIndexOf(drawn);
    if (i >= 0) tiles.splice(i, 1);
    else drawn = null;
  }
  return { tiles, drawn };
}

/** The seat's tiles in the order they are shown: sorted, the drawn one last. */
export function shownTiles() {
  const { tiles, drawn } = myTiles();
  return drawn ? [...tiles, drawn] : tiles;
}

export const serverNow = () => Date.now() + table.clockSkew;
