"""A Hangzhou table read on a phone (390×844) and a desktop, in English and Chinese: the
header shows the 财神 indicator and wilds whole and the dealer's streak uncut; our 14 tiles
lie on one row; the other seats' melds and discards are big enough to read (≥ 22 px wide);
a seat's labels stay on one line; the 听牌 hint shows each wait's value in words (a phone
has no hover).  Screenshots go to test-output/screenshots/phone-*."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.players import deal_where, reader, rig_first, table_room
from tests.browser.test_table_ux import script

# Ready after a discard of the drawn tile, tried in turn: the first whose tiles are all still
# hidden is laid out.
READY = [
    {"hand": "123456789m5567p1s", "drawn": "1s"},
    {"hand": "123456789p5567m1s", "drawn": "1s"},
    {"hand": "123456789m2234p1s", "drawn": "1s"},
    {"hand": "123456789p2234m1s", "drawn": "1s"},
]

LAYOUT = script("phone_layout.js")
PAGE_FITS = script("page_fits.js")
# A meld laid down and a discard made by each other seat (drawn as the page draws its
# own), and a long streak in the header, so their sizes are read whatever the bots did.
STAGE = """(streak) => {
  const face = (cls) => {
    const t = document.querySelector("#my-hand .tile").cloneNode(true);
    t.className = `tile face ${cls}`;
    return t;
  };
  for (const pos of ["top", "left", "right"]) {
    const meld = document.createElement("span");
    meld.className = "meld";
    meld.append(face("small"), face("small"), face("small"));
    document.querySelector(`.seat-${pos} .melds`)?.append(meld);
    document.querySelector(`.pool-${pos}`).append(face("discard"), face("discard"));
  }
  const s = document.querySelector("#room-streak");
  s.hidden = false;
  s.textContent = streak;
}"""


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_reads_on_a_phone(browser, table_server, screenshots_dir, lang, size):
    base = table_server
    ctx, page, errors = reader(browser, base, f"ph{lang}{size[:3]}", lang, size)
    room = table_room(page, base, "hangzhou")
    deal_where(page, base, room)  # we deal: our fourteen tiles and our turn
    expect(page.locator("#room-wild .tile.indicator")).to_be_visible(timeout=15_000)
    expect(page.locator("#my-hand .tile")).to_have_count(14)
    streak = "Dealer's hand 2 in a row" if lang == "en" else "连庄 2 局"
    page.evaluate(STAGE, streak)
    page.screenshot(path=str(screenshots_dir / f"phone-table-{lang}-{size}.png"))
    got = page.evaluate(LAYOUT)
    assert got["cut"] == [] and got["squashed"] == [], got
    assert got["rows"] == 1 and got["wide"] <= 0, got  # 14 tiles on one row, on the screen
    assert got["small"] == [], got
    assert got["wrapped"] == [], got
    fits = page.evaluate(PAGE_FITS)  # the whole table on one screen, names uncut
    assert fits["wide"] <= 0 and fits["cutNames"] == [] and fits["plateBottom"] <= 0, fits

    # Ready after a discard: each wait's value is written beside it, not only in a title.
    rig_first(base, room["id"], 0, READY)
    page.reload()
    keeps = page.locator("#my-hand .tile.keeps-ready")
    expect(keeps.first).to_be_visible()
    keeps.first.click()
    waits = page.locator("#hint .wait")
    expect(waits.first).to_be_visible()
    for w in waits.all():
        expect(w.locator(".wait-value")).to_be_visible()
        expect(w.locator(".wait-value")).to_have_text(re.compile(r"^×\d+$"))
    page.screenshot(path=str(screenshots_dir / f"phone-hint-{lang}-{size}.png"))
    assert not errors, errors
    ctx.close()
