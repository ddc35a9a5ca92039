"""Live tables under load: N tables × 4 scripted WebSocket clients vs a bare echo.

    python tests/bench/bench_tables.py [--tables 50]

Runs Daphne (one process per core, players of a table spread over them as a
load balancer would) with the Redis channel layer and PostgreSQL
(DATABASE_URL / REDIS_URL, or local defaults: database ``mahjong_bench``,
Redis db 11), creates the rooms, and plays one hand per table with four
clients each that act the moment they are offered an action.  Reported:
actions per second and action→state latency (send ``act`` → receive the
next ``state``), side by side with the same clients doing request/response
round trips against a bare echo consumer on the same server, in the same run.

Two table runs: clients that act the instant they may (the server's capacity:
latency there is queueing), and clients that think about a second first, as
fast players do (the latency players feel at that many tables).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/11")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Shared with the server: the sessions made here must verify there.
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 60)


def ensure_database(url: str) -> None:
    if not url.startswith("postgres"):
        return
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname=%s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


async def table_client(url, origin, cookie, latencies, counter, done, think=0.0, seed=0):
    """Acts on every offered action; ``think`` > 0 waits 0.5–1.5× that long first, like
    a (fast) person, so the offered load is what real tables send."""
    import random

    from websockets.asyncio.client import connect

    from tests.live import choose

    rng = random.Random(seed)

    pending = None  # (version acted on, send time)
    async with connect(
        url, origin=origin, additional_headers={"Cookie": cookie}, proxy=None, max_queue=None
    ) as ws:
        await ws.send(json.dumps({"t": "ready"}))
        async for raw in ws:
            msg = json.loads(raw)
            if msg["t"] == "state":
                now = time.perf_counter()
                if pending is not None and msg["v"] > pending[0]:
                    latencies.append(now - pending[1])
                    pending = None
                legal = msg["d"]["legal"]
                if legal and pending is None:
                    if think:
                        await asyncio.sleep(think * (0.5 + rng.random()))
                    pending = (msg["v"], time.perf_counter())
                    counter[0] += 1
                    await ws.send(json.dumps({"t": "act", "v": msg["v"], "action": choose(legal)}))
            elif msg["t"] == "hand_end":
                done.append(1)
                return
            elif msg["t"] == "error" and msg["d"]["code"] == "stale":
                pending = None


async def echo_client(url, origin, n, latencies):
    from websockets.asyncio.client import connect

    async with connect(url, origin=origin, proxy=None) as ws:
        for i in range(n):
            t0 = time.perf_counter()
            await ws.send(json.dumps({"t": "act", "v": i, "action": {"type": "pass"}}))
            await ws.recv()
            latencies.append(time.perf_counter() - t0)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=int(os.environ.get("BENCH_TABLES", 50)))
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a paced client thinks"
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=os.cpu_count() or 1,
        help="Daphne processes (default: one per core, as deployed)",
    )
    args = parser.parse_args()
    try:
        ensure_database(os.environ["DATABASE_URL"])
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).ping()
    except Exception as e:  # noqa: BLE001 - any connection failure means the same thing
        print(
            "bench_tables needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL, or run "
            f"them locally on their default ports ({type(e).__name__}: {e})"
        )
        return 1

    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.live import DaphneServer, four_player_room, free_port, server_env

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    call_command("migrate", verbosity=0)
    User = get_user_model()
    stamp = int(time.time())
    rooms, cookies = [], []
    for t in range(2 * args.tables):  # one set of tables per phase
        users = [
            User.objects.create_user(username=f"bench{stamp}-{t}-{k}")  # no password to hash
            for k in range(4)
        ]
        room, room_cookies = four_player_room(users)
        rooms.append(room)
        cookies.extend(room_cookies)

    out = ROOT / "test-output"
    out.mkdir(exist_ok=True)
    # Production settings: DEBUG off (no per-query bookkeeping), as a deployment runs.
    env = server_env(
        os.environ["DATABASE_URL"],
        GAME_ECHO_ENDPOINT="1",
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    servers = [
        DaphneServer(free_port(), env, out / f"daphne-bench-{k}.log") for k in range(args.servers)
    ]
    for server in servers:
        server.start()
    ports = [server.port for server in servers]
    try:
        failures = []

        async def tables(first, think, latencies, counter, done):
            tasks = [
                table_client(
                    # A table's four players spread over the processes, as behind a balancer.
                    f"ws://127.0.0.1:{ports[k % len(ports)]}/ws/rooms/{room.pk}/",
                    f"http://127.0.0.1:{ports[k % len(ports)]}",
                    cookies[4 * i + k],
                    latencies,
                    counter,
                    done,
                    think,
                    seed=4 * i + k,
                )
                for i, room in enumerate(rooms[first : first + args.tables], start=first)
                for k in range(4)
            ]
            t0 = time.perf_counter()
            results = await asyncio.wait_for(
                asyncio.gather(*tasks, return_exceptions=True), timeout=600
            )
            failures.extend(r for r in results if isinstance(r, BaseException))
            return time.perf_counter() - t0

        table_lat, counter, done = [], [0], []
        table_seconds = asyncio.run(tables(0, 0.0, table_lat, counter, done))
        paced_lat, paced_counter, paced_done = [], [0], []
        paced_seconds = asyncio.run(
            tables(args.tables, args.think, paced_lat, paced_counter, paced_done)
        )
        per_client = max(1, counter[0] // (4 * args.tables))
        echo_lat = []

        async def echoes():
            t0 = time.perf_counter()
            await asyncio.gather(
                *(
                    echo_client(
                        f"ws://127.0.0.1:{ports[i % len(ports)]}/ws/echo/",
                        f"http://127.0.0.1:{ports[i % len(ports)]}",
                        per_client,
                        echo_lat,
                    )
                    for i in range(4 * args.tables)
                )
            )
            return time.perf_counter() - t0

        echo_seconds = asyncio.run(echoes())
    finally:
        for server in servers:
            server.stop()

    def row(label, n, seconds, latencies):
        print(
            f"{label:24}{n:>9}{seconds:>9.2f}{n / seconds:>8.0f}"
            f"{pct(latencies, 0.5):>9.1f}{pct(latencies, 0.99):>9.1f}"
        )

    db = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
    print(
        f"{args.tables} tables x 4 clients, one hand each; Daphne x{args.servers}, "
        f"{db} + Redis layer"
    )
    print(f"{'':24}{'actions':>9}{'seconds':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}")
    row("tables, instant clients", counter[0], table_seconds, table_lat)
    row(f"tables, {args.think:g} s think", paced_counter[0], paced_seconds, paced_lat)
    row("echo (floor)", len(echo_lat), echo_seconds, echo_lat)
    finished = (len(done) + len(paced_done)) // 4
    if failures:
        kinds = sorted({type(f).__name__ for f in failures})
        print(f"client connections that failed: {len(failures)} ({', '.join(kinds)})")
    print(
        f"hands finished: {finished}/{2 * args.tables}; p99 vs echo: instant "
        f"{pct(table_lat, 0.99) / pct(echo_lat, 0.99):.1f}x, "
        f"paced {pct(paced_lat, 0.99) / pct(echo_lat, 0.99):.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
