"""Watching a table from the lobby: the Watch link, every concealed tile face down,
the watchers count for the spectator and for the player, the spectator delay set in the
lobby's form, and a private table neither listed nor watchable."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.players import Frames, deal_where
from tests.browser.test_table import (
    DESKTOP,
    PHONE,
    api,
    autoplay,
    discard_count,
    sign_up,
    spectator_view,
    waiting_for,
)


def test_watch_a_public_table_from_the_lobby(browser, live_server_url, screenshots_dir):
    base = live_server_url
    owner_ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    owner = owner_ctx.new_page()
    errors: list[str] = []
    owner.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(owner, base, "host")
    # The lobby's form sets the spectator delay.
    owner.goto(f"{base}/lobby/")
    expect(owner.locator("#opt-variant option[value=sichuan]")).to_have_count(1)
    owner.select_option("#opt-variant", "sichuan")
    owner.select_option("#opt-bots", "3")
    owner.fill("#opt-delay", "1")
    owner.click("#btn-create")
    owner.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    room_id = int(re.search(r"/rooms/(\d+)/$", owner.url).group(1))
    assert api(owner, "GET", f"/api/rooms/{room_id}/")["data"]["spectator_delay"] == 1
    # A private table of the same owner: not listed, not watchable.
    private = api(
        owner,
        "POST",
        "/api/rooms/",
        {"variant": "sichuan", "private": True, "bots": 3, "hands": 1},
    )
    assert private["status"] == 201, private
    private_id = private["data"]["id"]

    deal_where(owner, base, api(owner, "GET", f"/api/rooms/{room_id}/")["data"])
    autoplay(owner, lambda: discard_count(owner) >= 4, timeout=60)
    waiting_for(owner)  # the table holds still while the spectator looks
    expect(owner.locator("#room-watchers")).to_be_hidden()  # nobody watches yet

    watch_ctx = browser.new_context(viewport=PHONE, locale="en-GB")
    watcher = watch_ctx.new_page()
    frames = Frames(watcher)
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(watcher, base, "railbird")
    watcher.goto(f"{base}/lobby/")
    watcher.select_option("#lang-select", "en")  # the spectator reads English
    watcher.click(".lang-switch button[type=submit]")
    watcher.wait_for_url(re.compile(r"/lobby/$"))
    expect(watcher.locator("html")).to_have_attribute("lang", "en")
    card = watcher.locator(f'.room-card[data-room-id="{room_id}"]')
    expect(card).to_be_visible()
    expect(watcher.locator(f'.room-card[data-room-id="{private_id}"]')).to_have_count(0)
    link = card.locator("a.button")
    expect(link).to_have_text("Watch")
    link.click()
    watcher.wait_for_url(re.compile(rf"/rooms/{room_id}/$"))
    expect(watcher.locator("#conn")).to_have_attribute("data-status", "connected")
    # One second late, the hand arrives: every concealed tile face down.
    expect(watcher.locator(".pool .tile").first).to_be_visible(timeout=10000)
    expect(watcher.locator("#actions button")).to_have_count(0)
    expect(watcher.locator("#prompt")).to_contain_text("You see it 1 s late.")
    expect(watcher.locator(".pool .tile")).to_have_count(discard_count(owner))
    hands, state = spectator_view(watcher, frames)
    assert state["seat"] is None and state["legal"] == []
    assert sorted(h["seat"] for h in hands) == [0, 1, 2, 3]
    for h in hands:
        player = state["players"][h["seat"]]
        if not h["won"]:
            assert h["faces"] == 0 and h["backs"] == player["hand_count"], (h, player)
    assert all("drawn" not in p and "hand" not in p for p in state["players"] if not p["won"])
    # The watchers count: the spectator sees it, and so does the player.
    expect(watcher.locator("#room-watchers")).to_have_attribute("data-watchers", "1")
    expect(watcher.locator("#room-watchers")).to_contain_text("1 watching")
    expect(owner.locator("#room-watchers")).to_be_visible()
    expect(owner.locator("#room-watchers")).to_have_attribute("data-watchers", "1")
    expect(owner.locator("#room-watchers")).to_contain_text("1 人观战")
    watcher.screenshot(path=str(screenshots_dir / "watch-390x844.png"))

    # The private table turns the stranger away with the join-code form.
    response = watcher.goto(f"{base}/rooms/{private_id}/")
    assert response is not None and response.status == 403
    # When the spectator goes, the player's count drops.
    watch_ctx.close()
    expect(owner.locator("#room-watchers")).to_be_hidden(timeout=10000)
    assert not errors, errors
    owner_ctx.close()
