"""A player plays a hand against bots, opens its replay, asks for the review (复盘)
and reads it: each decision beside the Strong bot's, linked to the replay's step."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.players import DESKTOP, Frames, api, autoplay, deal_where, sign_up


def play_a_hand_by_hand(page, base: str) -> dict:
    """A private timer-less Hangzhou room with three bots, dealt from a chosen seed, the
    player's seat played from the page (every claim passed, the last tile discarded) to the
    end; hand_end's payload as the socket brought it."""
    frames = Frames(page)
    r = api(
        page,
        "POST",
        "/api/rooms/",
        {
            "variant": "hangzhou",
            "bots": 3,
            "hands": 2,
            "private": True,
            "discard_seconds": None,
            "claim_seconds": None,
        },
    )
    assert r["status"] == 201, r
    page.goto(f"{base}/rooms/{r['data']['id']}/")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    deal_where(page, base, api(page, "GET", f"/api/rooms/{r['data']['id']}/")["data"])
    result = page.locator("#result[open]")
    autoplay(page, lambda: result.count() > 0, timeout=120)
    return frames.wait("hand_end")


NUMERALS = "一二三四五六七八九"
SUITS = {"m": "万", "p": "筒", "s": "条"}
HONOURS = "东南西北白发中"


def in_words(phrase: str) -> str:
    """A reason as the page shows it in Chinese: tile codes (9p) named (九筒)."""

    def name(m: re.Match) -> str:
        n, suit = int(m.group(1)[0]), m.group(1)[1]
        return HONOURS[n - 1] if suit == "z" else NUMERALS[n - 1] + SUITS[suit]

    return re.sub(r"(?<![0-9A-Za-z])([1-9][mps]|[1-7]z)(?![0-9A-Za-z])", name, phrase)


def test_a_player_asks_for_the_review_of_a_hand_and_sees_it(
    browser, live_server_url, screenshots_dir
):
    base = live_server_url
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, base, "reviewer")
    end = play_a_hand_by_hand(page, base)
    hand_url = f"/hands/{end['hand_id']}/"
    page.goto(f"{base}{hand_url}")
    expect(page.locator("#rp-board")).to_have_attribute("data-step", re.compile(r"\d+"))
    expect(page.locator("#review-title")).to_have_text("复盘")
    ask = page.locator("#review-ask")
    expect(ask).to_have_text("复盘我的打法")

    ask.click()
    mine = page.locator('#review-list .review-result[data-seat="0"]')
    expect(mine).to_be_visible(timeout=30_000)
    expect(page.locator("#review-status")).to_have_attribute("data-state", "done")
    expect(ask).to_be_hidden()
    stored = api(page, "GET", f"/api/hands/{end['hand_id']}/reviews/0/")
    assert stored["status"] == 200 and stored["data"]["status"] == "done", stored
    entries = stored["data"]["entries"]
    assert entries, "our seat had choices to make"
    moments = mine.locator(".review-moment")
    expect(moments).to_have_count(len(entries))
    expect(mine.locator("h3")).to_contain_text("第1局")
    same = sum(e["same"] for e in entries)
    expect(mine.locator(".review-agreed")).to_have_text(
        f"{len(entries)}次选择中有{same}次与高手相同。"
    )
    # Each moment: the move made (and the Strong bot's where it differs) and one phrase.
    first = moments.first
    expect(first.locator(".review-played")).to_contain_text("你：")
    expect(first.locator(".review-reason")).to_have_text(in_words(entries[0]["reason"]["zh-hans"]))
    differ = [e for e in entries if not e["same"]]
    # Passing every claim and throwing the last tile is not how the Strong bot plays.
    assert differ, entries
    expect(mine.locator(".review-strong")).to_have_count(len(differ))
    shown = mine.locator(f'.review-moment[data-seq="{differ[0]["seq"]}"]')
    expect(shown.locator(".review-strong")).to_contain_text("高手：")
    expect(shown.locator(".review-reason")).to_have_text(in_words(differ[0]["reason"]["zh-hans"]))
    page.screenshot(path=str(screenshots_dir / "hand-review-1280x800.png"), full_page=True)

    # A moment's link steps the replay to the position the decision was made from.
    last = entries[-1]
    moments.last.locator("a.review-step").click()
    expect(page.locator("#rp-board")).to_have_attribute("data-step", str(last["seq"] - 1))
    step = f"第 {last['seq'] - 1} 步"
    expect(page.locator("#rp-step")).to_contain_text(step)
    expect(moments.last.locator("a.review-step")).to_have_text(step)

    # Only where the Strong bot differs.
    mine.locator(".review-filter input").check()
    expect(mine.locator(".review-moment:visible")).to_have_count(len(differ))

    # The review is stored: the page shows it again without asking.
    page.goto(f"{base}{hand_url}")
    expect(page.locator('#review-list .review-result[data-seat="0"] .review-moment')).to_have_count(
        len(entries)
    )
    expect(page.locator("#review-ask")).to_be_hidden()
    assert not errors, errors
    context.close()
