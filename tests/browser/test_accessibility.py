"""Every page a player or a club manager reads passes axe-core's contrast and label rules, in
Chinese and English, on a desktop (1280×800) and a phone (390×844): the lobby, the table
(its menus open), a hand's result and the match's 大结算, the replay, the club, the records
and the rules.  One rigged hand (a self-drawn win at our first turn) makes the result, the
match record and the replay.  Screenshots go to test-output/screenshots/a11y-*."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import violations
from tests.browser.players import reader
from tests.browser.test_table import api
from tests.browser.test_table_ux import (
    WINNING,
    resync,
    rig_my_turn,
    script,
    wait_for_my_discard,
)

ADDS_UP = script("adds_up.js")


def club_room(page, name: str) -> tuple[int, int]:
    """A club (``name``) with a Sichuan preset, and a one-hand room of it with three bots."""
    club = api(page, "POST", "/api/clubs/", {"name": name})["data"]
    preset = api(
        page,
        "POST",
        f"/api/clubs/{club['id']}/presets/",
        {"variant": "sichuan", "name": "House", "rules": {"mode": "plain"}},
    )["data"]
    room = api(page, "POST", "/api/rooms/", {"preset": preset["id"], "bots": 3, "hands": 1})
    assert room["status"] == 201, room
    return club["id"], room["data"]["id"]


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_passes_the_accessibility_check(
    browser, table_server, screenshots_dir, lang, size
):
    base = table_server.url
    ctx, page, errors = reader(browser, base, f"ax{lang}{size[:3]}", lang, size, bypass_csp=True)
    found: list = []

    def scan(name: str, context: str = "body") -> None:
        page.screenshot(path=str(screenshots_dir / f"a11y-{name}-{lang}-{size}.png"))
        found.extend(violations(page, context))

    page.goto(f"{base}/lobby/")
    scan("lobby")
    club_id, room_id = club_room(page, f"Tea {lang}{size[:3]}")

    page.goto(f"{base}/rooms/{room_id}/")
    page.locator("#btn-ready").click()
    page.locator('#actions button[data-suit="s"]').click()
    assert wait_for_my_discard(page), "the one hand ended before our first turn"
    scan("table")
    for menu in ("#menu-phrases", "#menu-options", "#menu-help", "#menu-hands"):
        page.locator(f"{menu} > summary").click()
        scan(f"table-{menu[6:]}", menu)
        page.locator(f"{menu} > summary").click()

    win = rig_my_turn(table_server.db, room_id, WINNING)
    resync(page, win["drawn"], 3)
    page.locator('#actions button[data-type="hu"]').click()
    result = page.locator("#result[open]")
    expect(result.locator(".scores tr.totals")).not_to_have_class("totals pending")
    replay = result.locator("#result-replay").get_attribute("href")
    # The match's one hand is over: its 大结算 opens over the result once it is recorded.
    summary = page.locator("#summary[open]")
    expect(summary).to_be_visible(timeout=30_000)
    match_id = summary.get_attribute("data-match")
    scan("summary", "#summary")
    page.locator("#summary-close").click()
    scan("result", "#result")
    assert page.evaluate(ADDS_UP, "#result") == []

    for name, path in [
        ("replay", replay),
        ("records", "/records/"),
        ("match", f"/records/matches/{match_id}/"),
        ("club", f"/clubs/{club_id}/"),
        ("club-records", f"/clubs/{club_id}/records/"),
        ("rules-index", "/rules/"),
        ("rules", f"/rules/sichuan/?room={room_id}"),
    ]:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        scan(name)

    assert not found, "\n".join(map(str, found))
    assert not errors, errors
    ctx.close()
