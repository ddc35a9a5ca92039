"""Races at one table: simultaneous actions, and several processes firing one deadline.

Threads with their own database connections stand in for server processes:
the database (row lock on PostgreSQL, the write lock on SQLite) is what
serialises them, exactly as between processes.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Hand, HandAction
from games.rules import HandState
from games.table import services, timers
from tests.games.conftest import four_seated

pytestmark = pytest.mark.django_db(transaction=True)


def race(n, fn):
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = ("ok", fn())
        except services.ServiceError as e:
            results[i] = ("refused", e.code)
        except Exception as e:  # noqa: BLE001 - reported below
            results[i] = ("crash", repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_two_simultaneous_actions_one_wins_one_is_refused(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    v = hand.version
    actions = [{"type": "ding_que", "suit": "m"}, {"type": "ding_que", "suit": "p"}]
    it = iter(actions)
    lock = threading.Lock()

    def act():
        with lock:
            action = next(it)
        return services.hand_act(room_id=room.pk, user=ann, version=v, action=action)

    results = race(2, act)
    assert sorted(r[0] for r in results) == ["ok", "refused"], results
    # The second is decided on the hand as the first left it: this seat has chosen
    # already, so its action is one on a version the table has moved on from.
    assert [r[1] for r in results if r[0] == "refused"] == ["stale"]
    assert HandAction.objects.filter(hand=hand).count() == 1
    hand.refresh_from_db()
    assert hand.version == v + 1


def test_two_processes_firing_one_deadline_act_once(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    # Only ann's 定缺 timer (and the bots' moves) will be due 20 seconds from now.
    when = timezone.now() + timedelta(seconds=20)

    results = race(3, lambda: timers.hand_fire_deadline(room.pk, hand.pk, when))
    assert all(r[0] == "ok" for r in results), results
    taken = sorted(r[1] for r in results)
    assert taken[0] == 0 and taken[1] == 0 and taken[2] > 0  # one did the work
    actions = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    assert len({(a.seat, a.seq) for a in actions}) == len(actions) == taken[2]
    hand.refresh_from_db()
    # Every action moves the table's version on, except a pass that left a claim window
    # open (nobody else is told of it): on a deal where a bot could claim, there is one.
    passes = sum(1 for a in actions if a.action["type"] == "pass")
    assert len(actions) - passes <= hand.version <= len(actions)


def test_an_action_that_waited_for_the_lock_acts_on_the_hand_as_it_is_after_the_wait(
    make_user,
):
    """The lock and the hand read are one statement; on PostgreSQL one that waited for
    the lock sees the hand from before the wait.  Two seats act on the same version of
    the setup phase, the second while the first holds the room: the second is decided
    on the hand as the first left it (both choices are recorded, in order, neither
    overwrites the other)."""
    import time

    from django.db import transaction

    users = [make_user(n) for n in ("ann", "bob", "cat", "dan")]
    room, hand = four_seated(users)
    v = hand.version
    held, out = threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                services.room_lock(room.pk)
                services.hand_act(
                    room_id=room.pk,
                    user=users[0],
                    version=v,
                    action={"type": "ding_que", "suit": "m"},
                )
                held.set()
                time.sleep(0.5)  # the second is waiting for the room meanwhile
        finally:
            connection.close()

    def second():
        held.wait(10)
        try:
            services.hand_act(
                room_id=room.pk, user=users[1], version=v, action={"type": "ding_que", "suit": "p"}
            )
            out["second"] = "ok"
        except services.ServiceError as e:
            out["second"] = e.code
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert out == {"second": "ok"}
    hand.refresh_from_db()
    assert hand.version == v + 2
    assert list(HandAction.objects.filter(hand=hand).values_list("seat", flat=True)) == [0, 1]
    state = HandState.from_json(hand.state)
    assert state.vs["que"][:2] == [0, 1]  # ann's m and bob's p, both kept
