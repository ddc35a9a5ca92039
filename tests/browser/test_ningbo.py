"""Play a Ningbo hand in Chromium: laid-out flowers and the 百搭 indicator are shown, and
the hand ends in its settled result with the 台 written out."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.test_hangzhou import sit_with_bots, step
from tests.browser.test_table import DESKTOP, api, sign_up
from tests.browser.test_table_ux import script

ADDS_UP = script("adds_up.js")


def test_play_a_ningbo_hand_with_flowers(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "ningbo")
    page.goto(f"{base}/lobby/")
    sit_with_bots(page, base, "ningbo", hands=4)
    expect(page.locator("#room-wild .tile.indicator")).to_be_visible(timeout=15000)

    flowers_seen = False
    result = page.locator("#result[open]")
    end = time.monotonic() + 240
    while time.monotonic() < end:
        # The state's laid-out flowers and the faces on the table, read at one instant.
        total, shown = page.evaluate(
            """() => {
                const s = window.__table.state;
                const n = s ? s.players.reduce(
                    (a, p) => a + (p.flowers || "").replace(/[a-z]/g, "").length, 0) : 0;
                return [n, document.querySelectorAll(".meld.flowers .tile.flower").length];
            }"""
        )
        if total:
            # Every laid-out flower is on the table, face up, beside its seat's melds.
            assert shown == total, (shown, total)
            if not flowers_seen:
                page.screenshot(path=str(screenshots_dir / "ningbo-flowers-1280x800.png"))
            flowers_seen = True
        if result.count():
            if flowers_seen:
                break
            page.locator("#btn-result-ready").click()  # no flower this hand: the next one
            page.wait_for_timeout(300)
            continue
        try:
            kind = step(page, chow=False)
        except Exception:  # the DOM re-rendered under the click: read it again
            kind = None
        if kind is None:
            page.wait_for_timeout(50)
    assert flowers_seen and result.count(), "no hand with a flower ended in time"
    dialog = page.locator("#result")
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    if dialog.get_attribute("data-result-reason") == "win":
        expect(dialog.locator(".result-item").first).to_contain_text("台")
        assert page.evaluate(ADDS_UP, "#result") == []  # the chips make the total
        total = dialog.locator(".result-total").first.inner_text()
        assert total.endswith("台") and "封顶" not in total, total  # T = 1 + Σ台, no cap
    page.screenshot(path=str(screenshots_dir / "ningbo-result-1280x800.png"))
    assert not errors, errors
    context.close()


def test_the_last_player_sees_the_auto_ready_countdown(browser, live_server_url):
    base = live_server_url
    host_ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    host = host_ctx.new_page()
    sign_up(host, base, "nbhost")
    host.goto(f"{base}/lobby/")
    body = {"variant": "ningbo", "bots": 2, "private": False}
    room = api(host, "POST", "/api/rooms/", body)["data"]
    late_ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    late = late_ctx.new_page()
    sign_up(late, base, "nblate")
    late.goto(f"{base}/lobby/")
    assert api(late, "POST", f"/api/rooms/{room['id']}/join/", {})["status"] == 200
    late.goto(f"{base}/rooms/{room['id']}/")
    expect(late.locator("#btn-ready")).to_be_visible(timeout=15000)
    assert api(host, "POST", f"/api/rooms/{room['id']}/ready/", None)["status"] == 200
    # Everyone else is ready: the last player sees how long until the hand starts anyway.
    expect(late.locator(".starts-in")).to_contain_text(re.compile(r"\d+ 秒后自动开局"))
    host_ctx.close()
    late_ctx.close()
