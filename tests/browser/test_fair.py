"""A finished hand's page in Chromium: the verify panel re-deals it with Web Crypto and
says it matches; a tampered seed makes it say it does not; the replay steps both ways."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from games.rules import commitment, default_client_seed
from tests.browser.players import DESKTOP, PHONE, Frames, api, sign_up

HEX32 = re.compile(r"^[0-9a-f]{32}$")


def play_a_hand(page, base: str, variant: str) -> dict:
    """Open a private timer-less room with three bots, ready from the page (it sends the
    browser's client seed: the deal is the page's, not chosen), let 托管 play our seat, and
    return hand_end's payload as the socket brought it."""
    frames = Frames(page)
    r = api(
        page,
        "POST",
        "/api/rooms/",
        {
            "variant": variant,
            "bots": 3,
            "hands": 2,
            "private": True,
            "discard_seconds": None,
            "claim_seconds": None,
        },
    )
    assert r["status"] == 201, r
    room_id = r["data"]["id"]
    page.goto(f"{base}/rooms/{room_id}/")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    # Shown before the deal, in the Hands menu beside the checks of the hands dealt (not in
    # the Ready dialog): the room's commitment, as the socket brought it.
    expect(page.locator("#prestart [data-commitment]")).to_have_count(0)
    page.locator("#menu-hands summary").click()
    shown = page.locator("#next-commitment")
    expect(shown).to_have_attribute("data-commitment", re.compile(r"^[0-9a-f]{64}$"))
    expect(shown).to_be_visible()
    promised = frames.wait("room")["next_commitment"]
    assert shown.get_attribute("data-commitment") == promised
    page.locator("#menu-hands summary").click()
    page.locator("#btn-ready").click()
    expect(page.locator("#btn-auto")).to_be_visible(timeout=15000)
    assert api(page, "POST", f"/api/rooms/{room_id}/auto/", {"auto": True})["status"] == 200
    expect(page.locator("#result[open]")).to_be_visible(timeout=120000)
    end = frames.wait("hand_end")
    assert end["commitment"] == promised == commitment(end["server_seed"])
    # The room's Hands menu lists it as soon as it ends.
    item = page.locator(f'#room-hands-list a[href="/hands/{end["hand_id"]}/"]')
    expect(item).to_have_count(1)
    return end


def test_the_verify_panel_matches_a_played_hand_and_catches_a_tampered_seed(
    browser, live_server_url, screenshots_dir
):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "verifier")
    end = play_a_hand(page, base, "ningbo")
    # The browser drew its own client seed for our seat (not the server's default).
    mine = end["client_seeds"][0]
    assert HEX32.match(mine) and mine != default_client_seed(end["commitment"], 0)

    # The result dialog links to the hand's replay.
    link = page.locator("#result #result-replay")
    expect(link).to_have_attribute("href", f"/hands/{end['hand_id']}/")
    page.goto(f"{base}/hands/{end['hand_id']}/")
    result = page.locator("#verify-result")
    expect(result).to_have_attribute("data-state", "done", timeout=20000)
    expect(result).to_have_attribute("data-ok", "true")
    expect(page.locator("#verify-commitment")).to_have_attribute("data-ok", "true")
    expect(page.locator("#verify-deal")).to_have_attribute("data-ok", "true")
    expect(page.locator("#verify-draws")).to_have_attribute("data-ok", "true")
    expect(page.locator("#verify-verdict")).to_contain_text("Verified")
    page.screenshot(path=str(screenshots_dir / "hand-verify-1280x800.png"), full_page=True)

    # Someone pastes another seed: one hex digit changed.
    seed = end["server_seed"]
    other = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    page.fill("#vf-seed", other)
    page.locator("#vf-run").click()
    expect(result).to_have_attribute("data-ok", "false", timeout=20000)
    expect(page.locator("#verify-commitment")).to_have_attribute("data-ok", "false")
    expect(page.locator("#verify-deal")).to_have_attribute("data-ok", "false")
    expect(page.locator("#verify-draws")).to_have_attribute("data-ok", "false")
    expect(page.locator("#verify-verdict")).to_contain_text("Not verified")
    # And back to the revealed one: a match again.
    page.fill("#vf-seed", seed)
    page.locator("#vf-run").click()
    expect(result).to_have_attribute("data-ok", "true", timeout=20000)
    # A seed to check can come in the link; a malformed one is said to be so.
    page.goto(f"{base}/hands/{end['hand_id']}/?server_seed={other}")
    expect(result).to_have_attribute("data-ok", "false", timeout=20000)
    expect(page.locator("#verify-commitment")).to_contain_text("Mismatch")
    page.goto(f"{base}/hands/{end['hand_id']}/?server_seed=xyz")
    expect(result).to_have_attribute("data-state", "error", timeout=20000)
    expect(result).to_contain_text("64 lowercase hex")
    assert errors == []


def test_the_replay_steps_plays_and_shares_a_step(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "replayer")
    end = play_a_hand(page, base, "sichuan")
    url = f"{base}/hands/{end['hand_id']}/"
    page.goto(url)
    board = page.locator("#rp-board")
    expect(board).to_have_attribute("data-step", "0", timeout=20000)
    total = int(page.locator("#rp-slider").get_attribute("max"))
    assert total > 10
    # Every hand is face up at the deal: 13 or 14 tiles in each of the four seats.
    counts = [page.locator(f'.rp-seat[data-seat="{k}"] .hand .tile.face').count() for k in range(4)]
    assert sorted(counts) == [13, 13, 13, 14], counts
    expect(page.locator("#rp-step")).to_contain_text(f"{total}")
    page.locator("#rp-forward").click()
    expect(board).to_have_attribute("data-step", "1")
    assert page.evaluate("() => location.hash") == "#step=1"
    page.locator("#rp-forward").click()
    page.locator("#rp-back").click()
    expect(board).to_have_attribute("data-step", "1")
    page.locator("#rp-back").click()
    expect(board).to_have_attribute("data-step", "0")
    expect(page.locator("#rp-back")).to_be_disabled()
    # Play at 4×: it moves on by itself, and pauses.
    page.locator("input[name=rp-speed][value='4']").check()
    page.locator("#rp-play").click()
    expect(page.locator("#rp-play")).to_have_attribute("aria-pressed", "true")
    t0 = time.monotonic()
    while int(board.get_attribute("data-step")) < 4:
        assert time.monotonic() - t0 < 5, "the replay did not play"
        page.wait_for_timeout(50)
    page.locator("#rp-play").click()
    expect(page.locator("#rp-play")).to_have_attribute("aria-pressed", "false")
    # The last step shows the end, with the score items of each win.
    page.locator("#rp-last").click()
    expect(board).to_have_attribute("data-step", str(total))
    if end["wins"]:
        expect(page.locator("#rp-wins .rp-win")).to_have_count(len(end["wins"]))
        expect(page.locator("#rp-wins .result-item").first).to_be_visible()
    page.screenshot(path=str(screenshots_dir / "hand-replay-1280x800.png"), full_page=True)
    # A shared link opens at its step.
    share = page.locator("#rp-link").input_value()
    assert share.endswith(f"#step={total}")
    page.goto(f"{url}#step=3")
    page.reload()
    expect(board).to_have_attribute("data-step", "3", timeout=20000)
    expect(page.locator("#verify-result")).to_have_attribute("data-ok", "true", timeout=20000)
    # On a phone the page fits its width: nothing sticks out sideways.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, wide
    page.screenshot(path=str(screenshots_dir / "hand-replay-390x844.png"), full_page=True)
    assert errors == []
