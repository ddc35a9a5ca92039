"""A room's bots' level: chosen when the room is made, shown with the room, and the level
its bot players decide at; a seat on 托管 plays at the strong level whatever the room says."""

from __future__ import annotations

import json
import re

import pytest

from games.models import Hand, HandAction, Room, Seat
from games.rules import apply, new_hand
from games.rules.bots import choose_action
from games.table.selectors import deal_inputs
from tests.games.conftest import sweep
from tests.games.test_api import logged_in

pytestmark = pytest.mark.django_db

OTHER = {"basic": "strong", "strong": "basic"}


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_a_room_is_made_at_the_level_asked_and_says_so(make_user, level):
    api = logged_in(make_user("ann"))
    r = api.post(
        "/api/rooms/", {"variant": "sichuan", "bots": 3, "bot_level": level}, format="json"
    )
    assert r.status_code == 201, r.content
    assert r.json()["bot_level"] == level
    assert Room.objects.get(pk=r.json()["id"]).bot_level == level
    listed = {x["id"]: x for x in api.get("/api/rooms/").json()}
    assert listed[r.json()["id"]]["bot_level"] == level


def test_the_level_defaults_to_strong(make_user):
    api = logged_in(make_user("ann"))
    r = api.post("/api/rooms/", {"variant": "sichuan", "bots": 1}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["bot_level"] == "strong"


@pytest.mark.parametrize("bad", ["expert", "", None, 1, ["basic"]])
def test_an_unknown_level_is_refused_and_makes_no_room(make_user, bad):
    api = logged_in(make_user("ann"))
    r = api.post("/api/rooms/", {"variant": "sichuan", "bot_level": bad}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "bad_bot_level"
    assert "basic" in r.json()["detail"] and "strong" in r.json()["detail"]
    assert not Room.objects.exists()


def _decisions(hand: Hand):
    """Each logged action with the state it was taken in, rebuilt from the log."""
    seeds, dealer, match = deal_inputs(hand)
    state = new_hand(hand.variant, hand.rules, seeds, dealer, match)
    for seat, action, source in (
        HandAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action", "source")
    ):
        yield state, seat, action, source
        state = apply(state, seat, action)[0]


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_play_at_the_rooms_level_and_tuoguan_at_strong(make_user, level):
    from games.table import services

    owner = make_user("ann")
    room = services.room_create(owner=owner, variant="sichuan", bots=3, bot_level=level)
    # A fixed deal, so the hand is the same on every run.
    Room.objects.filter(pk=room.pk).update(next_server_seed="ab" * 32)
    Seat.objects.filter(room=room, index=0).update(auto=True)  # 托管, as the player chose
    services.room_ready(room_id=room.pk, user=owner)
    hand = Hand.objects.get(room=room)
    for _ in range(20):
        sweep()
        hand.refresh_from_db()
        if hand.status == Hand.Status.ENDED:
            break
    assert hand.status == Hand.Status.ENDED

    expected = {0: "strong", 1: level, 2: level, 3: level}
    telling = set()  # seats with a decision the other level would have taken otherwise
    for state, seat, action, source in _decisions(hand):
        if action == {"type": "close"}:  # the table closing a claim window nobody took
            assert source == "server"
            continue
        assert source == "bot"
        assert action == choose_action(state, seat, level=expected[seat]), (seat, action)
        if choose_action(state, seat, level=OTHER[expected[seat]]) != action:
            telling.add(seat)
    # The bots took decisions the other level would not have, and at a basic table so
    # did 托管: the checks above could tell a wrong level.
    assert telling & {1, 2, 3}
    assert level == "strong" or 0 in telling


@pytest.mark.parametrize(
    ("lang", "basic", "strong", "label"),
    [
        ("zh-hans", "入门", "高手", "机器人：%(level)s"),
        ("en", "Basic", "Strong", "Bots: %(level)s"),
    ],
)
def test_the_lobby_offers_the_levels_and_names_them_in_each_language(
    client, make_user, lang, basic, strong, label
):
    user = make_user("ann")
    user.language = lang  # a signed-in player is served in their account's language
    user.save(update_fields=["language"])
    client.force_login(user)
    page = client.get("/lobby/").content.decode()
    assert f'<option value="basic">{basic}</option>' in page
    assert f'<option value="strong" selected>{strong}</option>' in page
    # The names the room cards and the table header show the room's level with.
    strings = re.search(r'id="lobby-strings" type="application/json">(.*?)</script>', page)
    shown = json.loads(strings.group(1))
    assert shown["bot_levels"] == {"basic": basic, "strong": strong}
    assert shown["bot_level"] == label
