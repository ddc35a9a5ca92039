// How a win's value is written wherever it is shown (the result, the replay, the 大结算, the
// match page and its image): the items that add up (or multiply) to the total shown, the
// variant's base among them, so a reader can check the sum. No DOM here: Node tests it.
//
// ``spec`` is the variant's result data in the reader's language: {unit, combine ("add" or
// "times"), base, capped (words for a total held at the cap), base_name (the base's word)}.

/** ``n`` in ``unit``: "6台", "6 tai" (a word in Latin letters is spaced from its number). */
export function unitText(n, unit) {
  if (!unit) return String(n);
  return /^[A-Za-z]/.test(unit) ? `${n} ${unit}` : `${n}${unit}`;
}

/** One item as a chip reads: "硬胡 1台", "Self-drawn 1 fan", "财飘 ×2". */
export function itemText(name, value, spec) {
  return spec.combine === "times" ? `${name} ×${value}` : `${name} ${unitText(value, spec.unit)}`;
}

/**
 * The parts of ``win`` ({items: [{id, value, name}], total}) in the order they are shown:
 * {items: [{id, text}], total (text), capped (bool), line ("a + b = c")}.  The base comes
 * first as an item of its own (id "base"); an item worth nothing (0 added, ×1) is left out
 * beside items worth something: the sum reads the same without it.
 */
export function scoreParts(win, spec) {
  const times = spec.combine === "times";
  const neutral = times ? 1 : 0;
  const worth = win.items.filter((it) => it.value !== neutral);
  const shown = worth.length ? worth : win.items;
  const items = shown.map((it) => ({ id: it.id, text: itemText(it.name || it.id, it.value, spec) }));
  const base = !times && spec.base ? spec.base : 0;
  if (base) {
    items.unshift({ id: "base", text: itemText(spec.base_name || "", base, spec).trim() });
  }
  const total = times ? `×${win.total}` : unitText(win.total, spec.unit);
  const value = times
    ? shown.reduce((a, it) => a * it.value, 1)
    : shown.reduce((a, it) => a + it.value, base);
  const capped = value !== win.total && Boolean(spec.capped);
  const sum = items.map((i) => i.text).join(times ? " · " : " + ");
  let line = sum ? `${sum} = ${total}` : total;
  if (capped) line += ` (${spec.capped})`;
  return { items, total: capped ? `${total} (${spec.capped})` : total, capped, line };
}
