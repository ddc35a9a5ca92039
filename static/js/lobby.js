// The lobby: open tables, a create form built from the variant's rule description, join links.
import { api } from "./net.js";
import { ruleForm } from "./ruleform.js";

const S = JSON.parse(document.getElementById("lobby-strings").textContent);
const CHOICES = JSON.parse(document.getElementById("lobby-choices").textContent);
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const $ = (sel) => document.querySelector(sel);
const fmt = (s, args) => s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
const ruleUi = ruleForm({ strings: S, choices: CHOICES, lang: LANG });
// Shown outside "More rules": each variant's choices that change the game most.
const MAIN_RULES = JSON.parse(document.getElementById("lobby-main-rules").textContent);
const { named, choiceName, el } = ruleUi;
let variants = [];

function ruleHighlights(room) {
  const v = variants.find((x) => x.key === room.variant);
  const out = [];
  for (const [id, value] of Object.entries(room.rule_choices || {})) {
    const rule = v && v.rules.find((r) => r.id === id);
    const label = rule ? named(rule.label) : id;
    if (value === true) out.push(label);
    else if (value === false) out.push(`${label} ✗`);
    else if (value === null) out.push(`${label}: ${S.no_cap}`);
    else if ((MAIN_RULES[room.variant] || []).includes(id)) out.push(choiceName(id, value));
    else out.push(`${label}: ${choiceName(id, value)}`);
  }
  return out;
}

/** Whether a room is rated, said before anyone joins it. */
function ratedTag(rated) {
  const tag = el("span", `tag ${rated ? "tag-rated" : "tag-unrated"}`, rated ? S.rated : S.unrated);
  tag.title = rated ? S.rated_help : S.unrated_help;
  return tag;
}

async function loadRooms() {
  const box = $("#room-list");
  let rooms;
  try {
    rooms = await api("GET", "/api/rooms/");
  } catch {
    return;
  }
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
    head.append(el("span", `status status-${r.status}`, S[r.status] || r.status));
    if (r.club_name) head.append(el("span", "tag tag-club", `${r.club_name} · ${r.preset_name}`));
    head.append(ratedTag(r.rated));
    li.append(head);
    const facts = el("div", "room-facts");
    facts.append(el("span", "", fmt(S.seats_filled, { n: 4 - r.free_seats })));
    facts.append(el("span", "", fmt(S.hands, { n: r.hands_total })));
    facts.append(el("span", "", r.discard_seconds
      ? `${r.discard_seconds}${S.seconds}/${r.claim_seconds}${S.seconds}` : S.no_timer));
    facts.append(el("span", "room-bot-level",
      fmt(S.bot_level, { level: S.bot_levels[r.bot_level] || r.bot_level })));
    if (r.watchers) facts.append(el("span", "room-watchers", fmt(S.watchers, { n: r.watchers })));
    facts.append(el("span", "muted", r.owner));
    li.append(facts);
    const hl = ruleHighlights(r);
    li.append(el("div", "room-rules-hl", hl.length ? hl.join(" · ") : S.default_rules));
    const rulesLink = el("a", "room-rules-link", box.dataset.rulesLabel);
    rulesLink.href = `/rules/${r.variant}/?room=${r.id}`;
    li.append(rulesLink);
    const link = el("a", "button button-small", r.status === "open" && r.free_seats ? S.join : S.watch);
    link.href = `/rooms/${r.id}/`;
    if (r.status === "open" && r.free_seats && r.my_seat === undefined) {
      link.addEventListener("click", async (ev) => {
        ev.preventDefault();
        try {
          await api("POST", `/api/rooms/${r.id}/join/`, {});
        } catch (e) {
          if (e.status === 401 || e.status === 403) {
            location.href = `/accounts/login/?next=/lobby/`;
            return;
          }
        }
        location.href = link.href;
      });
    }
    li.append(link);
    ul.append(li);
  }
  box.append(ul);
}

/** A refusal in the reader's language, by its code; the server's words otherwise. */
function refusal(e) {
  return (S.errors && S.errors[e.code]) || e.detail || e.code;
}

function renderRules() {
  const v = variants.find((x) => x.key === $("#opt-variant").value);
  const box = $("#rules-fields");
  const main = $("#rules-main");
  box.replaceChildren();
  main.replaceChildren();
  if (!v) return;
  for (const rule of v.rules) ((MAIN_RULES[v.key] || []).includes(rule.id) ? main : box).append(ruleUi.field(rule));
}

function syncTimerControls() {
  const priv = $("#opt-private").checked;
  const noTimer = $("#opt-no-timer");
  noTimer.disabled = !priv;
  if (!priv) noTimer.checked = false;
  $("#opt-discard").disabled = noTimer.checked;
  $("#opt-claim").disabled = noTimer.checked;
}

/** The spectator delay as typed: a number, or the text itself for the server to refuse. */
function delayValue() {
  const raw = $("#opt-delay").value.trim();
  if (raw === "") return 0;
  return Number.isFinite(Number(raw)) ? Number(raw) : raw;
}

async function setupCreate() {
  const form = $("#create-form");
  if (!form) return;
  const select = $("#opt-variant");
  for (const v of variants) {
    const o = el("option", "", named(v.name));
    o.value = v.key;
    select.append(o);
  }
  // The variant a link asked for (a variant card's "Play"), else the site's first rule set
  // (the server lists them in the site's order).
  const asked = new URLSearchParams(location.search).get("variant");
  if (variants.some((v) => v.key === asked)) select.value = asked;
  else if (variants.length) select.value = variants[0].key;
  select.addEventListener("change", renderRules);
  renderRules();
  $("#opt-private").addEventListener("change", syncTimerControls);
  $("#opt-no-timer").addEventListener("change", syncTimerControls);
  syncTimerControls();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = variants.find((x) => x.key === select.value);
    const noTimer = $("#opt-no-timer").checked;
    const body = {
      variant: v.key,
      // Only what differs from the default: those are the table's highlights.
      rules: ruleUi.collect(v.rules),
      // As typed: a length out of range is refused with a message, never replaced.
      hands: Number($("#opt-hands").value),
      private: $("#opt-private").checked,
      bots: Number($("#opt-bots").value),
      bot_level: $("#opt-bot-level").value,
      discard_seconds: noTimer ? null : Number($("#opt-discard").value) || 15,
      claim_seconds: noTimer ? null : Number($("#opt-claim").value) || 8,
      spectator_delay: delayValue(),
    };
    const err = $("#create-error");
    err.hidden = true;
    $("#btn-create").disabled = true;
    try {
      const room = await api("POST", "/api/rooms/", body);
      location.href = `/rooms/${room.id}/`;
    } catch (e) {
      err.textContent = refusal(e);
      err.hidden = false;
      $("#btn-create").disabled = false;
    }
  });
  // Enabled only now: a click before the handler was here would submit the form as a
  // plain page request (the variants are fetched first) and create nothing.
  $("#btn-create").disabled = false;
}

const QUICK_KEY = "mh-quick-variant";

/** 16 random bytes from Web Crypto as hex: this seat's share of the deal's randomness. */
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function lastQuickVariant() {
  try {
    return localStorage.getItem(QUICK_KEY);
  } catch {
    return null;
  }
}

function setupQuick() {
  const b = $("#btn-quick");
  if (!b) return;
  // Which variant: the one played last from here, else the site's first rule set.
  const pick = $("#quick-variant");
  for (const v of variants) {
    const o = el("option", "", named(v.name));
    o.value = v.key;
    pick.append(o);
  }
  const last = lastQuickVariant();
  if (variants.some((v) => v.key === last)) pick.value = last;
  else if (variants.length) pick.value = variants[0].key;
  b.addEventListener("click", async () => {
    const err = $("#quick-error");
    err.hidden = true;
    b.disabled = true;
    b.textContent = S.creating;
    try {
      const v = variants.find((x) => x.key === pick.value) || variants[0];
      try {
        localStorage.setItem(QUICK_KEY, v.key);
      } catch {
        // private mode: nothing remembered
      }
      const room = await api("POST", "/api/rooms/", {
        variant: v.key, rules: {}, hands: 8, private: true, bots: 3,
        discard_seconds: 15, claim_seconds: 8,
      });
      // One click deals the hand: the player is ready as they sit, with their share of
      // the deal's randomness drawn now, after the server committed to its seed (the
      // commitment is on the hand's fairness panel), so no Ready dialog stands between.
      await api("POST", `/api/rooms/${room.id}/ready/`, { client_seed: clientSeed() });
      location.href = `/rooms/${room.id}/`;
    } catch (e) {
      err.textContent = refusal(e);
      err.hidden = false;
      b.disabled = false;
      b.textContent = S.quick_play;
    }
  });
}

async function main() {
  try {
    variants = await api("GET", "/api/variants/");
  } catch {
    variants = [];
  }
  setupQuick();
  await setupCreate();
  await loadRooms();
  setInterval(loadRooms, 5000);
}

main();
