"""Play Hangzhou in Chromium: the 财神 indicator and wilds are shown, a chow is claimed from
the buttons, and the hand ends in the result dialog with its multipliers and payments."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.browser.test_table import DESKTOP, api, sign_up
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


def test_play_hangzhou_with_a_chow(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "hang")
    page.goto(f"{base}/lobby/")
    sit_with_bots(page, base, "hangzhou", hands=6)

    # Everyone sees the indicator and the wild kinds; wild faces carry the mark.
    expect(page.locator("#room-wild .tile.indicator")).to_be_visible(timeout=15000)
    expect(page.locator("#room-wild .tile.wild").first).to_be_visible()
    wild = page.evaluate("window.__table.state.wild_kinds")
    assert wild and page.locator(f'#room-wild .tile.wild[data-tile="{wild[:2]}"]').count()
    page.screenshot(path=str(screenshots_dir / "hangzhou-table-1280x800.png"))

    chowed = False
    end = time.monotonic() + 240
    while time.monotonic() < end:
        if page.locator("#result[open]").count():
            if chowed:
                break
            # A hand without a chow offer: on to the next one.
            ready = page.locator("#btn-result-ready")
            if ready.count() and ready.is_visible():
                ready.click()
            page.wait_for_timeout(200)
            continue
        try:
            kind = step(page, chow=not chowed)
        except Exception:  # the DOM re-rendered under the click: read it again
            kind = None
        if kind == "chi":
            # The claim window closes on our chow, or on a bot's pung or win that outranks it.
            page.wait_for_function(
                "() => { const s = window.__table.state;"
                " return (s.players[s.seat].melds || []).some(m => m.kind === 'chi')"
                " || !s.claim || s.phase === 'ended'; }",
                timeout=10000,
            )
            if not page.evaluate(
                "(window.__table.state.players[window.__table.state.seat].melds || [])"
                ".some(m => m.kind === 'chi')"
            ):
                continue
            expect(page.locator("#my-melds .meld-chi").first).to_be_visible()
            page.screenshot(path=str(screenshots_dir / "hangzhou-chow-1280x800.png"))
            chowed = True
        if kind is None:
            page.wait_for_timeout(50)
    assert chowed, "no chow was offered in six hands"
    dialog = page.locator("#result")
    expect(dialog.locator(".scores")).to_be_visible()
    # Settled: the running totals come with the settlement task.
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    if dialog.get_attribute("data-result-reason") == "win":
        # Multipliers are shown as such, and how W × D became each payment.
        expect(dialog.locator(".result-item").first).to_contain_text("×")
        assert page.evaluate(ADDS_UP, "#result") == []  # the chips make the total
        expect(dialog.locator(".result-explain").first).to_contain_text("W =")
        expect(dialog.locator(".result-explain").first).to_contain_text("D =")
    else:
        expect(dialog.locator(".result-drawn")).to_contain_text("流局")
    page.screenshot(path=str(screenshots_dir / "hangzhou-result-1280x800.png"))
    assert not errors, errors
    context.close()
