"""First steps as a person meets them, at 1280×800 and 390×844, in Chinese and English:
an invite opened while signed out survives whichever door they sign up by, times are in
the browser's zone, 战绩 is in the top menu, joining by code is near the top of a phone's
lobby, the Ready dialog of a table made with the form asks only for Ready (the deal's
commitment is in the Hands menu), a manager sees join requests waiting, leaving a club is
not the main button, and a player who comes back after the clock played for them is told
what was played.  Screenshots go to test-output/screenshots/."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Page, expect

from games.rules import tiles as T
from tests.browser.a11y import violations
from tests.browser.players import autoplay, deal_where, table_room
from tests.browser.test_table import DESKTOP, PHONE, api, sign_up

CASES = [
    pytest.param(size, locale, id=f"{name}-{locale}")
    for (name, size), locale in itertools.product(
        {"1280x800": DESKTOP, "390x844": PHONE}.items(), ["zh-CN", "en-US"]
    )
]
WORDS = {
    "zh-CN": {
        "invited": "你被邀请加入亲友圈",
        "records": "战绩",
        "join": "加入亲友圈",
        "discarded": "超时：已替你打出",
        "commitment": "第 1 局发牌承诺值",
    },
    "en-US": {
        "invited": "You were invited to the club",
        "records": "Records",
        "join": "Join",
        "discarded": "was discarded for you",
        "commitment": "Deal commitment of hand 1",
    },
}
_names = itertools.count()


def _name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def _shot(page: Page, screenshots_dir, what: str, size: dict, locale: str) -> None:
    path = screenshots_dir / f"first-steps-{what}-{size['width']}-{locale}.png"
    page.screenshot(path=str(path), full_page=True)


@pytest.mark.parametrize(("size", "locale"), CASES)
def test_an_invite_survives_signing_up_by_the_headers_button(
    browser, live_server_url, screenshots_dir, size, locale
):
    base = live_server_url
    words = WORDS[locale]
    owner_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    owner = owner_ctx.new_page()
    sign_up(owner, base, _name("host"))
    owner.goto(f"{base}/clubs/")
    club = api(owner, "POST", "/api/clubs/", {"name": "茶馆（西湖）"})
    assert club["status"] == 201, club
    invite = f"/invite/club/{club['data']['invite_code']}/"
    owner_ctx.close()

    # A newcomer in New York opens the invite signed out: the login page names the club.
    context = browser.new_context(viewport=size, locale=locale, timezone_id="America/New_York")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}{invite}")
    expect(page.locator("#invited-to")).to_contain_text(words["invited"])
    expect(page.locator("#invited-to")).to_contain_text("茶馆（西湖）")
    _shot(page, screenshots_dir, "invite-login", size, locale)

    # The header's Sign up button, not the form's link: the invite still waits.
    page.goto(f"{base}/")
    page.locator("header a[href='/accounts/signup/']").click()
    expect(page.locator("#invited-to")).to_contain_text("茶馆（西湖）")
    _shot(page, screenshots_dir, "invite-signup", size, locale)
    sign_up(page, base, _name("newbie"))
    assert page.url.endswith(invite), page.url
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/clubs/{club['data']['id']}/")
    expect(page.locator("h1")).to_have_text("茶馆（西湖）")  # kept as typed

    # The zone came from the browser at sign-up.
    page.goto(f"{base}/accounts/profile/")
    expect(page.locator("#time-zone")).to_have_text("America/New_York")
    assert not errors, errors
    context.close()


@pytest.mark.parametrize(("size", "locale"), CASES)
def test_records_in_the_menu_and_join_by_code_near_the_top(
    browser, live_server_url, screenshots_dir, size, locale
):
    base = live_server_url
    context = browser.new_context(viewport=size, locale=locale)
    page = context.new_page()
    sign_up(page, base, _name("menu"))
    page.goto(f"{base}/lobby/")
    expect(page.locator("#nav-records")).to_have_text(WORDS[locale]["records"])
    code = page.locator("#code-input").bounding_box()
    if size["width"] < 720:
        # Within the first screen, above the list of open tables.
        assert code["y"] + code["height"] <= size["height"], code
        assert code["y"] < page.locator("#room-list").bounding_box()["y"]
    _shot(page, screenshots_dir, "lobby", size, locale)
    page.locator("#nav-records").click()
    page.wait_for_url(f"{base}/records/")
    context.close()


@pytest.mark.parametrize(("size", "locale"), CASES)
def test_a_manager_sees_requests_and_leaving_is_not_the_main_button(
    browser, live_server_url, screenshots_dir, size, locale
):
    base = live_server_url
    owner_ctx = browser.new_context(viewport=size, locale=locale)
    owner = owner_ctx.new_page()
    sign_up(owner, base, _name("boss"))
    owner.goto(f"{base}/clubs/")
    club = api(owner, "POST", "/api/clubs/", {"name": "Tea House"})["data"]
    api(owner, "PATCH", f"/api/clubs/{club['id']}/", {"join_needs_approval": True})

    member_ctx = browser.new_context(viewport=size, locale=locale)
    member = member_ctx.new_page()
    sign_up(member, base, _name("asker"))
    member.goto(f"{base}/clubs/")
    asked = api(member, "POST", "/api/clubs/join/", {"invite_code": club["invite_code"]})
    assert asked["status"] in (200, 201, 202), asked

    owner.goto(f"{base}/lobby/")
    expect(owner.locator("#nav-requests-badge")).to_have_text("1")
    owner.goto(f"{base}/clubs/{club['id']}/")
    expect(owner.locator("#link-requests")).to_be_visible()
    _shot(owner, screenshots_dir, "club-requests", size, locale)
    owner.locator("#join-requests [data-decision='approve']").click()
    expect(owner.locator("#join-requests [data-status='approved']")).to_have_count(1)

    member.goto(f"{base}/clubs/{club['id']}/")
    leave = member.locator("[data-action='leave']")
    expect(leave).to_be_visible()
    # Outlined, not the lacquer fill of a main action (the header's Switch button).
    look = "(b) => getComputedStyle(b).backgroundColor"
    assert leave.evaluate(look) == "rgba(0, 0, 0, 0)", leave.evaluate(look)
    assert member.locator("header .button").first.evaluate(look) != leave.evaluate(look)
    _shot(member, screenshots_dir, "club-member", size, locale)
    owner_ctx.close()
    member_ctx.close()


@pytest.mark.parametrize(("size", "locale"), CASES)
def test_a_player_back_after_the_clock_played_is_told_what_was_played(
    browser, live_server_url, screenshots_dir, size, locale
):
    base = live_server_url
    context = browser.new_context(viewport=size, locale=locale, bypass_csp=True)  # for axe
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, _name("away"))
    # Three seconds a move; we deal, so the first move is ours.
    room = table_room(page, base, "guangzhou", discard_seconds=3, claim_seconds=3)
    dealt = deal_where(page, base, room).to_json()["hands"][0]
    expect(page.locator('#my-hand .tile[data-legal="discard"]').first).to_be_visible()
    page.close()  # gone before the clock runs out
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.wait_for_timeout(4000)

    # Back at the table: the server discarded for us, and the page says which tile (one
    # we were dealt), named as the table names it.
    page.goto(f"{base}/rooms/{room['id']}/")
    told = page.locator("#played-for li")
    expect(told.first).to_contain_text(WORDS[locale]["discarded"])
    assert told.first.get_attribute("data-type") == "discard"
    ours = told.first.get_attribute("data-tile")
    assert T.parse_one(ours) in T.parse(dealt), (ours, dealt)
    label = page.locator(f'.table .tile[data-tile="{ours}"]').first.get_attribute("aria-label")
    expect(told.first).to_contain_text(label)
    wide = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1")
    assert not wide
    assert violations(page, "#played-for") == []  # readable, its button named
    _shot(page, screenshots_dir, "played-for", size, locale)

    # Our own move: the notice goes.
    autoplay(page, lambda: page.locator("#played-for").is_hidden(), timeout=20)
    assert not errors, errors
    context.close()


@pytest.mark.parametrize(("size", "locale"), CASES)
def test_the_ready_dialog_asks_only_for_ready(
    browser, live_server_url, screenshots_dir, size, locale
):
    base = live_server_url
    context = browser.new_context(viewport=size, locale=locale)
    page = context.new_page()
    sign_up(page, base, _name("form"))
    page.goto(f"{base}/lobby/")
    page.select_option("#opt-bots", "3")
    page.click("#btn-create")
    page.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    prestart = page.locator("#prestart")
    expect(prestart.locator("#btn-ready")).to_be_visible()
    # No hash to puzzle over: nothing hex-like, no commitment.
    expect(prestart.locator("[data-commitment], code")).to_have_count(0)
    assert not re.search(r"[0-9a-f]{12}", prestart.inner_text()), prestart.inner_text()
    _shot(page, screenshots_dir, "ready", size, locale)

    # It is on the fairness side: the Hands menu, with the checks of the hands dealt.
    page.locator("#menu-hands summary").click()
    shown = page.locator("#next-commitment")
    expect(shown).to_be_visible()
    expect(shown).to_contain_text(WORDS[locale]["commitment"])
    expect(shown).to_have_attribute("data-commitment", re.compile(r"^[0-9a-f]{64}$"))
    expect(shown.locator("a[href='/fair/']")).to_be_visible()
    _shot(page, screenshots_dir, "commitment", size, locale)
    page.locator("#menu-hands summary").click()
    prestart.locator("#btn-ready").click()
    expect(page.locator("#my-hand .tile").first).to_be_visible(timeout=15_000)
    context.close()
