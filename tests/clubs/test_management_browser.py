"""In Chromium on phones: the owner posts an announcement and makes joining need approval;
one newcomer asks to join and is approved, another is denied; each sees their request's
outcome, and the pages fit 390 px."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_table import PHONE, sign_up

NOT_WIDE = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


def _phone(browser, base, name, locale, errors):
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    sign_up(page, base, name)
    return page


def _ask(page, base, invite):
    page.goto(f"{base}/clubs/")
    page.fill("#club-code", invite)
    page.click("#club-join-form button[type=submit]")
    page.wait_for_url(re.compile(r"/clubs/\?requested"))


def test_an_owner_vets_who_joins(browser, live_server_url, screenshots_dir):
    base = live_server_url
    errors: list[str] = []

    owner = _phone(browser, base, "vetowner", "zh-CN", errors)
    owner.goto(f"{base}/clubs/")
    owner.fill("#club-name", "Tea House")
    owner.click("#club-create-form button[type=submit]")
    owner.wait_for_url(re.compile(r"/clubs/\d+/$"))
    club_url = owner.url
    invite = owner.locator("#invite-code").inner_text().strip()

    owner.locator("#announcement-edit summary").click()
    owner.fill("#announcement-input", "周五晚 8 点开局\n带零钱")
    with owner.expect_navigation():
        owner.click("#announcement-form button[type=submit]")
    expect(owner.locator("#announcement-text")).to_have_text("周五晚 8 点开局带零钱")
    expect(owner.locator("#announcement-text br")).to_have_count(1)
    with owner.expect_navigation():
        owner.check("#join-needs-approval")
    expect(owner.locator("#join-needs-approval")).to_be_checked()

    # Two newcomers read English and ask to join.
    asker = _phone(browser, base, "asker", "en-US", errors)
    _ask(asker, base, invite)
    expect(asker.locator("#my-requests .club-item")).to_contain_text(
        "waiting for a manager's decision"
    )
    assert asker.evaluate(NOT_WIDE), "My clubs scrolls sideways on a phone"
    asker.screenshot(path=str(screenshots_dir / "club-request-pending-390x844.png"))
    other = _phone(browser, base, "other", "en-US", errors)
    _ask(other, base, invite)

    # The owner approves one and denies the other.
    owner.reload()
    requests = owner.locator("#join-requests li[data-status=pending]")
    expect(requests).to_have_count(2)
    assert owner.evaluate(NOT_WIDE), "the club page scrolls sideways on a phone"
    owner.screenshot(path=str(screenshots_dir / "club-manage-390x844.png"), full_page=True)
    with owner.expect_navigation():
        requests.filter(has_text="asker").get_by_role("button", name="批准").click()
    with owner.expect_navigation():
        requests.filter(has_text="other").get_by_role("button", name="拒绝").click()
    expect(owner.locator("#join-requests li[data-status=pending]")).to_have_count(0)
    expect(owner.locator("#join-requests li[data-status=approved]")).to_contain_text("asker")
    expect(owner.locator("#join-requests li[data-status=denied]")).to_contain_text("other")
    expect(owner.locator("#members")).to_contain_text("asker")
    expect(owner.locator(".member-stats").first).to_contain_text("0 场，总分 +0")

    asker.goto(f"{base}/clubs/")
    item = asker.locator("#my-requests .club-item")
    expect(item).to_contain_text("approved: you are a member")
    item.get_by_role("link", name="Tea House").click()
    asker.wait_for_url(club_url)
    expect(asker.locator("#announcement")).to_contain_text("Announcement")
    expect(asker.locator("#announcement-text")).to_contain_text("带零钱")
    expect(asker.locator("#announcement-form")).to_have_count(0)

    other.goto(f"{base}/clubs/")
    expect(other.locator("#my-requests .club-item")).to_contain_text("denied")
    assert other.goto(club_url).status == 404
    assert errors == []
