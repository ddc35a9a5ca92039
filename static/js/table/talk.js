// Talk between moves: the dissolve vote (解散房间) and quick phrases (快捷语/表情).
// Both go over the table socket; the server says what is allowed (refusals come back as
// error frames and are shown as toasts). The vote is part of the room payload; a phrase is
// a frame of its own, shown beside the seat that said it unless this browser muted them.
import { socket } from "./socket.js";
import { boot, fmt, posOf, S, seatName, serverNow, table } from "./state.js";
import { $, el, toast } from "./ui.js";

const MUTE_KEY = "mh-phrases-muted";
const BUBBLE_MS = 3000;
const phraseById = new Map((boot.phrases || []).map((p) => [p.id, p]));
let toldRefused = null; // the refused vote already announced

function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

function setMuted(on) {
  try {
    localStorage.setItem(MUTE_KEY, on ? "1" : "0");
  } catch {
    // private mode: muted for this page only
  }
  $("#phrase-bubbles").hidden = on;
}

function seated() {
  return table.mySeat !== null && table.room && table.room.status !== "finished";
}

// --- the dissolve vote --------------------------------------------------------------------
function answerButton(agree) {
  const b = el("button", `button button-small${agree ? "" : " button-quiet"}`,
    agree ? S.agree : S.refuse);
  b.type = "button";
  b.dataset.answer = agree ? "agree" : "refuse";
  b.onclick = () => socket.send({ t: "dissolve_answer", agree });
  return b;
}

function renderVote() {
  const { room } = table;
  const panel = $("#vote-panel");
  const vote = room && room.vote;
  const live = vote && room.status !== "finished";
  const open = live && vote.status === "open";
  $("#btn-dissolve").hidden = !seated() || room.status !== "playing"
    || Boolean(live && (open || vote.status === "passed"));
  if (vote && vote.status === "refused" && toldRefused !== vote.id && room.status !== "finished") {
    toldRefused = vote.id;
    if (vote.decided_at && serverNow() - Date.parse(vote.decided_at) < 30000) {
      toast(S.vote_refused, "info");
    }
  }
  if (!live || !(open || vote.status === "passed")) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.dataset.status = vote.status;
  panel.replaceChildren();
  const proposer = vote.voters.find((v) => v.user_id === vote.proposer_id);
  panel.append(el("strong", "", fmt(S.vote_title, {
    name: proposer && proposer.seat !== null ? seatName(proposer.seat) : "?",
  })));
  const ul = el("ul", "vote-answers");
  for (const v of vote.voters) {
    const li = el("li", `vote-${v.answer || "none"}`,
      `${v.seat !== null ? seatName(v.seat) : v.name}: ${S[`answer_${v.answer || "none"}`]}`);
    li.dataset.userId = v.user_id;
    li.dataset.answer = v.answer || "";
    ul.append(li);
  }
  panel.append(ul);
  if (!open) {
    panel.append(el("p", "vote-note", S.vote_passed));
    return;
  }
  panel.append(el("p", "vote-note muted", S.vote_help), el("p", "vote-left"));
  const mine = vote.voters.find((v) => v.user_id === boot.user_id);
  if (mine && !mine.answer) {
    const row = el("div", "vote-buttons");
    row.append(answerButton(true), answerButton(false));
    panel.append(row);
  }
  tickVote();
}

function tickVote() {
  const vote = table.room && table.room.vote;
  const left = $("#vote-panel .vote-left");
  if (!left || !vote || !vote.deadline_at) return;
  const s = Math.max(0, Math.ceil((Date.parse(vote.deadline_at) - serverNow()) / 1000));
  left.textContent = fmt(S.vote_left, { s });
}

// --- quick phrases ------------------------------------------------------------------------
function renderPhraseMenu() {
  const list = $("#phrase-list");
  list.hidden = !seated();
  $("#phrase-note").hidden = seated();
}

/** A phrase said at the table: a bubble beside the seat for a few seconds. */
export function onPhrase(d) {
  const p = phraseById.get(d.phrase);
  if (!p || muted()) return;
  const layer = $("#phrase-bubbles");
  const pos = posOf(d.seat);
  for (const old of layer.querySelectorAll(`.phrase-${pos}`)) old.remove();
  const bubble = el("div", `phrase-bubble phrase-${pos}${p.emoji ? " is-emoji" : ""}`, p.text);
  bubble.dataset.seat = d.seat;
  bubble.dataset.phrase = d.phrase;
  bubble.title = seatName(d.seat);
  layer.append(bubble);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
}

/** The room changed: the vote panel, the dissolve button and the phrase menu follow it. */
export function renderTalk() {
  if (!table.room) return;
  renderVote();
  renderPhraseMenu();
}

export function installTalk() {
  const list = $("#phrase-list");
  for (const p of boot.phrases || []) {
    const b = el("button", `button button-small button-quiet phrase-choice${p.emoji ? " is-emoji" : ""}`,
      p.text);
    b.type = "button";
    b.dataset.phrase = p.id;
    b.onclick = () => {
      socket.send({ t: "phrase", phrase: p.id });
      $("#menu-phrases").open = false;
    };
    list.append(b);
  }
  const mute = $("#opt-mute-phrases");
  mute.checked = muted();
  $("#phrase-bubbles").hidden = mute.checked;
  mute.addEventListener("change", () => setMuted(mute.checked));
  $("#btn-dissolve").addEventListener("click", () => {
    if (window.confirm(S.dissolve_confirm)) socket.send({ t: "dissolve" });
  });
  setInterval(tickVote, 1000);
}
