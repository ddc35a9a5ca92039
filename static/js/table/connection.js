// The server's messages applied to the table: the room, each hand's versioned state (a gap
// asks for a snapshot), the hand's end and its settlement, and refusals (a stale action is
// sent again on the fresh state if it is still legal).
import { boot, fmt, legalDiscards, S, table } from "./state.js";
import { $, refusal, toast } from "./ui.js";
import { socket, sync } from "./socket.js";
import { renderPlates, renderState } from "./board.js";
import { act, assist, renderActions } from "./actions.js";
import { addHandLink, renderRoom } from "./room.js";
import { closeResult, renderResult } from "./result.js";
import { notePlayedFor, onEvents } from "./events.js";
import { renderSummary } from "./summary.js";
import { onPhrase, renderTalk } from "./talk.js";

export function handle(msg) {
  const d = msg.d;
  if (msg.t === "room") onRoom(d);
  else if (msg.t === "state") onState(d, msg.v);
  else if (msg.t === "hand_end") {
    if (!table.handEnd || table.handEnd.hand !== d.hand) table.settled = null;
    table.handEnd = d;
    renderResult();
    addHandLink(d);
  } else if (msg.t === "settled") {
    if (table.handEnd && d.hand === table.handEnd.hand) {
      table.settled = d;
      renderResult();
      if (table.state) renderPlates();
    }
  } else if (msg.t === "phrase") onPhrase(d);
  else if (msg.t === "error") onError(d);
}

function onRoom(d) {
  table.room = d;
  const me = d.seats.find((s) => s.user_id === boot.user_id && !s.left);
  const seat = me ? me.index : null;
  if (seat !== table.mySeat) {
    table.mySeat = seat;
    socket.ws && socket.ws.close(); // re-open to be put in the seat's group
  }
  renderRoom();
  if (table.state) renderState();
  if (table.handEnd) renderResult();
  renderTalk();
  renderSummary();
}

function onState(d, v) {
  if (d.server_time) table.clockSkew = Date.parse(d.server_time) - Date.now();
  const prev = table.state;
  const fresh = !prev || d.hand > prev.hand || (d.hand === prev.hand && v > prev.version);
  const newer = !prev || d.hand > prev.hand || (d.hand === prev.hand && v >= prev.version);
  if (!newer) return;
  if (prev && d.hand === prev.hand && v > prev.version + 1) {
    sync(); // a gap: the layer dropped something, fetch a snapshot
  }
  if (!prev || d.hand !== prev.hand) {
    table.selected = null;
    table.lastDiscard = null;
    table.picked.clear();
    if (table.handEnd && table.handEnd.hand < d.hand) {
      if ($("#result").open) toast(fmt(S.hand_started, { n: d.hand }), "info");
      closeResult();
    }
  }
  if (prev && prev.phase !== d.phase) table.picked.clear();
  // The first state after we sent an action settles it (ours, or another that beat it,
  // and then ours comes back refused).
  table.state = d;
  table.pending = false;
  // An answer that leaves a claim window open comes back to its answerer alone, on the
  // version the table is still at: its event is news all the same.
  const answered = !fresh && (d.events || []).some((e) => e.type === "ClaimAnswered");
  if (fresh || answered) onEvents(d.events || []);
  notePlayedFor(d); // a snapshot of the same version may still bring the news
  if (table.selected !== null && !legalDiscards().size) table.selected = null;
  renderState();
  if (table.retry) {
    const again = table.retry;
    table.retry = null;
    const i = d.legal.findIndex((a) => JSON.stringify(a) === JSON.stringify(again));
    if (i >= 0) act(i);
    else toast(S.moved_on, "info");
  } else if (fresh) assist(prev);
}

function onError(d) {
  table.pending = false;
  if (d.code === "stale" && table.lastAct) {
    // Others moved while ours was on its way (bots choose their suits at the same
    // moment): fetch the table and send ours again if it is still allowed.
    table.retry = table.lastAct;
    sync();
    return;
  }
  toast(refusal(d));
  if (d.code === "stale" || /version/i.test(d.message || "")) sync();
  if (table.state) renderActions();
}
