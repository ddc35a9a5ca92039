// Countdowns on the server's clock: the deciding seat's clock, the break before the next
// hand, and the rules' countdown before a room's first deal.
import { fmt, S, serverNow, table } from "./state.js";
import { $, el } from "./ui.js";

// A clock face drawn inline: emoji fonts are not everywhere.
const CLOCK_SVG = '<svg viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6.5" '
  + 'fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 4.2V8l2.6 1.6" fill="none" '
  + 'stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';

/** Whether a person (not a bot, not 托管) is making ``seat``'s current decision. */
function personDecides(seat) {
  const rs = table.room && table.room.seats[seat];
  return Boolean(rs && rs.user_id && !rs.is_bot && !rs.left && !rs.auto);
}

function tick() {
  const { state, room } = table;
  const box = $("#timer");
  let left = null;
  let mine = false;
  if (state && state.phase !== "ended") {
    // Only where a person is deciding: a bot's turn carries its thinking delay as a deadline.
    if (state.deadline && personDecides(table.mySeat)) {
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

export function startTimers() {
  setInterval(tick, 250);
}
