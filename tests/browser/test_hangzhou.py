"""Play Hangzhou in Chromium: the 财神 indicator and wilds are shown, a chow is claimed from
the buttons, and the hand ends in the result dialog with its multipliers and payments."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.rules import tiles as T
from tests.browser.players import (
    DESKTOP,
    Frames,
    api,
    autoplay,
    deal_where,
    rig,
    shown,
    sign_up,
    table_room,
)
from tests.browser.test_table_ux import script

ADDS_UP = script("adds_up.js")


def sit_with_bots(page: Page, base: str, variant: str, hands: int) -> int:
    """Open a private, timer-less ``variant`` room with three bots, sit and be ready."""
    body = {
        "variant": variant,
        "bots": 3,
        "hands": hands,
        "private": True,
        "discard_seconds": None,
        "claim_seconds": None,
    }
    r = api(page, "POST", "/api/rooms/", body)
    assert r["status"] == 201, r
    page.goto(f"{base}/rooms/{r['data']['id']}/")
    page.locator("#btn-ready").click()
    return r["data"]["id"]


def step(page: Page, *, chow: bool) -> str | None:
    """Take one offered action: a chow when wanted, a win, else pass, else discard."""
    order = ['#actions button[data-type="chi"]'] if chow else []
    order += ['#actions button[data-type="hu"]', '#actions button[data-type="pass"]']
    for selector in order:
        button = page.locator(selector)
        if button.count():
            kind = button.first.get_attribute("data-type")
            button.first.click(timeout=2000)
            return kind
    tiles = page.locator('#my-hand .tile[data-legal="discard"]')
    if tiles.count():
        # Keep the wilds (a Hangzhou player would): discard a plain tile when there is one.
        plain = page.locator('#my-hand .tile[data-legal="discard"]:not(.wild)')
        (plain if plain.count() else tiles).last.click(timeout=2000)
        page.locator("#my-hand .tile.selected").click(timeout=2000)
        return "discard"
    return None


# Our first turn as the dealer, rigged so that the seat before ours throws 5m for our 46m:
# we throw 7z; every other seat is ready on a tile nobody throws (1 and 2 on the last of
# their honours, 3 on 9s) and holds nothing to claim with, so each throws what it draws:
# 7z, 7z, then 5m from the seat before ours.  After the chow we throw 3s and wait on
# 3s/6s; three lone 9m later we draw 6s.
CHOW = {
    0: "46m123p456p22s345s7z",
    1: "111s888s222z333z4z",
    2: "888p999p444z555z6z",
    3: "123p456p789s9s111z",
}
CHOW_FRONT = "7z7z5m9m9m9m6s"


def test_play_hangzhou_with_a_chow(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    sign_up(page, base, "hang")
    room = table_room(page, base, "hangzhou", hands=6)
    used = {T.to_str(t) for h in CHOW.values() for t in T.parse(h)}
    deal_where(page, base, room, lambda s: s.dealer == 0 and T.to_str(s.indicator) not in used)

    # Everyone sees the indicator and the wild kinds; wild faces carry the mark.
    expect(page.locator("#room-wild .tile.indicator")).to_be_visible(timeout=15000)
    expect(page.locator("#room-wild .tile.wild").first).to_be_visible()
    wild = frames.state["wild_kinds"]
    assert wild and page.locator(f'#room-wild .tile.wild[data-tile="{wild[:2]}"]').count()
    page.screenshot(path=str(screenshots_dir / "hangzhou-table-1280x800.png"))

    rig(base, room["id"], CHOW, front=CHOW_FRONT, drawn="7z")
    page.reload()
    expect(page.locator('#my-hand .tile[data-tile="7z"]')).to_have_count(1)
    discard(page, "7z")
    chow = page.locator('#actions button[data-type="chi"]')
    expect(chow).to_be_visible(timeout=15000)
    chow.first.click()
    expect(page.locator("#my-melds .meld-chi")).to_have_count(1)
    page.screenshot(path=str(screenshots_dir / "hangzhou-chow-1280x800.png"))
    discard(page, "3s")
    result = page.locator("#result[open]")
    autoplay(page, lambda: result.count() > 0, timeout=60)
    dialog = page.locator("#result")
    expect(dialog.locator(".scores")).to_be_visible()
    # Settled: the running totals come with the settlement task.
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    assert dialog.get_attribute("data-result-reason") == "win", shown(page)
    # Multipliers are shown as such, and how W × D became each payment.
    expect(dialog.locator(".result-item").first).to_contain_text("×")
    assert page.evaluate(ADDS_UP, "#result") == []  # the chips make the total
    expect(dialog.locator(".result-explain").first).to_contain_text("W =")
    expect(dialog.locator(".result-explain").first).to_contain_text("D =")
    page.screenshot(path=str(screenshots_dir / "hangzhou-result-1280x800.png"))
    assert not errors, errors
    context.close()


def discard(page: Page, tile: str) -> None:
    """Throw ``tile`` as a player does: a tap picks it, a second tap throws it."""
    mine = page.locator(f'#my-hand .tile[data-tile="{tile}"][data-legal="discard"]').first
    mine.click()
    page.locator(f'#my-hand .tile.selected[data-tile="{tile}"]').click()
    expect(page.locator(f'#my-hand .tile[data-tile="{tile}"]')).to_have_count(0)
