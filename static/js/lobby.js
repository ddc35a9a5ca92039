// The lobby: open tables, a create form built from the variant's rule description, join links.
import { api } from "./net.js";

const S = JSON.parse(document.getElementById("lobby-strings").textContent);
const CHOICES = JSON.parse(document.getElementById("lobby-choices").textContent);
const HELP = JSON.parse(document.getElementById("lobby-help").textContent);
// Shown outside "More rules": the choice that changes the game most.
const MAIN_RULES = new Set(["mode"]);
const LANG = (document.documentElement.lang || "zh-hans").toLowerCase().startsWith("zh")
  ? "zh-hans" : "en";
const $ = (sel) => document.querySelector(sel);
const fmt = (s, args) => s.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));
const named = (obj) => (obj ? obj[LANG] || obj["zh-hans"] || obj.en : "");
let variants = [];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function choiceName(ruleId, value) {
  const names = CHOICES[ruleId];
  if (names && names[value]) return named(names[value]);
  return String(value);
}

function ruleHighlights(room) {
  const v = variants.find((x) => x.key === room.variant);
  const out = [];
  for (const [id, value] of Object.entries(room.rule_choices || {})) {
    const rule = v && v.rules.find((r) => r.id === id);
    const label = rule ? named(rule.label) : id;
    if (value === true) out.push(label);
    else if (value === false) out.push(`${label} ✗`);
    else if (value === null) out.push(`${label}: ${S.no_cap}`);
    else if (id === "mode") out.push(choiceName(id, value));
    else out.push(`${label}: ${choiceName(id, value)}`);
  }
  return out;
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
    li.append(head);
    const facts = el("div", "room-facts");
    facts.append(el("span", "", fmt(S.seats_filled, { n: 4 - r.free_seats })));
    facts.append(el("span", "", fmt(S.hands, { n: r.hands_total })));
    facts.append(el("span", "", r.discard_seconds
      ? `${r.discard_seconds}${S.seconds}/${r.claim_seconds}${S.seconds}` : S.no_timer));
    facts.append(el("span", "muted", r.owner));
    li.append(facts);
    const hl = ruleHighlights(r);
    li.append(el("div", "room-rules-hl", hl.length ? hl.join(" · ") : S.default_rules));
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

/** A rule's one line of help: the variant's own when it carries one, else the site's. */
function helpText(rule) {
  return named(rule.help) || HELP[rule.id] || "";
}

function helpLine(rule) {
  const h = el("small", "rule-help", helpText(rule));
  h.id = `rule-${rule.id}-help`;
  return h;
}

function ruleField(rule) {
  const wrap = el("p", `rule rule-${rule.type}`);
  wrap.dataset.rule = rule.id;
  const id = `rule-${rule.id}`;
  const label = el("label", "", named(rule.label));
  label.htmlFor = id;
  let input;
  if (rule.type === "bool") {
    input = el("input");
    input.type = "checkbox";
    input.checked = Boolean(rule.default);
    wrap.classList.add("check");
    label.prepend(input);
    input.id = id;
    input.dataset.rule = rule.id;
    wrap.append(label);
    if (helpText(rule)) {
      wrap.append(helpLine(rule));
      input.setAttribute("aria-describedby", `rule-${rule.id}-help`);
    }
    return wrap;
  }
  if (rule.choices) {
    input = el("select");
    if (rule.default === null || rule.default === undefined) {
      const o = el("option", "", S.default_choice);
      o.value = "";
      input.append(o);
    }
    for (const c of rule.choices) {
      const o = el("option", "", choiceName(rule.id, c));
      o.value = JSON.stringify(c);
      if (c === rule.default) o.selected = true;
      input.append(o);
    }
  } else {
    input = el("input");
    input.type = "number";
    if (rule.min !== undefined) input.min = rule.min;
    if (rule.max !== undefined) input.max = rule.max;
    input.value = rule.default ?? "";
  }
  input.id = id;
  input.dataset.rule = rule.id;
  wrap.append(label, input);
  if (rule.type === "int" && rule.nullable) {
    const nc = el("label", "check no-cap");
    const cb = el("input");
    cb.type = "checkbox";
    cb.id = `${id}-none`;
    cb.dataset.noneFor = rule.id;
    cb.checked = rule.default === null;
    input.disabled = cb.checked;
    cb.addEventListener("change", () => { input.disabled = cb.checked; });
    nc.append(cb, ` ${S.no_cap}`);
    wrap.append(nc);
  }
  if (helpText(rule)) {
    wrap.append(helpLine(rule));
    input.setAttribute("aria-describedby", `rule-${rule.id}-help`);
  }
  return wrap;
}

function renderRules() {
  const v = variants.find((x) => x.key === $("#opt-variant").value);
  const box = $("#rules-fields");
  const main = $("#rules-main");
  box.replaceChildren();
  main.replaceChildren();
  if (!v) return;
  for (const rule of v.rules) (MAIN_RULES.has(rule.id) ? main : box).append(ruleField(rule));
}

function collectRules(v) {
  const out = {};
  for (const rule of v.rules) {
    const input = document.getElementById(`rule-${rule.id}`);
    let value;
    const none = document.getElementById(`rule-${rule.id}-none`);
    if (none && none.checked) value = null;
    else if (rule.type === "bool") value = input.checked;
    else if (rule.choices) {
      if (input.value === "") continue;
      value = JSON.parse(input.value);
    } else value = input.value === "" ? rule.default : Number(input.value);
    // Send only what differs from the default: those are the table's highlights.
    if (value !== rule.default) out[rule.id] = value;
  }
  return out;
}

function syncTimerControls() {
  const priv = $("#opt-private").checked;
  const noTimer = $("#opt-no-timer");
  noTimer.disabled = !priv;
  if (!priv) noTimer.checked = false;
  $("#opt-discard").disabled = noTimer.checked;
  $("#opt-claim").disabled = noTimer.checked;
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
  // The site's first rule set (the one most players know) unless another is chosen.
  if (variants.some((v) => v.key === "sichuan")) select.value = "sichuan";
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
      rules: collectRules(v),
      hands: Number($("#opt-hands").value) || 8,
      private: $("#opt-private").checked,
      bots: Number($("#opt-bots").value),
      discard_seconds: noTimer ? null : Number($("#opt-discard").value) || 15,
      claim_seconds: noTimer ? null : Number($("#opt-claim").value) || 8,
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
}

function setupQuick() {
  const b = $("#btn-quick");
  if (!b) return;
  b.addEventListener("click", async () => {
    const err = $("#quick-error");
    err.hidden = true;
    b.disabled = true;
    b.textContent = S.creating;
    try {
      const v = variants.find((x) => x.key === "sichuan") || variants[0];
      const room = await api("POST", "/api/rooms/", {
        variant: v.key, rules: {}, hands: 8, private: true, bots: 3,
        discard_seconds: 15, claim_seconds: 8,
      });
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
