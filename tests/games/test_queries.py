"""SQL queries per table action: a fixed, small number, and a test that fails if it grows.

Every action a player sends on the socket is ``services.hand_act`` (the consumer only
parses the frame and calls it).  Here a real room's hand is laid out from a rigged deal
(``tests/rules/rig.py``) so the same moves happen every run, and each kind of action is
counted twice over: the queries of its transaction (lock, reads, log insert, snapshot
and deadline update) and those of what runs after the commit (``publish`` building the
messages for the sockets).  The hand end's after-commit work also queues the settlement,
which the embedded profile runs inline and the services profile on a worker, so only
its transaction is counted.

The ceilings are today's counts (2026-12-01, the same on SQLite and PostgreSQL):
lower them when an optimisation lands, never raise them without saying why.  These are
the counts of a move decided under the room lock (the test's transaction makes every
move one); on PostgreSQL a move at a table whose last move this process wrote is one
statement, counted in ``test_kept_tables.py``.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.models import Hand, HandAction
from games.rules import tiles as T
from tests.games.conftest import four_seated
from tests.live import untimed_room
from tests.rules.rig import rig

pytestmark = pytest.mark.django_db

# Seat 0 (dealer) throws 1s, which seat 1 may 碰 (a claim window); seat 1 passes, draws
# and throws (no claim: a plain discard), seats 2 and 3 throw what they draw, and seat 0
# self-draws 5p for its win.
HANDS = ["123456789m5567p1s", "113579s2468s9s88p", "1112223334446m", "1112223334449p"]
QUE = "smps"
FRONT = "678s5p"

# name: (queries in the action's transaction, queries after its commit).  Measured
# 2026-12-01 on SQLite and PostgreSQL alike.  The transaction's 5 are: SAVEPOINT (the
# test's transaction stands in for BEGIN), lock the room row and read its playing hand
# and the room's seats revision (one statement), update the hand's snapshot and
# deadlines (conditional on the version read), insert the log row, RELEASE (for COMMIT).
# Since 2026-12-02 PostgreSQL updates the snapshot and inserts the log row in one
# statement (``rows.update_then_insert``): 4 there.
# The seats with their users are read once per process and seats revision (the first
# action at a table here: 6).  The hand end adds the room's move to the next hand (room
# update, seats reset, seats whose player left opened): three statements on SQLite; on
# PostgreSQL, since 2026-12-03, part of the hand's own statement (``finisher.hand_ended``
# returns them as ``rows.Update``s): 4 there, as for any move under the lock.  After the
# commit the per-seat messages are already built: no query.  (Before: 7 and 10, the lock
# and the hand read being two statements; then 6 and 9, the seats read every action.)
SQLITE_CEILINGS = {
    "discard": (5, 0),
    "claim_open": (5, 0),
    "claim_pass": (5, 0),
    "win": (5, 0),
    "hand_end": (8, None),
}
POSTGRESQL_CEILINGS = {
    **{name: (tx - 1, after) for name, (tx, after) in SQLITE_CEILINGS.items()},
    "hand_end": (4, None),
}


def ceilings() -> dict:
    return POSTGRESQL_CEILINGS if connection.vendor == "postgresql" else SQLITE_CEILINGS


# What the first action at a table in a process adds: reading its seats (on any action,
# refused ones too) and, on the first one recorded, who has a socket there (kept until a
# socket opens or closes: the spectators' view is built only when someone watches) and
# the hand's snapshot (after that, the state this process recorded: ``_hand_state``).
FIRST_AT_TABLE = 1


def _snapshot_reads(queries) -> int:
    """Loads of a hand's deferred ``state`` column (the snapshot) in captured queries:
    the column alone (the test's own reads of the whole hand are not counted)."""
    return sum(
        q["sql"].startswith("SELECT")
        and '"games_hand"."state" FROM' in q["sql"]
        and '"version"' not in q["sql"]
        for q in queries
    )


def _table(make_user, **rig_args):
    """A four-player room with the lobby's default timers, its hand laid out by ``rig``."""
    users = [make_user(f"q{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    assert not HandAction.objects.filter(hand=hand).exists()
    state = rig(HANDS, que=QUE, front=FRONT, **rig_args)
    hand.state, hand.version = state.to_json(), state.version
    hand.save(update_fields=["state", "version"])
    # A snapshot rewritten behind the services' back: no process may keep the old one.
    services._STATES.pop(hand.pk, None)
    return room, users


def _act(room, user, action, django_capture_on_commit_callbacks, *, after_commit=True):
    """Run one action as the consumer does; (transaction queries, after-commit queries)."""
    version = Hand.objects.get(room=room, status=Hand.Status.PLAYING).version
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with CaptureQueriesContext(connection) as in_tx:
            services.hand_act(room_id=room.pk, user=user, version=version, action=action)
    if not after_commit:
        return len(in_tx), None
    with CaptureQueriesContext(connection) as after:
        for callback in callbacks:
            callback()
    return len(in_tx), len(after)


def _drawn(room) -> str:
    from games.rules import HandState

    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    return T.to_str(HandState.from_json(hand.state).drawn)


def test_queries_per_action_stay_at_todays_counts(make_user, django_capture_on_commit_callbacks):
    room, users = _table(make_user)
    cap = django_capture_on_commit_callbacks
    seen = {}
    services._SEATS.clear()  # as a process that has not served this table yet
    selectors._PRESENT.clear()
    with CaptureQueriesContext(connection) as cold:
        with pytest.raises(services.ServiceError):  # out of turn: refused, after the reads
            services.hand_act(room_id=room.pk, user=users[1], version=0, action={"type": "pass"})
    assert sum("games_seat" in q["sql"] for q in cold.captured_queries) == FIRST_AT_TABLE
    with CaptureQueriesContext(connection) as first:
        claim_open = _act(room, users[0], {"type": "discard", "tile": "1s"}, cap)
    presence = sum("games_presence" in q["sql"] for q in first.captured_queries)
    assert presence == FIRST_AT_TABLE
    snapshot = _snapshot_reads(first.captured_queries)
    assert snapshot == FIRST_AT_TABLE
    seen["claim_open"] = (claim_open[0] - presence - snapshot, claim_open[1])
    seen["claim_pass"] = _act(room, users[1], {"type": "pass"}, cap)
    seen["discard"] = _act(room, users[1], {"type": "discard", "tile": _drawn(room)}, cap)
    for seat in (2, 3):
        _act(room, users[seat], {"type": "discard", "tile": _drawn(room)}, cap)
    assert _drawn(room) == "5p"
    seen["win"] = _act(room, users[0], {"type": "hu"}, cap)
    assert Hand.objects.get(room=room, number=1).status == Hand.Status.PLAYING  # 血战: on

    # A short wall: seat 3's throw empties it and ends the hand (the finisher runs).
    room2, users2 = _table(_renamed(make_user), wall_size=4)
    _act(room2, users2[0], {"type": "discard", "tile": "1s"}, cap)
    _act(room2, users2[1], {"type": "pass"}, cap)
    for seat in (1, 2):
        _act(room2, users2[seat], {"type": "discard", "tile": _drawn(room2)}, cap)
    seen["hand_end"] = _act(
        room2, users2[3], {"type": "discard", "tile": _drawn(room2)}, cap, after_commit=False
    )
    assert Hand.objects.get(room=room2, number=1).status == Hand.Status.ENDED

    print("queries per action (transaction, after commit):", seen)
    over = {
        name: (seen[name], ceiling)
        for name, ceiling in ceilings().items()
        if seen[name][0] > ceiling[0]
        or (ceiling[1] is not None and seen[name][1] is not None and seen[name][1] > ceiling[1])
    }
    assert not over, f"more SQL per action than today's ceiling (seen, ceiling): {over}"


def _renamed(make_user):
    return lambda name: make_user(f"b{name}")


def test_a_table_without_timers_reads_presence_once_not_every_action(
    make_user, django_capture_on_commit_callbacks
):
    """Without timers a seat's clock depends on whether its player is connected: that is
    read once and kept (keyed by the room's ``presence_rev``), not queried per action;
    a socket closing changes the rev, and the next clock sees it."""
    from datetime import datetime

    from games.models import Presence, Room

    users = [make_user(f"u{i}") for i in range(4)]
    room = untimed_room(users, hands=2)
    for i, u in enumerate(users):
        services.seat_presence(room_id=room.pk, user=u, channel=f"c{i}", present=True)
        services.room_ready(room_id=room.pk, user=u)
    cap = django_capture_on_commit_callbacks
    suits = "mpsm"
    counts = [
        _act(room, users[i], {"type": "ding_que", "suit": suits[i]}, cap)[0] for i in range(3)
    ]
    # Only the first reads presence (and the seats).
    assert counts[0] > counts[1] == counts[2] == ceilings()["discard"][0], counts
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    assert hand.deadlines["seats"] == {}  # everyone awaited is here: no clock
    # Seat 3's socket closes (on another server, as far as this process knows): the
    # rev moves and seat 3, still to choose, gets the away clock.
    services.seat_presence(room_id=room.pk, user=users[3], channel="c3", present=False)
    assert not Presence.objects.filter(user=users[3]).exists()
    hand.refresh_from_db()
    assert set(hand.deadlines["seats"]) == {"3"}
    assert datetime.fromisoformat(hand.deadlines["seats"]["3"])
    assert Room.objects.get(pk=room.pk).presence_rev != 0


def _state_rev(hand_id) -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT state_rev FROM games_hand WHERE id = %s", [hand_id])
        return cur.fetchone()[0]


def _seats_rev(room_id) -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT seats_rev FROM games_room WHERE id = %s", [room_id])
        return cur.fetchone()[0]


def test_the_seats_read_once_are_read_again_when_any_seat_row_changes(
    make_user, django_capture_on_commit_callbacks
):
    """The seats are kept per process by the room's ``seats_rev``, which the database
    changes on every write to a seat row, whoever makes it (triggers): a player who
    left mid-hand cannot act on seats cached before, and no model ``save()`` can put an
    old revision back."""
    from games.models import Room, Seat

    room, users = _table(make_user)
    cap = django_capture_on_commit_callbacks
    _act(room, users[0], {"type": "discard", "tile": "1s"}, cap)  # the seats are cached
    cached = services._SEATS[room.pk]
    assert cached[0] == _seats_rev(room.pk)
    assert [s.user_id for s in cached[1]] == [u.pk for u in users]

    # A write no service wraps (an admin, a script): the revision moves all the same.
    before = _seats_rev(room.pk)
    Seat.objects.filter(room=room, index=2).update(auto=True)
    after_update = _seats_rev(room.pk)
    assert after_update != before
    # A whole-row save of a room read before cannot put the old revision back.
    stale = Room.objects.get(pk=room.pk)
    stale.save()
    assert _seats_rev(room.pk) == after_update

    # Seat 1 leaves mid-hand (a bot plays for it); acting as seat 1 is refused at once,
    # not allowed on the seats cached before.
    services.room_leave(room_id=room.pk, user=users[1])
    with pytest.raises(services.ServiceError) as refused:
        services.hand_act(room_id=room.pk, user=users[1], version=0, action={"type": "pass"})
    assert refused.value.code == "not_seated"
    rev, seats = services._SEATS[room.pk]
    assert rev == _seats_rev(room.pk) != after_update
    assert seats[1].left and seats[2].auto


def test_the_state_kept_in_process_is_the_snapshot_and_a_stale_one_is_not_used(
    make_user, django_capture_on_commit_callbacks
):
    """The state an action is applied to comes from the process's cache only while its
    version is the one read under the room lock: then it is exactly the snapshot (no
    read of it); when another process recorded the table's last action (here: one whose
    commit hooks this process never ran), the snapshot is read and the action applies to
    it."""
    from games.rules import HandState

    room, users = _table(make_user)
    cap = django_capture_on_commit_callbacks
    _act(room, users[0], {"type": "discard", "tile": "1s"}, cap)  # the first: kept after
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    rev, version, kept = services._STATES[hand.pk]
    assert (rev, version) == (_state_rev(hand.pk), hand.version)
    assert kept.to_json() == HandState.from_json(hand.state).to_json() == hand.state

    with CaptureQueriesContext(connection) as warm:
        _act(room, users[1], {"type": "pass"}, cap)
    assert _snapshot_reads(warm.captured_queries) == 0
    hand.refresh_from_db()
    assert services._STATES[hand.pk][1] == hand.version
    assert services._STATES[hand.pk][2].to_json() == hand.state

    # Seat 1's discard recorded "elsewhere": this process keeps the version before it.
    with django_capture_on_commit_callbacks(execute=False):
        services.hand_act(
            room_id=room.pk,
            user=users[1],
            version=hand.version,
            action={"type": "discard", "tile": _drawn(room)},
        )
    hand.refresh_from_db()
    assert services._STATES[hand.pk][1] == hand.version - 1
    with CaptureQueriesContext(connection) as cold:
        _act(room, users[2], {"type": "discard", "tile": _drawn(room)}, cap)
    assert _snapshot_reads(cold.captured_queries) == 1
    hand.refresh_from_db()
    assert HandState.from_json(hand.state).discards[1]  # seat 1's discard is in it
    assert services._STATES[hand.pk][2].to_json() == hand.state

    # The snapshot rewritten by something else at the same version (an admin, a script):
    # the database gives it a new revision, so the kept state is not used.
    rigged = HandState.from_json(hand.state)
    seat = rigged.turn
    rigged.hands[seat], rigged.hands[(seat + 1) % 4] = (
        rigged.hands[(seat + 1) % 4],
        rigged.hands[seat],
    )
    before = _state_rev(hand.pk)
    with connection.cursor() as cur:  # as a script would, behind the models' back
        cur.execute(
            "UPDATE games_hand SET state = %s WHERE id = %s",
            [json.dumps(rigged.to_json()), hand.pk],
        )
    assert _state_rev(hand.pk) != before
    assert services._STATES[hand.pk][0] == before  # this process still holds the old one
    hand.refresh_from_db()
    with CaptureQueriesContext(connection) as rigged_read:
        services.hand_act(
            room_id=room.pk,
            user=users[seat],
            version=hand.version,
            action={"type": "discard", "tile": T.to_str(rigged.hands[seat][0])},
        )
    assert _snapshot_reads(rigged_read.captured_queries) == 1


def test_the_table_statements_are_prepared_on_postgresql(
    make_user, django_capture_on_commit_callbacks
):
    """On PostgreSQL the statements every action runs are bound by the server and
    prepared once a connection has run them ``DB_PREPARE_THRESHOLD`` (5) times
    (``config/settings.py``): planned once, not at every action.  SQLite plans nothing
    of the kind and gets no such options."""
    from games.rules import HandState, legal_actions
    from tests.live import choose

    room, users = _table(make_user)
    for _ in range(8):
        hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
        state = HandState.from_json(hand.state)
        seat = next(s for s in range(4) if legal_actions(state, s))
        action = choose(legal_actions(state, seat))
        _act(room, users[seat], action, django_capture_on_commit_callbacks)
    options = connection.settings_dict.get("OPTIONS", {})
    if connection.vendor != "postgresql":
        assert "prepare_threshold" not in options and "server_side_binding" not in options
        return
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cur.fetchall()]
    assert any("FOR UPDATE OF r" in s and "games_hand" in s for s in prepared), prepared
    # The snapshot update and the log insert: one statement (``rows.update_then_insert``).
    assert any(
        s.startswith('WITH changed AS (UPDATE "games_hand"')
        and 'INSERT INTO "games_handaction"' in s
        for s in prepared
    ), prepared


# The settlement task (``games.tasks.settle_hand``) of a hand of four players: its
# settlement written and applied to the seats and balances, the players rated, the table
# told.  Measured 2026-12-02, SQLite and PostgreSQL alike: 23 queries (29 before the
# scores and the balances were written one statement each instead of one a player; the
# ratings are still saved one by one: ``bulk_update`` cost more CPU than it saved).
# 2026-12-04: 20, the announcement no longer reading back the hand, its settlement and
# its rating changes, which the task has just written or found.  Not counted: the room's
# payload the table is sent with it (after the commit).
SETTLE_CEILING = 20


def test_the_settlement_task_queries_stay_at_todays_count(make_user):
    """What a worker does at every hand end, in a fixed number of statements: the scores
    or the balances of the four players are one statement, not four."""
    from games.models import Seat, Settlement
    from games.rules import HandState, legal_actions
    from games.tasks import settle_hand
    from leaderboards.models import Rating, RatingChange
    from tests.live import choose

    users = [make_user(f"s{i}") for i in range(4)]
    room, hand = four_seated(users)
    for _ in range(200):
        hand.refresh_from_db()
        if hand.status == Hand.Status.ENDED:
            break
        state = HandState.from_json(hand.state)
        seat = next(s for s in range(4) if legal_actions(state, s))
        services.hand_act(
            room_id=room.pk,
            user=users[seat],
            version=hand.version,
            action=choose(legal_actions(state, seat)),
        )
    assert hand.status == Hand.Status.ENDED
    assert settle_hand.apply(args=[hand.pk]).get() is True  # (the test holds the commit)
    first = Settlement.objects.get(hand=hand)
    scores = list(Seat.objects.filter(room=room).order_by("index").values_list("score", flat=True))
    ratings = {r.user_id: (r.mu, r.sigma, r.hands) for r in Rating.objects.all()}
    # As if the hand had just ended: no settlement, no rating moved yet.
    Settlement.objects.filter(hand=hand).delete()
    RatingChange.objects.filter(hand=hand).delete()
    Seat.objects.filter(room=room).update(score=0)
    for user in users:
        user.balance = 0
        user.save(update_fields=["balance"])
    Rating.objects.all().delete()
    Hand.objects.filter(pk=hand.pk).update(settled_at=None)
    with CaptureQueriesContext(connection) as settled:
        assert settle_hand.apply(args=[hand.pk]).get() is True
    print("settlement task queries:", len(settled))
    # What it wrote is what the first run wrote.
    again = Settlement.objects.get(hand=hand)
    assert again.deltas == first.deltas
    seats = Seat.objects.filter(room=room).order_by("index").values_list("score", flat=True)
    assert list(seats) == scores == first.deltas
    for user, delta in zip(users, first.deltas, strict=True):
        user.refresh_from_db()
        assert user.balance == delta
    assert {r.user_id: (r.mu, r.sigma, r.hands) for r in Rating.objects.all()} == ratings
    assert len(settled) <= SETTLE_CEILING


def test_a_presence_change_reads_the_hand_only_while_one_is_played(make_user):
    """Sockets open and close in bursts as tables sit down (before the deal) and get up
    (after the hand): then the presence write's own statement says no hand is played,
    and the clocks are not looked at."""
    users = [make_user(f"p{i}") for i in range(4)]
    room = untimed_room(users, hands=1)

    def hand_reads(user, channel: str) -> int:
        with CaptureQueriesContext(connection) as ran:
            services.seat_presence(room_id=room.pk, user=user, channel=channel, present=True)
        return sum(q["sql"].startswith("SELECT") and "games_hand" in q["sql"] for q in ran)

    assert hand_reads(users[0], "before-deal") == 0
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    assert Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    assert hand_reads(users[1], "mid-hand") == 1  # an untimed table: the clocks may move
