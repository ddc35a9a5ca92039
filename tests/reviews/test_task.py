"""The review task: idempotent, stores a review once, and a hand that cannot be
replayed is marked failed rather than retried for ever."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Hand
from games.replays.selectors import hand_record
from games.rules.review import review
from games.table import services as game_services
from reviews.models import HandReview
from reviews.tasks import review_hand
from tests.games.test_api import logged_in
from tests.games.test_fair import played_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_task_stores_the_review_once(make_user):
    ann, room, hand = played_hand(make_user)
    row = HandReview.objects.create(hand=hand, seat=2, sent_at=timezone.now())
    assert review_hand(row.pk) is True
    row.refresh_from_db()
    assert row.status == HandReview.Status.DONE and row.error == ""
    assert row.entries == review(hand_record(hand), 2)
    stored_at = row.done_at
    # Run again (a redelivered or resent task): nothing is written.
    assert review_hand(row.pk) is False
    row.refresh_from_db()
    assert row.done_at == stored_at and row.entries == review(hand_record(hand), 2)
    assert HandReview.objects.count() == 1
    assert review_hand(987654) is False  # a review deleted meanwhile


def test_a_hand_that_cannot_be_replayed_is_refused_and_its_review_marked_failed(make_user):
    ann = make_user("ann")
    room = game_services.room_create(owner=ann, variant="sichuan", bots=3)
    legacy = Hand.objects.create(
        room=room,
        number=1,
        variant="sichuan",
        rules={},
        server_seed="",
        commitment="",
        players=[s.user_id for s in room.seats.order_by("index")],
        state={},
        status=Hand.Status.ENDED,
        ended_at=timezone.now(),
    )
    r = logged_in(ann).post(f"/api/hands/{legacy.pk}/reviews/")
    assert r.status_code == 409 and r.json()["code"] == "no_record"
    assert not HandReview.objects.exists()
    row = HandReview.objects.create(hand=legacy, seat=0, sent_at=timezone.now())
    assert review_hand(row.pk) is True
    row.refresh_from_db()
    assert row.status == HandReview.Status.FAILED and row.entries is None and row.error
    assert review_hand(row.pk) is False


def test_asking_again_sends_a_review_left_pending_too_long_and_only_then(make_user, settings):
    from datetime import timedelta

    from tests.reviews.test_api import url, wait_done

    ann, room, hand = played_hand(make_user)
    me = logged_in(ann)
    # A request whose task was lost (a broker down when it was sent): still pending.
    row = HandReview.objects.create(hand=hand, seat=0, sent_at=timezone.now())
    r = me.post(url(hand))
    assert r.status_code == 202 and r.json()["status"] == "pending"
    assert HandReview.objects.get(pk=row.pk).sent_at == row.sent_at  # too soon to resend
    HandReview.objects.filter(pk=row.pk).update(
        sent_at=timezone.now() - timedelta(seconds=settings.REVIEW_RESEND_SECONDS + 1)
    )
    assert me.post(url(hand)).status_code in (200, 202)
    assert wait_done(me, hand, 0)["status"] == "done"
    assert HandReview.objects.count() == 1
