"""Ranked matching under arrivals: time to table, tables formed, and a pass's cost.

    python tests/bench/bench_ranked.py [--players 400] [--arrivals 60] [--servers 2]

``--players`` players arrive over ``--arrivals`` seconds, spread evenly over the
variants, with 段位 drawn from a ladder-shaped spread (most low, a few high) and
addresses of their own (one in twenty shares one with another player).  Each does what
the play page does: opens its socket (``ws/play/``, which keeps the place in the queue),
queues (``POST /api/ranked/queue/``) and waits on the socket until it names the table.
The servers, as deployed: ``--servers`` Daphne processes (``config.serve``; the players
spread over them) and ``run_sweeper`` beside them, on PostgreSQL, the Redis cache and
the Redis channel layer.  Reported: time to table (from the ``POST``) p50/p95/max,
tables formed, players left unmatched when the last arrival has waited a minute, rank
spread per table (max − min 段位 step), and that nobody was seated twice.  Then, in this
process on the same database, the cost of one matching pass: over ``--players`` waiting
who form tables, and over as many who cannot (one address).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import secrets
import socket
import string
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mahjong_ranked")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/5")
os.environ.setdefault("REDIS_CACHE_URL", "redis://127.0.0.1:6379/6")
os.environ.setdefault("CHANNEL_LAYER_PREFIX", "mahjong-ranked")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 60)
OUT = ROOT / "test-output"
WAIT_AFTER = 60.0  # seconds the last arrival may wait before the run ends


def pct(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def prepare(players: int):
    """A migrated, emptied database: the players, their 段位 and session cookies."""
    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.rules import available
    from ranked import ladder
    from ranked.models import QueueEntry, Rank, RankedMatch, Season
    from ranked.services import current_season
    from tests.live import session_cookie

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(os.environ["REDIS_CACHE_URL"]).flushdb()
    QueueEntry.objects.all().delete()
    RankedMatch.objects.all().delete()
    Rank.objects.all().delete()
    Season.objects.all().delete()
    season = current_season()
    variants = [v.key for v in available()]
    rng = random.Random(55)
    stamp = int(time.time())
    User = get_user_model()
    people = []
    for i in range(players):
        user = User.objects.create_user(username=f"rk{stamp}-{i}")
        variant = variants[i % len(variants)]
        # Most players low on the ladder, a few high.
        step = min(ladder.TOP, int(rng.expovariate(1 / 3)))
        Rank.objects.create(
            user=user,
            variant=variant,
            season=season,
            step=step,
            points=0,
            mu=25 + rng.gauss(0, 3),
            sigma=5,
        )
        address = f"203.0.{i // 250}.{i % 250 + 1}"
        people.append(
            {
                "user": user.pk,
                "variant": variant,
                "step": step,
                "address": address,
                "cookie": session_cookie(user),
            }
        )
    for i in range(0, players, 20):  # one in twenty shares an address with the one before
        if i:
            people[i]["address"] = people[i - 1]["address"]
    return people


def join(port, headers, variant) -> int:
    """The queue's ``POST`` (a blocking call: run in a thread)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/api/ranked/queue/", json.dumps({"variant": variant}), headers)
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


async def player(port, person, start, out, stop, pool):
    """Arrive at ``start`` (loop time), open the play socket, queue, wait until seated
    (or ``stop``)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    loop = asyncio.get_running_loop()
    token = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    cookie = f"{person['cookie']}; csrftoken={token}"
    headers = {
        "Cookie": cookie,
        "X-CSRFToken": token,
        "X-Forwarded-For": person["address"],
        "Content-Type": "application/json",
    }
    await asyncio.sleep(max(0.0, start - loop.time()))
    try:
        async with connect(
            f"ws://127.0.0.1:{port}/ws/play/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": cookie, "X-Forwarded-For": person["address"]},
            proxy=None,
            open_timeout=30,
        ) as ws:
            await ws.recv()  # the state before queueing
            t0 = loop.time()
            status = await loop.run_in_executor(pool, join, port, headers, person["variant"])
            if status != 201:
                out["errors"].append(f"join {status}")
                return
            waiting = asyncio.ensure_future(stop.wait())
            while True:
                recv = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({recv, waiting}, return_when=asyncio.FIRST_COMPLETED)
                if recv not in done:
                    recv.cancel()
                    out["unmatched"] += 1
                    return
                d = json.loads(recv.result())["d"]
                if d is None:  # the entry was dropped
                    out["errors"].append("dropped")
                    return
                if d["room"]:
                    out["seated"].append(loop.time() - t0)
                    return
    except (TimeoutError, OSError, WebSocketException) as e:
        out["errors"].append(type(e).__name__)


async def players(ports, people, arrivals, out):
    from concurrent.futures import ThreadPoolExecutor

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    rng = random.Random(1)
    t0 = loop.time() + 1.0
    starts = sorted(t0 + rng.uniform(0, arrivals) for _ in people)
    with ThreadPoolExecutor(64) as pool:
        tasks = [
            asyncio.ensure_future(player(ports[i % len(ports)], p, starts[i], out, stop, pool))
            for i, p in enumerate(people)
        ]
        await asyncio.sleep(max(0.0, starts[-1] + WAIT_AFTER - loop.time()))
        stop.set()
        await asyncio.wait(tasks, timeout=40)


def wait_port(port: int, proc, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def serve(servers: int, people, arrivals: float):
    """``servers`` Daphne processes (as deployed: the socket servers) and ``run_sweeper``
    beside them; the players arrive, queue and wait on their sockets."""
    from tests.live import free_port, server_env

    OUT.mkdir(exist_ok=True)
    env = server_env(
        os.environ["DATABASE_URL"],
        DJANGO_DEBUG="0",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_TRUSTED_PROXY_COUNT="1",
        RANKED_ARRIVE_SECONDS="3600",  # nobody comes to the tables: keep them seated
        RANKED_QUEUE_RATE="100/min",
    )
    ports = [free_port() for _ in range(servers)]
    procs = []
    out = {"seated": [], "unmatched": 0, "errors": []}
    try:
        with open(OUT / "ranked-bench.log", "ab") as log:
            cmds = [
                [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port)]
                + ["config.asgi:application"]
                for port in ports
            ]
            cmds.append([sys.executable, "manage.py", "run_sweeper"])
            for cmd in cmds:
                procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log))
        for port, proc in zip(ports, procs, strict=False):
            wait_port(port, proc)
        asyncio.run(players(ports, people, arrivals, out))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(60)
    return out


def tables_report(people):
    from ranked.models import RankedSeat

    step = {p["user"]: p["step"] for p in people}
    address = {p["user"]: p["address"] for p in people}
    seats = list(RankedSeat.objects.filter(user__in=step).values_list("match_id", "user_id"))
    per_user = Counter(u for _, u in seats)
    tables: dict[int, list[int]] = {}
    for m, u in seats:
        tables.setdefault(m, []).append(u)
    spreads = [max(step[u] for u in us) - min(step[u] for u in us) for us in tables.values()]
    shared = sum(len({address[u] for u in us}) < 4 for us in tables.values())
    return tables, spreads, max(per_user.values(), default=0), shared


def pass_cost(players: int, rounds: int = 3):
    """One pass over ``players`` waiting (one variant), formed tables and unformable."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.models import Room
    from ranked import matcher, services
    from ranked.models import QueueEntry, RankedSeat

    settings.RANKED_ARRIVE_SECONDS = 3600  # no round's tables are called off by the next
    User = get_user_model()
    stamp = int(time.time())
    users = [User.objects.create_user(username=f"rp{stamp}-{i}") for i in range(players)]
    costs = {}
    for kind in ("forms tables", "one address"):
        runs = []
        for _ in range(rounds):
            QueueEntry.objects.all().delete()
            # Free them from the last round's tables (a pass seats each once, and an
            # owner's open rooms and seats are capped).
            RankedSeat.objects.filter(user__in=users).update(active=False)
            Room.objects.filter(seats__user__in=users).update(status=Room.Status.FINISHED)
            for i, u in enumerate(users):
                one = kind == "one address"
                address = "198.18.0.1" if one else f"198.18.{i // 250}.{i % 250 + 1}"
                services.queue_join(user=u, variant="sichuan", address=address)
            connection.close()
            t = time.perf_counter()
            formed = matcher.match_pass()
            runs.append((time.perf_counter() - t, formed))
        costs[kind] = min(runs)
    QueueEntry.objects.all().delete()
    return costs


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--arrivals", type=float, default=60.0)
    parser.add_argument("--servers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    try:
        people = prepare(args.players)
    except Exception as e:  # noqa: BLE001 - any connection failure means the same thing
        print(f"bench_ranked needs PostgreSQL and Redis ({type(e).__name__}: {e})")
        return 1
    out = serve(args.servers, people, args.arrivals)
    tables, spreads, most, shared = tables_report(people)
    seated = out["seated"]
    print(
        f"{args.players} players (play socket + REST) arriving over {args.arrivals:g} s, "
        f"{len({p['variant'] for p in people})} variants; Daphne x{args.servers} + run_sweeper, "
        "PostgreSQL + Redis"
    )
    print(
        f"time to table: p50 {pct(seated, 0.5):.1f} s, p95 {pct(seated, 0.95):.1f} s, "
        f"max {max(seated, default=float('nan')):.1f} s ({len(seated)} seated)"
    )
    print(
        f"tables formed {len(tables)}; unmatched {out['unmatched']}; "
        f"most seats held by one player {most}; tables with a shared address {shared}; "
        f"errors {len(out['errors'])} {Counter(out['errors']).most_common(3)}"
    )
    hist = Counter(spreads)
    print(
        "rank spread per table (段位 steps, max - min): "
        + ", ".join(f"{k}: {hist[k]}" for k in sorted(hist))
        + (f"; mean {sum(spreads) / len(spreads):.2f}" if spreads else "")
    )
    for kind, (cost, formed) in pass_cost(args.players).items():
        print(f"one matching pass, {args.players} waiting ({kind}): {1000 * cost:.0f} ms, ", end="")
        print(f"{formed} tables")
    return 0 if most <= 1 and not shared else 2


if __name__ == "__main__":
    sys.exit(main())
