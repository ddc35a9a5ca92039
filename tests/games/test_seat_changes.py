"""A seat that changes hands: privacy of the sockets left behind, presence and leaving.

Every test here failed before a socket's seat was decided by current occupancy:
an old socket kept receiving the next occupant's private view, kept acting for the
seat, and vouched for the next occupant's presence.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.models import Hand, HandAction, Room, Seat
from games.rules import HandState
from games.table import presence, services, timers
from games.table.selectors import room_payload
from leaderboards.models import RatingChange
from tests.games.conftest import play_out, present_seats, sweep, wait_settled
from tests.games.test_consumers import connect, cookie_for, drain, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def assert_sees_no_seat(messages, seat=0):
    """Messages to a socket that no longer holds ``seat``: no seat view and no concealed
    tile of anyone while the hand is on."""
    for msg in messages:
        if msg["t"] != "state":
            continue
        d = msg["d"]
        assert d["seat"] is None, f"an old socket was sent seat {d['seat']}'s view"
        assert d["legal"] == []
        if d["phase"] != "ended":
            for p in d["players"]:
                assert "hand" not in p or p["won"] is not None
                assert "drawn" not in p


def two_humans_and_two_bots(make_user, hands=2):
    ann, carl = make_user("ann"), make_user("carl")
    room = services.room_create(owner=ann, variant="sichuan", bots=0, hands=hands)
    services.room_join(room_id=room.pk, user=carl)
    services.room_add_bot(room_id=room.pk, user=ann)
    services.room_add_bot(room_id=room.pk, user=ann)
    return room, ann, carl


def test_old_socket_gets_nothing_of_the_next_occupant_after_leave_and_rejoin(make_user):
    room, ann, carl = two_humans_and_two_bots(make_user)
    bob = make_user("bob")
    ann_cookie = cookie_for(ann)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    play_out(room)  # hand 1; the room waits between hands

    async def run():
        old = connect(room, ann_cookie)
        assert (await old.connect())[0]
        first = await receive_until(old, "state")
        assert first["d"]["seat"] == 0
        # ann leaves between hands with her socket still open; bob takes her seat.
        await database_sync_to_async(services.room_leave)(room_id=room.pk, user=ann)
        await database_sync_to_async(services.room_join)(room_id=room.pk, user=bob)
        assert (await database_sync_to_async(Seat.objects.get)(room=room, index=0)).user_id == (
            bob.pk
        )
        await database_sync_to_async(services.room_ready)(room_id=room.pk, user=bob)
        await database_sync_to_async(services.room_ready)(room_id=room.pk, user=carl)
        await database_sync_to_async(sweep)()  # hand 2 under way: bots choose
        seen = []
        while (await receive_until(old, "state", seen=seen))["d"]["hand"] != 2:
            pass
        seen += await drain(old)
        states = [m for m in seen if m["t"] == "state"]
        assert_sees_no_seat(seen)
        # A resync on the old socket shows the spectator's view, not bob's.
        await old.send_json_to({"t": "sync"})
        assert_sees_no_seat([await receive_until(old, "state")])
        # ...and it cannot act for the seat.
        await old.send_json_to({"t": "act", "v": states[-1]["v"], "action": {"type": "pass"}})
        assert (await receive_until(old, "error"))["d"]["code"] == "spectator"
        await old.disconnect()

    async_to_sync(run)()
    hand2 = Hand.objects.get(room=room, number=2)
    assert hand2.players[0] == bob.pk


def test_a_reseat_reaches_only_the_sockets_of_the_users_it_names(make_user):
    """Seat changes go to the room's one group, naming the users whose seat changed:
    the others' sockets hear that the room changed, and are not sent the table again."""
    room, ann, carl = two_humans_and_two_bots(make_user)
    ann_cookie, carl_cookie = cookie_for(ann), cookie_for(carl)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    play_out(room)  # hand 1; the room waits between hands

    async def run():
        a, c = connect(room, ann_cookie), connect(room, carl_cookie)
        assert (await a.connect())[0] and (await c.connect())[0]
        assert (await receive_until(a, "state"))["d"]["seat"] == 0
        assert (await receive_until(c, "state"))["d"]["seat"] == 1
        await drain(a)
        await drain(c)
        await database_sync_to_async(services.room_leave)(room_id=room.pk, user=ann)
        # ann's socket re-reads her seat: the table again, as a spectator's.
        assert (await receive_until(a, "state"))["d"]["seat"] is None
        seen = []
        await receive_until(c, "room", seen=seen)
        await drain(c, seen)
        assert not [m for m in seen if m["t"] == "state"], seen
        await a.disconnect()
        await c.disconnect()

    async_to_sync(run)()


def test_private_room_closes_the_old_socket_when_its_user_leaves(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=2, private=True, discard_seconds=None, claim_seconds=None
    )
    services.room_join(room_id=room.pk, user=bob, code=room.code)
    ann_cookie = cookie_for(ann)

    async def run():
        sock = connect(room, ann_cookie)
        assert (await sock.connect())[0]
        await drain(sock)
        await database_sync_to_async(services.room_leave)(room_id=room.pk, user=ann)
        out = await sock.receive_output(timeout=5)
        while out["type"] != "websocket.close":
            out = await sock.receive_output(timeout=5)
        assert out["code"] == 4403

    async_to_sync(run)()


def test_leaving_over_the_socket_takes_the_penalty_once_and_a_bot_finishes(make_user):
    room, ann, carl = two_humans_and_two_bots(make_user)
    ann_cookie = cookie_for(ann)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    sweep()  # the bots choose

    async def run():
        sock = connect(room, ann_cookie)
        await sock.connect()
        v = (await receive_until(sock, "state"))["v"]
        await sock.send_json_to({"t": "act", "v": v, "action": {"type": "leave"}})
        after = []
        # The socket is told to reseat: it resends the snapshot as a spectator's.
        while True:
            msg = (await receive_until(sock, "state", seen=after))["d"]
            if msg["seat"] is None:
                break
        assert not [m for m in after if m["t"] == "error"], after
        # From here on the socket is a spectator's: the seat's tiles are a bot's business.
        await database_sync_to_async(sweep)(1)
        after += await drain(sock)
        assert_sees_no_seat([m for m in after if m["t"] == "state" and m["v"] > v + 1])
        await sock.send_json_to({"t": "act", "v": v + 2, "action": {"type": "pass"}})
        assert (await receive_until(sock, "error"))["d"]["code"] == "spectator"
        await sock.disconnect()

    async_to_sync(run)()
    seat = Seat.objects.get(room=room, index=0)
    assert seat.left and seat.user_id == ann.pk  # the bot plays her seat to the hand's end
    hand = Hand.objects.get(room=room, number=1)
    state = HandState.from_json(hand.state)
    assert [t["reason"] for t in state.transfers].count("escape") == 3  # once, from each
    # The REST door is the same door: she is no longer seated.
    with pytest.raises(services.ServiceError) as e:
        services.room_leave(room_id=room.pk, user=ann)
    assert e.value.code == "not_seated"
    assert HandAction.objects.filter(hand=hand, seat=0, source="player").count() <= 2

    hand = play_out(room)
    assert HandAction.objects.filter(hand=hand, seat=0, source="bot").exists()
    seat.refresh_from_db()
    assert seat.user_id is None and not seat.left  # out of the room: the seat is open
    assert room_payload(room.pk, for_user=ann).get("my_seat") is None
    with pytest.raises(services.ServiceError) as e:
        services.hand_act(room_id=room.pk, user=ann, version=hand.version, action={"type": "pass"})
    assert e.value.code in ("no_hand", "not_seated")

    # Nobody took the seat before the next hand: a bot does, and ann is not in it.
    timers.room_next_hand(room.pk, Room.objects.get(pk=room.pk).next_hand_at)
    hand2 = Hand.objects.get(room=room, number=2)
    assert ann.pk not in hand2.players
    assert Seat.objects.get(room=room, index=0).is_bot
    hand2 = play_out(room)
    wait_settled(hand2)
    assert not RatingChange.objects.filter(hand=hand2, user=ann).exists()
    assert RatingChange.objects.filter(hand=hand, user=ann).exists()  # the hand she fled


def test_leaving_between_hands_costs_nothing_and_frees_the_seat(make_user):
    room, ann, carl = two_humans_and_two_bots(make_user)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    hand = play_out(room)
    score_before = Seat.objects.get(room=room, index=0).score
    services.room_leave(room_id=room.pk, user=ann)
    seat = Seat.objects.get(room=room, index=0)
    assert seat.user_id is None and seat.score == score_before
    assert HandAction.objects.filter(hand=hand, action__type="leave").count() == 0
    assert Room.objects.get(pk=room.pk).status == "playing"  # carl plays on
    services.room_leave(room_id=room.pk, user=carl)
    assert Room.objects.get(pk=room.pk).status == "finished"  # nobody but bots is left


def test_a_player_taking_a_seat_between_hands_starts_at_zero(make_user):
    room, ann, carl = two_humans_and_two_bots(make_user)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    play_out(room)
    # ann's running total, whatever the hand gave her, is not 0 when she leaves.
    Seat.objects.filter(room=room, index=0).update(score=-12)
    carl_score = Seat.objects.get(room=room, index=1).score
    services.room_leave(room_id=room.pk, user=ann)
    bob = make_user("bob")
    services.room_join(room_id=room.pk, user=bob)
    seat = Seat.objects.get(room=room, index=0)
    assert seat.user_id == bob.pk and seat.score == 0
    assert Seat.objects.get(room=room, index=1).score == carl_score
    assert room_payload(room.pk)["seats"][0]["score"] == 0


def test_presence_belongs_to_the_occupant_not_to_an_old_socket(make_user, settings):
    settings.GAME_AWAY_SECONDS = 30
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=2, private=True, discard_seconds=None, claim_seconds=None
    )
    services.room_join(room_id=room.pk, user=carl, code=room.code)
    presence.seat_presence(room_id=room.pk, user=ann, channel="ann-sock", present=True)
    assert present_seats(room) == {0}
    services.room_leave(room_id=room.pk, user=ann)  # her socket may still be open
    services.room_join(room_id=room.pk, user=bob, code=room.code)
    assert Seat.objects.get(room=room, index=0).user_id == bob.pk
    # A stale row for ann (her server had not heard of the leave) vouches for nobody.
    presence.seat_presence(room_id=room.pk, user=ann, channel="ann-sock", present=True)
    assert present_seats(room) == set()
    presence.seat_presence(room_id=room.pk, user=carl, channel="carl-sock", present=True)
    services.room_ready(room_id=room.pk, user=carl)
    services.room_ready(room_id=room.pk, user=bob)
    hand = Hand.objects.get(room=room)
    hand.refresh_from_db()
    # Bob is away, so his clock runs at this timer-less table; carl is here and has none.
    assert "0" in hand.deadlines["seats"] and "3" not in hand.deadlines["seats"]


def test_leaving_ends_the_game_where_the_variant_says_so(make_user):
    from games.rules import get_variant

    assert get_variant("ningbo").leave_ends_match
    ann, carl = make_user("ann"), make_user("carl")
    room = services.room_create(owner=ann, variant="ningbo", bots=2, hands=4)
    services.room_join(room_id=room.pk, user=carl)
    services.room_ready(room_id=room.pk, user=ann)
    services.room_ready(room_id=room.pk, user=carl)
    sweep()
    services.room_leave(room_id=room.pk, user=ann)  # mid-hand: this hand is the last
    hand = play_out(room)
    assert hand.number == 1
    assert Room.objects.get(pk=room.pk).status == "finished"  # carl does not play on

    # Between hands it ends at once.
    bob, dan = make_user("bob"), make_user("dan")
    room = services.room_create(owner=bob, variant="ningbo", bots=2, hands=4)
    services.room_join(room_id=room.pk, user=dan)
    services.room_ready(room_id=room.pk, user=bob)
    services.room_ready(room_id=room.pk, user=dan)
    play_out(room)
    assert Room.objects.get(pk=room.pk).status == "playing"
    services.room_leave(room_id=room.pk, user=dan)
    assert Room.objects.get(pk=room.pk).status == "finished"


def test_the_last_player_is_made_ready_after_the_rules_countdown(make_user):
    from datetime import timedelta

    from django.utils import timezone

    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="ningbo", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    services.room_ready(room_id=room.pk, user=ann)
    room.refresh_from_db()
    seconds = room.rules["auto_ready_seconds"]
    assert seconds == 15 and room.next_hand_at is not None  # bob's countdown runs
    assert timers.room_next_hand(room.pk, timezone.now()) is None  # not yet
    later = timezone.now() + timedelta(seconds=seconds + 1)
    hand = timers.room_next_hand(room.pk, later)
    assert hand is not None and hand.number == 1  # started without bob's ready
    # A countdown whose table lost a player stops instead of firing every sweep.
    eve, fay = make_user("eve"), make_user("fay")
    room = services.room_create(owner=eve, variant="ningbo", bots=2)
    services.room_join(room_id=room.pk, user=fay)
    services.room_ready(room_id=room.pk, user=eve)
    services.room_leave(room_id=room.pk, user=fay)
    assert timers.room_next_hand(room.pk, later + timedelta(seconds=60)) is None
    assert Room.objects.get(pk=room.pk).next_hand_at is None
    # A variant without the rule waits for everyone.
    cat, dan = make_user("cat"), make_user("dan")
    room = services.room_create(owner=cat, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=dan)
    services.room_ready(room_id=room.pk, user=cat)
    room.refresh_from_db()
    assert room.next_hand_at is None


def test_a_player_coming_back_to_the_match_has_their_own_score_back(make_user):
    """Leaving between hands and sitting down again wipes nothing: back at the same seat
    or another of the match, the player's total is what their hands gave them."""
    room, ann, carl = two_humans_and_two_bots(make_user, hands=4)
    for _ in range(3):  # until ann's hands have moved her total (a hand may pass her by)
        for u in (ann, carl):
            services.room_ready(room_id=room.pk, user=u)
        play_out(room)
        ann_total = Seat.objects.get(room=room, user=ann).score
        if ann_total:
            break
    assert ann_total != 0

    services.room_leave(room_id=room.pk, user=ann)
    services.room_join(room_id=room.pk, user=ann)
    assert Seat.objects.get(room=room, index=0).user_id == ann.pk
    assert Seat.objects.get(room=room, user=ann).score == ann_total

    # Another seat of the same match: hers, not the seat's previous occupant's.
    services.room_leave(room_id=room.pk, user=ann)
    bob = make_user("bob")
    services.room_join(room_id=room.pk, user=bob)  # takes seat 0: a new occupant
    services.room_leave(room_id=room.pk, user=carl)
    services.room_join(room_id=room.pk, user=ann)
    seats = {s.user_id: s for s in Seat.objects.filter(room=room)}
    assert seats[bob.pk].index == 0 and seats[bob.pk].score == 0
    assert seats[ann.pk].index == 1 and seats[ann.pk].score == ann_total
    assert room_payload(room.pk)["seats"][1]["score"] == ann_total
