// What the table page shows of its layout, each a list of faults: header facts cut or
// outside the bar, header tiles squashed, how many rows our hand takes and how far our
// tiles reach past the table's frame, other seats' meld and discard tiles under 22 px
// wide, and plate labels and the 托管 button that wrap onto a second line.
() => {
  const box = (e) => e.getBoundingClientRect();
  const name = (e) => `${e.className}:${e.textContent.slice(0, 30)}`;
  const lines = (e) => {
    const r = document.createRange();
    r.selectNodeContents(e);
    const tops = [...r.getClientRects()].filter((q) => q.width > 1).map((q) => Math.round(q.top));
    return new Set(tops).size;
  };
  const out = { cut: [], squashed: [], rows: 0, small: [], wrapped: [], wide: 0 };
  const bar = box(document.querySelector(".room-bar"));
  for (const e of document.querySelectorAll(".room-title > *:not([hidden]), .room-title .tile")) {
    const r = box(e);
    if (e.scrollWidth > e.clientWidth + 1) out.cut.push(name(e));
    if (r.width && (r.right > bar.right + 1 || r.left < bar.left - 1)) out.cut.push(name(e));
  }
  for (const t of document.querySelectorAll(".room-title .tile")) {
    const r = box(t);
    if (r.width < 16 || Math.abs(r.height / r.width - 4 / 3) > 0.1) {
      out.squashed.push([r.width, r.height]);
    }
  }
  const hand = [...document.querySelectorAll("#my-hand .tile")];
  out.rows = new Set(hand.map((t) => Math.round(box(t).top))).size;
  // How far a tile of ours reaches past the table's inside, either side: the table clips
  // what is wider, so a tile past its frame is cut even where the screen has room.
  const table = document.querySelector("#table");
  const left = box(table).left + table.clientLeft;
  const right = left + table.clientWidth;
  const mine = [...hand, ...document.querySelectorAll("#my-melds .tile")];
  out.wide = Math.max(...mine.map((t) => Math.max(box(t).right - right, left - box(t).left)));
  const theirs = [".seat-top .melds", ".seat-left .melds", ".seat-right .melds",
    ".pool-top", ".pool-left", ".pool-right"].map((s) => `${s} .tile`).join(", ");
  for (const t of document.querySelectorAll(theirs)) {
    if (box(t).width < 22) out.small.push([t.parentElement.className, box(t).width]);
  }
  for (const e of document.querySelectorAll(".plate .tag, .plate .wind, #btn-auto")) {
    if (lines(e) > 1) out.wrapped.push(name(e));
  }
  return out;
}
