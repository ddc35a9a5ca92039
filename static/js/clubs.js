// Club pages: my clubs (create / join), a club (members, rooms), the preset editor with
// lock toggles, and a club room's form.  Every write goes through the REST API; the pages
// show its refusals as they come.
import { api } from "./net.js";
import { ruleForm } from "./ruleform.js";

const BOOT = JSON.parse(document.getElementById("clubs-boot").textContent);
const S = BOOT.strings;
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const ruleUi = ruleForm({ strings: S, choices: {}, lang: LANG });
const { el, named } = ruleUi;
const $ = (sel) => document.querySelector(sel);
const fmt = (s, args) => s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));

function showError(e) {
  const box = $("#club-error");
  box.textContent = (S.errors && S.errors[e.code]) || e.detail || e.code || S.error;
  box.hidden = false;
}

function onSubmit(selector, handler) {
  const f = $(selector);
  if (!f) return;
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#club-error").hidden = true;
    const button = f.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await handler(f);
    } catch (e) {
      showError(e);
      button.disabled = false;
    }
  });
}

// ---- my clubs -----------------------------------------------------------------------------

onSubmit("#club-create-form", async (f) => {
  const club = await api("POST", "/api/clubs/", { name: f.name.value });
  location.href = `/clubs/${club.id}/`;
});

// An invite link (/clubs/?code=…) fills in the join form.
const invited = new URLSearchParams(location.search).get("code");
if (invited && $("#club-code")) $("#club-code").value = invited;

onSubmit("#club-join-form", async (f) => {
  const joined = await api("POST", "/api/clubs/join/", { invite_code: f.invite_code.value });
  // A club that vets who joins answers "pending": the request shows on this page.
  location.href = joined.status === "pending" ? "/clubs/?requested#my-requests" : `/clubs/${joined.club}/`;
});

// ---- a club ---------------------------------------------------------------------------------

async function loadRooms() {
  const box = $("#club-rooms");
  let rooms;
  try {
    rooms = await api("GET", "/api/rooms/");
  } catch {
    return;
  }
  rooms = rooms.filter((r) => r.club === BOOT.club_id);
  box.replaceChildren();
  if (!rooms.length) {
    box.append(el("p", "muted", S.no_rooms));
    return;
  }
  const ul = el("ul", "rooms");
  for (const r of rooms) {
    const li = el("li", "room-card");
    li.dataset.roomId = r.id;
    const head = el("div", "room-card-head");
    head.append(el("strong", "", `${named(r.variant_name)} #${r.id}`));
    head.append(el("span", "tag", `${r.preset_name} v${r.preset.version}`));
    head.append(el("span", "tag", r.rated ? S.rated : S.unrated));
    li.append(head);
    li.append(el("div", "room-facts", `${fmt(S.seats_filled, { n: 4 - r.free_seats })} · ${r.owner}`));
    // One tap seats the member, then opens the table (as the lobby's "join" does).
    const open = r.status === "open" && r.free_seats && r.my_seat === undefined;
    const link = el("a", "button button-small", open ? S.join : S.watch);
    link.href = `/rooms/${r.id}/`;
    link.dataset.action = open ? "join" : "watch";
    if (open) {
      link.addEventListener("click", async (ev) => {
        ev.preventDefault();
        try {
          await api("POST", `/api/rooms/${r.id}/join/`, {});
        } catch (e) {
          showError(e);
          return;
        }
        location.href = link.href;
      });
    }
    li.append(link);
    ul.append(li);
  }
  box.append(ul);
}

function setupClub() {
  if (!$("#club")) return;
  const base = `/api/clubs/${BOOT.club_id}`;
  const act = async (fn, confirmText, then = () => location.reload()) => {
    if (confirmText && !window.confirm(confirmText)) return;
    try {
      await fn();
      then();
    } catch (e) {
      showError(e);
    }
  };
  const board = $("#board-counts-unrated");
  if (board) {
    board.addEventListener("change", () => act(() => api("POST", `${base}/board/`, { counts_unrated: board.checked })));
  }
  const rotate = $("#btn-rotate");
  if (rotate) rotate.addEventListener("click", () => act(() => api("POST", `${base}/invite/`), S.confirm_rotate));
  for (const b of document.querySelectorAll("#members button[data-action]")) {
    const userId = b.closest("tr").dataset.userId;
    b.addEventListener("click", () => {
      if (b.dataset.action === "role") {
        act(() => api("POST", `${base}/members/${userId}/role/`, { role: b.dataset.role }));
      } else if (b.dataset.action === "leave") {
        act(() => api("DELETE", `${base}/members/${userId}/`), S.confirm_leave, () => {
          location.href = "/clubs/";
        });
      } else {
        act(() => api("DELETE", `${base}/members/${userId}/`), S.confirm_remove);
      }
    });
  }
  loadRooms();
  setInterval(loadRooms, 5000);
}

// ---- preset editor (lock toggles) and a club room's form (locked rules fixed) --------------

function lockToggle(rule, locked) {
  const label = el("label", "check lock-toggle");
  const cb = el("input");
  cb.type = "checkbox";
  cb.id = `lock-${rule.id}`;
  cb.dataset.lockFor = rule.id;
  cb.checked = locked;
  label.append(cb, ` ${S.lock}`);
  return label;
}

function renderEditor(v, values, locked) {
  const box = $("#rules-fields");
  box.replaceChildren();
  for (const rule of v.rules) {
    const field = ruleUi.field(rule, rule.id in values ? values[rule.id] : rule.default);
    field.append(lockToggle(rule, locked.includes(rule.id)));
    box.append(field);
  }
}

function lockedIds(v) {
  return v.rules.filter((r) => document.getElementById(`lock-${r.id}`).checked).map((r) => r.id);
}

/** The spectator delay field as typed (the server refuses what is not 0..300 s). */
function delayOf(f) {
  const raw = f.spectator_delay.value.trim();
  if (raw === "") return null;
  return Number.isFinite(Number(raw)) ? Number(raw) : raw;
}

// ---- timers: a preset sets them (and may lock them), a club room's form starts from them ----

function syncTimers() {
  const none = $("#opt-no-timer").checked;
  for (const id of ["#opt-discard", "#opt-claim"]) $(id).disabled = none || $("#timers-fieldset").disabled;
}

function showTimers(t, { lockedHere = false } = {}) {
  $("#opt-discard").value = t.discard_seconds ?? 15;
  $("#opt-claim").value = t.claim_seconds ?? 8;
  $("#opt-no-timer").checked = t.discard_seconds === null;
  const lock = $("#lock-timers");
  if (lock) lock.checked = Boolean(t.locked);
  if (lockedHere) {
    $("#timers-fieldset").disabled = true;
    $("#timers-fieldset legend").append(" ", el("span", "tag tag-locked", S.locked));
  }
  $("#opt-no-timer").addEventListener("change", syncTimers);
  syncTimers();
}

/** The timers as the form holds them (a number left blank is the site's default). */
function readTimers() {
  if ($("#opt-no-timer").checked) return { discard_seconds: null, claim_seconds: null };
  return {
    discard_seconds: Number($("#opt-discard").value) || 15,
    claim_seconds: Number($("#opt-claim").value) || 8,
  };
}

async function setupEditor(variants) {
  const base = `/api/clubs/${BOOT.club_id}/presets/`;
  if (BOOT.mode === "new") {
    const select = $("#opt-variant");
    for (const v of variants) {
      const o = el("option", "", named(v.name));
      o.value = v.key;
      select.append(o);
    }
    const render = () => renderEditor(variants.find((x) => x.key === select.value), {}, []);
    select.addEventListener("change", render);
    render();
    showTimers({ discard_seconds: 15, claim_seconds: 8, locked: false });
    onSubmit("#preset-form", async (f) => {
      const v = variants.find((x) => x.key === select.value);
      const preset = await api("POST", base, {
        variant: v.key, name: f.name.value, rules: ruleUi.collect(v.rules),
        locked: lockedIds(v), note: f.note.value, spectator_delay: delayOf(f),
        timers: { ...readTimers(), locked: $("#lock-timers").checked },
      });
      location.href = `/clubs/${BOOT.club_id}/presets/${preset.id}/`;
    });
    return;
  }
  const p = BOOT.preset;
  const v = variants.find((x) => x.key === p.variant);
  renderEditor(v, p.choices, p.locked);
  $("#preset-delay").value = p.spectator_delay || 0;
  showTimers(p.timers);
  onSubmit("#preset-form", async (f) => {
    await api("PUT", `${base}${p.id}/`, {
      rules: ruleUi.collect(v.rules), locked: lockedIds(v), note: f.note.value,
      spectator_delay: delayOf(f), timers: { ...readTimers(), locked: $("#lock-timers").checked },
    });
    location.reload();
  });
}

function setupPlay(variants) {
  const p = BOOT.preset;
  const v = variants.find((x) => x.key === p.variant);
  const box = $("#rules-fields");
  for (const rule of v.rules) {
    const field = ruleUi.field(rule, p.rules[rule.id]);
    if (p.locked.includes(rule.id)) {
      for (const input of field.querySelectorAll("input, select")) input.disabled = true;
      field.classList.add("is-locked");
      field.append(el("span", "tag tag-locked", S.locked));
    }
    box.append(field);
  }
  showTimers(p.timers, { lockedHere: p.timers.locked });
  onSubmit("#play-form", async (f) => {
    const rules = ruleUi.collect(v.rules, (rule) => p.rules[rule.id], (rule) => p.locked.includes(rule.id));
    const room = await api("POST", "/api/rooms/", {
      preset: p.id, rules, hands: Number(f.hands.value), bots: Number(f.bots.value),
      spectator_delay: delayOf(f), ...readTimers(),
    });
    location.href = `/rooms/${room.id}/`;
  });
}

async function main() {
  setupClub();
  if (!BOOT.mode) return;
  const variants = (await api("GET", "/api/variants/")).filter(
    (v) => BOOT.mode !== "new" || BOOT.variants.includes(v.key),
  );
  if (BOOT.mode === "play") setupPlay(variants);
  else await setupEditor(variants);
}

main();
