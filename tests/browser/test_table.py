"""Play a Sichuan hand in Chromium against three bots, and watch a table as a spectator."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.players import (
    DESKTOP,
    PHONE,
    WINS,
    Frames,
    api,
    autoplay,
    deal_where,
    play_step,
    rig_first,
    room_of,
    sign_up,
    table_room,
)

__all__ = ["DESKTOP", "PHONE", "api", "autoplay", "play_step", "sign_up"]


def spectator_view(page: Page, frames: Frames) -> tuple[list[dict], dict]:
    """Each drawn hand's face-up and face-down tiles, and the state the socket last brought
    (read while the table waits for its player, so nothing moves between the two)."""
    hands = page.evaluate(
        """() => [...document.querySelectorAll('.hand[data-hand-seat]')].map(h => ({
             seat: Number(h.dataset.handSeat), won: h.dataset.won === '1',
             faces: h.querySelectorAll('.tile.face, [data-tile]').length,
             backs: h.querySelectorAll('.tile.back').length}))"""
    )
    return hands, frames.state


def waiting_for(page: Page) -> None:
    """Wait until the table waits for this page's player (a choice on offer): the bots
    stop there, so what others see holds still."""
    offered = page.locator('#actions button, #my-hand .tile[data-legal="discard"]')
    expect(offered.first).to_be_visible(timeout=15000)


def discard_count(page: Page) -> int:
    return page.locator(".pool .tile").count()


def test_play_a_hand_against_bots(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    sign_up(page, base, "mei")
    page.goto(f"{base}/lobby/")
    expect(page.locator("#opt-variant option[value=sichuan]")).to_have_count(1)
    page.select_option("#opt-variant", "sichuan")
    expect(page.locator("#rule-mode")).to_be_visible()
    expect(page.locator("#rule-fan_cap-none")).to_have_count(1)  # nullable int: "no cap"
    page.screenshot(path=str(screenshots_dir / "lobby-1280x800.png"), full_page=True)
    page.select_option("#rule-mode", '"plain"')  # the first win ends the hand
    page.check("#opt-private")
    page.check("#opt-no-timer")
    page.select_option("#opt-bots", "3")
    page.click("#btn-create")
    page.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")

    deal_where(page, base, api(page, "GET", f"/api/rooms/{room_of(page)}/")["data"])
    expect(page.locator('#actions button[data-type="ding_que"]')).to_have_count(3)
    # Dealer is East; winds are drawn relative to the dealer, and the next seat sits on the right.
    expect(page.locator(".seat-right .plate")).to_have_attribute("data-seat", "1")
    expect(page.locator(".seat-top .plate")).to_have_attribute("data-seat", "2")
    expect(page.locator(".seat-left .plate")).to_have_attribute("data-seat", "3")

    page.locator('#actions button[data-suit="s"]').click()
    autoplay(page, lambda: discard_count(page) >= 16, timeout=60)
    page.screenshot(path=str(screenshots_dir / "table-1280x800.png"))
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(page.url)
    expect(phone.locator("#my-hand .tile.face").first).to_be_visible()
    phone.wait_for_timeout(300)
    phone.screenshot(path=str(screenshots_dir / "table-390x844.png"))
    overlaps = phone.evaluate(
        """() => {
          const boxes = [...document.querySelectorAll('.seat, .pool, .center')]
            .map(e => [e.className, e.getBoundingClientRect()])
            .filter(([, r]) => r.width && r.height);
          const out = [];
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, r] = boxes[i], [b, s] = boxes[j];
            if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1
                && s.top < r.bottom - 1) out.push([a, b, [r.left, r.right, r.top, r.bottom],
                               [s.left, s.right, s.top, s.bottom]]);
          }
          const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
          return {out, wide};
        }"""
    )
    assert overlaps == {"out": [], "wide": False}, overlaps
    phone.close()

    # At our next turn a self-drawn win is laid out: 胡 ends the hand.
    ours = page.locator('#my-hand .tile[data-legal="discard"], #actions button[data-type="hu"]')
    autoplay(page, lambda: ours.count() > 0, timeout=60)
    rig_first(base, room_of(page), 0, WINS)
    page.reload()
    page.locator('#actions button[data-type="hu"]').click()
    dialog = page.locator("#result[open]")
    expect(dialog.locator(".scores")).to_be_visible()
    assert dialog.get_attribute("data-result-reason") == "win"
    expect(dialog.locator(".result-item").first).to_contain_text("番")
    expect(dialog.locator(".scores tr.totals")).not_to_have_class(re.compile("pending"))
    page.screenshot(path=str(screenshots_dir / "result-1280x800.png"))
    expect(dialog.locator("#btn-result-ready")).to_be_visible()
    assert not errors, errors

    # A game against bots is unrated: the profile keeps the hand, the public board does not.
    page.goto(f"{base}/accounts/profile/")
    expect(page.locator("#recent-hands")).to_contain_text("不计排位")
    page.goto(f"{base}/leaderboards/sichuan/")
    expect(page.locator("main")).not_to_contain_text("mei")
    context.close()


def test_spectator_sees_no_concealed_tile(browser, live_server_url, screenshots_dir):
    base = live_server_url
    owner_ctx = browser.new_context(viewport=DESKTOP)
    owner = owner_ctx.new_page()
    sign_up(owner, base, "owner")
    room = table_room(
        owner, base, "sichuan", hands=4, private=False, discard_seconds=30, claim_seconds=20
    )
    room_id = room["id"]
    deal_where(owner, base, room)
    autoplay(owner, lambda: discard_count(owner) >= 8, timeout=60)
    waiting_for(owner)

    watch_ctx = browser.new_context(viewport=PHONE)
    watcher = watch_ctx.new_page()
    frames = Frames(watcher)
    sign_up(watcher, base, "watcher")
    watcher.goto(f"{base}/lobby/")
    expect(watcher.locator(f'.room-card[data-room-id="{room_id}"]')).to_be_visible()
    watcher.goto(f"{base}/rooms/{room_id}/")
    expect(watcher.locator(".pool .tile").first).to_be_visible()
    expect(watcher.locator("#btn-join")).to_have_count(0)  # the table is full
    expect(watcher.locator("#actions button")).to_have_count(0)

    watcher.wait_for_timeout(200)
    hands, state = spectator_view(watcher, frames)
    assert state["seat"] is None
    assert sorted(h["seat"] for h in hands) == [0, 1, 2, 3]
    for h in hands:
        player = state["players"][h["seat"]]
        if h["won"]:  # 血战: a winner's hand is shown face up, the hand goes on
            assert player["won"] is not None and "hand" in player
        else:
            assert h["faces"] == 0, h
            assert h["backs"] == player["hand_count"], (h, player)
            assert "hand" not in player
    # Concealed kongs of other seats are backs too; no drawn tile is known.
    assert all("drawn" not in p for p in state["players"])
    watcher.screenshot(path=str(screenshots_dir / "spectator-390x844.png"))
    watch_ctx.close()
    owner_ctx.close()


def test_huan_san_zhang_by_clicking_three_tiles(browser, live_server_url):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = Frames(page)
    sign_up(page, base, "swapper")
    room = table_room(page, base, "sichuan", rules={"huan_san_zhang": True})
    deal_where(page, base, room)
    confirm = page.locator('#actions button[data-type="exchange"]')
    expect(confirm).to_be_disabled()  # nothing picked yet
    state = frames.state
    before = state["players"][state["seat"]]["hand"]
    pick = next(a for a in state["legal"] if a["type"] == "exchange")["tiles"]  # e.g. "139m"
    picked = [f"{d}{pick[-1]}" for d in pick[:-1]]
    used: set[str] = set()
    for tile in picked:  # click each picked tile once, copies included
        tiles = page.locator(f'#my-hand .tile[data-tile="{tile}"]')
        candidates = [
            i for i in range(tiles.count()) if tiles.nth(i).get_attribute("data-index") not in used
        ]
        index = candidates[0]
        used.add(tiles.nth(index).get_attribute("data-index"))
        tiles.nth(index).click()
    expect(page.locator("#my-hand .tile.selected")).to_have_count(3)
    expect(confirm).to_be_enabled()
    confirm.click()
    # Once the bots have picked too, the exchange happens and 定缺 comes next.
    expect(page.locator('#actions button[data-type="ding_que"]')).to_have_count(3)
    after = frames.state
    assert after["exchange_direction"] in {"clockwise", "counter_clockwise", "across"}
    mine = after["players"][after["seat"]]["hand"]

    def tiles_of(text):
        out, digits = [], []
        for ch in text:
            if ch.isdigit():
                digits.append(ch)
            else:
                out += [f"{d}{ch}" for d in digits]
                digits = []
        return out

    assert len(tiles_of(mine)) == len(tiles_of(before))  # three out, three in
    remaining = tiles_of(before)
    for tile in picked:
        remaining.remove(tile)
    got = tiles_of(mine)
    for tile in remaining:  # everything not given away is still there
        got.remove(tile)
    assert len(got) == 3 and len({t[-1] for t in got}) == 1  # three of one suit came in
    assert not errors, errors
    context.close()
