// The words a reader sees on the page, for the language check: text outside scripts and
// styles, and the title, placeholder and aria-label of elements, each with where it is.
// Tile faces (the characters *are* the tile) and the language switch's own names are left
// out.  Returns [[text, where], …].
() => {
  const out = [];
  const skip = (e) =>
    e.closest("script, style, svg, .tile, .brand-tile, .lang-switch, select[name=language], code");
  const where = (e) => `${e.tagName.toLowerCase()}#${e.id}.${String(e.className).split(" ")[0]}`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (!text || !n.parentElement || skip(n.parentElement)) continue;
    const style = getComputedStyle(n.parentElement);
    if (style.display === "none" || style.visibility === "hidden") continue;
    out.push([text, where(n.parentElement)]);
  }
  for (const e of document.body.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (skip(e)) continue;
    for (const a of ["title", "placeholder", "aria-label"]) {
      const v = (e.getAttribute(a) || "").trim();
      if (v) out.push([v, `${where(e)}[${a}]`]);
    }
  }
  return out;
}
