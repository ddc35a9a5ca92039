"""In Chromium, what players and club managers go through, in Chinese and English, on a
desktop (1280×800) and a phone (390×844).

The manager's path: a Guangzhou preset with a changed fan table, edited into version 2,
the change history and its diff, a club table without a timer, a member who sits down with
one tap, a hand played, and back to the club.  The player's path: a variant card's Play,
quick play asking which variant (and remembering it), a hand to its result, the replay,
the profile, the board and the fairness page.  Every page is read for its language: no
English phrase on a Chinese page, no Chinese-only label on an English one (tile faces
aside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import browser, live_server_url, screenshots_dir  # noqa: F401
from tests.browser.test_table import DESKTOP, PHONE, autoplay, sign_up

HERE = Path(__file__).parent
WORDS = "\n".join(
    line for line in (HERE / "words.js").read_text().splitlines() if not line.startswith("//")
)
# Two or more English words in a row ("Win rate"); a user name or "SHA-256" is one word.
ENGLISH = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,'’-]+[A-Za-z][a-z]+)+\b")
CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")
SIZES = {"1280x800": DESKTOP, "390x844": PHONE}


def wrong_language(page: Page, lang: str) -> list:
    """What the page shows in the other language: English phrases on a Chinese page,
    labels with only Chinese on an English one."""
    bad = []
    for text, where in page.evaluate(WORDS):
        if lang == "zh" and ENGLISH.search(text):
            bad.append((text[:80], where, page.url))
        if lang == "en" and CJK.search(text) and not LATIN.search(text):
            bad.append((text[:80], where, page.url))
    return bad


def check_page(page: Page, lang: str, faults: list) -> None:
    faults.extend(wrong_language(page, lang))
    wide = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1")
    if wide:
        over = page.evaluate(
            "() => { const out = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;"
            " return [...document.querySelectorAll('body *')].filter(e => out(e)"
            " && ![...e.children].some(out)).slice(0, 5)"
            ".map(e => e.tagName + '.' + e.className + ':' + e.textContent.slice(0, 40)"
            " + ':' + Math.round(e.getBoundingClientRect().width)); }"
        )
        faults.append(("scrolls sideways", page.url, over))


def reader(browser, base: str, name: str, lang: str, size: str):  # noqa: F811
    """A signed-up reader of ``lang`` on a screen of ``size``, and the page's errors."""
    ctx = browser.new_context(viewport=SIZES[size], locale="zh-CN" if lang == "zh" else "en-US")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if lang == "en":  # the site defaults to Chinese: switch as a visitor would
        page.goto(f"{base}/")
        page.select_option("#lang-select", "en")
        page.locator(".lang-switch button").click()
        page.wait_for_load_state()
    sign_up(page, base, name)
    return ctx, page, errors


def play_to_result(page: Page) -> None:
    # At a match's last hand the 大结算 may open (closing the hand's result) before a poll.
    result = page.locator("#result[open], #summary[open]")
    autoplay(page, lambda: result.count() > 0, timeout=90)


def test_a_manager_runs_a_club_from_fan_table_to_a_played_table(
    browser,  # noqa: F811
    live_server_url,  # noqa: F811
    screenshots_dir,  # noqa: F811
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
    mgr.wait_for_url(re.compile(r"/rooms/\d+/$"))
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
    # The match is one hand: its end brings the 大结算 (which closes the hand's result
    # dialog as it opens), and the 大结算 leads back to the club.
    summary = mem.locator("#summary[open]")
    autoplay(mem, lambda: summary.count() > 0, timeout=120)
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


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_player_finds_a_game_plays_it_and_reads_about_it(
    browser,  # noqa: F811
    live_server_url,  # noqa: F811
    screenshots_dir,  # noqa: F811
    lang,
    size,
):
    base = live_server_url
    faults: list = []
    ctx, page, errors = reader(browser, base, f"p{lang}{size[:3]}", lang, size)
    check_page(page, lang, faults)

    # A variant card's Play opens the lobby with that variant chosen.
    page.goto(f"{base}/")
    check_page(page, lang, faults)
    page.locator("#variant-hangzhou a.play-variant").click()
    page.wait_for_url(re.compile(r"/lobby/\?variant=hangzhou"))
    expect(page.locator("#opt-variant")).to_have_value("hangzhou")
    check_page(page, lang, faults)

    # A length out of range is refused in words, not replaced.
    page.fill("#opt-hands", "0")
    page.click("#btn-create")
    expect(page.locator("#create-error")).to_be_visible()
    expect(page.locator("#create-error")).to_contain_text("64")
    assert "/rooms/" not in page.url

    # Quick play asks which variant, and remembers it.
    expect(page.locator("#quick-variant")).to_have_value("sichuan")
    page.select_option("#quick-variant", "guangzhou")
    page.click("#btn-quick")
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))
    expect(page.locator("#room-variant")).to_contain_text("广州" if lang == "zh" else "Guangzhou")
    expect(page.locator("#prestart-commitment")).to_be_visible()
    expect(page.locator('.prestart-fair-why a[href="/fair/"]')).to_be_visible()
    check_page(page, lang, faults)
    page.locator("#btn-ready").click()
    expect(page.locator("#my-hand .tile.face").first).to_be_visible()
    index_shown = page.evaluate(
        "() => getComputedStyle(document.querySelector('#my-hand .tile-index')).display"
    )
    assert (index_shown != "none") == (lang == "en")  # the corner index: on in English
    if size == "390x844":
        widths = page.evaluate(
            "() => [...document.querySelectorAll('#my-hand .tile')]"
            ".map(t => t.getBoundingClientRect().width)"
        )
        assert min(widths) >= 40, widths
        hand_no = page.locator("#room-hand").bounding_box()
        assert hand_no["height"] < 24, hand_no  # one line: never "Hand 1 of" over "8"
    page.screenshot(path=str(screenshots_dir / f"players-table-{lang}-{size}.png"))
    play_to_result(page)
    dialog = page.locator("#result")
    if dialog.get_attribute("data-result-reason") == "win":
        how = dialog.locator(".result-how").first
        expect(how.locator("summary")).to_be_visible()
        expect(how.locator(".result-explain")).to_be_hidden()  # the algebra is folded
    check_page(page, lang, faults)
    page.screenshot(path=str(screenshots_dir / f"players-result-{lang}-{size}.png"))

    # The replay fits the screen; the profile shows the hand; the board says what it counts.
    page.goto(base + dialog.locator("#result-replay").get_attribute("href"))
    expect(page.locator(".rp-seat").first).to_be_visible()
    check_page(page, lang, faults)
    page.screenshot(path=str(screenshots_dir / f"players-replay-{lang}-{size}.png"))
    page.goto(f"{base}/accounts/profile/")
    expect(page.locator("#recent-hands")).to_contain_text("不计排位" if lang == "zh" else "Unrated")
    check_page(page, lang, faults)
    page.goto(f"{base}/leaderboards/guangzhou/")
    expect(page.locator(".how-rating")).to_be_visible()
    check_page(page, lang, faults)
    page.goto(f"{base}/fair/")
    check_page(page, lang, faults)
    page.goto(f"{base}/lobby/")
    expect(page.locator("#quick-variant")).to_have_value("guangzhou")

    assert not faults, faults
    assert not errors, errors
    ctx.close()
