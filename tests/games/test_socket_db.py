"""The table socket's database calls (``consumers._db``): no health-check round trip per
call; instead a call whose connection died runs once more on a new connection, and a
call the database refused on a working connection is not run again."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError, connection, transaction

from games.models import Room
from games.table.consumers import _db

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_call_whose_connection_died_runs_again_on_a_new_one(make_user):
    make_user("ann")
    seen, kill = [], []

    @transaction.atomic
    def count_rooms():
        n = Room.objects.count()
        seen.append(id(connection.connection))
        if kill and len(seen) == 1:
            connection.connection.close()  # the server went away under this connection
            n = Room.objects.count()
        return n

    async_to_sync(_db(count_rooms))()  # the connection is opened and kept by the thread
    seen.clear()
    kill.append(True)
    assert async_to_sync(_db(count_rooms))() == 0
    assert len(seen) == 2 and seen[0] != seen[1]  # run again, on another connection


def test_a_call_the_database_refused_is_not_run_again():
    calls = []

    def refused():
        calls.append(Room.objects.count())  # a working connection
        raise OperationalError("could not obtain lock on row")

    with pytest.raises(OperationalError):
        async_to_sync(_db(refused))()
    assert calls == [0]
