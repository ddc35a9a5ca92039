"""Faults while hands end: Redis stopped, a worker killed holding a settlement,
PostgreSQL restarted mid-hand, one of two Daphne processes killed.  Each ends with every
hand settled and rated exactly once within 60 s of the services returning, and the
sweeper still running.

The services here are private (a PostgreSQL cluster and a Redis of their own, see
``tests.integration.faults``): the machine's shared ones are never stopped.  Tables
are played by ``manage.py run_sweeper`` (every seat played for by the bot policy);
settlements by a real Celery worker.
"""

from __future__ import annotations

import os
import shutil
import time

import psycopg
import pytest

from tests.integration import faults
from tests.integration.faults import (
    ENDED,
    OUTAGE,
    RECOVERED,
    UNSETTLED,
    all_done,
    count,
    deal,
    deal_with_session,
    ledger_problems,
    try_count,
    wait_for,
)

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("REDIS_URL"),
        reason="fault tests run in the services profile (.ci/run's second pass)",
    ),
    pytest.mark.skipif(bool(faults.MISSING), reason=f"not installed: {faults.MISSING}"),
]
# Hands per table: a full-length match, so its hands are rated publicly.
HANDS = 8
BACK_WITHIN = 60  # seconds from the services' return to every hand settled and rated
OUTAGE_SECONDS = 4
LOGS = faults.ROOT / "test-output" / "faults"  # each process's output, per test


@pytest.fixture(scope="module")
def cluster():
    """A migrated private database, shared by the tests (each adds its own tables)."""
    root = faults.temp_root()
    pg = faults.Postgres(root)
    pg.init()
    redis = faults.Redis()
    redis.start()
    try:
        faults.manage(faults.environment(pg, redis), "migrate", "--noinput")
    finally:
        redis.stop()
    yield pg
    pg.stop()
    shutil.rmtree(root, ignore_errors=True)


class Stack:
    """Redis, a Celery worker and the sweeper on the private database."""

    def __init__(self, pg: faults.Postgres, log_dir):
        self.pg, self.log_dir = pg, log_dir
        self.redis = faults.Redis()
        self.redis.start()
        self.env = faults.environment(pg, self.redis)
        self.workers = [faults.worker(self.env, log_dir, 1)]
        self.sweeper = faults.sweeper(self.env, log_dir)
        self.extra: list = []  # more processes and sockets, closed first

    def new_worker(self) -> faults.Process:
        self.workers.append(faults.worker(self.env, self.log_dir, len(self.workers) + 1))
        return self.workers[-1]

    def stop(self) -> None:
        for thing in reversed(self.extra):
            (thing.close if isinstance(thing, faults.Watcher) else thing.stop)()
        for proc in (self.sweeper, *self.workers):
            proc.stop()
        self.redis.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.text()[-4000:]}" for p in (self.sweeper, *self.workers))


@pytest.fixture
def stack(cluster, request):
    log_dir = LOGS / request.node.name
    shutil.rmtree(log_dir, ignore_errors=True)
    log_dir.mkdir(parents=True)
    s = Stack(cluster, log_dir)
    yield s
    s.stop()


def _settled_in_time(stack: Stack, rooms: list[int], since: float) -> None:
    """Every table played out and every hand settled and rated once, within
    ``BACK_WITHIN`` seconds of ``since``; the sweeper still running."""
    try:
        wait_for(
            lambda: all_done(stack.pg.dsn(), rooms),
            BACK_WITHIN - (time.monotonic() - since),
            "every hand played and settled",
            step=0.25,
        )
    except AssertionError:
        raise AssertionError(stack.logs()) from None
    print(f"all settled {time.monotonic() - since:.1f} s after the service returned")
    assert stack.sweeper.alive(), stack.sweeper.text()[-4000:]
    assert ledger_problems(stack.pg.dsn()) == [], stack.logs()


def test_redis_stopped_across_hand_ends(stack):
    dsn = stack.pg.dsn()
    rooms = deal(stack.env, rooms=2, hands=HANDS, tag="redis")
    ended = count(dsn, ENDED)
    wait_for(lambda: count(dsn, ENDED) > ended, 30, "a hand to end with Redis up")

    stack.redis.stop()
    ended = count(dsn, ENDED)
    # Hands go on ending (the sweeper plays them) while their settlements cannot be sent.
    wait_for(lambda: count(dsn, ENDED) >= ended + 3, 30, "three hands to end with Redis down")
    assert count(dsn, UNSETTLED) >= 3
    stack.redis.start()
    _settled_in_time(stack, rooms, time.monotonic())


def test_a_worker_killed_holding_a_settlement(stack):
    dsn = stack.pg.dsn()
    broker = stack.redis.client(0)
    # The settlements table locked: the worker's next settlement waits inside its task,
    # its message taken and not acknowledged.
    with psycopg.connect(dsn) as blocker:
        blocker.execute("LOCK TABLE games_settlement IN EXCLUSIVE MODE")
        rooms = deal(stack.env, rooms=2, hands=HANDS, tag="worker")
        wait_for(
            lambda: count(
                dsn,
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND query LIKE '%%games_settlement%%'",
            ),
            30,
            "the worker to wait on the settlements table",
        )
        held = broker.hlen("unacked")
        assert held == 1  # taken, not acknowledged: the worker holds it
        stack.workers[0].kill()
        blocker.rollback()
    # The killed worker's message stays unacknowledged (for the visibility timeout);
    # the sweeper's resend lets the next worker settle the hand now.
    assert broker.hlen("unacked") == held
    stack.new_worker()
    _settled_in_time(stack, rooms, time.monotonic())


def test_postgres_restarted_mid_hand(stack):
    """With a Daphne process too, whose own sweeper (started by a table socket) must
    outlive the outage like ``run_sweeper``."""
    dsn = stack.pg.dsn()
    rooms, session = deal_with_session(stack.env, rooms=2, hands=HANDS, tag="pg")
    server, port = faults.daphne(stack.env, stack.log_dir)
    stack.extra.append(server)
    stack.extra.append(faults.Watcher(port, rooms[-1], session))
    wait_for(lambda: count(dsn, ENDED) >= 1, 30, "a hand to end before the restart")
    # The sweeper plays a dealt hand through at its next sweep: caught in between.
    wait_for(
        lambda: count(
            dsn,
            "SELECT count(*) FROM games_hand WHERE status = 'playing' AND room_id = ANY(%s)",
            (rooms,),
        ),
        30,
        "a hand under way",
        step=0.02,
    )
    stack.pg.stop()
    stopped = time.monotonic()
    for proc in (stack.sweeper, server):
        wait_for(lambda p=proc: OUTAGE in p.text(), 30, f"{proc.name} to notice the outage")
    # Down for a few seconds (the fault itself, not a wait for anything): sweeps fail
    # again and again meanwhile, backing off.
    wait_for(lambda: time.monotonic() - stopped >= OUTAGE_SECONDS, 10, "the outage to last")
    stack.pg.start()
    back = time.monotonic()
    wait_for(lambda: try_count(dsn, "SELECT 1"), 10, "the database to answer")
    _settled_in_time(stack, rooms, back)
    for proc in (stack.sweeper, server):
        wait_for(lambda p=proc: RECOVERED in p.text(), 10, f"{proc.name} to sweep again")
        assert proc.alive(), proc.text()[-4000:]
        log = proc.text()
        assert log.count(OUTAGE) == 1 and log.count(RECOVERED) == 1, log[-4000:]


def test_one_daphne_killed_of_two(stack):
    """Two Daphne processes serve sockets of the same table, each with its own sweeper
    playing the tables beside ``run_sweeper``; one is killed mid-hand (SIGKILL: no
    cleanup, its sweep cut wherever it was).  The others play every table out."""
    dsn = stack.pg.dsn()
    rooms, session = deal_with_session(stack.env, rooms=2, hands=HANDS, tag="daphne")
    servers = [faults.daphne(stack.env, stack.log_dir, f"daphne-{n}") for n in (1, 2)]
    for server, port in servers:
        stack.extra.append(server)
        stack.extra.append(faults.Watcher(port, rooms[-1], session))
    (doomed, _), (survivor, _) = servers
    wait_for(lambda: count(dsn, ENDED) >= 1, 30, "a hand to end with both servers up")
    wait_for(
        lambda: count(
            dsn,
            "SELECT count(*) FROM games_hand WHERE status = 'playing' AND room_id = ANY(%s)",
            (rooms,),
        ),
        30,
        "a hand under way",
        step=0.02,
    )
    doomed.kill()
    _settled_in_time(stack, rooms, time.monotonic())
    assert not doomed.alive()
    assert survivor.alive(), survivor.text()[-4000:]
    assert OUTAGE not in survivor.text(), survivor.text()[-4000:]
