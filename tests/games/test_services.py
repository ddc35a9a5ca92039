"""Room and table services on the ORM: rooms, starts, timers, settlement, verify."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Hand, HandAction, Room, Seat, Settlement
from games.rules import HandState, legal_actions, settle
from games.table import presence, services
from games.table.selectors import room_payload
from leaderboards.models import RatingChange
from tests.games.conftest import four_seated, play_out, present_seats, sweep, wait_settled

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_validates_variant_rules_length_and_timers(make_user):
    owner = make_user("ann")
    cases = [
        ({"variant": "riichi"}, "unknown_variant"),
        ({"variant": "sichuan", "rules": {"flowers": True}}, "bad_rules"),
        ({"variant": "sichuan", "rules": {"fan_cap": 0}}, "bad_rules"),
        ({"variant": "sichuan", "hands": 0}, "bad_length"),
        ({"variant": "sichuan", "bots": 4}, "bad_bots"),
        ({"variant": "sichuan", "discard_seconds": None}, "bad_timer"),
    ]
    for kwargs, code in cases:
        with pytest.raises(services.ServiceError) as e:
            services.room_create(owner=owner, **kwargs)
        assert e.value.code == code
        assert e.value.message
    assert Room.objects.count() == 0
    room = services.room_create(
        owner=owner,
        variant="sichuan",
        rules={"mode": "plain"},
        private=True,
        discard_seconds=None,
        claim_seconds=None,
    )
    assert room.rules["mode"] == "plain" and room.rules["dealer_rule"] == "discarder"
    assert room.rules["fan_cap"] == 4  # the variant's defaults fill the rest
    assert len(room.code) == 6


def test_join_by_code_full_room_and_ready_starts_the_hand(make_user):
    ann, bob, cai, dan, eve = (make_user(n) for n in ("ann", "bob", "cai", "dan", "eve"))
    room = services.room_create(owner=ann, variant="sichuan", private=True, bots=1)
    with pytest.raises(services.ServiceError) as e:
        services.room_join(room_id=room.pk, user=bob, code="WRONG1")
    assert e.value.code == "wrong_code" and e.value.status == 403
    services.room_join(room_id=room.pk, user=bob, code=room.code.lower())
    services.room_join(room_id=room.pk, user=cai, code=room.code)
    with pytest.raises(services.ServiceError) as e:
        services.room_join(room_id=room.pk, user=dan, code=room.code)
    assert e.value.code == "room_full"
    for u in (ann, bob):
        services.room_ready(room_id=room.pk, user=u)
    assert not Hand.objects.filter(room=room).exists()  # cai not ready yet
    services.room_ready(room_id=room.pk, user=cai)
    hand = Hand.objects.get(room=room)
    assert hand.number == 1 and hand.players == [s.user_id for s in Seat.objects.filter(room=room)]
    assert Room.objects.get(pk=room.pk).status == "playing"
    with pytest.raises(services.ServiceError):
        services.room_join(room_id=room.pk, user=eve, code=room.code)


def test_stale_and_illegal_actions_change_nothing(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    before = (hand.version, hand.state)
    for version, action, code in [
        (hand.version + 1, {"type": "ding_que", "suit": "m"}, "stale"),
        (hand.version, {"type": "discard", "tile": "1m"}, "illegal"),
        (hand.version, {"type": "ding_que", "suit": "z"}, "bad_action"),
        (hand.version, {"type": "discard", "tile": "0x"}, "bad_tile"),
        ("1", {"type": "ding_que", "suit": "m"}, "bad_version"),
    ]:
        with pytest.raises(services.ServiceError) as e:
            services.hand_act(room_id=room.pk, user=ann, version=version, action=action)
        assert e.value.code == code, (action, e.value)
    hand.refresh_from_db()
    assert (hand.version, hand.state) == before
    assert HandAction.objects.filter(hand=hand).count() == 0


def test_seats_deciding_at_once_may_answer_on_the_version_they_were_offered(make_user):
    """定缺 (like a claim window) is decided by several seats at once: each may answer
    on the version that offered the decision, whatever the others answered meanwhile.
    A turn of play is not: an action on an older version there is stale."""
    users = [make_user(n) for n in ("ann", "bob", "cat", "dan")]
    room, hand = four_seated(users)
    offered = hand.version
    assert hand.deadlines["since"] == offered
    for i, suit in enumerate("mpsm"):
        services.hand_act(
            room_id=room.pk,
            user=users[i],
            version=offered,
            action={"type": "ding_que", "suit": suit},
        )
    hand.refresh_from_db()
    state = HandState.from_json(hand.state)
    assert state.phase == "play" and hand.version == offered + 4
    assert state.vs["que"] == [0, 1, 2, 0]
    # An answer again on that version: the decision is over, so it is stale.
    with pytest.raises(services.ServiceError) as e:
        services.hand_act(
            room_id=room.pk,
            user=users[0],
            version=offered,
            action={"type": "ding_que", "suit": "p"},
        )
    assert e.value.code == "stale"
    # In play only the version on the table counts.
    turn = state.turn
    tile = legal_actions(state, turn)[-1]
    assert tile["type"] == "discard"
    with pytest.raises(services.ServiceError) as e:
        services.hand_act(room_id=room.pk, user=users[turn], version=hand.version - 1, action=tile)
    assert e.value.code == "stale"
    assert Hand.objects.get(pk=hand.pk).version == hand.version


def test_bots_act_at_their_deadline_and_humans_at_theirs(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    assert set(hand.deadlines["seats"]) == {"0", "1", "2", "3"}  # 定缺: all four choose
    assert sweep() == 3  # the bots choose now; ann has 15 seconds
    hand.refresh_from_db()
    state = HandState.from_json(hand.state)
    assert [bool(legal_actions(state, seat)) for seat in range(4)] == [True, False, False, False]
    assert list(hand.deadlines["seats"]) == ["0"]
    assert sweep() == 0  # nothing more is due yet
    sweep(minutes=1)  # ann's deadline passes: the bot policy chooses for her
    actions = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert actions[3].seat == 0 and actions[3].source == "timeout"
    assert [a.source for a in actions[:3]] == ["bot"] * 3


def test_whole_game_settles_each_hand_once_and_verifies(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=2)
    services.room_ready(room_id=room.pk, user=ann)
    first = play_out(room)
    room.refresh_from_db()
    assert room.hands_played == 1 and room.status == "playing" and room.next_hand_at
    services.room_ready(room_id=room.pk, user=ann)  # everyone ready: next hand at once
    second = play_out(room)
    room.refresh_from_db()
    assert second.number == 2 and room.status == "finished"
    settlements = []
    for hand in (first, second):
        s = wait_settled(hand)
        settlements.append(s)
        assert sum(s.deltas) + s.details["pot"] == 0
        # Computed by the task from the final state, exactly as the engine settles it.
        assert s.deltas == settle(HandState.from_json(hand.state))["deltas"]
        assert RatingChange.objects.filter(hand=hand).count() == 4
        # Every action is logged; the hand's version is what the table was shown, which
        # an answer only its answerer heard of does not move.
        state = HandState.from_json(hand.state)
        assert HandAction.objects.filter(hand=hand).count() == state.version
        assert hand.version == state.public_version <= state.version
    # The match carried over: the second hand was dealt as the first one's result said.
    assert second.match == first.result["match"] and second.match["hands_played"] == 1
    assert second.match["dealer"] in (None, second.dealer)  # None: the dice chose
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    totals = [sum(s.deltas[i] for s in settlements) for i in range(4)]
    assert [s.score for s in seats] == totals
    ann.refresh_from_db()
    assert ann.balance == totals[0]
    call_command("hand_verify")  # raises CommandError on any difference


def test_settlement_and_ratings_are_idempotent(make_user):
    from games.tasks import settle_hand

    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann)
    hand = play_out(room)
    wait_settled(hand)
    scores = list(Seat.objects.filter(room=room).values_list("score", flat=True))
    for _ in range(2):  # a redelivered task (acks_late) changes nothing
        settle_hand.apply(args=[hand.pk]).get()
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert RatingChange.objects.filter(hand=hand).count() == 4
    assert list(Seat.objects.filter(room=room).values_list("score", flat=True)) == scores
    assert sum(scores) == 0


def test_the_settlement_task_rates_the_players_itself(make_user):
    """One task settles, rates and announces: the rating update is not queued behind
    every other hand that ended meanwhile."""
    from games.tasks import settle_hand

    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann)
    hand = play_out(room)
    wait_settled(hand)
    # As if only the settlement were done when its worker died.
    RatingChange.objects.filter(hand=hand).delete()
    Hand.objects.filter(pk=hand.pk).update(settled_at=None)
    assert settle_hand.apply(args=[hand.pk]).get() is True
    assert RatingChange.objects.filter(hand=hand).count() == 4


def test_hand_verify_reports_a_tampered_snapshot(make_user):
    from django.core.management.base import CommandError

    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann)
    hand = play_out(room)
    state = dict(hand.state)
    state["hands"] = list(reversed(state["hands"]))
    Hand.objects.filter(pk=hand.pk).update(state=state)
    with pytest.raises(CommandError):
        call_command("hand_verify", hand.pk)


def test_leaving_mid_hand_pays_the_penalty_and_a_bot_plays_on(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    services.room_ready(room_id=room.pk, user=ann)
    sweep()
    her_clock = Hand.objects.get(room=room).deadlines["seats"]["0"]  # a person's 15 s
    services.room_leave(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    state = HandState.from_json(hand.state)
    assert [t["reason"] for t in state.transfers] == ["escape"] * 3
    assert Seat.objects.get(room=room, index=0).left
    assert hand.deadlines["seats"]["0"] < her_clock  # bot-timed now (no delay in tests)
    hand = play_out(room)
    assert hand.status == "ended"
    assert HandAction.objects.filter(hand=hand, seat=0, source="bot").exists()


def test_owner_adds_and_removes_bots(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan")
    with pytest.raises(services.ServiceError) as e:
        services.room_add_bot(room_id=room.pk, user=bob)
    assert e.value.code == "not_owner"
    services.room_add_bot(room_id=room.pk, user=ann)
    services.room_add_bot(room_id=room.pk, user=ann)
    names = [s.user.username for s in Seat.objects.filter(room=room).exclude(user=None)]
    assert len(set(names)) == 3 and names[0] == "ann"
    services.room_remove_bot(room_id=room.pk, user=ann, seat_index=2)
    assert Seat.objects.get(room=room, index=2).user is None
    assert room_payload(room.pk)["free_seats"] == 2  # the removed bot's seat is open again


def _untimed_room_at_anns_decision(make_user):
    ann = make_user("ann")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=3, private=True, discard_seconds=None, claim_seconds=None
    )
    presence.seat_presence(room_id=room.pk, user=room.owner, channel="sock-1", present=True)
    services.room_ready(room_id=room.pk, user=ann)
    sweep()  # the bots choose their 定缺
    hand = Hand.objects.get(room=room)
    assert hand.deadlines["seats"] == {}  # ann is here: no clock at this table
    assert sweep(minutes=60) == 0
    return room, hand


def test_no_timer_table_gives_an_away_player_a_clock_and_takes_it_back(make_user, settings):
    settings.GAME_AWAY_SECONDS = 30
    room, hand = _untimed_room_at_anns_decision(make_user)
    presence.seat_presence(room_id=room.pk, user=room.owner, channel="sock-1", present=False)
    hand.refresh_from_db()
    assert list(hand.deadlines["seats"]) == ["0"]  # her socket closed: the away clock runs
    presence.seat_presence(room_id=room.pk, user=room.owner, channel="sock-2", present=True)
    hand.refresh_from_db()
    assert hand.deadlines["seats"] == {}  # back in time: no clock again
    presence.seat_presence(room_id=room.pk, user=room.owner, channel="sock-2", present=False)
    assert sweep(minutes=1) >= 1  # gone past the away clock: the bot decides for her
    assert HandAction.objects.filter(hand=hand, seat=0, source="timeout").exists()


def test_a_crashed_servers_sockets_expire_and_start_the_away_clock(make_user, settings):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Presence

    settings.GAME_PRESENCE_TTL = 30
    room, hand = _untimed_room_at_anns_decision(make_user)
    # Her server died without closing the socket: nobody beats for it any more.
    assert presence.presence_heartbeat(["sock-1"]) == 1
    assert presence.presence_expire(timezone.now()) == 0  # still fresh
    later = timezone.now() + timedelta(seconds=31)
    assert presence.presence_expire(later) == 1
    assert not Presence.objects.filter(channel="sock-1").exists()
    hand.refresh_from_db()
    assert list(hand.deadlines["seats"]) == ["0"]
    assert present_seats(room) == set()


def test_a_room_left_to_bots_before_it_starts_is_closed(make_user):
    from games.table.selectors import open_rooms

    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    services.room_join(room_id=room.pk, user=bob)
    services.room_leave(room_id=room.pk, user=ann)
    assert Room.objects.get(pk=room.pk).status == "open"  # bob is still there
    services.room_leave(room_id=room.pk, user=bob)
    assert Room.objects.get(pk=room.pk).status == "finished"
    assert room.pk not in [r.pk for r in open_rooms()]


def test_one_broken_table_does_not_stop_the_sweep_for_the_others(make_user, caplog):
    ann, bob = make_user("ann"), make_user("bob")
    broken = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=broken.pk, user=ann)
    healthy = services.room_create(owner=bob, variant="sichuan", bots=3)
    services.room_ready(room_id=healthy.pk, user=bob)
    # A snapshot that no longer loads (say, written by a buggy release).
    Hand.objects.filter(room=broken).update(state={"variant": "sichuan"})
    assert sweep() == 3  # the healthy table's bots still chose their 定缺
    assert HandAction.objects.filter(hand__room=healthy).count() == 3
    assert HandAction.objects.filter(hand__room=broken).count() == 0
    assert "firing the deadline of hand" in caplog.text


def test_the_ready_that_deals_a_hand_sends_the_table_one_room_payload(make_user):
    """The room's payload goes out once for the last ready and the deal it made, not once
    for each."""
    import asyncio
    import json

    from asgiref.sync import async_to_sync, sync_to_async
    from channels.layers import get_channel_layer

    from games.table.publish import room_group

    users = [make_user(f"d{i}") for i in range(4)]
    room = services.room_create(owner=users[0], variant="sichuan", hands=2)
    for u in users[1:]:
        services.room_join(room_id=room.pk, user=u)
    for u in users[:3]:
        services.room_ready(room_id=room.pk, user=u)
    layer = get_channel_layer()

    async def ready_and_listen() -> list[str]:
        """A socket's channel in the room's group (one event loop, as a consumer's), the
        last ready, then the frame kinds the group sent until it goes quiet after the deal."""
        channel = await layer.new_channel()
        await layer.group_add(room_group(room.pk), channel)
        await sync_to_async(services.room_ready)(room_id=room.pk, user=users[3])
        kinds: list[str] = []
        while True:
            quiet = 0.5 if "state" in kinds else 10
            try:
                message = await asyncio.wait_for(layer.receive(channel), quiet)
            except TimeoutError:
                return kinds
            kinds += [json.loads(text)["t"] for _, _, text in message.get("frames", [])]

    kinds = async_to_sync(ready_and_listen)()
    assert Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    assert kinds.count("room") == 1, kinds
    assert "state" in kinds
