"""Play a Ningbo hand in Chromium: laid-out flowers and the 百搭 indicator are shown, and
the hand ends in its settled result with the 台 written out."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.players import DESKTOP, Frames, api, sign_up, table_room, win_at_once

# A self-drawn win with 台 of its own (a pung of the east wind).
WIN = "123m456p789s11122z"


def test_play_a_ningbo_hand_with_flowers(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    sign_up(page, base, "ningbo")
    room = table_room(page, base, "ningbo", hands=4)

    # A deal with flowers laid out at once, and our first draw a win.
    win_at_once(page, base, room, WIN, "2z", want=lambda s: any(s.flowers))
    # The state's laid-out flowers and the faces on the table: every one face up, beside
    # its seat's melds.
    expect(page.locator("#room-wild .tile.indicator")).to_be_visible()
    total = sum(len(re.sub("[a-z]", "", p.get("flowers") or "")) for p in frames.state["players"])
    assert total > 0
    expect(page.locator(".meld.flowers .tile.flower")).to_have_count(total)
    page.screenshot(path=str(screenshots_dir / "ningbo-flowers-1280x800.png"))

    dialog = page.locator("#result[open]")
    expect(dialog).to_be_visible(timeout=15000)
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    assert dialog.get_attribute("data-result-reason") == "win"
    expect(dialog.locator(".result-item").first).to_contain_text("台")
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
