"""A match's record is owed until written: a send the broker refuses is logged, and the
sweeps send it again until the match is recorded, once."""

from __future__ import annotations

import logging
import time

import pytest

from config import obligations
from config.celery import app as project_app
from games.models import Hand, Room, Seat
from games.table import services
from games.tasks import settle_hand
from records.models import Match, MatchPlayer
from records.services import MATCH_RECORD, records_owed
from tests.games.conftest import sweep
from tests.live import wait_for

# The settlement's end queues the record on commit.
pytestmark = pytest.mark.django_db(transaction=True)


def finished_room(make_user) -> Room:
    """A one-hand room of ann (played for) and three bots, its hand ended and settled
    here (in this process), the match over but its record's task refused."""
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    Seat.objects.filter(room=room, user=ann).update(auto=True)
    services.room_ready(room_id=room.pk, user=ann)

    def ended():
        sweep()  # bots, and ann played for, move at once
        return Hand.objects.filter(room=room, status=Hand.Status.ENDED).first()

    hand = wait_for(ended, 60, "the hand to end", step=0)
    assert settle_hand.apply(args=[hand.pk]).get() is True  # its record's send: refused
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    return room


def test_a_refused_send_is_logged_and_fails_fast(dead_broker, caplog):
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="config.obligations"):
        assert obligations.send(MATCH_RECORD, 12345) is False
    assert time.monotonic() - started < 5
    assert "match record of 12345" in caplog.text


def test_the_sweep_records_a_match_whose_task_was_lost(make_user, dead_broker, resend_at_once):
    room = finished_room(make_user)
    assert not Match.objects.filter(room=room).exists()
    assert records_owed(0) == [room.pk]
    assert obligations.resend(MATCH_RECORD) == 0  # still refused: stays owed
    project_app.set_current()

    assert obligations.resend(MATCH_RECORD) == 1
    wait_for(lambda: Match.objects.filter(room=room).exists(), 30, "the match's record")
    assert records_owed(0) == []
    assert obligations.resend(MATCH_RECORD) == 0
    # A copy of the task that arrives late changes nothing: one record, four seats.
    assert obligations.send(MATCH_RECORD, room.pk)
    time.sleep(0.5)
    assert Match.objects.filter(room=room).count() == 1
    assert MatchPlayer.objects.filter(match__room=room).count() == 4


def test_a_record_is_resent_only_after_the_grace(make_user, settings, dead_broker):
    settings.GAME_SETTLE_RESEND_SECONDS = 60
    room = finished_room(make_user)
    assert records_owed(60) == []  # its own task may still be on its way
    assert records_owed(0) == [room.pk]


def test_a_room_with_a_hand_still_unsettled_is_not_owed_a_record(
    make_user, dead_broker, resend_at_once
):
    room = finished_room(make_user)
    Hand.objects.filter(room=room).update(settled_at=None)
    assert records_owed(0) == []
