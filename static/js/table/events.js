// What happened, told as it arrives with a state: call-outs for claims and wins, the
// last-discard marker, a chow overridden, and the moves the server made for a seat whose
// clock ran out.
import { sound } from "../sound.js";
import { fmt, myRoomSeat, posOf, S, seatName, table, tileName } from "./state.js";
import { $, el, toast } from "./ui.js";
import { SETUP_TIMEOUT_MOVES, setupMoveText } from "./variant_ui.js";

function callout(seat, kind) {
  const c = el("div", `callout callout-${posOf(seat)} callout-${kind}`, S[`call_${kind}`]);
  c.dataset.seat = seat;
  c.dataset.kind = kind;
  $("#callouts").append(c);
  sound(kind);
  setTimeout(() => c.remove(), 1800);
}

// Moves the server may make for a seat whose clock ran out (it announces none of them).
const TIMEOUT_MOVES = new Set(["TileDiscarded", "ClaimAnswered", "KongDeclared",
  ...SETUP_TIMEOUT_MOVES]);

function playedForMe(e) {
  if (e.type === "TileDiscarded") return fmt(S.auto_discard, { tile: tileName(e.tile) });
  if (e.type === "ClaimAnswered" && e.action && e.action.type === "pass") return S.auto_pass;
  return setupMoveText(e) || S.auto_move;
}

/** The events of a fresh state; ``ours``: the state answers an action this page sent. */
export function onEvents(events, ours) {
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
  if (mySeat === null) return;
  const mine = events.filter((e) => e.seat === mySeat && TIMEOUT_MOVES.has(e.type));
  if (!mine.length) return;
  const me = myRoomSeat();
  if (!ours && !(me && (me.auto || me.left))) toast(playedForMe(mine[0]), "info");
}
