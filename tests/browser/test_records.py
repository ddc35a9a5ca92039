"""A club match to its 大结算 on a phone: the record page's summary, the image saved
from the canvas, the club's 战绩 with its CSV link, and 本桌规则 with the preset's
changes marked."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.players import PHONE, WINS, api, deal_where, rig_first, sign_up

FITS = (Path(__file__).parent / "page_fits_width.js").read_text()


def test_a_club_match_summary_saved_as_an_image(browser, live_server_url, screenshots_dir):
    base = live_server_url
    context = browser.new_context(viewport=PHONE, locale="zh-CN", accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "recorder")
    page.goto(f"{base}/clubs/")
    club = api(page, "POST", "/api/clubs/", {"name": "Tea House"})
    assert club["status"] == 201, club
    club_id = club["data"]["id"]
    preset = api(
        page,
        "POST",
        f"/api/clubs/{club_id}/presets/",
        {"variant": "sichuan", "name": "House", "rules": {"mode": "plain", "fan_cap": 3}},
    )
    assert preset["status"] == 201, preset
    room = api(
        page,
        "POST",
        "/api/rooms/",
        {"preset": preset["data"]["id"], "bots": 3, "hands": 1, "rules": {"hai_di": False}},
    )
    assert room["status"] == 201, room
    room_id = room["data"]["id"]

    # The club page shares its invite as a link and a QR code drawn by the server.
    page.goto(f"{base}/clubs/{club_id}/")
    qr = page.locator("#club .invite-qr")
    expect(qr).to_be_visible()
    page.wait_for_function("() => document.querySelector('#club .invite-qr').complete")
    assert qr.evaluate("img => img.naturalWidth") > 0
    assert page.locator("#club-invite-link").input_value().startswith(f"{base}/invite/club/")
    assert page.evaluate(FITS) <= 0, "the club page is wider than the phone"

    # The table's help links to 本桌规则; the player hands the seat to auto-play.
    page.goto(f"{base}/rooms/{room_id}/")
    expect(page.locator("#link-table-rules")).to_have_attribute(
        "href", f"/rules/sichuan/?room={room_id}"
    )
    # Dealt with us as the dealer; at our first turn a self-drawn win is laid out, which
    # auto-play takes.
    deal_where(page, base, api(page, "GET", f"/api/rooms/{room_id}/")["data"])
    page.locator('#actions button[data-suit="s"]').click()
    expect(page.locator('#my-hand .tile[data-legal="discard"]').first).to_be_visible()
    rig_first(base, room_id, 0, WINS)
    page.reload()
    expect(page.locator('#actions button[data-type="hu"]')).to_be_visible()
    expect(page.locator("#btn-auto")).to_be_visible()
    assert api(page, "POST", f"/api/rooms/{room_id}/auto/", {"auto": True})["status"] == 200
    # The match is recorded once its only hand is settled: then the table opens its 大结算.
    expect(page.locator("#summary")).to_be_visible(timeout=30_000)
    match = api(page, "GET", "/api/matches/")["data"]["results"][0]
    assert match["club"] == club_id and match["room"] == room_id
    assert sum(p["total"] for p in match["players"]) == 0

    # 我的战绩 → the match's 大结算.
    page.goto(f"{base}/records/")
    expect(page.locator("h1")).to_have_text("我的战绩")
    assert page.evaluate(FITS) <= 0, "我的战绩 is wider than the phone"
    page.locator(f'[data-match="{match["id"]}"] a.record-link').click()
    page.wait_for_url(re.compile(rf"/records/matches/{match['id']}/$"))
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    expect(page.locator("#per-hand tbody tr")).to_have_count(len(match["hands"]))
    totals = [int(t) for t in page.locator("#standings tbody td:nth-child(2)").all_text_contents()]
    assert totals == [p["total"] for p in match["players"]]
    assert page.evaluate(FITS) <= 0, "the record page is wider than the phone"
    page.screenshot(path=str(screenshots_dir / "records-match-phone.png"), full_page=True)

    # Save as image: a PNG drawn on the canvas, downloaded.
    with page.expect_download() as info:
        page.locator("#save-image").click()
    download = info.value
    assert download.suggested_filename == f"match-{match['id']}.png"
    assert Path(download.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    size = page.evaluate(
        "() => { const c = document.getElementById('summary-canvas'); return [c.width, c.height]; }"
    )
    assert size[0] >= 640 and size[1] > 200

    # The club's 战绩, with the CSV link for its owner.
    page.goto(f"{base}/clubs/{club_id}/records/")
    expect(page.locator(f'[data-match="{match["id"]}"]')).to_have_count(1)
    csv_link = page.locator("#csv-link")
    expect(csv_link).to_be_visible()
    assert page.evaluate(FITS) <= 0, "the club's records are wider than the phone"
    csv = page.evaluate("async (u) => (await fetch(u)).text()", csv_link.get_attribute("href"))
    assert len(csv.strip().splitlines()) == 1 + 4

    # 本桌规则 from the record: the preset's changes and the table's own are marked.
    page.goto(f"{base}/records/matches/{match['id']}/")
    page.locator(f'a[href="/rules/sichuan/?room={room_id}"]').click()
    page.wait_for_url(re.compile(r"/rules/sichuan/\?room=\d+$"))
    expect(page.locator("#option-mode .differs-mark")).to_have_attribute("data-source", "preset")
    expect(page.locator("#option-fan_cap .differs-mark")).to_have_attribute("data-source", "preset")
    expect(page.locator("#option-hai_di .differs-mark")).to_have_attribute("data-source", "room")
    expect(page.locator("#option-ding_que .differs-mark")).to_have_count(0)
    # The example hands are drawn as tiles (14 each: 13 and the winning one).
    expect(page.locator('[data-item="qing_yi_se"] .tiles .tile')).to_have_count(14)
    assert page.evaluate(FITS) <= 0, "the rules page is wider than the phone"
    page.screenshot(path=str(screenshots_dir / "rules-table-phone.png"), full_page=True)
    assert not errors, errors
    context.close()
