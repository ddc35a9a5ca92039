"""What players go through in Chromium, in Chinese and English, on a desktop (1280×800) and
a phone (390×844): the readers, the check that every page is in its reader's language (no
English phrase on a Chinese page, no Chinese-only label on an English one, tile faces
aside) and fits its screen, and the player's path: a variant card's Play, quick play asking
which variant (and remembering it) and dealing at once, a hand to its result, the replay,
the profile, the board and the fairness page.  Its tests are in test_players_desktop.py and
test_players_phone.py, one file a screen, so that parallel runs share the hands out."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from urllib.error import HTTPError

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.rules import (
    DealSeeds,
    HandState,
    commitment,
    default_client_seed,
    legal_actions,
    new_hand,
    new_match,
)
from tests.deals import lay_out

HERE = Path(__file__).parent
PASSWORD = "green-felt-8trs"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
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
    page.wait_for_url(re.compile(r"/rooms/\d+/$"), wait_until="commit", timeout=90_000)
    expect(page.locator("#room-variant")).to_contain_text("广州" if lang == "zh" else "Guangzhou")
    # One click dealt the hand: no Ready dialog (the deal's commitment is in the Hands menu,
    # with the checks of the hands dealt).
    expect(page.locator("#my-hand .tile.face").first).to_be_visible()
    expect(page.locator("#prestart")).to_be_hidden()
    check_page(page, lang, faults)
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
    assert len(page.locator("#vf-commitment").text_content().strip()) == 64  # the fairness panel
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


# What every browser test does: sign up, call the API as the page would, deal a chosen hand,
# and play the seat from the page.


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form.signup button[type=submit], form#signup_form button[type=submit]").or_(
        page.locator("main form button[type=submit]")
    ).first.click()
    page.wait_for_load_state()
    assert "/accounts/signup/" not in page.url, page.content()[:2000]


def api(page: Page, method: str, url: str, body=None):
    """Call the REST API from inside the page (session cookie + CSRF header)."""
    return page.evaluate(
        """async ([method, url, body]) => {
            const token = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
            const res = await fetch(url, {method, credentials: "same-origin",
              headers: {"Content-Type": "application/json", "X-CSRFToken": token},
              body: body === null ? undefined : JSON.stringify(body)});
            return {status: res.status, data: await res.json()};
        }""",
        [method, url, body],
    )


def hook(base: str, room_id: int, name: str, body: dict) -> dict:
    """Call a chosen-deal hook of the test server (``tests.deals``); its answer: the hand."""
    request = urllib.request.Request(
        f"{base}/test/rooms/{room_id}/{name}/",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def deal(base: str, room_id: int, server_seed: str, client_seeds=None) -> dict:
    """Ready every human seat with these seeds: the room's next hand is their deal."""
    body = {"server_seed": server_seed}
    if client_seeds:
        body["client_seeds"] = list(client_seeds)
    return hook(base, room_id, "deal", body)


def rig(base: str, room_id: int, hands: dict, *, front: str = "", drawn=None) -> dict:
    """Lay out ``hands`` ({seat: tiles}) and the wall's next draws in the hand in play."""
    body = {"hands": {str(k): v for k, v in hands.items()}, "front": front}
    if drawn:
        body["drawn"] = drawn
    return hook(base, room_id, "rig", body)


def room_of(page: Page) -> int:
    return int(re.search(r"/rooms/(\d+)/", page.url).group(1))


class Frames:
    """What the server sent the page over its table socket (the newest ``room``,
    ``state`` and ``hand_end``), read from the network as the browser's tools show it:
    the page itself offers no test hook.  Attach before the page opens the table."""

    def __init__(self, page: Page):
        self.page = page
        self.room = self.state = self.hand_end = None
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def wait(self, kind: str, timeout: float = 15) -> dict:
        """The newest frame of ``kind`` (``room``, ``state``, ``hand_end``), once one came."""
        end = time.monotonic() + timeout
        while getattr(self, kind) is None:
            assert time.monotonic() < end, f"no {kind} frame came in {timeout} s"
            self.page.wait_for_timeout(50)
        return getattr(self, kind)

    def _frame(self, payload) -> None:
        msg = json.loads(payload)
        if msg.get("t") == "room":
            self.room = msg["d"]
        elif msg.get("t") == "state":
            self.state = msg["d"]
        elif msg.get("t") == "hand_end":
            self.hand_end = msg["d"]


def shown(page: Page) -> str:
    """What the table shows, for a failure's message."""
    return page.evaluate(
        """() => JSON.stringify({
            phase: document.querySelector('#table')?.dataset.phase,
            prompt: document.querySelector('#prompt')?.textContent.trim().slice(0, 120),
            actions: [...document.querySelectorAll('#actions button')]
              .map(b => b.dataset.type || b.textContent.trim()),
            discards: document.querySelectorAll('#my-hand .tile[data-legal="discard"]').length,
            result: Boolean(document.querySelector('#result[open]')),
            toasts: [...document.querySelectorAll('.toast')].map(t => t.textContent.trim()),
        })"""
    )


def take(locator) -> None:
    """Click an offered button or tile.  An offer that went away before the click (the
    claim window closed, the table redrew) is no fault: the caller reads the table again.
    One still there that cannot be clicked is, and fails the test."""
    try:
        locator.click(timeout=3000)
    except PlaywrightTimeout:
        if locator.count():
            raise


def play_step(page: Page, *, chow: bool = False) -> str | None:
    """Take one offered action from the page: 胡, else the first setup choice, else a chow
    when ``chow``, else pass a claim, else discard (the last plain tile: wilds are kept).
    Returns what it took, None when nothing is offered."""
    kinds = ["hu", "ding_que", "lucky_suit", *(["chi"] if chow else []), "pass"]
    for kind in kinds:
        button = page.locator(f'#actions button[data-type="{kind}"]').first
        if button.count():
            take(button)
            return kind
    tiles = page.locator('#my-hand .tile[data-legal="discard"]')
    if tiles.count():
        plain = page.locator('#my-hand .tile[data-legal="discard"]:not(.wild)')
        take((plain if plain.count() else tiles).last)
        take(page.locator("#my-hand .tile.selected"))
        return "discard"
    return None


def autoplay(page: Page, until, *, timeout: float = 30, chow: bool = False, took=None) -> None:
    """Play the seat from the page until ``until()`` holds; fail, saying what the table
    showed, if it does not within ``timeout`` seconds.  ``took(kind)`` hears each action."""
    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise AssertionError(f"not reached in {timeout} s; the table shows {shown(page)}")
        kind = play_step(page, chow=chow)
        if kind is None:
            page.wait_for_timeout(50)
        elif took:
            took(kind)


def seeds_for(variant: str, rules: dict, hands: int, want) -> tuple[str, HandState]:
    """A server seed whose first deal (the seats' default client seeds, as ``deal`` sends
    none) ``want(state)`` accepts, found by dealing it with the engine as the server will;
    and that deal."""
    match = replace(new_match(variant, rules, hands), private_claims=True)
    for n in range(1, 2000):
        server = f"{n:064x}"
        committed = commitment(server)
        seeds = DealSeeds(server, tuple(default_client_seed(committed, k) for k in range(4)), 1)
        state = new_hand(variant, rules, seeds, match=match)
        if want(state):
            return server, state
    raise AssertionError("no deal in 2000 seeds is the one wanted")


def table_room(page: Page, base: str, variant: str, **options) -> dict:
    """A private room with three bots (no timers unless ``options`` say), opened at the
    page; the room as the API answers it."""
    body = {"variant": variant, "bots": 3, "hands": 1, "private": True}
    body |= {"discard_seconds": None, "claim_seconds": None, **options}
    created = api(page, "POST", "/api/rooms/", body)
    assert created["status"] == 201, created
    page.goto(f"{base}/rooms/{created['data']['id']}/")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    return created["data"]


def deal_where(page: Page, base: str, room: dict, want=lambda s: s.dealer == 0) -> HandState:
    """Deal the room's first hand from a seed whose deal ``want`` accepts (by default: we,
    seat 0, are the dealer); the deal."""
    server, state = seeds_for(room["variant"], room["rules"], room["hands_total"], want)
    dealt = deal(base, room["id"], server)
    assert dealt["state"]["hands"] == state.to_json()["hands"], "the server dealt another hand"
    return state


def rig_accepts(state: HandState, hands: dict, drawn: str, action: str) -> bool:
    """Whether laying out ``hands`` at the turn of ``state`` (as ``rig`` would) offers the
    seat whose turn it is ``action``: a test checks its rig with the engine first."""
    try:
        out = HandState.from_json(lay_out(state.to_json(), hands, drawn=drawn))
    except ValueError:
        return False
    return any(a["type"] == action for a in legal_actions(out, state.turn))


def win_at_once(page: Page, base: str, room: dict, hand: str, drawn: str, want=None) -> None:
    """Deal the room's first hand with us (seat 0) as the dealer, on a deal ``want``
    accepts, and lay out ``hand`` at our first turn (``drawn`` the tile just drawn): a
    self-drawn win, taken from the page's 胡 button."""

    def good(s: HandState) -> bool:
        wins = s.dealer == 0 and s.phase == "play" and rig_accepts(s, {0: hand}, drawn, "hu")
        return wins and (want is None or want(s))

    deal_where(page, base, room, good)
    rig(base, room["id"], {0: hand}, drawn=drawn)
    page.reload()
    hu = page.locator('#actions button[data-type="hu"]')
    expect(hu).to_be_visible(timeout=15000)
    hu.click()


# Self-drawn wins with no 条 (our 定缺), tried in turn: the first whose tiles are all still
# hidden is laid out.
WINS = [
    {"hand": "123456789m55567p", "drawn": "5p"},
    {"hand": "123456789p55567m", "drawn": "5m"},
    {"hand": "123456789m22234p", "drawn": "2p"},
    {"hand": "123456789p22234m", "drawn": "2m"},
]


def rig_first(base: str, room_id: int, seat: int, choices: list[dict]) -> dict:
    """Lay out for ``seat``, whose turn it is, the first of ``choices`` whose tiles are all
    still hidden (the hook refuses the others); that choice."""
    for choice in choices:
        try:
            rig(base, room_id, {seat: choice["hand"]}, drawn=choice["drawn"])
        except HTTPError as e:
            assert e.code == 400, e
            continue
        return choice
    raise AssertionError("none of the hands could be laid out")
