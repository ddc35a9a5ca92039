"""Every page read in Chinese holds no English left over.

Two checks: the catalogue has a Chinese text for every message, and each page rendered in
zh-hans shows no run of English words (text, tooltips, placeholders and the strings the
page hands its JavaScript), whatever their origin: a message never marked for translation
is caught as well as one never translated.  Bilingual data (``{"zh-hans": …, "en": …}``)
is skipped: the page picks the reader's half.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Hand
from games.table import services
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
# Two or more English words in a row ("Win rate", "Rating is a cautious …").
ENGLISH = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,'’-]+[A-Za-z][a-z]+)+\b")
ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}


def catalogue() -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) for every live entry of the Chinese catalogue."""
    out = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        parts: dict[str, str] = {}
        key = None
        for line in lines:
            m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line)
            if m:
                key = m.group(1)
                parts[key] = json.loads(m.group(2))
            elif line.startswith('"') and key:
                parts[key] += json.loads(line)
        if parts.get("msgid"):
            msgstr = parts.get("msgstr", parts.get("msgstr[0]", ""))
            out.append((parts["msgid"], msgstr, fuzzy))
    return out


class Texts(HTMLParser):
    """What a reader sees: text outside scripts, a few attributes, and JSON handed to scripts."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self.script: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.texts += [v for k, v in attrs.items() if k in ATTRIBUTES and v]
        if tag in ("script", "style"):
            self.script = "json" if attrs.get("type") == "application/json" else "code"

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.script = None

    def handle_data(self, data):
        if self.script == "json":
            self.texts += list(_json_strings(json.loads(data)))
        elif self.script is None and data.strip():
            self.texts.append(data.strip())


def _json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "en":  # the English half of bilingual data
                yield from _json_strings(v)


def english_in(html: str, allowed: set[str]) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return [
        run
        for text in parser.texts
        for run in ENGLISH.findall(text)
        if run not in allowed and not any(run in a for a in allowed)
    ]


def test_every_message_has_chinese():
    entries = catalogue()
    assert len(entries) > 250
    missing = [msgid for msgid, msgstr, fuzzy in entries if not msgstr or fuzzy]
    assert missing == []


@pytest.fixture
def pages(client, django_user_model, password):
    """Every page of the site, for a signed-in player with a rated hand behind them."""
    lin = django_user_model.objects.create_user(
        username="lin", email="lin@example.com", password=password
    )
    mei = django_user_model.objects.create_user(username="mei", password=password)
    room = services.room_create(owner=lin, variant="sichuan", bots=3)
    other = services.room_create(owner=mei, variant="sichuan", private=True)
    hand = Hand.objects.create(
        room=room,
        number=1,
        variant="sichuan",
        rules={},
        server_seed="",
        commitment="",
        players=[s.user_id for s in room.seats.order_by("index")],
        state={},
        status=Hand.Status.ENDED,
        result={"deltas": [6, -2, -2, -2], "winners": [0]},
    )
    ratings_update_for_hand(hand.pk)
    public = [
        reverse("home"),
        reverse("lobby"),
        reverse("leaderboards"),
        reverse("leaderboard", args=["sichuan"]),
        reverse("leaderboard", args=["ningbo"]),
        reverse("account_login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
    ]
    signed_in = [
        reverse("home"),
        reverse("lobby"),
        reverse("leaderboards"),
        reverse("leaderboard", args=["sichuan"]),
        reverse("profile"),
        reverse("room", args=[room.pk]),
        reverse("room", args=[other.pk]),  # a private table: the join-code page
        reverse("account_change_password"),
        reverse("account_email"),
    ]
    return client, lin, public, signed_in


def render_all(client, lin, public, signed_in, language):
    client.cookies["django_language"] = language
    out = {}
    for url in public:
        out[f"{url} (visitor)"] = client.get(url)
    client.force_login(lin)
    lin.language = language
    lin.save(update_fields=["language"])
    for url in signed_in:
        out[url] = client.get(url)
    client.logout()
    return out


def test_pages_in_chinese_hold_no_english(pages):
    client, lin, public, signed_in = pages
    # Names people chose and the brand's letters are not messages.
    allowed = {"lin", "mei"}
    found = {}
    for url, response in render_all(client, lin, public, signed_in, "zh-hans").items():
        assert response.status_code in (200, 403), (url, response.status_code)
        runs = english_in(response.content.decode(), allowed)
        if runs:
            found[url] = runs
    assert found == {}


def test_the_english_pages_are_english(pages):
    """The check has teeth: the same pages in English are full of English runs."""
    client, lin, public, signed_in = pages
    responses = render_all(client, lin, public, signed_in, "en")
    assert all(english_in(r.content.decode(), set()) for r in responses.values())
