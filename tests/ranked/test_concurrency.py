"""Matching passes racing one another (threads with their own connections stand in for
server processes): nobody is seated twice, and every queued player is seated once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ranked import matcher, services
from ranked.models import QueueEntry, RankedMatch, RankedSeat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def race(n, fn):
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = ("ok", fn())
        except Exception as e:  # noqa: BLE001 - reported below
            results[i] = ("crash", repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


@pytest.mark.parametrize("passes", [2, 4])
def test_passes_at_once_never_seat_a_player_twice(make_user, passes):
    users = [make_user(f"q{i}") for i in range(24)]
    for i, u in enumerate(users):
        services.queue_join(user=u, variant="sichuan", address=f"10.2.0.{i}")
    results = race(passes, matcher.match_pass)
    assert all(r[0] == "ok" for r in results), results
    # Passes that found the queue locked by another form their tables at the next pass.
    while QueueEntry.objects.filter(room__isnull=True).count() >= 4:
        assert matcher.match_pass() > 0
    seated = list(RankedSeat.objects.values_list("user_id", flat=True))
    assert len(seated) == len(set(seated)) == 24
    assert RankedMatch.objects.count() == 6
    rooms = set(QueueEntry.objects.values_list("room_id", flat=True))
    assert len(rooms) == 6 and None not in rooms
