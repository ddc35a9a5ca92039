"""Club match life on a phone, two players (the club's owner and a member) and two bots:
a 2-hand match played to its 大结算 (托管 plays both seats, the page readies between the
hands), the summary saved as a PNG drawn in the browser, the match in the club's 战绩 and
its CSV, a quick phrase sent and muted, 本桌规则 with the preset's changes marked; and a
match ended by a dissolve vote."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.players import PHONE, Frames, api, sign_up

FITS = (Path(__file__).parent / "page_fits_width.js").read_text()
PNG = b"\x89PNG\r\n\x1a\n"
def club_table(browser, base, name, *, hands):
    """The owner's and the member's pages (phones, Chinese) at a club table with two bots
    (a preset with changes from the defaults), its first hand dealt; and the ids."""
    contexts, pages = [], []
    for who in (f"{name}o", f"{name}m"):
        context = browser.new_context(viewport=PHONE, locale="zh-CN", accept_downloads=True)
        page = context.new_page()
        page.frames_seen = Frames(page)
        page.errors = []
        page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
        page.on("dialog", lambda d: d.accept())  # the dissolve confirmation
        sign_up(page, base, who)
        contexts.append(context)
        pages.append(page)
    owner, member = pages
    club = api(owner, "POST", "/api/clubs/", {"name": f"{name} house"})["data"]
    joined = api(member, "POST", "/api/clubs/join/", {"invite_code": club["invite_code"]})
    assert joined["status"] in (200, 201), joined
    preset = api(
        owner,
        "POST",
        f"/api/clubs/{club['id']}/presets/",
        {"variant": "sichuan", "name": "House", "rules": {"mode": "plain", "fan_cap": 3}},
    )["data"]
    room = api(owner, "POST", "/api/rooms/", {"preset": preset["id"], "bots": 2, "hands": hands})
    assert room["status"] == 201, room
    room_id = room["data"]["id"]
    assert api(member, "POST", f"/api/rooms/{room_id}/join/", {})["status"] == 200
    for page in pages:
        page.goto(f"{base}/rooms/{room_id}/")
        page.locator("#btn-ready").click()
    for page in pages:
        expect(page.locator("#btn-auto")).to_be_visible(timeout=20_000)
    return contexts, owner, member, club["id"], room_id


def ready_between_hands(page, room_id: int, *, timeout: float) -> None:
    """Ready ``page``'s seat whenever no hand is in play, until the match is over (with
    both humans on 托管 one ready deals the next hand), reading the table from the
    socket's frames."""
    end = time.monotonic() + timeout
    readied = None
    while page.frames_seen.room is None or page.frames_seen.room["status"] != "finished":
        assert time.monotonic() < end, f"the match did not end in {timeout} s"
        state = page.frames_seen.state
        if state and state["phase"] == "ended" and readied != state["hand"]:
            answer = api(page, "POST", f"/api/rooms/{room_id}/ready/")
            assert answer["status"] == 200 or answer["data"]["code"] == "game_over", answer
            readied = state["hand"]
        page.wait_for_timeout(200)


def save_summary_image(page, match_id):
    """The 大结算 overlay's "save as image": a PNG drawn on the page's canvas."""
    with page.expect_download() as info:
        page.locator("#summary-save").click()
    download = info.value
    assert download.suggested_filename == f"match-{match_id}.png"
    assert Path(download.path()).read_bytes()[:8] == PNG


def test_a_club_match_to_its_summary(browser, live_server_url, screenshots_dir):
    base = live_server_url
    contexts, owner, member, club_id, room_id = club_table(browser, base, "life", hands=2)

    # A quick phrase from the member shows beside their seat at the owner's table.
    member.locator("#menu-phrases > summary").click()
    member.locator('#phrase-list [data-phrase="hurry"]').click()
    bubble = owner.locator('#phrase-bubbles .phrase-bubble[data-phrase="hurry"]')
    expect(bubble).to_have_text("快点吧，我等到花儿都谢了！")
    expect(bubble).to_have_class(re.compile(r"phrase-(left|right|top)"))
    # A second within 3 s is refused with the reason.
    member.locator("#menu-phrases > summary").click()
    member.locator('#phrase-list [data-phrase="thumbs"]').click()
    expect(member.locator("#toasts .toast")).to_contain_text("每 3 秒只能发一条快捷语")
    # The owner mutes them: the next one is not shown, and the choice is remembered.
    owner.locator("#menu-phrases > summary").click()
    owner.locator("#opt-mute-phrases").check()
    owner.locator("#menu-phrases > summary").click()
    member.wait_for_timeout(3100)
    member.locator("#menu-phrases > summary").click()
    member.locator('#phrase-list [data-phrase="party"]').click()
    expect(member.locator('#phrase-bubbles [data-phrase="party"]')).to_have_count(1)
    owner.wait_for_timeout(500)
    expect(owner.locator('#phrase-bubbles [data-phrase="party"]')).to_have_count(0)
    assert owner.evaluate("localStorage.getItem('mh-phrases-muted')") == "1"

    # 托管 plays both seats; the owner readies between hands until the match is over.
    for page in (owner, member):
        assert api(page, "POST", f"/api/rooms/{room_id}/auto/", {"auto": True})["status"] == 200
    ready_between_hands(owner, room_id, timeout=300)

    # The 大结算 comes up at every seat once the match is recorded.
    for page in (owner, member):
        dialog = page.locator("#summary")
        expect(dialog).to_be_visible(timeout=60_000)
        expect(page.locator("#summary-standings tbody tr")).to_have_count(4)
        expect(page.locator("#summary-hands tbody tr")).to_have_count(2)
    match_id = int(owner.locator("#summary").get_attribute("data-match"))
    assert owner.locator("#summary").get_attribute("data-ended-by") == "complete"
    match = api(owner, "GET", f"/api/matches/{match_id}/")["data"]
    shown = [
        int(t)
        for t in owner.locator("#summary-standings tbody td:nth-child(2)").all_text_contents()
    ]
    assert shown == [p["total"] for p in match["players"]]
    summary = api(owner, "GET", f"/api/matches/{match_id}/summary/")["data"]
    marks = owner.locator("#summary-standings [data-mark]").count()
    assert marks == sum(len(p["marks"]) for p in summary["players"])
    assert owner.evaluate(FITS) <= 0, "the 大结算 is wider than the phone"
    owner.screenshot(path=str(screenshots_dir / "summary-table-phone.png"))
    save_summary_image(owner, match_id)

    # A reload shows it again; its link leads to the match's record.
    member.reload()
    expect(member.locator("#summary")).to_be_visible(timeout=20_000)
    member.locator("#summary-record").click()
    member.wait_for_url(re.compile(rf"/records/matches/{match_id}/$"))

    # The club's 战绩 lists it, and the owner's CSV has a row per player.
    owner.goto(f"{base}/clubs/{club_id}/records/")
    expect(owner.locator(f'[data-match="{match_id}"]')).to_have_count(1)
    csv = owner.evaluate(
        "async (u) => (await fetch(u)).text()", owner.locator("#csv-link").get_attribute("href")
    )
    rows = [r for r in csv.strip().splitlines()[1:] if r.startswith(f"{match_id},")]
    assert len(rows) == 4

    # 本桌规则 from the table's help: the preset's changes are marked.
    owner.goto(f"{base}/rooms/{room_id}/")
    owner.locator("#summary-close").click()
    # The last hand's result stays open beneath the 大结算.
    expect(owner.locator("#result")).to_be_visible()
    owner.locator("#btn-result-close").click()
    owner.locator("#menu-help > summary").click()
    owner.locator("#link-table-rules").click()
    owner.wait_for_url(re.compile(rf"/rules/sichuan/\?room={room_id}$"))
    expect(owner.locator("#option-mode .differs-mark")).to_have_attribute("data-source", "preset")
    expect(owner.locator("#option-fan_cap .differs-mark")).to_have_attribute(
        "data-source", "preset"
    )
    assert not owner.errors and not member.errors, owner.errors + member.errors
    for context in contexts:
        context.close()


def test_a_dissolve_vote_ends_the_match(browser, live_server_url, screenshots_dir):
    base = live_server_url
    contexts, owner, member, club_id, room_id = club_table(browser, base, "quit", hands=8)

    # Another member watches, in English: a spectator sees the vote, without a say in it.
    watch_context = browser.new_context(viewport=PHONE, locale="en-US", accept_downloads=True)
    watcher = watch_context.new_page()
    sign_up(watcher, base, "quitw")
    club = api(owner, "GET", f"/api/clubs/{club_id}/")["data"]
    assert api(watcher, "POST", "/api/clubs/join/", {"invite_code": club["invite_code"]})[
        "status"
    ] in (200, 201)
    watcher.goto(f"{base}/rooms/{room_id}/")
    expect(watcher.locator("#conn")).to_have_attribute("data-status", "connected")
    expect(watcher.locator("#btn-dissolve")).to_be_hidden()

    expect(owner.locator("#btn-dissolve")).to_be_visible()
    assert owner.evaluate(FITS) <= 0, "the table's tools are wider than the phone"
    owner.screenshot(path=str(screenshots_dir / "table-tools-phone.png"))
    owner.locator("#btn-dissolve").click()  # confirmed by the dialog handler
    panel = member.locator("#vote-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("申请解散房间")
    expect(panel.locator(".vote-agree")).to_have_count(1)  # the proposer
    expect(panel.locator(".vote-none")).to_have_count(1)
    assert member.evaluate(FITS) <= 0, "the vote panel is wider than the phone"
    member.screenshot(path=str(screenshots_dir / "dissolve-vote-phone.png"))
    expect(watcher.locator("#vote-panel")).to_contain_text("asks to end the match")
    expect(watcher.locator("#vote-panel button")).to_have_count(0)
    panel.locator('button[data-answer="agree"]').click()
    # Passed: the hand in play is finished (托管 plays it), then the 大结算.
    expect(owner.locator('#vote-panel[data-status="passed"]')).to_be_visible()
    expect(owner.locator("#vote-panel .vote-agree")).to_have_count(2)
    for page in (owner, member):
        assert api(page, "POST", f"/api/rooms/{room_id}/auto/", {"auto": True})["status"] == 200
    for page in (owner, member):
        expect(page.locator("#summary")).to_be_visible(timeout=120_000)
        expect(page.locator("#summary-hands tbody tr")).to_have_count(1)
        assert page.locator("#summary").get_attribute("data-ended-by") == "dissolved"
    expect(watcher.locator("#summary-title h2")).to_have_text("Match summary", timeout=20_000)
    expect(watcher.locator("#summary")).to_contain_text("dissolved")
    assert watcher.evaluate(FITS) <= 0, "the 大结算 is wider than the phone"
    match_id = int(member.locator("#summary").get_attribute("data-match"))
    save_summary_image(member, match_id)
    matches = api(member, "GET", f"/api/clubs/{club_id}/matches/")["data"]["results"]
    assert [(m["id"], m["ended_by"]) for m in matches] == [(match_id, "dissolved")]
    # A vote after the match ended is refused.
    late = api(member, "POST", f"/api/rooms/{room_id}/dissolve/")
    assert late["status"] == 409 and late["data"]["code"] == "game_over"
    assert not owner.errors and not member.errors, owner.errors + member.errors
    for context in contexts:
        context.close()
    watch_context.close()
