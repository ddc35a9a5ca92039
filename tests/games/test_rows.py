"""``games.rows``: hand-written SQL that must give what the ORM gives, on either database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
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


def test_every_builds_each_row_as_the_orm_does_in_the_order_asked(make_user):
    from games.models import Seat

    users = [make_user(f"e{i}") for i in range(4)]
    room, _ = four_seated(users, hands=2)
    cols = rows.ModelColumns(Seat, "s")
    got = rows.every(cols, 'WHERE s.room_id = %s ORDER BY s."index" DESC', [room.pk], lock=True)
    expected = list(Seat.objects.filter(room=room).order_by("-index"))
    assert [_fields(s) for s in got] == [_fields(s) for s in expected]
    assert [s.index for s in got] == [3, 2, 1, 0]
    assert all(s._state.adding is False and s._state.db == "default" for s in got)
    assert rows.every(cols, "WHERE s.room_id = %s", [room.pk + 999]) == []


def test_add_amounts_adds_each_amount_to_its_own_row_only(make_user):
    """The settlement's scores and balances: ``field + amounts[key]`` for the rows of
    those keys among those ``where`` picks; every other row as it was."""
    from django.contrib.auth import get_user_model

    from games.models import Seat

    users = [make_user(f"m{i}") for i in range(8)]
    room, _ = four_seated(users[:4])
    other, _ = four_seated(users[4:])
    Seat.objects.update(score=10)
    get_user_model().objects.update(balance=100)

    def scores(r):
        return list(Seat.objects.filter(room=r).order_by("index").values_list("score", flat=True))

    def balances():
        return [
            u.balance
            for u in get_user_model().objects.filter(pk__in=[u.pk for u in users]).order_by("pk")
        ]

    with CaptureQueriesContext(connection) as ran:
        changed = rows.add_amounts(
            Seat, "index", {0: 5, 2: -3, 3: 0}, "score", where={"room": room.pk}
        )
    assert (changed, len(ran)) == (3, 1)
    assert scores(room) == [15, 10, 7, 10]
    assert scores(other) == [10, 10, 10, 10]  # the same seat numbers, another room's
    # The same shape again (its SQL made once): other keys, other amounts.
    assert (
        rows.add_amounts(Seat, "index", {1: 2, 0: -20, 3: 4}, "score", where={"room": room.pk}) == 3
    )
    assert scores(room) == [-5, 12, 7, 14]
    # No ``where``: the keys alone pick the rows; a key no row has changes nothing.
    User = get_user_model()
    amounts = {users[1].pk: -7, users[6].pk: 3, max(u.pk for u in users) + 99: 1}
    assert rows.add_amounts(User, "id", amounts, "balance") == 2
    assert balances() == [100, 93, 100, 100, 100, 100, 103, 100]
    assert scores(other) == [10, 10, 10, 10]
    with CaptureQueriesContext(connection) as ran:
        assert rows.add_amounts(User, "id", {}, "balance") == 0
    assert len(ran) == 0  # nothing to add: no statement


def test_insert_reads_the_new_keys_back_or_skips_the_rows_that_exist(make_user):
    """``pks``: the instances become the saved rows, as ``save`` or ``bulk_create`` leave
    them.  ``ignore_conflicts``: a row the unique constraint already holds is left as it
    is, the others are made (the ratings of players new to a variant)."""
    from games.models import HandAction
    from leaderboards.models import Rating

    users = [make_user(f"i{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    logged = [
        HandAction(hand=hand, seq=1000 + i, seat=i, action={"type": "pass", "n": i})
        for i in range(3)
    ]
    rows.insert(logged, pks=True)
    for made in logged:
        assert made._state.adding is False and made._state.db == "default"
        assert _fields(made) == _fields(HandAction.objects.get(pk=made.pk))
    assert len({a.pk for a in logged}) == 3

    Rating.objects.create(user=users[0], variant="sichuan", mu=30.0, hands=7)
    new = [Rating(user=u, variant="sichuan") for u in users[:2]]
    rows.insert(new, ignore_conflicts=True)
    got = {r.user_id: (r.mu, r.hands) for r in Rating.objects.all()}
    assert got == {users[0].pk: (30.0, 7), users[1].pk: (Rating().mu, 0)}
    with pytest.raises(ValueError):
        rows.insert([Rating(user=users[2], variant="sichuan")], ignore_conflicts=True, pks=True)


def test_values_reads_one_column_as_values_list_does(make_user):
    from games.models import Room, Seat

    users = [make_user(f"v{i}") for i in range(4)]
    room, _ = four_seated(users, hands=2)
    for seat, score in zip(range(4), (7, -3, 0, 12), strict=True):
        Seat.objects.filter(room=room, index=seat).update(score=score)
    got = rows.values(Seat, "score", {"room": room.pk}, order_by="index")
    expected = Seat.objects.filter(room=room).order_by("index").values_list("score", flat=True)
    assert got == list(expected) == [7, -3, 0, 12]
    assert rows.values(Room, "club", {"id": room.pk}) == [None]  # not a club room
    assert rows.values(Room, "club", {"id": room.pk + 999}) == []


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


def test_update_then_insert_writes_both_or_neither(make_user):
    """The snapshot update and the log rows: the rows inserted only when the update
    changed the row (its ``where`` held), as the ORM would write them; one statement on
    PostgreSQL, two elsewhere."""
    from games.models import HandAction

    users = [make_user(f"w{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    before = Hand.objects.get(pk=hand.pk)
    hand.version = before.version + 2
    # JSON goes out through orjson on PostgreSQL (``rows._prepared``): what is read back is
    # what was written, non-ASCII text, floats, nulls and booleans included.
    hand.deadlines = {
        "seats": {"0": "2026-12-02T01:00:00+00:00"},
        "key": [None, 1, 2.5, True],
        "风": "东南西北",
    }
    logged = [
        HandAction(hand=hand, seq=before.version + 1, seat=0, action={"type": "pass"}),
        HandAction(hand=hand, seq=before.version + 2, seat=3, action={}, source="timeout"),
    ]

    # The version moved meanwhile: nothing written, neither the hand nor the log.
    with CaptureQueriesContext(connection) as raced:
        changed = rows.update_then_insert(
            hand, ["version", "deadlines"], logged, where={"version": before.version + 7}
        )
    assert changed is None
    assert len(raced) == 1  # no insert tried
    assert _fields(Hand.objects.get(pk=hand.pk)) == _fields(before)
    assert not HandAction.objects.filter(hand=hand).exists()

    with CaptureQueriesContext(connection) as wrote:
        changed = rows.update_then_insert(
            hand,
            ["version", "deadlines"],
            logged,
            where={"version": before.version},
            columns={"state_rev": 12345},
        )
    assert changed == _revision(Hand, hand.pk)
    assert len(wrote) == (1 if connection.vendor == "postgresql" else 2)
    after = Hand.objects.get(pk=hand.pk)
    assert (after.version, after.deadlines) == (before.version + 2, hand.deadlines)
    with connection.cursor() as cur:
        cur.execute("SELECT state_rev FROM games_hand WHERE id = %s", [hand.pk])
        assert cur.fetchone()[0] == 12345
    got = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [(a.seq, a.seat, a.action, a.source) for a in got] == [
        (before.version + 1, 0, {"type": "pass"}, "player"),
        (before.version + 2, 3, {}, "timeout"),
    ]
    assert all(a.created_at is not None for a in got)


def test_update_then_insert_writes_the_other_rows_only_with_its_own(make_user):
    """``also``: updates of other rows, written in the same statement on PostgreSQL, and
    only when the row itself changed: a raced write leaves them as they were too.  On
    PostgreSQL they may write the row the statement locks (the room, at a hand's end)."""
    from games.models import HandAction, Seat

    users = [make_user(f"a{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    Seat.objects.filter(room=room).update(ready=True)
    Seat.objects.filter(room=room, index=3).update(left=True)
    start = hand.version
    hand.version += 1

    def write(**guard):
        logged = [HandAction(hand=hand, seq=hand.version, seat=1, action={"type": "pass"})]
        also = (
            rows.Update(Room, {"id": room.pk}, {"hands_played": 5, "match": {"风": [1, None]}}),
            rows.Update(Seat, {"room": room.pk, "left": False}, {"ready": False}),
            rows.Update(
                Seat, {"room": room.pk, "left": True}, {"user": None, "left": False, "ready": False}
            ),
        )
        with CaptureQueriesContext(connection) as ran:
            written = rows.update_then_insert(hand, ["version"], logged, also=also, **guard)
        return written, len(ran)

    def seats():
        return list(Seat.objects.filter(room=room).order_by("index").values_list("user", "left"))

    before_seats = seats()
    assert write(where={"version": start + 7}) == (None, 1)
    assert Room.objects.get(pk=room.pk).hands_played == 0 and seats() == before_seats
    assert Seat.objects.filter(room=room, ready=True).count() == 4
    assert not HandAction.objects.filter(hand=hand).exists()
    if connection.vendor == "postgresql":
        lock = (Room, room.pk, _revision(Room, room.pk))
        written, ran = write(xmin=_revision(Hand, hand.pk), lock=lock)
        assert written == _revision(Hand, hand.pk) and ran == 1
    else:
        written, ran = write(where={"version": start})
        assert written == "" and ran == 5
    moved = Room.objects.get(pk=room.pk)
    assert (moved.hands_played, moved.match) == (5, {"风": [1, None]})
    assert seats() == [(u.pk, False) for u in users[:3]] + [(None, False)]
    assert not Seat.objects.filter(room=room, ready=True).exists()
    assert HandAction.objects.filter(hand=hand, seq=hand.version).count() == 1


def _revision(model, pk) -> str:
    """The row's revision as ``update_then_insert`` reports it ("" on SQLite)."""
    if connection.vendor != "postgresql":
        return ""
    with connection.cursor() as cur:
        cur.execute(f"SELECT xmin::text FROM {model._meta.db_table} WHERE id = %s", [pk])
        return cur.fetchone()[0]


def test_update_then_insert_on_revisions_writes_only_while_both_rows_are_at_them(make_user):
    """``xmin``: the row's own revision; ``lock``: another row's, locked first.  Either
    moved: nothing written.  SQLite keeps no revisions and refuses them."""
    from games.models import HandAction

    users = [make_user(f"x{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    hand.version += 1

    def write(hand_rev, room_rev):
        logged = [HandAction(hand=hand, seq=hand.version, seat=1, action={"type": "pass"})]
        return rows.update_then_insert(
            hand, ["version"], logged, xmin=hand_rev, lock=(Room, room.pk, room_rev)
        )

    if connection.vendor != "postgresql":
        with pytest.raises(ValueError):
            write("1", "1")
        assert not HandAction.objects.filter(hand=hand).exists()
        return
    hand_rev, room_rev = _revision(Hand, hand.pk), _revision(Room, room.pk)
    assert write(hand_rev, str(int(room_rev) + 1)) is None
    assert write(str(int(hand_rev) + 1), room_rev) is None
    assert not HandAction.objects.filter(hand=hand).exists()
    assert Hand.objects.get(pk=hand.pk).version == hand.version - 1
    # The test's transaction: every write in it has the same revision, so here a write
    # is seen by the savepoint a service's ``atomic`` opens (a transaction of its own
    # outside tests) — a revision moved by ``Room.save`` inside one.
    with transaction.atomic():
        Room.objects.get(pk=room.pk).save(update_fields=["presence_rev"])
    assert _revision(Room, room.pk) != room_rev
    assert write(hand_rev, room_rev) is None
    room_rev = _revision(Room, room.pk)
    new = write(hand_rev, room_rev)
    assert new is not None and new == _revision(Hand, hand.pk)
    assert Hand.objects.get(pk=hand.pk).version == hand.version
    assert HandAction.objects.filter(hand=hand, seq=hand.version).count() == 1


def _has_lz4() -> bool:
    """Whether this PostgreSQL was built with lz4 (Debian's is)."""
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("CREATE TEMP TABLE lz4_probe (v text COMPRESSION lz4)")
            cur.execute("DROP TABLE lz4_probe")
        return True
    except Exception:
        return False


def test_the_hand_snapshot_is_stored_with_lz4_where_postgresql_has_it(make_user):
    """Every move rewrites the snapshot, compressed by the server (migration 0011)."""
    from django.db.migrations.recorder import MigrationRecorder

    applied = MigrationRecorder(connection).applied_migrations()
    assert ("games", "0011_hand_state_lz4") in applied
    users = [make_user(f"z{i}") for i in range(4)]
    _, hand = four_seated(users, hands=2)
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cur:
        cur.execute(
            "SELECT attcompression FROM pg_attribute"
            " WHERE attrelid = 'games_hand'::regclass AND attname = 'state'"
        )
        column = cur.fetchone()[0]
        cur.execute("SELECT pg_column_compression(state) FROM games_hand WHERE id = %s", [hand.pk])
        written = cur.fetchone()[0]
    if _has_lz4():
        assert (column, written) == ("l", "lz4")
    else:
        assert (column, written) == ("", "pglz")


def test_clone_copies_a_model_instance_as_copy_copy_does(make_user):
    import copy

    from games.selectors import seats_with_users

    users = [make_user(f"c{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    seat = seats_with_users(room.pk)[1]  # its user read with it (the related-object cache)
    for original in (hand, seat):
        made, expected = rows.clone(original), copy.copy(original)
        assert type(made) is type(original)
        assert _fields(made) == _fields(expected) == _fields(original)
        assert made._state is not original._state
        assert made._state.__dict__ == expected._state.__dict__
        assert made._state.fields_cache is not original._state.fields_cache
    copied = rows.clone(seat)
    assert copied.user is seat.user  # shallow, as copy.copy: the same related object
    copied.ready = not seat.ready
    copied._state.fields_cache.pop("user")
    assert seat.ready != copied.ready and "user" in seat._state.fields_cache
    again = rows.clone(hand)
    again.save(update_fields=["version"])  # a working instance: it saves
    assert Hand.objects.get(pk=hand.pk).version == hand.version
