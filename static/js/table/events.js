// What happened, told as it arrives with a state: call-outs for claims and wins, the
// last-discard marker, a chow overridden, and the moves the server made for this seat
// because its clock ran out.
import { sound } from "../sound.js";
import { fmt, posOf, S, seatName, table, tileName } from "./state.js";
import { $, el, toast } from "./ui.js";
import { setupActionText } from "./variant_ui.js";

function callout(seat, kind) {
  const c = el("div", `callout callout-${posOf(seat)} callout-${kind}`, S[`call_${kind}`]);
  c.dataset.seat = seat;
  c.dataset.kind = kind;
  $("#callouts").append(c);
  sound(kind);
  setTimeout(() => c.remove(), 1800);
}

/** The events of a fresh state. */
export function onEvents(events) {
  const { mySeat } = table;
  for (const e of events) {
    if (e.type === "TileDiscarded") {
      table.lastDiscard = { seat: e.seat, n: table.state.players[e.seat].discards.length };
      table.myChow = false;
      sound("discard");
    } else if (e.type === "ClaimAnswered" && e.seat === mySeat) {
      table.myChow = Boolean(e.action && e.action.type === "chi");
    } else if (e.type === "TileClaimed") {
      callout(e.seat, e.meld.kind);
      // A pung or kong outranks a chow: say so to the one whose chow it overrode.
      if (table.myChow && e.seat !== mySeat) {
        toast(fmt(S.chow_overridden, { name: seatName(e.seat), kind: S[e.meld.kind] }), "info");
      }
      table.myChow = false;
    } else if (e.type === "KongDeclared") {
      callout(e.seat, "gang");
    } else if (e.type === "HandWon") {
      for (const w of e.wins) callout(w.seat, w.win_type === "self_draw" ? "zimo" : "hu");
      const winner = e.wins.find((w) => w.seat !== mySeat);
      if (table.myChow && winner) toast(fmt(S.chow_overridden, { name: seatName(winner.seat), kind: S.hu }), "info");
      table.myChow = false;
    }
  }
}

// ---- the moves the clock made for this seat ----------------------------------------------

function playedText(a) {
  if (a.type === "discard") return fmt(S.auto_discard, { tile: tileName(a.tile) });
  if (a.type === "pass") return S.auto_pass;
  return setupActionText(a) || S.auto_move;
}

/**
 * A state's PlayedFor events (the server's word that its clock moved for this seat: live,
 * or from the log in a returning socket's snapshot) join the notice above the table. It
 * stays until the player moves or closes it, so one who was in another tab or lost the
 * connection reads it on return.
 */
export function notePlayedFor(d) {
  const fresh = (d.events || []).filter((e) => e.type === "PlayedFor" && e.seat === table.mySeat
    && !table.playedSeen.has(`${d.hand}:${e.seq}`));
  if (!fresh.length) return;
  for (const e of fresh) table.playedSeen.add(`${d.hand}:${e.seq}`);
  table.playedFor.push(...fresh);
  renderPlayedFor();
}

/** Our own move: what the clock did before it is no longer news. */
export function clearPlayedFor() {
  if (!table.playedFor.length) return;
  table.playedFor = [];
  renderPlayedFor();
}

function renderPlayedFor() {
  const box = $("#played-for");
  const shown = table.playedFor;
  box.hidden = !shown.length;
  const list = el("ul", "played-for-list");
  for (const e of shown) {
    const li = el("li", "", playedText(e.action));
    li.dataset.type = e.action.type;
    if (e.action.tile) li.dataset.tile = e.action.tile;
    list.append(li);
  }
  const close = el("button", "button button-small button-quiet", S.played_for_close);
  close.type = "button";
  close.onclick = clearPlayedFor;
  box.replaceChildren(list, close);
}
