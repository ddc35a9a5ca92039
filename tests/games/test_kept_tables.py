"""A move at a table this process wrote last: decided on what it kept, one statement.

On PostgreSQL ``services.hand_act`` first tries the table as this process last wrote
it (``services._act_as_kept``): the move is decided on the kept room, hand, seats and
state and written by one statement that locks the room and writes only while neither
the room's row nor the hand's has changed since (their ``xmin``).  Anything else —
no table kept, a row changed by anyone, a refusal, the hand's end — is decided under
the room lock as before.  SQLite keeps no row revisions: every move takes the lock
there, and these tests check the same outcomes on it.

The tests run outside a test transaction (``transaction=True``): the kept path is taken
only by a statement that is its own transaction, as on the table socket.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Hand, HandAction, Room
from games.rules import HandState, apply, awaited
from games.rules.bots import choose_action
from tests.games.conftest import four_seated, wait_settled

pytestmark = pytest.mark.django_db(transaction=True)

POSTGRESQL = "postgresql"
KEPT_WRITE = 'WITH locked AS (SELECT 1 FROM "games_room"'
LOCK_READ = "FOR UPDATE OF r"


def _table(make_user, prefix: str):
    users = [make_user(f"{prefix}{i}") for i in range(4)]
    room, _ = four_seated(users, hands=2)
    return room, users


def _move(room, users):
    """The move a bot would make for the first seat awaited now, from the database."""
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    state = HandState.from_json(hand.state)
    seat = awaited(state)[0]
    return hand, state, users[seat], choose_action(state, seat)


def _act(room, user, version, action) -> tuple[int, list[str]]:
    """``hand_act`` as the socket calls it; (the new version, the statements it ran)."""
    with CaptureQueriesContext(connection) as ran:
        version = services.hand_act(room_id=room.pk, user=user, version=version, action=action)
    return version, [q["sql"] for q in ran.captured_queries]


def _kept(room) -> bool:
    return room.pk in services._TABLES


def test_moves_at_a_table_kept_here_are_one_statement_each_and_write_what_the_lock_would(
    make_user,
):
    room, users = _table(make_user, "k")
    start = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    expected = HandState.from_json(start.state)
    # The deal kept the table it wrote (``services._keep_dealt``), its state the one dealt.
    assert _kept(room) == (connection.vendor == POSTGRESQL)
    if _kept(room):
        assert services._STATES[start.pk][1] == start.version
        assert services._STATES[start.pk][2].to_json() == start.state
    statements = []
    for _ in range(14):
        hand, state, user, action = _move(room, users)
        assert state.phase != "ended"
        version, ran = _act(room, user, hand.version, action)
        expected = apply(expected, awaited(expected)[0], action)[0]
        assert version == expected.version == hand.version + 1
        statements.append(ran)

    hand = Hand.objects.get(pk=start.pk)
    # What was written is what the engine makes of the same moves from the deal: the
    # snapshot, the version, and a log with every move once, in order.
    assert hand.state == expected.to_json()
    seqs = list(HandAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(start.version + 1, hand.version + 1))
    assert services._STATES[hand.pk][2].to_json() == hand.state
    if connection.vendor == POSTGRESQL:
        # Every move from the first (Sichuan's 定缺) is one statement.
        assert [len(ran) for ran in statements] == [1] * 14
        assert all(ran[0].startswith(KEPT_WRITE) for ran in statements)
        assert _kept(room)
    else:
        assert all(any(LOCK_READ not in s and "games_room" in s for s in ran) for ran in statements)
        assert not _kept(room)


def _next_takes_the_lock(room, users) -> None:
    """The next move is decided under the lock (after a kept write that wrote nothing,
    on PostgreSQL), and is written all the same."""
    hand, _, user, action = _move(room, users)
    version, ran = _act(room, user, hand.version, action)
    assert version == hand.version + 1
    assert HandAction.objects.filter(hand=hand, seq=version).count() == 1
    if connection.vendor == POSTGRESQL:
        assert ran[0].startswith(KEPT_WRITE)  # tried: the table had moved, nothing written
        assert any(LOCK_READ in s for s in ran[1:])
        assert _kept(room)  # kept again, as written now


def test_a_table_changed_by_anyone_else_is_decided_under_the_lock(make_user):
    room, users = _table(make_user, "s")
    for _ in range(2):
        hand, _, user, action = _move(room, users)
        _act(room, user, hand.version, action)
    assert _kept(room) == (connection.vendor == POSTGRESQL)

    # The hand's row written by something else, its snapshot untouched (a clock moved).
    Hand.objects.filter(pk=hand.pk).update(deadline_at=None)
    _next_takes_the_lock(room, users)

    # The room's row: someone's socket closed elsewhere (its presence revision moved).
    with transaction.atomic():
        services._lock_room_for_presence(room.pk)
    _next_takes_the_lock(room, users)

    # Refused moves are the lock's to refuse, with the same answer and nothing written.
    hand, state, user, action = _move(room, users)
    waiting = users[awaited(state)[0]]
    idle = next(u for u in users if u != waiting and users.index(u) not in awaited(state))
    for who, version, code in [(idle, hand.version, None), (waiting, hand.version - 1, "stale")]:
        with pytest.raises(services.ServiceError) as refused:
            _act(room, who, version, action)
        if code is not None:
            assert refused.value.code == code
    assert Hand.objects.get(pk=hand.pk).version == hand.version

    # A player who left is out at once, whatever this process kept of the seats.
    services.room_leave(room_id=room.pk, user=waiting)
    with pytest.raises(services.ServiceError) as refused:
        _act(room, waiting, Hand.objects.get(pk=hand.pk).version, action)
    assert refused.value.code == "not_seated"


def test_a_kept_write_waits_for_the_room_lock_and_then_sees_what_its_holder_changed(
    make_user,
):
    """Whoever holds the room's lock may be deciding on the hand as it is: a kept write
    waits for that lock, and when its holder changed the room, writes nothing and the
    move is decided again under the lock, after the holder's commit."""
    room, users = _table(make_user, "w")
    for _ in range(2):
        hand, _, user, action = _move(room, users)
        _act(room, user, hand.version, action)
    if connection.vendor != POSTGRESQL:
        assert not _kept(room)  # every move takes the lock: nothing kept to race
        return
    assert _kept(room)

    holding, committed = threading.Event(), []

    def holder():
        try:
            with transaction.atomic():
                Room.objects.select_for_update().get(pk=room.pk)
                services._lock_room_for_presence(room.pk)
                holding.set()
                time.sleep(0.5)
                committed.append(time.monotonic())
        finally:
            close_old_connections()
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    assert holding.wait(10)
    hand, _, user, action = _move(room, users)
    version, ran = _act(room, user, hand.version, action)
    done = time.monotonic()
    thread.join(10)
    assert committed and done > committed[0]  # it waited for the holder's commit
    assert version == hand.version + 1
    assert ran[0].startswith(KEPT_WRITE) and any(LOCK_READ in s for s in ran[1:])
    assert HandAction.objects.filter(hand=hand, seq=version).count() == 1


def _play_to_the_end(room, users, *, left=()) -> tuple[Hand, list[str]]:
    """Bots' moves until the hand ends (the seats in ``left`` fired as their clocks
    run out, as the sweeper would); (the ended hand, the last move's statements)."""
    from datetime import timedelta

    from django.utils import timezone

    ran: list[str] = []
    for _ in range(400):
        hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
        if hand is None:
            ended = Hand.objects.filter(room=room).order_by("-number").first()
            # A real worker settles it: it must not still be writing when the test's
            # database is flushed.
            wait_settled(ended)
            return ended, ran
        state = HandState.from_json(hand.state)
        seat = awaited(state)[0]
        if seat in left:
            later = timezone.now() + timedelta(hours=1)
            with CaptureQueriesContext(connection) as fired:
                services.hand_fire_deadline(room.pk, hand.pk, now=later)
            ran = [q["sql"] for q in fired.captured_queries]
        else:
            _, ran = _act(room, users[seat], hand.version, choose_action(state, seat))
    raise AssertionError("the hand did not end")


def _moved_on(room, hand) -> Room:
    """The room after ``hand`` ended: the next hand is due, every seat unready."""
    from datetime import timedelta

    from django.conf import settings

    moved = Room.objects.get(pk=room.pk)
    assert hand.status == Hand.Status.ENDED
    assert moved.hands_played == 1 and moved.status == Room.Status.PLAYING
    assert moved.match == hand.result["match"]
    due = hand.ended_at + timedelta(seconds=settings.GAME_NEXT_HAND_SECONDS)
    assert moved.next_hand_at == due
    assert not any(s.ready for s in moved.seats.all())
    return moved


def test_a_kept_move_that_ends_the_hand_moves_the_room_on_in_its_one_statement(make_user):
    room, users = _table(make_user, "e")
    hand, last = _play_to_the_end(room, users)
    moved = _moved_on(room, hand)
    assert [s.user_id for s in moved.seats.order_by("index")] == [u.pk for u in users]
    assert HandAction.objects.filter(hand=hand).count() == hand.version
    assert not _kept(room)  # an ended hand is no table to keep
    if connection.vendor == POSTGRESQL:
        # One write: the hand, its log, the room and its seats.  (What follows are the
        # room payload's reads: with no server loop here it is sent at once, not merged.)
        assert last[0].startswith(KEPT_WRITE)
        assert 'UPDATE "games_room"' in last[0] and 'UPDATE "games_seat"' in last[0]
        assert all(s.startswith("SELECT") for s in last[1:]), last


def test_a_seat_whose_player_left_during_the_hand_opens_when_it_ends(make_user):
    room, users = _table(make_user, "l")
    for _ in range(3):
        hand, _, user, action = _move(room, users)
        _act(room, user, hand.version, action)
    services.room_leave(room_id=room.pk, user=users[3])
    hand, _ = _play_to_the_end(room, users, left={3})
    moved = _moved_on(room, hand)
    seats = list(moved.seats.order_by("index"))
    assert [s.user_id for s in seats] == [u.pk for u in users[:3]] + [None]
    assert not seats[3].left
