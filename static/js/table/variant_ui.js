// What only some rule sets show at the table, rendered from the variant's own data (the
// boot's `variant`, from its site.py): setup phases before play (a choice of buttons, or
// tiles picked from the hand), a per-seat mark (a badge, its tiles marked and discarded
// first), a note until play starts, a refused win, how a win's items add up, and checks at
// the end of a hand. No rule set is named here: a new one brings its data along.
import { scoreParts, unitText } from "../score_line.js";
import { formatTiles } from "../tiles.js";
import { boot, fmt, named, S, seatName, shownTiles, table } from "./state.js";
import { el, toast } from "./ui.js";

const V = boot.variant;
const phaseOf = (name) => V.setup.find((s) => s.phase === name) || null;
const setupOfAction = (type) => V.setup.find((s) => s.action === type) || null;

// ---- what the server may do for a seat whose clock ran out ------------------------------

/** The words for a setup move the server made for this seat (its action), or null. */
export function setupActionText(a) {
  const s = setupOfAction(a.type);
  if (!s || !s.timeout) return null;
  const args = {};
  if (s.choose && a[s.choose.field]) {
    args[s.choose.field] = named(s.choose.values[a[s.choose.field]].name);
  }
  return fmt(named(s.timeout.text), args);
}

/** A variant move's name (a setup choice), or null for the moves every variant has. */
export function actionName(type) {
  const s = setupOfAction(type);
  return s ? named(s.label) : null;
}

// ---- the seat's plate and tiles ---------------------------------------------------------

const markOf = (p) => (V.mark && p ? p[V.mark.field] : null);

/** The badge of a seat's mark (its chosen suit), or null. */
export function queBadge(p) {
  const value = markOf(p);
  if (!value) return null;
  const f = V.mark.field;
  const shown = V.mark.values[value];
  const q = el("span", `${f} ${f}-${value}`, named(shown.mark));
  q.title = `${named(V.mark.title)}: ${named(shown.name)}`;
  return q;
}

/** The class marking tile ``t`` in the seat's hand (its marked suit's tiles), or null. */
export function tileMark(p, t) {
  const value = markOf(p);
  return value && t[1] === value ? `is-${V.mark.field}` : null;
}

/** The setup phase whose tiles are picked from the hand now, or null. */
function pickingPhase() {
  const s = V.setup.find((x) => x.pick && table.state.legal.some((a) => a.type === x.action));
  return s || null;
}

/** Whether the seat is to pick tiles from its hand now. */
export function picking() {
  return pickingPhase() !== null;
}

/** A tap on tile ``i`` while tiles are picked: toggles it, up to the phase's count. */
export function pick(i) {
  const s = pickingPhase();
  const picks = table.picked;
  if (picks.has(i)) picks.delete(i);
  else if (picks.size < s.pick.count) picks.add(i);
  else toast(named(s.full), "info");
}

/** Why a discard of ``t`` is refused when the marked suit must go first, or null. */
export function discardOrderRefusal(p, t, legal) {
  const value = markOf(p);
  if (value && V.mark.first && t[1] !== value && [...legal].every((x) => x[1] === value)) {
    return fmt(named(V.mark.first), { suit: named(V.mark.values[value].name) });
  }
  return null;
}

/** Why a tap on a tile does nothing in a setup phase, or null outside one. */
export function setupTapRefusal() {
  const s = phaseOf(table.state.phase);
  return s ? named(s.tap) : null;
}

/** The number keys pick a choice: the action's index (-1: none now), or null for other keys. */
export function setupKey(key) {
  const s = V.setup.find((x) => x.choose && x.choose.keys);
  const n = Number(key);
  if (!s || !(n >= 1 && n <= s.choose.keys.length)) return null;
  const value = s.choose.keys[n - 1];
  return table.state.legal.findIndex((a) => a.type === s.action && a[s.choose.field] === value);
}

// ---- the action bar ---------------------------------------------------------------------

function pickedAction(s) {
  if (table.picked.size !== s.pick.count) return -1;
  const all = shownTiles();
  const chosen = formatTiles([...table.picked].map((i) => all[i]));
  return table.state.legal.findIndex((a) => a.type === s.action && a[s.pick.field] === chosen);
}

function chooseButtons(bar, s, legal, act) {
  const f = s.choose.field;
  legal.forEach((a, i) => {
    if (a.type !== s.action) return;
    const shown = s.choose.values[a[f]] || {};
    const b = el("button", `button button-big ${f}-button ${f}-${a[f]}`);
    b.append(el("span", `${f}-char`, shown.char || a[f]), el("small", "", named(shown.name)));
    b.dataset.type = a.type;
    b.dataset[f] = a[f];
    b.dataset.actionIndex = i;
    b.onclick = () => act(i);
    bar.append(b);
  });
}

function pickButton(bar, s, act) {
  const i = pickedAction(s);
  const b = el("button", "button button-big", named(s.confirm));
  b.dataset.type = s.action;
  b.disabled = i < 0;
  if (i >= 0) b.dataset.actionIndex = i;
  b.onclick = () => i >= 0 && act(i);
  bar.append(b);
}

/**
 * A setup phase's choice in the bar, each button sending ``act(index)``: true when one is shown
 * (nothing else is then); otherwise the prompt says whom the phase waits for, if anyone.
 */
export function buildSetup(bar, prompt, legal, act) {
  const s = legal.map((a) => setupOfAction(a.type)).find(Boolean);
  if (s) {
    prompt.textContent = named(s.prompt);
    if (s.choose) chooseButtons(bar, s, legal, act);
    else pickButton(bar, s, act);
    return true;
  }
  const waiting = phaseOf(table.state.phase);
  if (waiting && !legal.length) prompt.textContent = named(waiting.waiting);
  return false;
}

/** The words added to the prompt until play starts (e.g. which way the tiles were passed). */
export function setupNote() {
  const { state, mySeat } = table;
  const value = V.note && state[V.note.field];
  if (value && state.phase !== "ended" && !state.players[mySeat].discards.length
    && state.phase !== "play") {
    return ` · ${fmt(named(V.note.text), { value: named(V.note.values[value]) || value })}`;
  }
  return "";
}

/** A view field the variant shows beside the dealer's streak ({text, help}), or null. */
export function stateBadge(state) {
  const b = V.badge;
  const value = b && state[b.field];
  return value ? { text: fmt(named(b.text), { value }), help: named(b.help) } : null;
}

/** Why the tiles that make a winning shape may not win here (the variant's minimum). */
export function refusedWin(r) {
  const text = V.refusals[r.refused];
  return text ? fmt(named(text), r) : S.win_refused_other;
}

// ---- the result ---------------------------------------------------------------------------

// How the variant counts a win's items: added (番, 台 …) from a base, or multiplied (×).
const R = V.result;
export const SPEC = {
  unit: named(R.unit), combine: R.combine, base: R.base || 0,
  capped: R.capped ? named(R.capped) : "", base_name: S.base_name,
};

/** ``n`` in the variant's unit (番, 台 …) or as a factor (×n), e.g. a wait's value. */
export function scoreText(n) {
  return SPEC.combine === "times" ? `×${n}` : unitText(n, SPEC.unit);
}

/** A win's parts as shown ({items: [{id, text}], total, line}), its items named. */
export function winParts(won) {
  const items = won.items.map((it) => ({ ...it, name: named(boot.patterns[it.id]) || it.id }));
  return scoreParts({ items, total: won.total }, SPEC);
}

/** The checks of the hands still standing at the end (from the settlement), or null. */
export function endChecksEl(handEnd, settled) {
  const spec = V.end_checks;
  if (!spec) return null;
  const checks = handEnd[spec.field] || (settled && settled.details && settled.details[spec.field]);
  if (!checks) return null;
  const sec = el("section", `result-${spec.field}`);
  sec.append(el("h3", "", named(spec.title)));
  const ul = el("ul", "");
  for (const row of spec.rows) {
    const v = checks[row.field];
    // A list of seats, or seats with a number each (e.g. the fan a ready hand is worth).
    const seats = Array.isArray(v) ? v.map(seatName)
      : Object.entries(v || {}).map(([s, n]) => `${seatName(Number(s))} ${unitText(n, named(row.unit))}`);
    if (seats.length) ul.append(el("li", "", `${named(row.label)}: ${seats.join(", ")}`));
  }
  if (!ul.children.length) return null;
  sec.append(ul);
  return sec;
}
