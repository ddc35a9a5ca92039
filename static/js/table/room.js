// The room around the hands: the header (variant, hand number, rules, club, watchers, invite
// code), the seat list before the first deal, and the menu of finished hands.
import { api } from "../net.js";
import {
  boot, canReady, displayName, fmt, named, S, spectatingNote, table,
} from "./state.js";
import { $, el, refusal, toast } from "./ui.js";
import { renderPlates } from "./board.js";
import { joinButton, readyButton, renderActions } from "./actions.js";
import { renderTools } from "./tools.js";

function ruleSummary() {
  const out = [];
  const choices = table.room.rule_choices || {};
  for (const [id, value] of Object.entries(choices)) {
    const names = boot.choices[id];
    let v = value;
    if (names && names[value]) v = named(names[value]);
    else if (value === true) v = "✓";
    else if (value === false) v = "✗";
    else if (value === null) v = S.no_cap;
    out.push(`${boot.variant.main_rules.includes(id) ? "" : `${id}: `}${v}`);
  }
  return out;
}

export function renderRoom() {
  const { room, state } = table;
  // A ranked match called off before its first deal (a player never came): those who
  // came are queued again at their old places, and the play page shows that wait.
  if (room.status === "finished" && !room.hands_played && room.seats.some((s) => s.rank)) {
    window.location.assign("/play/");
    return;
  }
  $("#room-variant").textContent = named(room.variant_name);
  const handNo = Math.min(room.hands_played + (state && state.phase !== "ended" ? 0 : 1),
    room.hands_total);
  $("#room-hand").textContent = fmt(S.hand_no, {
    n: state ? state.hand : Math.max(1, handNo), total: room.hands_total,
  });
  // The variant's main rules by their value's name (e.g. how a hand ends).
  const main = boot.variant.main_rules
    .map((id) => room.rules && boot.choices[id] && boot.choices[id][room.rules[id]])
    .filter(Boolean).map(named);
  const timer = room.discard_seconds
    ? `${room.discard_seconds}${S.seconds}/${room.claim_seconds}${S.seconds}` : S.no_timer;
  const rated = room.rated ? S.rated : S.unrated;
  const bots = fmt(S.bot_level, { level: S.bot_levels[room.bot_level] || room.bot_level });
  $("#room-rules").textContent = [...main, timer, bots, rated]
    .filter(Boolean).join(" · ");
  $("#room-rules").title = [room.rated ? S.rated_help : S.unrated_help, ...ruleSummary()].join(", ");
  $("#room-club").hidden = !room.club;
  if (room.club) {
    $("#room-club").textContent = fmt(S.club_preset, {
      club: room.club_name, preset: room.preset_name, n: room.preset.version,
    });
  }
  renderWatchers();
  renderCommitment();
  const code = $("#room-code");
  if (room.private && table.mySeat !== null) {
    api("GET", `/api/rooms/${room.id}/`).then((r) => {
      if (r.code) {
        code.hidden = false;
        code.replaceChildren(el("span", "code-label", `${S.invite_code}: `), r.code);
        code.title = S.invite_code;
      }
    }).catch(() => {});
  }
  const leave = $("#btn-leave");
  leave.hidden = table.mySeat === null || room.status === "finished";
  renderPrestart();
  renderPlates();
  renderActions();
  renderTools();
}

/** How many watch the table (spectators' sockets, counted by the server). */
function renderWatchers() {
  const box = $("#room-watchers");
  const n = table.room.watchers || 0;
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

function renderPrestart() {
  const { room } = table;
  const outer = $("#prestart");
  const show = !table.state && room.status !== "finished";
  outer.hidden = !show;
  // What it says is drawn anew, its buttons are not: one replaced between a press and its
  // release would swallow the click (the release lands on another element).
  const box = outer.querySelector(".prestart-info");
  const row = outer.querySelector(".prestart-actions");
  box.replaceChildren();
  if (!show) {
    row.replaceChildren();
    return;
  }
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
  // The rules' countdown for the last player to be ready (where a rule set has one), filled
  // in by the timers.
  box.append(el("p", "prestart-next starts-in", ""));
  const buttons = [];
  const kept = (id, make) => row.querySelector(`#${id}`) || make();
  if (canReady()) buttons.push(kept("btn-ready", () => readyButton(S.ready)));
  if (room.owner_id === boot.user_id && room.free_seats && room.status === "open") {
    buttons.push(kept("btn-add-bot", addBotButton));
  }
  if (table.mySeat === null) {
    box.append(el("p", "muted", spectatingNote()));
    if (room.free_seats && room.status === "open") buttons.push(kept("btn-join", joinButton));
  }
  placeButtons(row, buttons);
}

function addBotButton() {
  const add = el("button", "button button-quiet", S.add_bot);
  add.id = "btn-add-bot";
  add.onclick = () => api("POST", `/api/rooms/${table.room.id}/bots/`)
    .catch((e) => toast(refusal(e)));
  return add;
}

/** ``row`` holds ``buttons`` in that order; a button already in its place is not moved. */
function placeButtons(row, buttons) {
  for (const b of [...row.children]) if (!buttons.includes(b)) b.remove();
  buttons.forEach((b, i) => {
    if (row.children[i] !== b) row.insertBefore(b, row.children[i] || null);
  });
}

/**
 * The next deal's commitment, in the Hands menu beside the checks of the hands dealt: the
 * server's seed for it is fixed already, and its SHA-256 is checkable afterwards. Kept out
 * of the Ready dialog, where a newcomer has only to press Ready.
 */
function renderCommitment() {
  const { room } = table;
  const box = $("#next-commitment");
  box.hidden = !room.next_commitment;
  if (!room.next_commitment) {
    box.replaceChildren();
    return;
  }
  box.dataset.commitment = room.next_commitment;
  box.title = S.commitment_help;
  const code = el("code", "", `${room.next_commitment.slice(0, 16)}…`);
  code.title = room.next_commitment;
  const head = el("p", "", `${fmt(S.next_commitment, { n: room.next_hand_number })}: `);
  head.append(code);
  const why = el("p", "muted", `${S.commitment_line} `);
  const more = el("a", "", S.fair_link);
  more.href = "/fair/";
  why.append(more);
  box.replaceChildren(head, why);
}

/** The room's "Hands" menu: a finished hand's replay link, newest first. */
export function addHandLink(d) {
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
