"""Provably fair deals at the table: commit before the deal, client seeds with
ready, reveal at the end; and the hand record the API serves for replays and checks."""

from __future__ import annotations

import hashlib
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.models import Hand, Room, Seat
from games.rules import DealSeeds, HandState, commitment, default_client_seed, new_hand
from games.table import services
from tests.games.test_api import logged_in
from tests.games.test_consumers import connect, cookie_for, drain, play_hand, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

ANN_SEED = "00112233445566778899aabbccddeeff"
BAD_SEEDS = [
    "",
    "00112233445566778899AABBCCDDEEFF",  # upper case
    "00112233445566778899aabbccddeef",  # 31 digits
    "00112233445566778899aabbccddeeff0",  # 33
    "00112233445566778899aabbccddeegg",  # not hex
    123,
    ["00112233445566778899aabbccddeeff"],
    {"seed": "x"},
    True,
]


def until_the_end(frames):
    """The frames before the hand was over (its ended state or hand_end)."""
    for i, m in enumerate(frames):
        if m["t"] == "hand_end" or (m["t"] == "state" and m["d"]["phase"] == "ended"):
            return frames[:i]
    raise AssertionError("the hand did not end")


async def receive_room_where(comm, test):
    """The first ``room`` message whose payload passes ``test``."""
    while True:
        msg = await receive_until(comm, "room")
        if test(msg["d"]):
            return msg


def scan_secret(frames, secrets: list[str]) -> None:
    """No frame shows a secret, and no frame before the end carries the wall."""
    for msg in frames:
        text = json.dumps(msg)
        for secret in secrets:
            assert secret not in text, f"{msg['t']} frame leaked {secret[:8]}…"
        if msg["t"] == "state":
            d = msg["d"]
            assert d["phase"] != "ended"
            assert "server_seed" not in d and "wall" not in d and "dead" not in d


def test_seats_know_the_commitment_and_client_seeds_before_the_deal_and_the_seed_after(
    make_user,
):
    """A public table: ann plays, ben watches.  The commitment both hear before the first
    deal is sha256 of the seed revealed in hand_end; ann's client seed is the one dealt
    with; nothing before the end shows the server seed or the wall."""
    ann, ben = make_user("ann"), make_user("ben")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    server_seed = Room.objects.get(pk=room.pk).next_server_seed
    ann_cookie, ben_cookie = cookie_for(ann), cookie_for(ben)

    async def run():
        player, watcher = connect(room, ann_cookie), connect(room, ben_cookie)
        assert (await player.connect())[0] and (await watcher.connect())[0]
        first = await player.receive_json_from()
        assert first["t"] == "room"
        promised = first["d"]["next_commitment"]
        assert promised == commitment(server_seed) and first["d"]["next_hand_number"] == 1
        assert [s["client_seed"] for s in first["d"]["seats"]] == [None] * 4
        # The watcher's snapshot comes once its socket has read the room (a wait, not a drain).
        seen_by_ben = [await watcher.receive_json_from(timeout=10)] + await drain(watcher)
        assert seen_by_ben[0]["d"]["next_commitment"] == promised
        await player.send_json_to({"t": "ready", "client_seed": ANN_SEED})
        seen = [first]
        end = await play_hand(player, 0, seen)
        before_end = until_the_end(seen)
        seen_by_ben += await drain(watcher)
        ben_before = until_the_end(seen_by_ben)
        settled = next((m for m in seen if m["t"] == "settled"), None) or await receive_until(
            player, "settled", seen=seen
        )
        await player.disconnect()
        await watcher.disconnect()
        return before_end, ben_before, end, settled, seen

    before_end, ben_before, end, settled, seen = async_to_sync(run)()
    d = end["d"]
    assert d["server_seed"] == server_seed
    assert hashlib.sha256(bytes.fromhex(d["server_seed"])).hexdigest() == d["commitment"]
    assert d["commitment"] == commitment(server_seed)
    assert d["client_seeds"][0] == ANN_SEED
    assert d["client_seeds"][1:] == [default_client_seed(d["commitment"], k) for k in (1, 2, 3)]
    hand = Hand.objects.get(room=room)
    assert d["hand_id"] == hand.pk and settled["d"]["hand_id"] == hand.pk
    # Everything the two sockets heard before the end, the room messages included.
    assert any(m["t"] == "room" for m in before_end)
    scan_secret(before_end, [server_seed])
    scan_secret(ben_before, [server_seed])
    states = [m for m in seen if m["t"] == "state"] + [m for m in ben_before if m["t"] == "state"]
    assert states and all(m["d"]["commitment"] == d["commitment"] for m in states)
    # The room message before the deal promised this commitment; after it, the next one.
    rooms = [m["d"] for m in before_end if m["t"] == "room"]
    assert rooms[0]["next_commitment"] == d["commitment"]
    assert rooms[-1]["next_commitment"] == commitment(Room.objects.get(pk=room.pk).next_server_seed)
    assert rooms[-1]["next_commitment"] != d["commitment"]
    # Re-dealing from the revealed seeds gives the hand ann was dealt.
    dealt = new_hand(
        hand.variant,
        hand.rules,
        DealSeeds(d["server_seed"], tuple(d["client_seeds"]), hand.number),
        match=hand.match,
    )
    first_state = next(m["d"] for m in seen if m["t"] == "state")
    assert first_state["version"] == 0
    from games.rules import tiles as T

    assert first_state["players"][0]["hand"] == T.fmt(dealt.hands[0])


def test_every_seat_hears_a_client_seed_before_the_deal(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    bob_cookie = cookie_for(bob)

    async def run():
        comm = connect(room, bob_cookie)
        assert (await comm.connect())[0]
        await drain(comm)
        await database_sync_to_async(services.room_ready)(
            room_id=room.pk, user=ann, client_seed=ANN_SEED
        )
        # A room message from bob's own connect may still be on its way (the Redis
        # layer is slower than the test): wait for the one that tells of ann's ready.
        msg = await receive_room_where(comm, lambda d: d["seats"][0]["ready"])
        await comm.send_json_to({"t": "ready", "client_seed": "b" * 32})
        state = await receive_until(comm, "state")
        await comm.disconnect()
        return msg, state

    msg, state = async_to_sync(run)()
    assert msg["d"]["seats"][0]["client_seed"] == ANN_SEED
    assert msg["d"]["seats"][0]["ready"] and not msg["d"]["seats"][3]["ready"]
    seeds = state["d"]["client_seeds"]
    assert seeds[0] == ANN_SEED and seeds[3] == "b" * 32
    assert state["d"]["commitment"] == msg["d"]["next_commitment"]


def _ready_table(make_user, seed=ANN_SEED):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="ningbo", bots=3, hands=2)
    services.room_ready(room_id=room.pk, user=ann, client_seed=seed)
    return ann, room


def test_the_seed_sent_with_ready_is_the_one_dealt_with_and_changes_the_wall(make_user):
    ann, room = _ready_table(make_user)
    hand = Hand.objects.get(room=room)
    assert hand.client_seeds[0] == ANN_SEED
    state = HandState.from_json(hand.state)
    assert state.version == 0  # nobody has moved: still the deal
    seeds = DealSeeds(hand.server_seed, tuple(hand.client_seeds), hand.number)
    again = new_hand(hand.variant, hand.rules, seeds, match=hand.match)
    assert again.hands == state.hands and again.wall == state.wall
    other = DealSeeds(hand.server_seed, ("f" * 32, *hand.client_seeds[1:]), hand.number)
    changed = new_hand(hand.variant, hand.rules, other, match=hand.match)
    assert changed.wall != state.wall
    # The seed was for that deal only; the next hand commits to a fresh server seed.
    assert Seat.objects.get(room=room, index=0).client_seed == ""
    room.refresh_from_db()
    assert room.next_server_seed != hand.server_seed


def test_ready_without_a_seed_deals_with_the_default(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    assert hand.client_seeds == [default_client_seed(hand.commitment, k) for k in range(4)]


@pytest.mark.parametrize("bad", BAD_SEEDS)
def test_bad_client_seeds_are_refused_over_rest_and_change_nothing(make_user, bad):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    r = logged_in(ann).post(f"/api/rooms/{room.pk}/ready/", {"client_seed": bad}, format="json")
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["code"] == "bad_client_seed" and "hex" in body["detail"]
    seat = Seat.objects.get(room=room, index=0)
    assert not seat.ready and seat.client_seed == ""
    ok = logged_in(ann).post(
        f"/api/rooms/{room.pk}/ready/", {"client_seed": ANN_SEED}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["seats"][0]["client_seed"] == ANN_SEED


def test_bad_client_seeds_are_refused_over_the_socket_and_change_nothing(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    cookie = cookie_for(ann)

    async def run():
        comm = connect(room, cookie)
        assert (await comm.connect())[0]
        await drain(comm)
        for bad in BAD_SEEDS:
            await comm.send_json_to({"t": "ready", "client_seed": bad})
            err = await receive_until(comm, "error")
            assert err["d"]["code"] == "bad_client_seed"
        # Nothing more answers them; a late room message from the connect may still
        # arrive, and it must show the seat still unready with no seed.
        for late in await drain(comm):
            assert late["t"] == "room", late
            assert not late["d"]["seats"][0]["ready"] and not late["d"]["seats"][0]["client_seed"]
        seat = await database_sync_to_async(Seat.objects.get)(room=room, index=0)
        assert not seat.ready and seat.client_seed == ""
        await comm.send_json_to({"t": "ready", "client_seed": ANN_SEED})
        msg = await receive_room_where(comm, lambda d: d["seats"][0]["ready"])
        await comm.disconnect()
        return msg

    msg = async_to_sync(run)()
    assert msg["d"]["seats"][0] == {**msg["d"]["seats"][0], "ready": True, "client_seed": ANN_SEED}
    seat = Seat.objects.get(room=room, index=0)
    assert seat.ready and seat.client_seed == ANN_SEED


def test_a_ready_seat_may_replace_its_seed_until_the_deal(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    services.room_ready(room_id=room.pk, user=ann, client_seed=ANN_SEED)
    services.room_ready(room_id=room.pk, user=ann, client_seed="a" * 32)
    assert Seat.objects.get(room=room, index=0).client_seed == "a" * 32
    services.room_ready(room_id=room.pk, user=bob, client_seed="b" * 32)
    hand = Hand.objects.get(room=room)
    assert (hand.client_seeds[0], hand.client_seeds[3]) == ("a" * 32, "b" * 32)


def test_the_room_payload_commits_and_never_shows_the_seed(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=2)
    room.refresh_from_db()
    body = logged_in(ann).get(f"/api/rooms/{room.pk}/").json()
    assert body["next_commitment"] == commitment(room.next_server_seed)
    assert body["next_hand_number"] == 1
    assert room.next_server_seed not in json.dumps(body)
    services.room_ready(room_id=room.pk, user=ann)
    room.refresh_from_db()
    body = logged_in(ann).get(f"/api/rooms/{room.pk}/").json()
    # During hand 1, the room already commits to hand 2's seed.
    assert body["next_hand_number"] == 2
    assert body["next_commitment"] == commitment(room.next_server_seed)
    assert room.next_server_seed not in json.dumps(body)
    assert Hand.objects.get(room=room).server_seed not in json.dumps(body)


# --------------------------------------------------------------------------
# GET /api/hands/{id}/


def played_hand(make_user, name="ann", **options):
    from tests.games.conftest import play_out

    user = make_user(name)
    room = services.room_create(owner=user, variant="sichuan", bots=3, hands=1, **options)
    services.room_ready(room_id=room.pk, user=user, client_seed=ANN_SEED)
    return user, room, play_out(room)


RECORD_KEYS = {
    "variant",
    "rules",
    "match",
    "dealer",
    "hand_number",
    "commitment",
    "client_seeds",
    "server_seed",
    "actions",
    "settlement",
    "id",
    "room",
    "players",
    "status",
}


def test_a_finished_hands_record_checks_and_agrees_with_the_stored_settlement(make_user, client):
    from games.models import Settlement
    from games.rules.record import check_record

    ann, room, hand = played_hand(make_user)
    r = client.get(f"/api/hands/{hand.pk}/")  # anyone may read a public table's hands
    assert r.status_code == 200, r.content
    record = r.json()
    assert RECORD_KEYS <= set(record)
    assert record["id"] == hand.pk and record["room"] == room.pk and record["status"] == "ended"
    assert record["variant"] == "sichuan" and record["hand_number"] == 1
    assert record["server_seed"] == hand.server_seed
    assert record["commitment"] == commitment(hand.server_seed)
    assert record["client_seeds"][0] == ANN_SEED
    assert [p["name"] for p in record["players"]][0] == "ann"
    assert [p["is_bot"] for p in record["players"]] == [False, True, True, True]
    assert [a["seq"] for a in record["actions"]] == list(range(1, hand.actions.count() + 1))
    stored = Settlement.objects.get(hand=hand)
    assert record["settlement"] == {"transfers": stored.transfers, "deltas": stored.deltas}
    checked = check_record(record)
    assert checked["ok"], checked
    assert checked["deltas"] == stored.deltas
    # A tampered record fails at the action that was changed.
    tampered = json.loads(json.dumps(record))
    k = next(i for i, a in enumerate(tampered["actions"]) if a["action"]["type"] == "discard")
    tampered["actions"][k]["result"] = "0" * 16
    bad = check_record(tampered)
    assert not bad["ok"] and bad["seq"] == k + 1
    other = dict(record, server_seed="0" * 64)
    assert not check_record(other)["ok"]


def test_frames_replay_the_hand_to_its_end(make_user, client):
    ann, room, hand = played_hand(make_user)
    frames = client.get(f"/api/hands/{hand.pk}/frames/").json()
    assert len(frames) == hand.actions.count() + 1
    assert frames[0]["seq"] == 0 and frames[0]["view"]["phase"] != "ended"
    assert all("hand" in p for p in frames[0]["view"]["players"])  # all face up
    assert frames[-1]["view"]["phase"] == "ended"
    final = HandState.from_json(hand.state)
    from games.rules import tiles as T

    assert [p["hand"] for p in frames[-1]["view"]["players"]] == [T.fmt(h) for h in final.hands]


def test_a_private_tables_hands_are_for_its_players_only(make_user, client):
    ann, room, hand = played_hand(make_user, private=True)
    for who in (client, logged_in(make_user("bob"))):
        for url in (f"/api/hands/{hand.pk}/", f"/api/hands/{hand.pk}/frames/"):
            r = who.get(url)
            assert r.status_code == 403
            body = r.json()
            assert body["code"] == "private_hand" and body["detail"]
            assert hand.server_seed not in r.content.decode()
    r = logged_in(ann).get(f"/api/hands/{hand.pk}/")
    assert r.status_code == 200 and r.json()["server_seed"] == hand.server_seed


def test_unknown_hand_is_404_in_the_error_shape(client):
    r = client.get("/api/hands/987654/")
    assert r.status_code == 404
    assert r.json() == {"code": "unknown_hand", "detail": "no such hand"}
    assert client.get("/api/hands/987654/frames/").status_code == 404


def test_a_hand_in_play_shows_no_seed_and_no_actions(make_user, client):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann, client_seed=ANN_SEED)
    from tests.games.conftest import sweep

    sweep()  # the bots answer what they can: some actions are logged
    hand = Hand.objects.get(room=room)
    assert hand.status == Hand.Status.PLAYING
    r = client.get(f"/api/hands/{hand.pk}/")
    assert r.status_code == 200
    record = r.json()
    assert "server_seed" not in record and "actions" not in record
    assert record["settlement"] is None and record["status"] == "playing"
    assert record["commitment"] == hand.commitment and record["client_seeds"][0] == ANN_SEED
    assert hand.server_seed not in r.content.decode()
    r = client.get(f"/api/hands/{hand.pk}/frames/")
    assert r.status_code == 409 and r.json()["code"] == "hand_in_play"


def test_the_schema_describes_the_hand_record(client):
    r = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    text = r.content.decode()
    assert r.status_code == 200
    assert "/api/hands/{id}/" in text and "hand_record" in text


# --------------------------------------------------------------------------
# The hand page and the links to it


def test_the_hand_page_replays_and_verifies_a_finished_hand_in_both_languages(make_user, client):
    from tests.ux.test_translations import english_in

    ann, room, hand = played_hand(make_user)
    for language in ("zh-hans", "en"):
        client.cookies["django_language"] = language
        r = client.get(f"/hands/{hand.pk}/")
        assert r.status_code == 200
        page = r.content.decode()
        assert 'id="verify"' in page and 'id="rp-board"' in page and "js/replay.js" in page
        assert hand.commitment in page and hand.server_seed in page
        boot = r.context["boot"]
        assert boot["record"]["server_seed"] == hand.server_seed and boot["over"] is True
        assert boot["frames_url"] == f"/api/hands/{hand.pk}/frames/"
        if language == "zh-hans":
            assert "验证发牌" in page
            assert english_in(page, {"ann", "Web Crypto"}) == []
        else:
            assert "Verify the deal" in page


def test_a_hand_in_play_has_a_page_without_its_seed(make_user, client):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    r = client.get(f"/hands/{hand.pk}/")
    page = r.content.decode()
    assert r.status_code == 200 and 'id="replay-pending"' in page
    assert hand.commitment in page and hand.server_seed not in page
    assert "js/replay.js" not in page


def test_a_private_hand_page_is_a_friendly_403_for_outsiders(make_user, client):
    ann, room, hand = played_hand(make_user, private=True)
    client.cookies["django_language"] = "en"
    r = client.get(f"/hands/{hand.pk}/")
    assert r.status_code == 403
    page = r.content.decode()
    assert 'id="hand-private"' in page and "Private hand" in page
    assert hand.server_seed not in page and hand.commitment not in page
    client.force_login(make_user("bob"))
    r = client.get(f"/hands/{hand.pk}/")
    assert r.status_code == 403 and 'id="hand-private"' in r.content.decode()
    client.force_login(ann)
    assert client.get(f"/hands/{hand.pk}/").status_code == 200
    assert client.get("/hands/987654/").status_code == 404


def test_the_room_and_the_profile_link_to_the_hands_replays(make_user, client):
    ann, room, hand = played_hand(make_user)
    client.force_login(ann)
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    assert f'href="/hands/{hand.pk}/"' in page and 'id="room-hands-list"' in page
    strings = client.get(f"/rooms/{room.pk}/").context["boot"]["strings"]
    assert strings["replay_hand"] == "回放并验证这一局"  # the result dialog's link
    page = client.get("/accounts/profile/").content.decode()
    assert f'href="/hands/{hand.pk}/"' in page


def test_a_hand_dealt_before_verifiable_deals_is_answered_not_crashed(make_user, client):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    legacy = Hand.objects.create(
        room=room,
        number=1,
        variant="sichuan",
        rules={},
        server_seed="",
        commitment="",
        players=[s.user_id for s in room.seats.order_by("index")],
        state={},
        status=Hand.Status.ENDED,
    )
    r = client.get(f"/api/hands/{legacy.pk}/")
    assert r.status_code == 409 and r.json()["code"] == "no_record"
    assert client.get(f"/api/hands/{legacy.pk}/frames/").status_code == 409
    r = client.get(f"/hands/{legacy.pk}/")
    assert r.status_code == 200 and 'id="hand-no-record"' in r.content.decode()
