"""A real match, played by bots' policy to the end, is recorded once with its figures."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Hand, Room, Seat, Settlement
from games.table import services
from records.models import Match
from records.services import match_finished
from tests.games.conftest import four_seated, play_out
from tests.live import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def wait_recorded(room, timeout: float = 30) -> Match:
    """The record is written by a task queued after the last settlement: inline here, on
    a real worker in the services profile (after the settlement task is done)."""
    return wait_for(
        lambda: Match.objects.filter(room=room).first(),
        timeout,
        f"the match of room {room.pk} to be recorded",
    )


def test_a_finished_match_is_recorded_once_with_its_figures(make_user):
    users = [make_user(n) for n in ("ann", "bo", "cy", "di")]
    room, _first = four_seated(users, hands=2)
    play_out(room)
    assert not Match.objects.filter(room=room).exists()  # one hand still to play
    assert match_finished(room) is None
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    play_out(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    match = wait_recorded(room)  # written by a task the last settlement queued
    hands = list(Hand.objects.filter(room=room).order_by("number"))
    assert [h["id"] for h in match.summary["hands"]] == [h.pk for h in hands]
    assert match.ended_by == "complete"
    assert match.started_at == hands[0].started_at
    assert match.ended_at == hands[-1].ended_at
    seats = dict(Seat.objects.filter(room=room).values_list("index", "score"))
    players = list(match.players.order_by("seat"))
    assert [p.total for p in players] == [seats[i] for i in range(4)]
    assert sum(p.total for p in players) == 0
    assert [p.user_id for p in players] == [u.pk for u in users]
    assert set(match.participants.all()) == set(users)
    won = [w for h in hands for w in h.state["won"] if w]
    assert sum(p["wins"] for p in match.summary["players"]) == len(won)
    deltas = [Settlement.objects.get(hand=h).deltas for h in hands]
    assert [h["deltas"] for h in match.summary["hands"]] == deltas
    # Idempotent: asked again (a retried task, a dissolve after the end), nothing new.
    assert match_finished(room, ended_by="dissolved") == match
    assert Match.objects.filter(room=room).count() == 1
    assert Match.objects.get(room=room).ended_by == "complete"


def test_backfill_records_rooms_that_finished_unrecorded(make_user):
    users = [make_user(n) for n in ("ann", "bo", "cy", "di")]
    room, _hand = four_seated(users, hands=1)
    play_out(room)
    wait_recorded(room).delete()
    call_command("records_backfill")
    assert Match.objects.filter(room=room).count() == 1
    call_command("records_backfill")
    assert Match.objects.filter(room=room).count() == 1
