"""The one order in which a transaction takes row locks.  Every write that locks more
than one row follows it, so no two transactions can each hold a row the other waits for.

1. **Users' rows** (``accounts.User``), by ascending id: the per-user caps
   (``games.table.limits``), the ranked queue, and a hand's settlement (which moves its
   players' balances).  Taken ``FOR NO KEY UPDATE`` (``users_lock``), so a row that only
   refers to a user (a presence row, a seat) may still be written meanwhile.
2. **A club's row**: joining it, its board's recount.
3. **A room's row** (``games.table.services.room_lock``): everything at one table, moves,
   joins, leaves, votes, presence, 托管, the start of a hand and a hand's settlement.
4. **A hand's row**: its settlement and its rating, under the room's or alone.
5. Everything else, only under one of the above: seats, actions, presence, settlements,
   ratings and boards, queue entries and ranked matches, reviews, join requests.

A path may skip levels but never go back up one: it must not lock a user while it holds
a room, nor a room while it holds a hand.  Nothing is sent to Redis (channel layer or
broker) while a row lock is held: sends go after the commit (``transaction.on_commit``).
``tests/games/test_lock_order.py`` checks each concurrent path against this order on
PostgreSQL.  (SQLite, the embedded profile, locks the whole database per transaction,
so there the order cannot deadlock either.)"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model


def users_lock(user_ids: Iterable[int | None]) -> None:
    """Lock these users' rows until the transaction ends (call inside one), in ascending
    id order (level 1 above).  ``no_key``: a row that refers to a user (a presence row
    another socket writes under a room's lock) may still be inserted meanwhile, or the
    two would wait for each other."""
    ids = sorted({i for i in user_ids if i is not None})
    if ids:
        users = get_user_model().objects.select_for_update(no_key=True)
        list(users.filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
