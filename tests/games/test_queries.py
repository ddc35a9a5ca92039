"""SQL queries per table action: a fixed, small number, and a test that fails if it grows.

Every action a player sends on the socket is ``services.hand_act`` (the consumer only
parses the frame and calls it).  Here a real room's hand is laid out from a rigged deal
(``tests/rules/rig.py``) so the same moves happen every run, and each kind of action is
counted twice over: the queries of its transaction (lock, reads, log insert, snapshot
and deadline update) and those of what runs after the commit (``publish`` building the
messages for the sockets).  The hand end's after-commit work also queues the settlement,
which the embedded profile runs inline and the services profile on a worker, so only
its transaction is counted.

The ceilings are today's counts: lower them when an optimisation lands, never raise
them without saying why.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Hand, HandAction
from games.rules import tiles as T
from games.table import presence, services
from tests.games.conftest import four_seated, sweep
from tests.live import untimed_room
from tests.rules.rig import rig

pytestmark = pytest.mark.django_db

# Seat 0 (dealer) throws 1s, which seat 1 may 碰 (a claim window); seat 1 passes, draws
# and throws (no claim: a plain discard), seats 2 and 3 throw what they draw, and seat 0
# self-draws 5p for its win.
HANDS = ["123456789m5567p1s", "113579s2468s9s88p", "1112223334446m", "1112223334449p"]
QUE = "smps"
FRONT = "678s5p"

# name: (queries in the action's transaction, queries after its commit).  The
# transaction's are: SAVEPOINT (the test's transaction stands in for BEGIN), lock the
# room row, read its playing hand, read the seats with their users, update the hand's
# snapshot and deadlines, insert the log row, RELEASE (for COMMIT).  On PostgreSQL
# (``games.table.store``) the hand and seats are one read, the update and the insert
# one statement.  The hand end adds the room's move to the next hand (whether a dissolve
# vote passed, room update, seats reset, seats whose player left opened).  After the
# commit the per-seat messages are already built: no query.
SQLITE_CEILINGS = {
    "discard": (7, 0),
    "claim_open": (7, 0),
    "claim_pass": (7, 0),
    "win": (7, 0),
    "hand_end": (11, None),
}
POSTGRESQL_CEILINGS = {
    "discard": (5, 0),
    "claim_open": (5, 0),
    "claim_pass": (5, 0),
    "win": (5, 0),
    "hand_end": (9, None),
}


def ceilings() -> dict:
    return POSTGRESQL_CEILINGS if connection.vendor == "postgresql" else SQLITE_CEILINGS


def _table(make_user, **rig_args):
    """A four-player room with the lobby's default timers, its hand laid out by ``rig``."""
    users = [make_user(f"q{i}") for i in range(4)]
    room, hand = four_seated(users, hands=2)
    assert not HandAction.objects.filter(hand=hand).exists()
    state = rig(HANDS, que=QUE, front=FRONT, **rig_args)
    hand.state, hand.version = state.to_json(), state.version
    hand.save(update_fields=["state", "version"])
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
    with pytest.raises(services.ServiceError):  # out of turn: refused, nothing written
        services.hand_act(room_id=room.pk, user=users[1], version=0, action={"type": "pass"})
    seen["claim_open"] = _act(room, users[0], {"type": "discard", "tile": "1s"}, cap)
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


def test_a_table_without_timers_gives_a_player_who_goes_away_the_away_clock(
    make_user, django_capture_on_commit_callbacks
):
    """Without timers a seat's clock depends on whether its player is connected: a
    socket closing gives its seat, still to choose, the away clock."""
    from datetime import datetime

    from games.models import Presence

    users = [make_user(f"u{i}") for i in range(4)]
    room = untimed_room(users, hands=2)
    for i, u in enumerate(users):
        presence.seat_presence(room_id=room.pk, user=u, channel=f"c{i}", present=True)
        services.room_ready(room_id=room.pk, user=u)
    cap = django_capture_on_commit_callbacks
    suits = "mpsm"
    counts = [
        _act(room, users[i], {"type": "ding_que", "suit": suits[i]}, cap)[0] for i in range(3)
    ]
    # One more than a timed table's (which of its players are connected) on SQLite; on
    # PostgreSQL that is read with the hand.
    extra = 0 if connection.vendor == "postgresql" else 1
    assert max(counts) <= ceilings()["discard"][0] + extra, counts
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    assert hand.deadlines["seats"] == {}  # everyone awaited is here: no clock
    presence.seat_presence(room_id=room.pk, user=users[3], channel="c3", present=False)
    assert not Presence.objects.filter(user=users[3]).exists()
    hand.refresh_from_db()
    assert set(hand.deadlines["seats"]) == {"3"}
    assert datetime.fromisoformat(hand.deadlines["seats"]["3"])


def test_a_decision_awaiting_no_person_reads_no_presence(make_user):
    """At a table without timers presence sets a person's clock only: a decision that
    awaits bots alone (or nobody: a claim window no seat can answer) does not read it."""
    from django.utils import timezone

    from games.rules import HandState, apply, awaited, legal_actions
    from games.table.clocks import set_deadlines
    from games.table.selectors import seats_with_users

    ann = make_user("ann")
    room = services.room_create(
        owner=ann,
        variant="sichuan",
        bots=3,
        private=True,
        discard_seconds=None,
        claim_seconds=None,
    )
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    seats = seats_with_users(room.pk)
    state = HandState.from_json(hand.state)
    assert awaited(state) == [0, 1, 2, 3]  # 定缺: ann chooses too

    def presence_reads(state) -> int:
        with CaptureQueriesContext(connection) as queries:
            set_deadlines(room, hand, state, seats, timezone.now())
        return sum("games_presence" in q["sql"] for q in queries.captured_queries)

    assert presence_reads(state) == 1
    state, _ = apply(state, 0, legal_actions(state, 0)[0])  # ann has chosen: bots only
    assert awaited(state) == [1, 2, 3]
    assert presence_reads(state) == 0


def test_only_postgresql_gets_the_statement_preparing_options():
    """SQLite plans nothing of the kind and gets no such options."""
    options = connection.settings_dict.get("OPTIONS", {})
    if connection.vendor == "postgresql":
        assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
    else:
        assert "prepare_threshold" not in options and "server_side_binding" not in options


@pytest.mark.postgresql
def test_the_table_statements_are_prepared_on_postgresql(
    make_user, django_capture_on_commit_callbacks
):
    """On PostgreSQL the statements every action runs are bound by the server and
    prepared once a connection has run them five times
    (``config/settings.py``): planned once, not at every action."""
    from games.rules import HandState, legal_actions
    from tests.live import choose

    room, users = _table(make_user)
    for _ in range(8):
        hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
        state = HandState.from_json(hand.state)
        seat = next(s for s in range(4) if legal_actions(state, s))
        action = choose(legal_actions(state, seat))
        _act(room, users[seat], action, django_capture_on_commit_callbacks)
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cur.fetchall()]
    assert any(
        s.startswith("SELECT") and "FOR UPDATE" in s and "games_room" in s for s in prepared
    ), prepared
    assert any(s.startswith("SELECT") and "jsonb_agg" in s for s in prepared), prepared
    assert any(s.startswith("WITH saved AS (UPDATE games_hand") for s in prepared), prepared


@pytest.mark.postgresql
def test_a_move_is_three_statements_on_postgresql(make_user, django_capture_on_commit_callbacks):
    """On PostgreSQL a move's transaction is the store's three statements
    (``games.table.store``): lock the room; read the hand, the seats with their users
    and (a table without timers) who is connected; save the snapshot and append the
    action."""
    room, users = _table(make_user)
    version = Hand.objects.get(room=room, status=Hand.Status.PLAYING).version
    with django_capture_on_commit_callbacks(execute=False):
        with CaptureQueriesContext(connection) as ran:
            services.hand_act(
                room_id=room.pk,
                user=users[0],
                version=version,
                action={"type": "discard", "tile": "1s"},
            )
    sql = [q["sql"] for q in ran.captured_queries]
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT"), sql
    lock, read, save = sql[1:-1]
    assert lock.startswith("SELECT") and "FROM games_room r" in lock and "FOR UPDATE" in lock
    assert "FROM games_seat s" in read and "games_hand h" in read and "games_presence" in read
    assert (
        save.startswith("WITH saved AS (UPDATE games_hand")
        and "INSERT INTO games_handaction" in save
    )


# The settlement task (``games.tasks.settle_hand``) of a hand of four players: its
# settlement written and applied to the seats and balances, the players rated, the table
# told.  Not counted: the room's payload the table is sent with it (after the commit).
# Three of them take the lock order (``games.locks``): the hand's players and room read,
# then the players' rows and the room's locked before the hand's.
SETTLE_CEILING = 29


def test_the_settlement_task_queries_stay_at_todays_count(make_user):
    """What a worker does at every hand end, in a fixed number of statements, and what
    it writes is what a first run wrote."""
    from games.models import Seat, Settlement
    from games.rules import HandState, awaited, legal_actions
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
        if not awaited(state):  # a claim window nobody took: the sweeper closes it
            sweep()
            continue
        seat = awaited(state)[0]
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
    (after the hand): then the room's lock says no hand is played, and the clocks are
    not looked at."""
    users = [make_user(f"p{i}") for i in range(4)]
    room = untimed_room(users, hands=1)

    def hand_reads(user, channel: str) -> int:
        with CaptureQueriesContext(connection) as ran:
            presence.seat_presence(room_id=room.pk, user=user, channel=channel, present=True)
        return sum(q["sql"].startswith("SELECT") and "games_hand" in q["sql"] for q in ran)

    before_deal = hand_reads(users[0], "before-deal")
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    assert Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    # An untimed table mid-hand: the clocks may move, the hand is read.
    assert hand_reads(users[1], "mid-hand") == before_deal + 1
