"""``games.rows``: hand-written SQL that must give what the ORM gives, on either database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rows, services
from games.models import Hand, Presence, Room
from tests.games.conftest import four_seated

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_first_builds_the_instance_the_orm_builds(make_user):
    users = [make_user(f"r{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    got = rows.first(rows.ModelColumns(Room, "r"), "WHERE r.id = %s", [room.pk], lock=True)
    assert _fields(got) == _fields(Room.objects.get(pk=room.pk))
    assert got._state.adding is False and got._state.db == "default"
    whole = rows.first(rows.ModelColumns(Hand, "h"), "WHERE h.room_id = %s", [room.pk])
    assert _fields(whole) == _fields(Hand.objects.get(pk=hand.pk))  # JSON, datetimes, enums
    assert rows.first(rows.ModelColumns(Room, "r"), "WHERE r.id = %s", [room.pk + 999]) is None


def test_a_deferred_column_is_loaded_on_first_access_as_the_orm_does(make_user):
    users = [make_user(f"d{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    cols = rows.ModelColumns(Hand, "h", defer=("state",))
    assert "state" not in cols.sql()
    got = rows.first(cols, "WHERE h.id = %s", [hand.pk])
    assert got.get_deferred_fields() == {"state"}
    with CaptureQueriesContext(connection) as loads:
        assert got.state == Hand.objects.get(pk=hand.pk).state
    assert len(loads) == 2  # the deferred load, then the test's own read


def test_upsert_inserts_then_updates_the_row_with_that_unique_value(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    then = timezone.now() - timedelta(minutes=5)
    rows.upsert(Presence(channel="c1", room=room, user=ann, seen_at=then), "channel", ["seen_at"])
    row = Presence.objects.get(channel="c1")
    assert (row.user_id, row.seen_at) == (ann.pk, then)
    now = timezone.now()
    rows.upsert(
        Presence(channel="c1", room=room, user=bob, seen_at=now), "channel", ["user", "seen_at"]
    )
    row = Presence.objects.get(channel="c1")
    assert (row.user_id, row.seen_at, Presence.objects.count()) == (bob.pk, now, 1)
    # Fields not named stay as they were.
    rows.upsert(Presence(channel="c1", room=room, user=ann, seen_at=then), "channel", ["seen_at"])
    row = Presence.objects.get(channel="c1")
    assert (row.user_id, row.seen_at) == (bob.pk, then)
