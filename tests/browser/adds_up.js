// Each win in the box `sel` (a result or a replay) shows items whose numbers add up (or,
// for × items, multiply) to the total shown; a capped total ("(封顶)") is at most the sum.
// Units in Latin letters are spaced from their number ("6 tai"). Returns the faults.
(sel) => {
  const bad = [];
  const num = (s) => Number((s.match(/(\d+)\D*$/) || [])[1]);
  for (const win of document.querySelectorAll(`${sel} .result-items`)) {
    const chips = [...win.querySelectorAll(".result-item")].map((e) => e.textContent);
    const totalText = win.querySelector(".result-total").textContent;
    const total = Number((totalText.match(/(\d+)/) || [])[1]);
    const times = totalText.startsWith("×");
    const value = times ? chips.reduce((a, c) => a * num(c), 1) : chips.reduce((a, c) => a + num(c), 0);
    const capped = totalText.includes("(");
    if (capped ? value < total : value !== total) bad.push(["sum", chips, totalText]);
    if (Number(win.dataset.total) !== total) bad.push(["total", win.dataset.total, totalText]);
    for (const t of [...chips, totalText]) {
      if (/\d[A-Za-z]/.test(t)) bad.push(["unspaced", t]);
    }
  }
  return bad;
}
