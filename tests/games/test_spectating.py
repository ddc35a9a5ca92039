"""Spectating (issue 14): what a spectator socket receives, live and late, and who counts as
watching.

A spectator must never get a concealed tile, a drawn tile or a claim option, nor the wall
or the server seed before the hand is over: every frame a spectator socket receives
through whole hands played with bots is scanned, for every variant.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync

from games import services
from games.models import Hand
from games.rules import available
from tests.games.test_consumers import connect, cookie_for, drain, play_hand, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

SECRET_KEYS = {"server_seed", "wall", "dead", "drawn", "my_pick", "win_refused", "code"}


def _keys(obj) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(obj, dict):
        out = set(obj)
        for v in obj.values():
            out |= _keys(v)
        return out
    if isinstance(obj, list):
        out = set()
        for v in obj:
            out |= _keys(v)
        return out
    return set()


def assert_spectator_frame(msg) -> None:
    """Nothing a spectator may not see: checked on every frame but a hand's result."""
    if msg["t"] == "hand_end":
        return  # the hand is over: every hand face up, the seed revealed
    d = msg["d"]
    if msg["t"] == "room":
        assert "code" not in d and "my_seat" not in d and "next_server_seed" not in d
        return
    if msg["t"] != "state":
        return
    assert d["seat"] is None
    assert d["legal"] == [], "a spectator was offered an action"
    assert d["hints"] is None and d["deadline"] is None
    if d["phase"] != "ended":
        leaked = _keys({k: v for k, v in d.items() if k != "events"}) & SECRET_KEYS
        assert not leaked, f"a spectator's state carries {leaked}"
        for p in d["players"]:
            if p["won"] is None:
                assert "hand" not in p, f"a spectator saw seat {p['seat']}'s concealed tiles"
            assert all(m["tiles"] is None for m in p["melds"] if m["concealed"])
            assert p.get("que") is None or all(q.get("que_chosen") for q in d["players"])
    for e in d["events"]:
        assert "private" not in e and "only" not in e
        assert isinstance(e.get("wall", 0), int)  # how many tiles are left, not which
        assert e["type"] not in ("ClaimAnswered", "WinRefused")  # one seat's own business
        if e["type"] == "TileDrawn":
            assert "tile" not in e
        if e["type"] in ("TilesChosen", "SuitChosen", "TilesExchanged"):
            assert not ({"tiles", "suit", "received"} & set(e))


def _whole_hand_watched(make_user, variant: str):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant=variant, bots=3, hands=1)
    ann_cookie, bob_cookie = cookie_for(ann), cookie_for(bob)
    seen: list[dict] = []

    async def run():
        player = connect(room, ann_cookie)
        await player.connect()
        watcher = connect(room, bob_cookie)
        assert (await watcher.connect())[0]
        await player.send_json_to({"t": "ready"})
        task = asyncio.ensure_future(play_hand(player, 0, []))
        await receive_until(watcher, "hand_end", seen=seen, timeout=120)
        await task
        # A resync mid-way and a late joiner get the same kind of view.
        await watcher.send_json_to({"t": "sync"})
        await receive_until(watcher, "state", seen=seen)
        seen.extend(await drain(watcher))
        await player.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
    return room, seen


@pytest.mark.parametrize("variant", [v.key for v in available()])
def test_every_frame_a_spectator_gets_through_a_whole_hand_hides_what_it_must(make_user, variant):
    room, seen = _whole_hand_watched(make_user, variant)
    hand = Hand.objects.get(room=room, number=1)
    states = [m for m in seen if m["t"] == "state"]
    assert len(states) > 20 and states[-1]["d"]["phase"] == "ended"
    for msg in seen:
        assert_spectator_frame(msg)
    # The server seed appears nowhere before the result is announced; the next hand's
    # seed appears nowhere at all.
    end_at = next(
        i
        for i, m in enumerate(seen)
        if m["t"] == "hand_end" or (m["t"] == "state" and m["d"]["phase"] == "ended")
    )
    before = json.dumps(seen[:end_at])
    assert hand.server_seed not in before
    room.refresh_from_db()
    assert room.next_server_seed not in json.dumps(seen)
    # Draws happened, and the spectator heard of them without the tile.
    drawn = [e for m in states for e in m["d"]["events"] if e["type"] == "TileDrawn"]
    assert drawn and all("tile" not in e for e in drawn)


def test_rest_room_endpoints_show_a_spectator_no_code_and_no_seat(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    client.force_login(bob)
    one = client.get(f"/api/rooms/{room.pk}/").json()
    listed = next(r for r in client.get("/api/rooms/").json() if r["id"] == room.pk)
    for payload in (one, listed):
        assert "code" not in payload and "my_seat" not in payload
        assert room.next_server_seed not in json.dumps(payload)
    # 托管 is for the seated only: a spectator gets a refusal, not a view.
    r = client.post(f"/api/rooms/{room.pk}/auto/", {"auto": True}, content_type="application/json")
    assert r.status_code in (403, 409) and r.json()["code"] == "not_seated"
    # The table page boots a spectator with no seat.
    page = client.get(f"/rooms/{room.pk}/")
    assert page.status_code == 200 and b'"seat": null' in page.content
