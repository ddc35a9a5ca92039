"""Ranked play end to end: four players in four browser contexts queue for each
variant's ranked play, are seated at one table (a second tab of one of them opens it
too), hand their seats to 托管 and play the (one-hand) match to its end, then see their
段位 points change by the rule on the table's plates, the profile and the season board;
a fifth from the same address as one of them is never seated with them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.rules import available
from tests.browser.fixtures import site
from tests.browser.test_table import api, sign_up

# Newcomers (新人: fourth costs nothing): first +60, second +20, third and fourth 0.
NEWCOMER_POINTS = [0, 0, 20, 60]
MATCH_OVER = (
    "() => window.__table && window.__table.room && window.__table.room.status === 'finished'"
)


@pytest.fixture(scope="module")
def ranked_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ranked")
    # One-hand matches; the client's address comes from X-Forwarded-For (one proxy of
    # ours), so each context can be a different address.
    with site(
        tmp,
        "ranked",
        RANKED_HANDS="1",
        DJANGO_TRUSTED_PROXY_COUNT="1",
        GAME_NEXT_HAND_SECONDS="600",
    ) as server:
        yield f"http://127.0.0.1:{server.port}"


def player(browser, base, name, address):
    context = browser.new_context(locale="zh-CN", extra_http_headers={"X-Forwarded-For": address})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
    sign_up(page, base, name)
    return context, page


def queue(page, base, variant):
    page.goto(f"{base}/play/")
    joined = re.compile(r"/api/ranked/queue/$")
    # A loaded test run's server may take a while: the budget is generous, the check strict.
    posted = lambda r: joined.search(r.url) and r.request.method == "POST"  # noqa: E731
    with page.expect_response(posted, timeout=90_000) as r:
        page.locator(f"#ranked-variant-{variant} .queue-join").click()
    assert r.value.status == 201, r.value.text()


def plate_points(page) -> list[int]:
    texts = page.locator(".plate .tag-rank").all_inner_texts()
    return sorted(int(t.rsplit("·", 1)[1]) for t in texts)


# Four one-hand matches played by 托管 (each variant's), on a shared two-core machine.
@pytest.mark.timeout(900)
def test_four_queue_play_by_auto_and_see_their_points(browser, ranked_server):
    base = ranked_server
    players = [player(browser, base, f"rk{i}", f"198.51.100.{i + 1}") for i in range(4)]
    # The fifth comes from the first one's address.
    fifth_context, fifth = player(browser, base, "rk5", "198.51.100.1")
    pages = [p for _, p in players]
    variants = [v.key for v in available()]
    for n, variant in enumerate(variants):
        # A second tab of the first player's, open at the play page before they queue
        # from the other: the page's socket tells it of the queueing and of the seat.
        tabs = [players[0][0].new_page()] if n == 0 else []
        for tab in tabs:
            tab.goto(f"{base}/play/")
            expect(tab.locator("#queue-controls")).to_be_hidden()
        queue(pages[0], base, variant)
        for tab in tabs:
            expect(tab.locator("#queue-controls")).to_be_visible(timeout=20_000)
        if n == 0:
            queue(fifth, base, variant)
        for page in pages[1:]:
            queue(page, base, variant)
        for page in [*pages, *tabs]:  # every tab of theirs opens the table
            page.wait_for_url(re.compile(r"/rooms/\d+/$"), timeout=90_000)
        room_ids = {page.url.rstrip("/").rsplit("/", 1)[1] for page in [*pages, *tabs]}
        assert len(room_ids) == 1, room_ids
        for tab in tabs:
            tab.close()
        if n == 0:
            waiting = api(fifth, "GET", "/api/ranked/queue/", None)
            assert waiting["status"] == 200 and waiting["data"]["room"] is None, waiting
            fifth.locator("#queue-leave").click()  # DELETE: 204
            expect(fifth.locator("#queue-leave")).to_be_hidden()
            assert api(fifth, "GET", "/api/ranked/queue/", None)["status"] == 404
        # The plates show each player's 段位 before the match.
        expect(pages[0].locator(".plate .tag-rank")).to_have_count(4, timeout=20_000)
        assert plate_points(pages[0]) == [0, 0, 0, 0]
        for page in pages:
            page.locator("#btn-ready").click()
        for page in pages:
            expect(page.locator("#btn-auto")).to_be_visible(timeout=20_000)
            page.locator("#btn-auto").click()
        for page in pages:  # the match's end: its summary (大结算) opens
            expect(page.locator("#summary-standings tbody tr")).to_have_count(4, timeout=180_000)
        # The match's end moves each 段位 by placement: newcomers gain 60, 20, 0, 0.
        pages[0].wait_for_function(
            "() => [...document.querySelectorAll('.plate .tag-rank')]"
            ".some(t => t.textContent.endsWith('· 60'))",
            timeout=30_000,
        )
        assert plate_points(pages[0]) == NEWCOMER_POINTS
        shown = []
        for page in pages:
            page.goto(f"{base}/accounts/profile/")
            row = page.locator(f"#ranked-{variant}")
            expect(row.locator(".ranked-tier")).to_have_text("新人 1")
            shown.append(int(row.locator(".ranked-points").inner_text().split("/")[0]))
            expect(row.locator("svg.ranked-chart polyline")).to_have_count(1)
        assert sorted(shown) == NEWCOMER_POINTS
        pages[0].goto(f"{base}/play/{variant}/board/")
        board = pages[0].locator("#ranked-board tbody tr")
        expect(board).to_have_count(4)
        assert (
            sorted(
                int(t) for t in pages[0].locator("#ranked-board .ranked-points").all_inner_texts()
            )
            == NEWCOMER_POINTS
        )
        body = api(pages[0], "GET", f"/api/ranked/{variant}/board/", None)["data"]
        assert [p["points"] for p in body["players"]] == sorted(NEWCOMER_POINTS, reverse=True)
        assert "rk5" not in {p["display_name"] for p in body["players"]}
    for page in [*pages, fifth]:
        assert page.errors == [], page.errors
    for context, _ in [*players, (fifth_context, fifth)]:
        context.close()
