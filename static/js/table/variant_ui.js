// What only some rule sets show at the table: the setup phases before play (a missing suit to
// choose, three tiles to pass), the missing-suit badge and its discard order, the checks at the
// end of a hand, a win refused under the variant's minimum, and how a win's items add up in
// the variant's unit. The generic table modules ask these functions and never name a variant,
// so this one file is what moves when the server sends the same as data.
import { formatTiles } from "../tiles.js";
import { boot, fmt, named, S, seatName, shownTiles, table } from "./state.js";
import { el, toast } from "./ui.js";

const SUIT_CHARS = { m: "万", p: "筒", s: "条" };

// ---- what the server may do for a seat whose clock ran out ------------------------------

export const SETUP_TIMEOUT_MOVES = ["SuitChosen", "TilesChosen"];

/** The words for a setup move the server made for this seat, or null. */
export function setupMoveText(e) {
  if (e.type === "SuitChosen" && e.suit) return fmt(S.auto_que, { suit: S[e.suit] });
  if (e.type === "TilesChosen") return S.auto_exchange;
  return null;
}

// ---- the seat's plate and tiles ---------------------------------------------------------

/** The badge of a seat's chosen missing suit, or null. */
export function queBadge(p) {
  if (!p || !p.que) return null;
  const q = el("span", `que que-${p.que}`, S[`que_${p.que}`] || SUIT_CHARS[p.que]);
  q.title = `${S.missing}: ${S[p.que]}`;
  return q;
}

/** The class marking tile ``t`` in the seat's hand (its missing suit's tiles), or null. */
export function tileMark(p, t) {
  return p.que && t[1] === p.que ? "is-que" : null;
}

/** Whether the seat is to pick tiles to pass now. */
export function picking() {
  return table.state.legal.some((a) => a.type === "exchange");
}

/** A tap on tile ``i`` while tiles are picked to pass: toggles it, three at most. */
export function pick(i) {
  const picks = table.exchangeSel;
  if (picks.has(i)) picks.delete(i);
  else if (picks.size < 3) picks.add(i);
  else toast(S.tap_three_only, "info");
}

/** Why a discard of ``t`` is refused when the missing suit must go first, or null. */
export function discardOrderRefusal(p, t, legal) {
  if (p.que && t[1] !== p.que && [...legal].every((x) => x[1] === p.que)) {
    return fmt(S.tap_que_first, { suit: S[p.que] });
  }
  return null;
}

/** Why a tap on a tile does nothing in a setup phase, or null outside one. */
export function setupTapRefusal() {
  if (table.state.phase === "ding_que") return S.tap_choose_que;
  if (table.state.phase === "exchange") return S.exchange_waiting;
  return null;
}

/** The number keys choose a suit: the action's index (-1: none now), or null for other keys. */
export function setupKey(key) {
  if (!["1", "2", "3"].includes(key)) return null;
  return table.state.legal.findIndex((a) => a.type === "ding_que" && a.suit === "mps"[Number(key) - 1]);
}

// ---- the action bar ---------------------------------------------------------------------

function selectedExchange() {
  if (table.exchangeSel.size !== 3) return -1;
  const all = shownTiles();
  const chosen = formatTiles([...table.exchangeSel].map((i) => all[i]));
  return table.state.legal.findIndex((a) => a.type === "exchange" && a.tiles === chosen);
}

/**
 * A setup phase's choice in the bar, each button sending ``act(index)``: true when one is shown
 * (nothing else is then); otherwise the prompt says whom the phase waits for, if anyone.
 */
export function buildSetup(bar, prompt, legal, act) {
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
    return true;
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
    return true;
  }
  const { phase } = table.state;
  if (phase === "exchange" && !legal.length) prompt.textContent = S.exchange_waiting;
  if (phase === "ding_que" && !legal.length) prompt.textContent = S.que_waiting;
  return false;
}

/** The words added to the prompt until play starts: which way the tiles were passed. */
export function setupNote() {
  const { state, mySeat } = table;
  const dir = state.exchange_direction;
  if (dir && state.phase !== "ended" && !state.players[mySeat].discards.length
    && state.phase !== "play") {
    return ` · ${fmt(S.tiles_passed_dir, { dir: S[dir.replace("_", "")] || dir })}`;
  }
  return "";
}

/** Why the tiles that make a winning shape may not win here (the variant's minimum). */
export function refusedWin(r) {
  if (r.refused === "min_tai") return fmt(S.win_refused_min, { tai: r.tai, min: r.min_tai });
  return S.win_refused_other;
}

// ---- the result ---------------------------------------------------------------------------

// How the variant counts a win's items: added fan (番), added tai (台), or multipliers (×).
const MULTIPLIES = boot.unit === "times";

export function itemText(it) {
  const name = named(boot.patterns[it.id]) || it.id;
  return MULTIPLIES ? `${name} ×${it.value}` : `${name} ${it.value}${S[boot.unit] || S.fan}`;
}

export function itemsLine(won) {
  const parts = won.items.map(itemText);
  if (MULTIPLIES) return `${parts.join(" · ")} = ×${won.total}`;
  // 台: the hand is worth 1 before its items (T = 1 + Σ台).
  if (boot.unit === "tai") return `1 + ${parts.join(" + ")} = ${won.total}${S.tai}`;
  const sum = won.items.reduce((a, it) => a + it.value, 0);
  let line = `${parts.join(" + ")} = ${won.total}${S[boot.unit] || S.fan}`;
  if (sum !== won.total) line += ` (${S.capped})`;
  return line;
}

/** The checks of the hands still standing at the end (ready, not ready, a third suit), or null. */
export function endChecksEl(handEnd, settled) {
  const cha = handEnd.cha || (settled && settled.details && settled.details.cha);
  if (!cha) return null;
  const sec = el("section", "result-cha");
  sec.append(el("h3", "", S.end_checks));
  const ul = el("ul", "");
  if (cha.hua_zhu && cha.hua_zhu.length) ul.append(el("li", "", `${S.hua_zhu}: ${cha.hua_zhu.map(seatName).join(", ")}`));
  const ready = Object.entries(cha.ready || {});
  if (ready.length) ul.append(el("li", "", `${S.ready_hand}: ${ready.map(([s, f]) => `${seatName(Number(s))} ${f}${S.fan}`).join(", ")}`));
  if (cha.not_ready && cha.not_ready.length) ul.append(el("li", "", `${S.not_ready_hand}: ${cha.not_ready.map(seatName).join(", ")}`));
  if (!ul.children.length) return null;
  sec.append(ul);
  return sec;
}
