"""The bots' level chosen in the lobby form is the room's, and the table and the lobby's
room card name it in the player's language."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_table import DESKTOP, sign_up


def test_a_basic_table_says_so_in_the_header_and_on_its_card(browser, live_server_url):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    sign_up(page, base, "lan")
    page.goto(f"{base}/lobby/")
    expect(page.locator("#opt-variant option[value=sichuan]")).to_have_count(1)
    expect(page.locator("#opt-bot-level")).to_have_value("strong")
    page.select_option("#opt-bot-level", "basic")
    page.select_option("#opt-bots", "3")
    page.click("#btn-create")
    page.wait_for_url(re.compile(r"/rooms/(\d+)/$"))
    room_id = re.search(r"/rooms/(\d+)/$", page.url).group(1)
    expect(page.locator("#room-rules")).to_contain_text("机器人：入门")

    page.goto(f"{base}/lobby/")
    card = page.locator(f'.room-card[data-room-id="{room_id}"] .room-bot-level')
    expect(card).to_have_text("机器人：入门")
    assert not errors, errors
    context.close()
