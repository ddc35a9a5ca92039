"""Play a Guangzhou hand in Chromium to its settled result: seat winds and the round's wind,
fan items and how 2^fan became each payment in the result."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.players import DESKTOP, Frames, api, sign_up, table_room, win_at_once
from tests.browser.test_table_ux import script

# A self-drawn win: 1-9 in 万, a pung and a pair in 筒.
WIN = "123456789m55567p"

ADDS_UP = script("adds_up.js")


def test_play_a_guangzhou_hand_to_the_settled_result(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    sign_up(page, base, "canton")
    page.goto(f"{base}/lobby/")
    expect(page.locator("#opt-variant option[value=guangzhou]")).to_have_count(1)
    room = table_room(page, base, "guangzhou")
    win_at_once(page, base, room, WIN, "5p")
    # Every seat shows its wind (the dealer is East).
    assert sorted(p["wind"] for p in frames.state["players"]) == [0, 1, 2, 3]
    expect(page.locator("#room-streak")).to_contain_text("Round wind E")

    dialog = page.locator("#result[open]")
    expect(dialog).to_be_visible(timeout=15000)
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    assert dialog.get_attribute("data-result-reason") == "win"
    expect(dialog.locator(".result-item").first).to_contain_text("fan")
    assert page.evaluate(ADDS_UP, "#result") == []  # the chips make the total
    expect(dialog.locator(".result-explain").first).to_contain_text("2^")
    page.screenshot(path=str(screenshots_dir / "guangzhou-result-1280x800.png"))
    assert not errors, errors
    context.close()


def test_the_lobby_form_edits_a_table_of_fan_values(browser, live_server_url):
    """A map option (fan_values) is a folded table in the form; only what changed is sent."""
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "fanner")
    page.goto(f"{base}/lobby/")
    page.select_option("#opt-variant", "guangzhou")
    table = page.locator("details#rule-fan_values")
    expect(table).to_have_count(1)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    variants = {v["key"]: v for v in api(page, "GET", "/api/variants/", None)["data"]}
    rule = next(r for r in variants["guangzhou"]["rules"] if r["id"] == "fan_values")
    defaults = rule["default"]
    field = page.locator('[data-map-for="fan_values"][data-key="qing_yi_se"]')
    expect(field).to_have_value(str(defaults["qing_yi_se"]))
    expect(page.locator("#rule-fan_values")).to_contain_text("清一色")  # named, not an id
    new = defaults["qing_yi_se"] + 1
    field.fill(str(new))
    page.check("#opt-private")
    page.check("#opt-no-timer")
    page.click("#btn-create")
    page.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    room_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    room = api(page, "GET", f"/api/rooms/{room_id}/", None)["data"]
    assert room["rule_choices"] == {"fan_values": {"qing_yi_se": new}}
    assert room["rules"]["fan_values"]["qing_yi_se"] == new
    # The others keep their defaults.
    assert room["rules"]["fan_values"]["hun_yi_se"] == defaults["hun_yi_se"]
    assert not errors, errors
    context.close()
