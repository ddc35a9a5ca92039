"""The table store (``games.table.store``): what it reads is what the ORM reads, what it
writes is what the models read back and what ``manage.py hand_verify`` rebuilds from
the log.  On PostgreSQL this checks the hand-written statements; on SQLite the ORM's
path, the same way."""

from __future__ import annotations

import itertools
import random

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Hand, HandAction, Room, Seat
from games.rules import HandState, apply, awaited, legal_actions, new_hand
from games.table import presence, services, store
from games.table.selectors import deal_inputs, fresh_users, seats_with_users
from tests.games.conftest import four_seated, sweep, wait_settled
from tests.live import untimed_room

pytestmark = pytest.mark.django_db
_names = itertools.count()


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _play(room, users, rng: random.Random, moves: int) -> None:
    """``moves`` actions, each a legal one picked by ``rng`` for an awaited seat; a claim
    window nobody can answer is closed by the sweeper (its write goes through the store
    too)."""
    for _ in range(moves):
        hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
        if hand is None:
            return
        state = HandState.from_json(hand.state)
        waiting = awaited(state)
        if not waiting:
            sweep()
            continue
        seat = rng.choice(waiting)
        action = rng.choice(legal_actions(state, seat))
        services.hand_act(room_id=room.pk, user=users[seat], version=hand.version, action=action)


def _check_log(hand: Hand) -> None:
    """The log rebuilds the snapshot, row by row, as ``hand_verify`` does."""
    hand.refresh_from_db()
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    seeds, dealer, match = deal_inputs(hand)
    state = new_hand(hand.variant, hand.rules, seeds, dealer, match)
    for row in rows:
        assert row.created_at.tzinfo is not None and row.source in ("player", "bot", "server")
        state, _ = apply(state, row.seat, row.action)
    assert state.to_json() == hand.state
    assert hand.version == state.public_version
    call_command("hand_verify", hand.pk)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(1, 60))
def test_what_the_store_writes_is_what_the_models_read_back(make_user, seed, moves):
    users = [make_user(f"st{next(_names)}") for _ in range(4)]
    room, hand = four_seated(users)
    _play(room, users, random.Random(seed), moves)
    _check_log(hand)
    if hand.status == Hand.Status.ENDED:
        assert hand.ended_at is not None
        assert hand.result == HandState.from_json(hand.state).result
        assert hand.deadline_at is None and hand.deadlines == {}
        wait_settled(hand)  # the worker is done with it before the test's data goes
    else:
        # What the store reads under the lock is what the ORM reads.
        with transaction.atomic():
            locked = store.lock_room(room.pk)
            read, seats, fresh = store.read_table(locked, presence=True)
        assert _fields(locked) == _fields(Room.objects.get(pk=room.pk))
        assert _fields(read) == _fields(Hand.objects.get(pk=hand.pk))
        orm = seats_with_users(room.pk)
        assert [_fields(s) for s in seats] == [_fields(s) for s in orm]
        assert [(s.user.pk, s.user.username, s.user.is_bot, s.user.shown_name) for s in seats] == [
            (s.user.pk, s.user.username, s.user.is_bot, s.user.shown_name) for s in orm
        ]
        assert fresh == fresh_users(room.pk) == set()


def test_the_store_reads_who_is_connected_and_free_seats(make_user):
    users = [make_user(f"sp{i}") for i in range(4)]
    room = untimed_room(users, hands=1)
    presence.seat_presence(room_id=room.pk, user=users[2], channel="c2", present=True)
    Seat.objects.filter(room=room, index=3).update(user=None)
    with transaction.atomic():
        locked = store.lock_room(room.pk)
        hand, seats, fresh = store.read_table(locked, presence=True)
        assert store.read_table(locked)[2] is None  # not asked: not read
    assert hand is None  # nobody readied: no hand
    assert fresh == {users[2].pk}
    assert [s.user_id for s in seats] == [u.pk for u in users[:3]] + [None]
    assert seats[3].user is None and not seats[0].is_bot
    with transaction.atomic():
        assert store.lock_room(room.pk + 1000) is None
