"""One table action's server work, in process: ``services.hand_act`` on PostgreSQL.

    python tests/bench/bench_action.py [--tables 12]

Plays ``--tables`` Sichuan hands by bots, every action through ``services.hand_act`` in
a worker thread of a running event loop, as the table socket runs it (the room locked,
the hand read, the snapshot saved and the log row appended; each seat's message built
and published on commit to the in-process channel layer, where nobody listens), and
reports per
action the CPU of that thread and of its PostgreSQL backend (``/proc``).  Side by side,
measured in the same run on the same connection:

- **the engine alone** — the same actions through ``games.rules.apply`` only;
- **a round trip** — ``SELECT 1`` through Django's cursor: what one statement's trip to
  the database costs each side on this machine at this moment.

The action's cost in round trips is the figure to compare across days: this project's
machines drift by up to 3× within an hour (a round trip cost the client 56 us at one
moment and 195 us forty minutes later), and a table action pays mostly for trips (to
the database, between threads, to Redis), not for its own Python.  Actions that ended a
hand (their settlement runs inline here, with no Celery worker) are left out.

Uses ``DATABASE_URL`` or a database of its own (``mahjong_bench_action``, made afresh).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

OWN_DATABASE = "DATABASE_URL" not in os.environ
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_bench_action")
os.environ.pop("REDIS_URL", None)  # in-process layer and eager Celery: this process alone
os.environ.pop("REDIS_CACHE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_DEBUG"] = "0"  # no per-query bookkeeping, as deployed
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 60)
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "localhost")


def _backend_cpu(connection) -> float:
    """CPU seconds of this connection's PostgreSQL backend (a local server's)."""
    from tests.bench.bench_tables import _cpu, _stat

    return _cpu(_stat(connection.connection.info.backend_pid))[0]


def main() -> int:
    import asyncio

    from asgiref.sync import sync_to_async

    # In a worker thread of a running loop, as a socket's database calls run: what the
    # action publishes is handed to the loop (``games.table.publish``), not sent from here.
    return asyncio.run(sync_to_async(_main, thread_sensitive=False)())


def _main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=12, help="hands to play (one a table)")
    parser.add_argument("--trips", type=int, default=3000, help="SELECT 1 round trips timed")
    args = parser.parse_args()
    url = os.environ["DATABASE_URL"]
    if not url.startswith("postgres"):
        print("bench_action: needs PostgreSQL (DATABASE_URL)")
        return 1

    from tests.bench.bench_tables import ensure_database

    ensure_database(url, fresh=OWN_DATABASE)

    import django

    django.setup()
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)  # each inline settlement's line
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.models import Hand
    from games.rules import HandState, Rejection, apply, awaited
    from games.rules.bots import choose_action
    from games.table import services, timers
    from tests.games.conftest import four_seated

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    stamp = int(time.time() * 1000)

    action_cpu: list[float] = []
    backend_cpu: list[float] = []
    close_cpu: list[float] = []  # the sweeper closing a claim window, thread and backend
    played: list[tuple[HandState, int, dict]] = []  # (state before, seat, action)
    for t in range(args.tables):
        seated = [users.create_user(username=f"act{stamp}-{t}-{k}") for k in range(4)]
        room, _ = four_seated(seated, hands=1)
        while True:
            hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
            if hand is None:
                break
            state = HandState.from_json(hand.state)
            if not awaited(state):
                # A claim window with nobody left to answer: the sweeper closes it when its
                # time is over (a clock a minute on, so it is over now).
                connection.ensure_connection()
                pg0, cpu0 = _backend_cpu(connection), time.thread_time()
                later = timezone.now() + timedelta(minutes=1)
                timers.hand_fire_deadline(room.pk, hand.pk, later)
                close_cpu.append(time.thread_time() - cpu0 + _backend_cpu(connection) - pg0)
                continue
            seat = awaited(state)[0]
            action = choose_action(state, seat)
            connection.ensure_connection()
            pg0, cpu0 = _backend_cpu(connection), time.thread_time()
            services.hand_act(
                room_id=room.pk, user=seated[seat], version=hand.version, action=action
            )
            cpu, pg = time.thread_time() - cpu0, _backend_cpu(connection) - pg0
            if Hand.objects.filter(pk=hand.pk, status=Hand.Status.PLAYING).exists():
                action_cpu.append(cpu)
                backend_cpu.append(pg)
                played.append((state, seat, action))

    # The engine alone, on the same states and actions.
    engine_cpu = []
    for state, seat, action in played:
        t0 = time.thread_time()
        out = apply(state, seat, action)
        engine_cpu.append(time.thread_time() - t0)
        assert not isinstance(out, Rejection), out

    # A bare round trip on the same connection.
    with connection.cursor() as cur:
        pg0, cpu0 = _backend_cpu(connection), time.thread_time()
        for _ in range(args.trips):
            cur.execute("SELECT 1")
            cur.fetchone()
        trip_cpu = (time.thread_time() - cpu0) / args.trips
        trip_pg = (_backend_cpu(connection) - pg0) / args.trips

    n = len(action_cpu)
    client, server = statistics.fmean(action_cpu), sum(backend_cpu) / n
    engine = statistics.fmean(engine_cpu)
    ms = 1000.0
    print(f"{n} actions of {args.tables} Sichuan hands by bots; PostgreSQL, DEBUG off")
    print(f"{'':34} {'client':>9} {'database':>9} {'both':>9}")
    print(
        f"{'hand_act, an action (mean)':34} {client * ms:7.3f}ms {server * ms:7.3f}ms "
        f"{(client + server) * ms:7.3f}ms   (client p50 {statistics.median(action_cpu) * ms:.3f})"
    )
    print(
        f"{'closing a claim window (sweeper)':34} {'':>9} {'':>9} "
        f"{statistics.fmean(close_cpu) * ms:7.3f}ms   ({len(close_cpu)} windows)"
    )
    print(f"{'the engine alone (apply)':34} {engine * ms:7.3f}ms {'':>9} {engine * ms:7.3f}ms")
    print(
        f"{'a round trip (SELECT 1)':34} {trip_cpu * ms:7.3f}ms {trip_pg * ms:7.3f}ms "
        f"{(trip_cpu + trip_pg) * ms:7.3f}ms"
    )
    print(
        f"an action costs {(client + server) / (trip_cpu + trip_pg):.1f} round trips of CPU "
        f"; the engine is "
        f"{100 * engine / (client + server):.0f} % of it"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
