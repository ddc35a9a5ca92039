"""Every concurrent path takes its row locks in ``games.locks`` order (PostgreSQL).

For each path, a second connection holds the players' user rows (the top of the order)
while the path runs in a thread.  A path that needs one of those rows waits for it; while
it waits it must hold nothing lower in the order (its room's row, its hands', the queue
entries it seats), or a transaction taking the same rows the documented way would wait
for it in turn: a deadlock.  The check reads that directly, ``FOR UPDATE NOWAIT`` on
the lower rows from the holding connection.  A path that needs no user row finishes
while they are held.  Then the holder lets go and every path must end without error.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from games.models import Hand, Settlement
from games.rules import HandState, awaited, legal_actions
from games.table import finisher, limits, presence, services, votes
from ranked import matcher
from ranked.models import QueueEntry
from ranked.services import current_season
from tests.games.conftest import four_seated, play_out

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

WAIT = 10.0  # seconds a path gets to reach a lock wait or its end


def holder():
    """A connection of its own to the test database, in a transaction."""
    s = connection.settings_dict
    return psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"],
        password=s["PASSWORD"] or None,
        host=s["HOST"] or None,
        port=s["PORT"] or None,
    )


def waiting_backends(conn) -> int:
    with conn.cursor() as cur:
        # The statistics views are read once per transaction unless told to look again.
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cur.fetchone()[0]


def activity(conn) -> list:
    with conn.cursor() as cur:
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute(
            "SELECT pid, state, wait_event_type, wait_event, left(query, 120)"
            " FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cur.fetchall()


def lockable(conn, table: str, ids) -> bool:
    """These rows can be locked now (nobody else holds them)."""
    with conn.cursor() as cur:
        cur.execute("SAVEPOINT probe")
        try:
            cur.execute(f"SELECT 1 FROM {table} WHERE id = ANY(%s) FOR UPDATE NOWAIT", [list(ids)])
        except psycopg.errors.LockNotAvailable:
            cur.execute("ROLLBACK TO SAVEPOINT probe")
            return False
        cur.execute("RELEASE SAVEPOINT probe")
        return True


def check_path(users, path, lower: dict[str, list[int]]) -> str:
    """Run ``path`` while the users' rows are held; returns "waited" or "ran through"."""
    conn = holder()
    try:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT id FROM accounts_user WHERE id = ANY(%s) ORDER BY id FOR NO KEY UPDATE",
                [[u.pk for u in users]],
            )
        outcome: dict = {}

        def run():
            try:
                with transaction.atomic():
                    path()
            except Exception as e:  # reported below, with the path's own traceback
                outcome["error"] = e
            finally:
                connections.close_all()

        thread = threading.Thread(target=run)
        thread.start()
        deadline = time.monotonic() + WAIT
        while thread.is_alive() and not waiting_backends(conn) and time.monotonic() < deadline:
            time.sleep(0.02)
        waited = thread.is_alive()
        if waited:
            assert waiting_backends(conn), (
                f"the path neither waited on a lock nor finished: {activity(conn)}"
            )
            for table, ids in lower.items():
                assert lockable(conn, table, ids), (
                    f"waiting for a user's row while holding rows of {table}: "
                    "against the lock order in games.locks"
                )
        conn.rollback()  # let go of the users
        thread.join(WAIT)
        assert not thread.is_alive(), "the path did not finish once the users were free"
        assert "error" not in outcome, outcome.get("error")
        return "waited" if waited else "ran through"
    finally:
        conn.close()


@pytest.fixture
def players(make_user):
    return [make_user(n) for n in ("ann", "bo", "cy", "di")]


def table_rows(room) -> dict[str, list[int]]:
    return {
        "games_room": [room.pk],
        "games_hand": list(Hand.objects.filter(room=room).values_list("pk", flat=True)),
    }


def test_a_settlement_takes_its_players_rows_before_the_room_and_the_hand(players):
    room, _ = four_seated(players, hands=2)
    hand = play_out(room)
    Settlement.objects.filter(hand=hand).delete()  # owed again: the next settle writes
    outcome = check_path(players, lambda: finisher.hand_settle(hand.pk), table_rows(room))
    assert outcome == "waited"  # it moves the players' balances: it needs their rows
    assert Settlement.objects.filter(hand=hand).count() == 1


def test_a_join_and_a_socket_cap_check_take_the_user_before_the_room(players, make_user):
    room = services.room_create(owner=players[0], variant="sichuan", hands=1)
    comer = make_user("eve")

    def join_and_connect():
        services.room_join(room_id=room.pk, user=comer)
        limits.check_sockets(comer)
        presence.seat_presence(room_id=room.pk, user=comer, channel="lock-order", present=True)

    assert check_path([comer], join_and_connect, table_rows(room)) == "waited"


def test_moves_leaves_and_votes_need_no_users_row(players):
    room, hand = four_seated(players, hands=2)

    def act():
        state = HandState.from_json(Hand.objects.get(pk=hand.pk).state)
        seat = sorted(awaited(state))[0]
        services.hand_act(
            room_id=room.pk,
            user=players[seat],
            version=state.version,
            action=legal_actions(state, seat)[0],
        )

    assert check_path(players, act, table_rows(room)) == "ran through"
    propose = lambda: votes.vote_propose(room_id=room.pk, user=players[1])  # noqa: E731
    assert check_path(players, propose, table_rows(room)) == "ran through"
    leave = lambda: services.room_leave(room_id=room.pk, user=players[2])  # noqa: E731
    assert check_path(players, leave, table_rows(room)) == "ran through"


def test_the_ranked_matcher_takes_the_players_rows_before_their_queue_entries(players):
    now = timezone.now()
    season = current_season(now)
    group = [
        QueueEntry.objects.create(
            user=u, variant="sichuan", joined_at=now, seen_at=now, address=f"10.0.0.{i}"
        )
        for i, u in enumerate(players)
    ]
    entries = {"ranked_queueentry": [e.pk for e in group]}
    seat = lambda: matcher.table_seat(group, "sichuan", season, now)  # noqa: E731
    assert check_path(players, seat, entries) == "waited"
    assert (
        QueueEntry.objects.filter(pk__in=entries["ranked_queueentry"], room__isnull=False).count()
        == 4
    )
