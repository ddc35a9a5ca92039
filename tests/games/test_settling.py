"""A hand's settlement is owed until done: a send the broker refuses is logged and
the sweeper's resend settles and rates the hand exactly once."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from celery import Celery
from django.db import OperationalError

from config import obligations
from config.celery import app as project_app
from games.models import Hand, Room, Seat, Settlement
from games.table import services, settling, sweeper
from games.tasks import settle_hand
from leaderboards.models import Rating, RatingChange
from records.models import Match
from tests.games.conftest import sweep
from tests.live import free_port, wait_for

# The hand's end queues its settlement on commit.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dead_broker():
    """The project's Celery settings with a broker nobody listens on, as the current app."""
    app = Celery("dead-broker", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    app.conf.task_always_eager = False
    app.set_current()
    yield app
    project_app.set_current()


@pytest.fixture
def resend_at_once(settings):
    settings.GAME_SETTLE_RESEND_SECONDS = 0


def test_a_refused_send_is_logged_and_fails_fast(dead_broker, caplog):
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.table.settling"):
        assert settling.settlement_send(12345) is False
    assert time.monotonic() - started < 5
    assert "settlement of 12345" in caplog.text


def _ended_hand(make_user) -> Hand:
    """A hand of ann (played for, as the bots are: at once) and three bots, ended now."""
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    Seat.objects.filter(room=room, user=ann).update(auto=True)
    services.room_ready(room_id=room.pk, user=ann)
    for _ in range(500):
        sweep()
        hand = Hand.objects.get(room=room)
        if hand.status == Hand.Status.ENDED:
            return hand
    raise AssertionError("hand did not end")


def test_the_sweep_settles_a_hand_whose_task_was_never_queued(
    make_user, dead_broker, resend_at_once
):
    hand = _ended_hand(make_user)
    assert not Settlement.objects.filter(hand=hand).exists()
    assert settling.unsettled_hands() == [hand.pk]
    assert settling.settlements_resend() == 0  # still refused: stays owed
    project_app.set_current()

    assert settling.settlements_resend() == 1
    _wait_marked(hand)
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert RatingChange.objects.filter(hand=hand).count() == 4
    assert settling.unsettled_hands() == []
    assert settling.settlements_resend() == 0


def test_a_hand_owed_only_its_rating_is_rated_once(make_user, resend_at_once):
    """The worker died after storing the settlement: the resend rates the hand, and
    later copies of the task change nothing."""
    hand = _ended_hand(make_user)
    _wait_marked(hand)
    room = hand.room
    RatingChange.objects.filter(hand=hand).delete()
    Hand.objects.filter(pk=hand.pk).update(settled_at=None)
    scores = list(Seat.objects.filter(room=room).values_list("score", flat=True))

    assert settling.unsettled_hands() == [hand.pk]
    assert settling.settlements_resend() == 1
    _wait_marked(hand)
    rated = list(Rating.objects.order_by("user_id").values_list("user_id", "mu", "hands"))
    for _ in range(2):
        assert settle_hand.apply(args=[hand.pk]).get() is False
    assert list(Rating.objects.order_by("user_id").values_list("user_id", "mu", "hands")) == rated
    assert RatingChange.objects.filter(hand=hand).count() == 4
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert list(Seat.objects.filter(room=room).values_list("score", flat=True)) == scores


def _wait_marked(hand: Hand, timeout: float = 30) -> None:
    """The settlement task (inline, or on the services profile's worker) marked the hand,
    and the match it finished is recorded: the worker's last write for it, which must not
    meet the test's teardown emptying the tables."""
    wait_for(
        lambda: Hand.objects.filter(pk=hand.pk, settled_at__isnull=False).exists(),
        timeout,
        f"hand {hand.pk} to be marked settled",
        step=0.05,
    )
    if Room.objects.filter(pk=hand.room_id, status=Room.Status.FINISHED).exists():
        wait_for(
            lambda: Match.objects.filter(room_id=hand.room_id).exists(),
            timeout,
            f"the match of room {hand.room_id} to be recorded",
            step=0.05,
        )


def test_a_hand_is_resent_only_after_the_grace(make_user, settings, dead_broker):
    settings.GAME_SETTLE_RESEND_SECONDS = 60
    hand = _ended_hand(make_user)
    assert settling.unsettled_hands() == []  # its own task may still be on its way
    assert settling.unsettled_hands(older_than=0) == [hand.pk]


def test_one_process_resends_per_period(make_user, settings, dead_broker):
    """However many processes sweep, one takes each period's resend (the cache's turn)."""
    settings.GAME_SETTLE_RESEND_SECONDS = 3
    hand = _ended_hand(make_user)
    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(seconds=3))
    project_app.set_current()
    assert settling.settlement_resend_due() == 1
    _wait_marked(hand)
    assert settling.settlement_resend_due() == 0  # this process: not again this period
    Hand.objects.filter(pk=hand.pk).update(settled_at=None)
    obligations._last_resend.pop("settlement")  # as another process, which has its own clock
    assert settling.settlement_resend_due() == 0  # the deployment's turn is taken


def test_failing_sweeps_back_off_and_log_once_per_outage(monkeypatch, caplog):
    outage = {"left": 4}

    def sweep_once():
        if outage["left"]:
            outage["left"] -= 1
            raise OperationalError("connection refused")
        return 0

    monkeypatch.setattr(sweeper, "sweep_once", sweep_once)
    pace = sweeper.Pace(0.25)
    with caplog.at_level(logging.INFO, logger="games.table.sweeper"):
        pauses = [pace.step() for _ in range(6)]
    assert pauses == [0.5, 1.0, 2.0, 4.0, 0.25, 0.25]
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert "after 4 failed" in caplog.records[1].getMessage()
    pace = sweeper.Pace(1.0)
    outage["left"] = 10
    assert max(pace.step() for _ in range(10)) == sweeper.BACKOFF_CEILING


def test_the_in_process_sweeper_keeps_sweeping_through_an_outage(monkeypatch, caplog):
    """A server process's sweeper loop (``sweep_forever``) outlives failing sweeps."""
    import asyncio
    import threading

    calls, sixth = [], threading.Event()

    def sweep_once():  # in a worker thread (database_sync_to_async)
        calls.append(time.monotonic())
        if len(calls) == 6:
            sixth.set()
        if len(calls) <= 3:
            raise OperationalError("server closed the connection unexpectedly")
        return 0

    monkeypatch.setattr(sweeper, "sweep_once", sweep_once)

    async def run():
        task = asyncio.ensure_future(sweeper.sweep_forever(0.01))
        done = asyncio.ensure_future(asyncio.to_thread(sixth.wait, 30))
        await asyncio.wait([task, done], return_when=asyncio.FIRST_COMPLETED)
        assert not task.done(), task  # the loop never ends on its own
        assert done.result(), f"{len(calls)} sweeps in 30 s"
        task.cancel()

    with caplog.at_level(logging.INFO, logger="games.table.sweeper"):
        asyncio.run(run())
    pauses = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert pauses[2] >= 0.08  # the third failure waits 2**3 intervals
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]


def test_a_dead_workers_task_returns_to_the_queue_within_minutes():
    timeout = project_app.conf.broker_transport_options["visibility_timeout"]
    assert 60 <= timeout <= 900  # Redis' own default is an hour
    assert project_app.conf.task_acks_late is True


@pytest.fixture
def idle_broker():
    """The project's Celery settings with an in-process broker no worker reads: a task
    sent stays queued."""
    app = Celery("idle-broker", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = "memory://"
    app.conf.task_always_eager = False
    app.set_current()
    yield app
    # The in-process broker's queues are the process's: leave none behind for a later
    # test's look at the queue.
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(app.conf.task_default_queue)
    project_app.set_current()


def test_owed_hands_are_not_resent_while_tasks_wait_in_the_queue(make_user, idle_broker):
    """A burst of hand ends queues tasks faster than the worker takes them: hands still
    owed are in the queue, and a resend would only queue duplicates behind them."""
    settling.settlement_send(987654)  # another hand's task, waiting
    hand = _ended_hand(make_user)
    assert settling.unsettled_hands(older_than=0) == [hand.pk]
    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(minutes=1))
    assert obligations.queue_waiting() >= 1
    assert settling.settlements_resend() == 0
    with idle_broker.connection_for_write() as conn:
        conn.default_channel.queue_purge(idle_broker.conf.task_default_queue)
    assert obligations.queue_waiting() == 0
    assert settling.settlements_resend() == 1  # the queue drained, the hand still owed
