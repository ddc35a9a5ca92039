// The house-rule form, built from a variant's rule description (GET /api/variants/).
// The lobby's create form, the club preset editor and a club room's form all render
// the same fields through this module; the server validates whatever they send.

export function ruleForm({ strings, choices, lang }) {
  const named = (obj) => (obj ? obj[lang] || obj["zh-hans"] || obj.en : "");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function choiceName(ruleId, value, rule) {
    const names = (rule && rule.choice_labels) || choices[ruleId];
    if (names && names[value]) return named(names[value]);
    return String(value);
  }

  /** A rule's one line of help, as its variant declares it. */
  function helpText(rule) {
    return named(rule.help) || "";
  }

  function withHelp(wrap, rule, input) {
    const text = helpText(rule);
    if (!text) return wrap;
    const h = el("small", "rule-help", text);
    h.id = `rule-${rule.id}-help`;
    input.setAttribute("aria-describedby", h.id);
    wrap.append(h);
    return wrap;
  }

  /** One rule's field with its line of help, showing `value` (the rule's default unless given). */
  function field(rule, value = rule.default) {
    const wrap = el("p", `rule rule-${rule.type}`);
    wrap.dataset.ruleWrap = rule.id;
    const id = `rule-${rule.id}`;
    const label = el("label", "", named(rule.label));
    label.htmlFor = id;
    let input;
    if (rule.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = Boolean(value);
      wrap.classList.add("check");
      label.prepend(input);
      input.id = id;
      input.dataset.rule = rule.id;
      wrap.append(label);
      return withHelp(wrap, rule, input);
    }
    if (rule.type === "map") {
      // A table of values by pattern (番数表 / 台数表): folded, one number per pattern.
      const box = el("details", "rule-map");
      box.id = id;
      box.dataset.rule = rule.id;
      box.append(el("summary", "", named(rule.label)));
      const grid = el("div", "rule-map-grid");
      const given = { ...rule.default, ...(value || {}) };
      for (const key of rule.keys || Object.keys(rule.default)) {
        const lab = el("label", "", named((rule.key_labels || {})[key]) || key);
        const inp = el("input");
        inp.type = "number";
        if (rule.min !== undefined) inp.min = rule.min;
        if (rule.max !== undefined) inp.max = rule.max;
        inp.value = given[key];
        inp.dataset.mapFor = rule.id;
        inp.dataset.key = key;
        lab.append(inp);
        grid.append(lab);
      }
      box.append(grid);
      wrap.append(box);
      return withHelp(wrap, rule, box);
    }
    if (rule.choices) {
      input = el("select");
      if (value === null || value === undefined) {
        const o = el("option", "", strings.default_choice);
        o.value = "";
        input.append(o);
      }
      for (const c of rule.choices) {
        const o = el("option", "", choiceName(rule.id, c, rule));
        o.value = JSON.stringify(c);
        if (c === value) o.selected = true;
        input.append(o);
      }
    } else {
      input = el("input");
      input.type = "number";
      if (rule.min !== undefined) input.min = rule.min;
      if (rule.max !== undefined) input.max = rule.max;
      input.value = value ?? rule.default ?? "";
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
      cb.checked = value === null;
      input.disabled = cb.checked;
      cb.addEventListener("change", () => { input.disabled = cb.checked; });
      nc.append(cb, ` ${strings.no_cap}`);
      wrap.append(nc);
    }
    return withHelp(wrap, rule, input);
  }

  /** The field's current value; undefined for a choice left at "Default". */
  function read(rule) {
    const input = document.getElementById(`rule-${rule.id}`);
    const none = document.getElementById(`rule-${rule.id}-none`);
    if (none && none.checked) return null;
    if (rule.type === "bool") return input.checked;
    if (rule.type === "map") {
      const out = {};
      for (const inp of document.querySelectorAll(`[data-map-for="${rule.id}"]`)) {
        if (inp.value !== "") out[inp.dataset.key] = Number(inp.value);
      }
      return out;
    }
    if (rule.choices) return input.value === "" ? undefined : JSON.parse(input.value);
    return input.value === "" ? rule.default : Number(input.value);
  }

  /** The values that differ from `base(rule)` (the variant default unless given). */
  function collect(rules, base = (rule) => rule.default, skip = () => false) {
    const out = {};
    for (const rule of rules) {
      if (skip(rule)) continue;
      const value = read(rule);
      if (rule.type === "map") {
        // Only the values that differ: a map given in part overrides just those ids.
        const was = base(rule) || {};
        const changed = Object.entries(value).filter(([k, n]) => n !== was[k]);
        if (changed.length) out[rule.id] = Object.fromEntries(changed);
        continue;
      }
      if (value !== undefined && value !== base(rule)) out[rule.id] = value;
    }
    return out;
  }

  return { named, choiceName, field, read, collect, el };
}
