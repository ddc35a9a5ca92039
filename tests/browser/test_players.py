"""In Chromium, what a club manager goes through, in Chinese, with a member in English on a
phone: a Guangzhou preset with a changed fan table, edited into version 2, the change
history and its diff, a club table without a timer, a member who sits down with one tap, a
hand played, and back to the club.  Every page is read for its language
(``tests.browser.players``)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.players import WINS, autoplay, check_page, reader, rig_first, room_of


def test_a_manager_runs_a_club_from_fan_table_to_a_played_table(
    browser,
    live_server_url,
    screenshots_dir,
):
    base = live_server_url
    faults: list = []
    mgr_ctx, mgr, errors = reader(browser, base, "guanli", "zh", "1280x800")

    mgr.goto(f"{base}/clubs/")
    mgr.fill("#club-name", "Chaguan")  # names are the users's: kept readable in both
    mgr.click("#club-create-form button[type=submit]")
    mgr.wait_for_url(re.compile(r"/clubs/\d+/$"))
    club_url = mgr.url
    invite = mgr.locator("#invite-code").inner_text().strip()
    check_page(mgr, "zh", faults)

    # Version 1: Guangzhou, 清一色 2 → 3 in the fan table.
    mgr.click("#link-new-preset")
    mgr.select_option("#opt-variant", "guangzhou")
    mgr.fill("#preset-name", "Fanshu")
    mgr.locator("#rule-fan_values summary").click()
    mgr.fill('[data-map-for="fan_values"][data-key="qing_yi_se"]', "3")
    mgr.click("#btn-save")
    mgr.wait_for_url(re.compile(r"/clubs/\d+/presets/\d+/$"))
    preset_url = mgr.url
    expect(mgr.locator("#preset-version")).to_contain_text("1")
    expect(mgr.locator('#version-1 tr[data-option="fan_values"]')).to_contain_text("清一色 3")

    # Edit: 七对 2 → 4, the table locked, no timer for the club's tables: version 2.
    mgr.locator("#rule-fan_values summary").click()
    expect(mgr.locator('[data-map-for="fan_values"][data-key="qing_yi_se"]')).to_have_value("3")
    mgr.fill('[data-map-for="fan_values"][data-key="qi_dui"]', "4")
    mgr.check("#lock-fan_values")
    mgr.check("#opt-no-timer")
    mgr.fill("#preset-note", "七对加番")
    mgr.click("#btn-save")
    expect(mgr.locator("#preset-version")).to_contain_text("2")
    row = mgr.locator('#version-2 tr[data-option="fan_values"]')
    expect(row).to_contain_text("七对 2")
    expect(row).to_contain_text("七对 4")
    expect(row).to_contain_text("锁定")
    expect(mgr.locator('#version-2 tr[data-option="discard_seconds"]')).to_contain_text("不限时")
    check_page(mgr, "zh", faults)
    mgr.screenshot(path=str(screenshots_dir / "players-preset-1280x800.png"), full_page=True)

    # The change history, and its link to the diff.
    mgr.goto(club_url)
    mgr.click("#link-history")
    check_page(mgr, "zh", faults)
    mgr.locator(".audit-entry", has_text="第 2 版").get_by_role("link").click()
    mgr.wait_for_url(re.compile(r"/presets/\d+/#version-2$"))
    expect(mgr.locator("#version-2")).to_be_visible()

    # A club table from the preset: its timers are the preset's, 不限时.
    mgr.goto(f"{preset_url}play/")
    expect(mgr.locator("#opt-no-timer")).to_be_checked()
    expect(mgr.locator("#rule-fan_values")).to_have_count(1)
    check_page(mgr, "zh", faults)
    mgr.fill("#opt-hands", "1")
    mgr.select_option("#opt-bots", "2")
    mgr.click("#btn-create")
    mgr.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    room_url = mgr.url
    expect(mgr.locator("#room-rules")).to_contain_text("不限时")
    expect(mgr.locator("#room-rules")).to_contain_text("不计排位")  # bots: unrated

    # The member reads English on a phone, joins by the invite link, sits with one tap.
    mem_ctx, mem, mem_errors = reader(browser, base, "member", "en", "390x844")
    mem.goto(f"{base}/clubs/?code={invite}")
    expect(mem.locator("#club-code")).to_have_value(invite)
    mem.click("#club-join-form button[type=submit]")
    mem.wait_for_url(re.compile(r"/clubs/\d+/$"))
    join = mem.locator('#club-rooms a[data-action="join"]')
    expect(join).to_have_text("Join this table")
    check_page(mem, "en", faults)
    join.click()
    mem.wait_for_url(room_url)
    expect(mem.locator("#btn-ready")).to_be_visible()  # seated, not watching
    seat = mem.evaluate("() => JSON.parse(document.getElementById('table-boot').textContent).seat")
    assert seat == 3

    # The manager hands the seat to 托管; the member plays the hand out.
    mgr.locator("#btn-ready").click()
    mgr.locator("#btn-auto").click()
    expect(mgr.locator("#btn-auto")).to_have_attribute("aria-pressed", "true")
    mem.locator("#btn-ready").click()
    # At the member's first turn a self-drawn win is laid out, and taken from the page.
    ours = mem.locator('#my-hand .tile[data-legal="discard"], #actions button[data-type="hu"]')
    autoplay(mem, lambda: ours.count() > 0, timeout=60)
    rig_first(base, room_of(mem), 3, WINS)
    mem.reload()
    mem.locator('#actions button[data-type="hu"]').click()
    # The match is one hand: its end brings the 大结算 (over the hand's result), and the
    # 大结算 leads back to the club.
    summary = mem.locator("#summary[open]")
    expect(summary).to_be_visible(timeout=20_000)
    check_page(mem, "en", faults)
    mem.screenshot(path=str(screenshots_dir / "players-club-result-390x844.png"))
    back = mem.locator("#summary-back")
    expect(back).to_have_text("Back to the club")
    back.click()
    mem.wait_for_url(club_url)

    assert not faults, faults
    assert not errors and not mem_errors, errors + mem_errors
    mgr_ctx.close()
    mem_ctx.close()
