"""A rule set the site has never heard of, played in Chromium: 推倒胡 (test), one folder
under tests/variants/, registered through the public registry in the server it runs on.
The lobby offers it, the table shows its setup choice, its badge, its help and its result
line, and the hand page re-deals it, all from the data the variant serves."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import site
from tests.browser.players import DESKTOP, Frames, autoplay, sign_up

APP = "tests.variants.tuidaohu.asgi:application"
KEY = "test_tuidaohu"


@pytest.fixture(scope="module")
def fifth_server(tmp_path_factory):
    """The site on its own SQLite file, with the test variant registered at start."""
    tmp = tmp_path_factory.mktemp("fifth")
    with site(tmp, "fifth", APP, GAME_NEXT_HAND_SECONDS="600") as server:
        yield f"http://127.0.0.1:{server.port}"


def test_the_fifth_variant_is_played_to_its_result(browser, fifth_server, screenshots_dir):
    base = fifth_server
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    sign_up(page, base, "fifth")

    # The home page and the lobby offer it from the registry alone.
    page.goto(f"{base}/")
    expect(page.locator(f"#variant-{KEY}")).to_contain_text("Tui Dao Hu (test)")
    page.goto(f"{base}/lobby/?variant={KEY}")
    expect(page.locator("#opt-variant")).to_have_value(KEY)
    expect(page.locator("#rules-fields")).to_contain_text("The stake every payment is counted in.")
    page.check("#opt-private")
    page.check("#opt-no-timer")
    page.select_option("#opt-bots", "3")
    page.click("#btn-create")
    page.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    expect(page.locator("#room-variant")).to_have_text("Tui Dao Hu (test)")
    expect(page.locator("#help-panel")).to_contain_text("Tui dao hu: any winning shape wins.")

    # Its setup phase: three buttons from its data, the number keys choose among them.
    page.locator("#btn-ready").click()
    choices = page.locator('#actions button[data-type="lucky_suit"]')
    expect(choices).to_have_count(3)
    expect(page.locator("#prompt")).to_contain_text("Choose your lucky suit")
    expect(page.locator('#actions button[data-suit="p"]')).to_contain_text("Dots")
    page.keyboard.press("2")
    # Our own choice is shown at once on our plate; the others' once all have chosen.
    expect(page.locator('.plate[data-seat="0"] .lucky.lucky-p')).to_have_count(1)
    expect(page.locator(".plate .lucky")).to_have_count(4, timeout=15000)
    assert frames.wait("state")["phase"] != "lucky_suit"

    result = page.locator("#result[open]")
    autoplay(page, lambda: result.count() > 0, timeout=120)
    hand_end = frames.wait("hand_end")
    wins = [w for w in hand_end.get("wins", []) if w]
    if wins:
        # Its result line: items in its own unit, as its data says ("pt", added).
        expect(page.locator("#result .result-item").first).to_contain_text("pt")
        expect(page.locator("#result .result-total").first).to_contain_text(
            f"{wins[0]['total']} pt"
        )
    page.screenshot(path=str(screenshots_dir / "fifth-variant-result-1280x800.png"))

    # The hand page re-deals it from the deal procedure the variant serves.
    page.goto(f"{base}/hands/{hand_end['hand_id']}/")
    verdict = page.locator("#verify-result")
    expect(verdict).to_have_attribute("data-state", "done", timeout=20000)
    expect(verdict).to_have_attribute("data-ok", "true")
    # Its replay names its own move from its data: step 1 is a seat's lucky suit.
    page.locator("#rp-forward").click()
    expect(page.locator(".rp-move")).to_contain_text(re.compile(r"Picks a lucky suit \w+"))
    assert errors == []
