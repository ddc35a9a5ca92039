"""Every page a player or a club manager reads passes axe-core's contrast and label rules, in
Chinese and English, on a desktop (1280×800) and a phone (390×844): the lobby, the table
(its menus open), a hand's result and the match's 大结算, the replay, the club, the records
and the rules.  One rigged hand (a self-drawn win at our first turn) makes the result, the
match record and the replay.  Screenshots go to test-output/screenshots/a11y-*."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import violations
from tests.browser.players import WINS, deal_where, reader, rig_first
from tests.browser.test_table import api
from tests.browser.test_table_ux import script

ADDS_UP = script("adds_up.js")


def club_room(page, name: str) -> tuple[int, dict]:
    """A club (``name``) with a Sichuan preset, and a one-hand room of it with three bots:
    the club's id and the room as the API answers it."""
    club = api(page, "POST", "/api/clubs/", {"name": name})["data"]
    preset = api(
        page,
        "POST",
        f"/api/clubs/{club['id']}/presets/",
        {"variant": "sichuan", "name": "House", "rules": {"mode": "plain"}},
    )["data"]
    room = api(page, "POST", "/api/rooms/", {"preset": preset["id"], "bots": 3, "hands": 1})
    assert room["status"] == 201, room
    return club["id"], room["data"]


class Reader:
    """A reader of ``lang`` on a screen of ``size`` who scans pages: each scan keeps a
    screenshot and adds axe's violations to ``found``."""

    def __init__(self, browser, base, screenshots_dir, name, lang, size):
        self.base, self.dir, self.lang, self.size = base, screenshots_dir, lang, size
        self.ctx, self.page, self.errors = reader(
            browser, base, f"{name}{lang}{size[:3]}", lang, size, bypass_csp=True
        )
        self.found: list = []

    def scan(self, name: str, context: str = "body") -> None:
        self.page.screenshot(path=str(self.dir / f"a11y-{name}-{self.lang}-{self.size}.png"))
        self.found.extend(violations(self.page, context))

    def visit(self, name: str, path: str) -> None:
        self.page.goto(self.base + path)
        self.page.wait_for_load_state("networkidle")
        self.scan(name)

    def done(self) -> None:
        assert not self.found, "\n".join(map(str, self.found))
        assert not self.errors, self.errors
        self.ctx.close()


SIZES = pytest.mark.parametrize("size", ["1280x800", "390x844"])
LANGS = pytest.mark.parametrize("lang", ["zh", "en"])


@SIZES
@LANGS
def test_the_reading_pages_pass_the_accessibility_check(
    browser, table_server, screenshots_dir, lang, size
):
    """The lobby, a club, the records and the rules (本桌规则 with a room's choices)."""
    r = Reader(browser, table_server, screenshots_dir, "axr", lang, size)
    r.visit("lobby", "/lobby/")
    club_id, room = club_room(r.page, f"Tea {lang}{size[:3]}")
    room_id = room["id"]
    for name, path in [
        ("club", f"/clubs/{club_id}/"),
        ("club-records", f"/clubs/{club_id}/records/"),
        ("records", "/records/"),
        ("rules-index", "/rules/"),
        ("rules", f"/rules/sichuan/?room={room_id}"),
    ]:
        r.visit(name, path)
    r.done()


@SIZES
@LANGS
def test_the_table_and_its_results_pass_the_accessibility_check(
    browser, table_server, screenshots_dir, lang, size
):
    """The table (its menus open), a hand's result and the match's 大结算, the replay and
    the match record."""
    r = Reader(browser, table_server, screenshots_dir, "axt", lang, size)
    page = r.page
    page.goto(f"{r.base}/lobby/")
    _, room = club_room(page, f"Tea t{lang}{size[:3]}")
    room_id = room["id"]
    page.goto(f"{r.base}/rooms/{room_id}/")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    deal_where(page, r.base, room)  # we deal: our turn comes first
    page.locator('#actions button[data-suit="s"]').click()
    expect(page.locator('#my-hand .tile[data-legal="discard"]').first).to_be_visible()
    r.scan("table")
    for menu in ("#menu-phrases", "#menu-options", "#menu-help", "#menu-hands"):
        page.locator(f"{menu} > summary").click()
        r.scan(f"table-{menu[6:]}", menu)
        page.locator(f"{menu} > summary").click()

    rig_first(r.base, room_id, 0, WINS)
    page.reload()
    page.locator('#actions button[data-type="hu"]').click()
    result = page.locator("#result[open]")
    expect(result).to_be_visible(timeout=30_000)
    expect(result.locator(".scores tr.totals")).not_to_have_class("totals pending", timeout=30_000)
    replay = result.locator("#result-replay").get_attribute("href")
    # The match's one hand is over: its 大结算 opens over the result once it is recorded.
    summary = page.locator("#summary[open]")
    expect(summary).to_be_visible(timeout=30_000)
    match_id = summary.get_attribute("data-match")
    r.scan("summary", "#summary")
    page.locator("#summary-close").click()
    r.scan("result", "#result")
    assert page.evaluate(ADDS_UP, "#result") == []  # the chips make the total

    r.visit("replay", replay)
    r.visit("match", f"/records/matches/{match_id}/")
    r.done()
