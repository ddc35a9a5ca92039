// Everything inside the box `sel` lies inside it, nothing in it scrolls sideways, and (for the
// centre) the middle's lines do not run into the wind letters on its edges.  Returns the faults.
(sel) => {
  const box = document.querySelector(sel);
  const r = box.getBoundingClientRect();
  const bad = [];
  const name = (e) => `${e.tagName}.${e.className}#${e.id}:${(e.textContent || "").slice(0, 30)}`;
  for (const e of box.querySelectorAll("*")) {
    const s = e.getBoundingClientRect();
    if (!s.width || !s.height) continue;
    if (s.left < r.left - 1 || s.right > r.right + 1 || s.top < r.top - 1 || s.bottom > r.bottom + 1) {
      bad.push(["outside", name(e), [s.left, s.right, s.top, s.bottom], [r.left, r.right, r.top, r.bottom]]);
    }
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== "inline") {
      bad.push(["scrolls", name(e), e.scrollWidth, e.clientWidth]);
    }
  }
  const core = [...box.querySelectorAll(".center-core > *")].filter((e) => e.getBoundingClientRect().width);
  for (const w of box.querySelectorAll(".cw")) {
    const a = w.getBoundingClientRect();
    for (const e of core) {
      const b = e.getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
        bad.push(["overlaps", name(w), name(e)]);
      }
    }
  }
  return bad;
}
