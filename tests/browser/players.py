"""What players go through in Chromium, in Chinese and English, on a desktop (1280×800) and
a phone (390×844): the readers, the check that every page is in its reader's language (no
English phrase on a Chinese page, no Chinese-only label on an English one, tile faces
aside) and fits its screen, and the player's path: a variant card's Play, quick play asking
which variant (and remembering it), a hand to its result, the replay, the profile, the
board and the fairness page.  Its tests are in test_players_desktop.py and
test_players_phone.py, one file a screen, so that parallel runs share the hands out."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

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


def reader(browser, base: str, name: str, lang: str, size: str, **options):
    """A signed-up reader of ``lang`` on a screen of ``size`` (``options``: the browser
    context's), and the page's errors."""
    locale = "zh-CN" if lang == "zh" else "en-US"
    ctx = browser.new_context(viewport=SIZES[size], locale=locale, **options)
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
    # At a match's last hand the 大结算 may open over the hand's result before a poll.
    result = page.locator("#result[open], #summary[open]")
    autoplay(page, lambda: result.count() > 0, timeout=90)


def a_player_finds_a_game_plays_it_and_reads_about_it(browser, base, screenshots_dir, lang, size):
    """The player's path in ``lang`` on a screen of ``size``."""
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
        # Fourteen on one row of a 390 px screen: each at least 24 px, the smallest tap
        # target WCAG 2.2 allows (2.5.8).
        assert min(widths) >= 24, widths
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
