"""A match at a room whose spectators see it late: its record (which holds the last
hand's result) waits for the delay, like that hand's replay, for anyone who did not
play in it."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import Room
from tests.records.factories import recorded_match

pytestmark = pytest.mark.django_db
DELAY = 30


def ids(response) -> set[int]:
    return {m["id"] for m in response.json()["results"]}


def test_a_match_record_waits_for_the_spectator_delay(client_for, people, club):
    ann, bob = people["owner"], people["member"]
    match = recorded_match(
        [ann, people["manager"], None, None],
        club=club,
        ended_at=timezone.now() - datetime.timedelta(seconds=5),
    )
    Room.objects.filter(pk=match.room_id).update(spectator_delay=DELAY)
    urls = (f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/summary/")
    listing = f"/api/clubs/{club.pk}/matches/"

    for url in urls:
        assert client_for(bob).get(url).status_code == 404, url
        assert client_for(ann).get(url).status_code == 200, url  # she played in it
    assert match.pk not in ids(client_for(bob).get(listing))
    assert match.pk in ids(client_for(ann).get(listing))
    assert client_for(bob).get(f"/records/matches/{match.pk}/").status_code == 404

    # Ended longer ago than the delay: the club's to read, as any match.
    match.ended_at = timezone.now() - datetime.timedelta(seconds=DELAY + 1)
    match.save(update_fields=["ended_at"])
    for url in urls:
        assert client_for(bob).get(url).status_code == 200, url
    assert match.pk in ids(client_for(bob).get(listing))
