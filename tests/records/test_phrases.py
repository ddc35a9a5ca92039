"""Quick phrases (快捷语/表情) over REST and the table socket: the fixed set, one per
3 s per player (counted in the shared cache), spectators and outsiders refused, and
everyone at the table told; and a dissolve vote proposed over the socket."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache

from games.table.phrases import EMOJI, PHRASES, phrase_list
from tests.games.test_consumers import connect, cookie_for, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def say(client, room, phrase):
    return client.post(f"/api/rooms/{room.pk}/phrases/", {"phrase": phrase}, format="json")


def test_a_player_says_one_phrase_every_3_seconds(table, people, client_for):
    member = client_for(people["member"])
    r = say(member, table, "nice")
    assert r.status_code == 202, r.json()
    assert r.json() == {"seat": 0, "user_id": people["member"].pk, "phrase": "nice"}
    r = say(member, table, "thumbs")
    assert r.status_code == 429 and r.json()["code"] == "phrase_too_soon"
    assert "3 seconds" in r.json()["detail"]
    # Another player has their own count; the member's ends with its window.
    assert say(client_for(people["owner"]), table, "thumbs").status_code == 202
    cache.delete(f"phrase:{people['member'].pk}")  # as the 3 s expiry does
    assert say(member, table, "thumbs").status_code == 202


@pytest.mark.parametrize(
    ("who", "phrase", "status", "code"),
    [
        ("outsider", "nice", 404, "no_room"),  # not a member of the club
        ("manager", "nice", 403, "spectator"),  # a member watching, not a player
        ("anonymous", "nice", 403, "not_authenticated"),
        ("member", "anything I like", 400, "bad_phrase"),  # no free text
        ("member", "", 400, "bad_request"),
    ],
)
def test_phrase_refusals(table, people, client_for, who, phrase, status, code):
    r = say(client_for(people[who]), table, phrase)
    assert r.status_code == status, r.content
    assert r.json()["code"] == code
    if who == "member":  # a refused phrase does not use up the player's 3 s
        assert say(client_for(people["member"]), table, "nice").status_code == 202


def test_the_set_is_fixed_and_read_in_each_language():
    from django.utils import translation

    ids = [p["id"] for p in phrase_list()]
    assert ids == [*PHRASES, *EMOJI]
    with translation.override("zh-hans"):
        zh = {p["id"]: p["text"] for p in phrase_list()}
    with translation.override("en"):
        en = {p["id"]: p["text"] for p in phrase_list()}
    assert en["hurry"] == "Hurry up, the flowers are wilting!"
    assert zh["hurry"] != en["hurry"] and zh["thumbs"] == en["thumbs"] == "👍"


def test_over_the_socket_the_table_hears_it_and_a_flood_is_refused(table, people):
    member_cookie, manager_cookie = cookie_for(people["member"]), cookie_for(people["manager"])

    async def run():
        player, watcher = connect(table, member_cookie), connect(table, manager_cookie)
        assert (await player.connect())[0] and (await watcher.connect())[0]
        await receive_until(player, "room")
        await receive_until(watcher, "room")
        await player.send_json_to({"t": "phrase", "phrase": "hurry"})
        heard = await receive_until(watcher, "phrase")
        assert heard["d"] == {"seat": 0, "user_id": people["member"].pk, "phrase": "hurry"}
        assert (await receive_until(player, "phrase"))["d"]["phrase"] == "hurry"
        await player.send_json_to({"t": "phrase", "phrase": "laugh"})
        refused = await receive_until(player, "error")
        assert refused["d"]["code"] == "phrase_too_soon"
        await watcher.send_json_to({"t": "phrase", "phrase": "nice"})
        assert (await receive_until(watcher, "error"))["d"]["code"] == "spectator"
        await watcher.send_json_to({"t": "dissolve"})
        assert (await receive_until(watcher, "error"))["d"]["code"] == "not_seated"
        # The player proposes ending the match: every socket gets the room with the vote.
        await player.send_json_to({"t": "dissolve"})
        room = await receive_until(watcher, "room")
        assert room["d"]["vote"]["status"] == "open"
        assert room["d"]["vote"]["proposer_id"] == people["member"].pk
        await player.send_json_to({"t": "dissolve_answer", "agree": "maybe"})
        assert (await receive_until(player, "error"))["d"]["code"] == "bad_message"
        await player.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
