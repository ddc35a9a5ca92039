"""Work owed after a commit (a match's record, a hand's review) is an obligation the
database keeps, not a message hoped for.

The task is sent after the commit that makes it owed, but a send can fail (the broker
down) and a sent task can be lost (its worker killed, the broker restarted); so each
sweep (the table's ``swept`` signal, which the owing app connects) sends it again for
every row still owed one a period after it became owed.  Tasks are idempotent: a row
sent twice is done once.  One process in the whole deployment resends per period (a
turn taken in the shared cache).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

log = logging.getLogger(__name__)

# The most rows one resend sends: the oldest first, the rest the next period.
RESEND_BATCH = 200


@dataclass(frozen=True)
class Obligation:
    #: Names it in the logs and the cache ("match record").
    name: str
    #: The Celery task's name; it is sent one row's id.
    task: str
    #: ``owed(seconds)``: ids of the rows owed their task for at least that long, oldest
    #: first, at most ``RESEND_BATCH``.
    owed: Callable[[float], list[int]]
    #: Seconds: the grace before a row is sent again, and the time between two resends.
    period: Callable[[], float]
    #: Called with the ids just sent again, when the owing rows note their sends.
    sent: Callable[[list[int]], None] | None = None


_last_resend: dict[str, float] = {}


def send(ob: Obligation, row_id: int) -> bool:
    """Queue the task for the row.  A broker that cannot take it is logged, not raised
    into the request or task that made it owed: the sweep sends it again."""
    try:
        current_app.signature(ob.task, args=(row_id,)).delay()
    except BrokerError as e:
        log.warning("could not queue the %s of %s (%s); the sweep resends it", ob.name, row_id, e)
        return False
    return True


def send_on_commit(ob: Obligation, row_id: int) -> None:
    transaction.on_commit(lambda: send(ob, row_id))


def resend(ob: Obligation) -> int:
    """Send the task again for every row owed it a period or more; returns how many were
    sent (none more once the broker refuses one: they wait for the next time).

    Only while the task queue is empty: with tasks waiting, the worker is behind and the
    rows owed are in the queue still (a burst of hand ends); sending them again would
    only queue duplicates behind them and back the queue up further.  A task really
    lost (never queued, the broker restarted) is sent once the queue has drained."""
    if queue_waiting() > 0:
        return 0
    owed = ob.owed(ob.period())
    done = []
    for row_id in owed:
        if not send(ob, row_id):
            break
        done.append(row_id)
    if done:
        if ob.sent is not None:
            ob.sent(done)
        log.info("sent the %s of %d rows again: %s", ob.name, len(done), done[:10])
    return len(done)


def queue_waiting() -> int:
    """Tasks waiting in the default task queue (0: none, or the broker cannot say: then
    the resend is tried and fails as a send would)."""
    app = current_app
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1)
            declared = conn.default_channel.queue_declare(
                queue=app.conf.task_default_queue, passive=True
            )
    except Exception as e:  # the broker's and the transport's own errors differ
        log.debug("task queue length unknown (%s)", e)
        return 0
    return declared.message_count


def resend_due(ob: Obligation) -> int:
    """``resend``, at most once per period in this process and (through the cache) in the
    whole deployment.  Returns how many were sent."""
    period = ob.period()
    now = time.monotonic()
    if now - _last_resend.get(ob.name, float("-inf")) < period:
        return 0
    _last_resend[ob.name] = now
    if not ob.owed(period) or not _resend_turn(ob.name, period):
        return 0
    return resend(ob)


def _resend_turn(name: str, period: float) -> bool:
    """This process resends this period (no other process has taken it).  A cache that
    cannot answer lets every process resend: duplicates are harmless, losses are not."""
    try:
        return cache.add(f"owed:{name}", 1, timeout=max(1, int(period) - 1))
    except Exception as e:  # the cache's own errors differ by backend
        log.debug("%s resend turn unknown (%s): resending", name, e)
        return True
