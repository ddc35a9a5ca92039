"""In Chromium: a manager changes a club preset; a member opens a table from it and sees
the new rules, the club, the preset and its version at the table."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.rules import available
from tests.browser.test_table import DESKTOP, PHONE, sign_up


def test_a_manager_changes_a_preset_and_a_member_plays_under_it(
    browser,
    live_server_url,
    screenshots_dir,
):
    base = live_server_url
    errors: list[str] = []

    # The manager (the club's owner) reads English on a desktop.
    mgr_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    mgr = mgr_ctx.new_page()
    mgr.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(mgr, base, "clubmgr")
    mgr.goto(f"{base}/clubs/")
    mgr.fill("#club-name", "Tea House")
    mgr.click("#club-create-form button[type=submit]")
    mgr.wait_for_url(re.compile(r"/clubs/\d+/$"))
    invite = mgr.locator("#invite-code").inner_text().strip()
    assert len(invite) == 8

    mgr.click("#link-new-preset")
    # Every variant the engine registers is offered, none written down here.
    expect(mgr.locator("#opt-variant option")).to_have_count(len(available()))
    mgr.select_option("#opt-variant", "sichuan")
    expect(mgr.locator("#lock-fan_cap")).to_have_count(1)  # every rule has a lock toggle
    mgr.fill("#preset-name", "House")
    mgr.click("#btn-save")
    mgr.wait_for_url(re.compile(r"/clubs/\d+/presets/\d+/$"))
    expect(mgr.locator("#preset-version")).to_contain_text("1")

    # Version 2: the first win ends the hand, and the fan cap is locked at 2.
    mgr.select_option("#rule-mode", '"plain"')
    mgr.fill("#rule-fan_cap", "2")
    mgr.check("#lock-fan_cap")
    mgr.fill("#preset-note", "faster evenings")
    mgr.click("#btn-save")
    expect(mgr.locator("#preset-version")).to_contain_text("2")
    expect(mgr.locator("#version-2")).to_contain_text("faster evenings")
    expect(mgr.locator('#version-2 tr[data-option="mode"]')).to_contain_text(
        "First win ends the hand"
    )
    expect(mgr.locator('#version-2 tr[data-option="fan_cap"]')).to_contain_text("locked")
    mgr.screenshot(path=str(screenshots_dir / "club-preset-1280x800.png"), full_page=True)

    # The member reads Chinese on a phone.
    mem_ctx = browser.new_context(viewport=PHONE, locale="zh-CN")
    mem = mem_ctx.new_page()
    mem.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(mem, base, "clubmem")
    mem.goto(f"{base}/clubs/")
    mem.fill("#club-code", invite)
    mem.click("#club-join-form button[type=submit]")
    mem.wait_for_url(re.compile(r"/clubs/\d+/$"))
    expect(mem.locator("#my-role")).to_have_text("成员")
    expect(mem.locator("#link-new-preset")).to_have_count(0)  # not a manager
    mem.screenshot(path=str(screenshots_dir / "club-390x844.png"), full_page=True)
    wide = mem.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1")
    assert not wide, "the club page scrolls sideways on a phone"

    mem.locator(".preset-item", has_text="House").get_by_role("link", name="开桌").click()
    mem.wait_for_url(re.compile(r"/presets/\d+/play/$"))
    expect(mem.locator("#rule-fan_cap")).to_be_disabled()  # locked by the club
    expect(mem.locator("#rule-fan_cap")).to_have_value("2")
    expect(mem.locator("#rule-mode")).to_be_enabled()
    mem.select_option("#opt-bots", "3")
    mem.click("#btn-create")
    mem.wait_for_url(re.compile(r"/rooms/\d+/$"))

    expect(mem.locator("#room-club")).to_be_visible()
    expect(mem.locator("#room-club")).to_have_text("Tea House · House 第 2 版")
    expect(mem.locator("#room-rules")).to_contain_text("一人胡牌结束")
    mem.screenshot(path=str(screenshots_dir / "club-table-390x844.png"))

    # The manager's club page lists the member's new table.
    mgr.goto(f"{base}/clubs/")
    mgr.locator(".club-item a").first.click()
    expect(mgr.locator("#club-rooms .room-card")).to_have_count(1)
    assert not errors, errors
    mgr_ctx.close()
    mem_ctx.close()
