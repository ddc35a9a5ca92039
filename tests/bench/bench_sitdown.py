"""Tables sitting down: the servers' CPU a socket, next to a bare echo socket's.

    python tests/bench/bench_sitdown.py [--tables 150] [--stagger 5] [--servers N]
                                        [--rounds 2]

In the table benchmark's paced run the slowest moves are in its first seconds, while a
thousand sockets sit down (``bench_tables.py``).  This measures that part alone, on the
same servers (Daphne, one process per core, a room's sockets on one of them; PostgreSQL
and the Redis layer, as ``bench_tables.py`` sets them up): ``--tables`` tables, their
four players each opening a table socket at moments spread over ``--stagger`` seconds,
sending ``ready`` and waiting for the deal's first ``state``.  The peer, in the same
run: as many clients opening the bare echo socket on the same schedule, one round trip
each.  Each is reported as CPU a socket (Daphne's, PostgreSQL's and Redis's, from
``/proc``, from the first socket opening to the last one dealt or answered; the sockets
close after that, unmeasured) and open → dealt (echo: open → answer) p50/p99; tables
and echo alternate ``--rounds`` times, each table round on rooms of its own.  No hand
is played out, so no Celery worker runs.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tables import (  # noqa: E402 - sets the benchmark's environment defaults first
    OUT,
    ServerCpu,
    fresh_rooms,
    machine_speed,
    measured,
    pct,
    schedule,
    server_environment,
    server_of,
    services_reached,
)


async def sit_down(url, origin, cookie, start: float, out: list, leave) -> None:
    """Open the table socket at ``start``, ready, wait for the deal's first state; close
    once ``leave`` is set."""
    from websockets.asyncio.client import connect

    await asyncio.sleep(start)
    t0 = time.perf_counter()
    async with connect(url, origin=origin, additional_headers={"Cookie": cookie}, proxy=None) as ws:
        await ws.send(json.dumps({"t": "ready"}))
        while json.loads(await ws.recv())["t"] != "state":
            pass
        out.append(time.perf_counter() - t0)
        await leave.wait()


async def echo_once(url, origin, start: float, out: list, leave) -> None:
    """Open the echo socket at ``start``, one round trip; close once ``leave`` is set."""
    from websockets.asyncio.client import connect

    await asyncio.sleep(start)
    t0 = time.perf_counter()
    async with connect(url, origin=origin, proxy=None) as ws:
        await ws.send(json.dumps({"t": "ready"}))
        await ws.recv()
        out.append(time.perf_counter() - t0)
        await leave.wait()


async def measured_round(make_tasks, meter, out: list, failures: list) -> dict[str, float]:
    """The servers' CPU from the first socket opening to the last one dealt (or
    answered): the sockets close after it, unmeasured (a table closing mid-hand is not
    sitting down).  ``make_tasks(leave)``: the clients' coroutines."""
    leave = asyncio.Event()
    tasks = [asyncio.ensure_future(c) for c in make_tasks(leave)]
    meter.start()
    while len(out) < len(tasks) and not all(t.done() for t in tasks):
        await asyncio.sleep(0.05)
    parts = meter.stop()
    leave.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures.extend(r for r in results if isinstance(r, BaseException))
    return parts


def settle(meter, most: float = 30.0) -> None:
    """Wait till the servers are all but idle (under a tenth of a core for half a
    second): what the last round left (its sockets closing) is not the next one's."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        meter.start()
        time.sleep(0.5)
        if meter.stop()["Daphne"] < 0.05:
            return


def table_clients(rooms, cookies, ports, starts, out, leave) -> list:
    tasks = []
    for i, room in enumerate(rooms):
        path = f"/ws/rooms/{room.pk}/"
        for k in range(4):
            port = server_of(path, k, ports, "room")
            tasks.append(
                sit_down(
                    f"ws://127.0.0.1:{port}{path}",
                    f"http://127.0.0.1:{port}",
                    cookies[4 * i + k],
                    starts[i],
                    out,
                    leave,
                )
            )
    return tasks


def echo_clients(ports, starts, out, leave) -> list:
    tasks = []
    for i, start in enumerate(starts):
        for k in range(4):
            port = ports[(4 * i + k) % len(ports)]
            tasks.append(
                echo_once(
                    f"ws://127.0.0.1:{port}/ws/echo/", f"http://127.0.0.1:{port}", start, out, leave
                )
            )
    return tasks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument(
        "--stagger", type=float, default=5.0, help="seconds over which a round's tables sit down"
    )
    parser.add_argument("--servers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=2, help="table and echo rounds, alternated")
    args = parser.parse_args()
    if not services_reached("bench_sitdown"):
        return 1
    from tests.live import DaphneServer, free_port

    # A set of tables for each round.
    made, cookies = fresh_rooms(args.rounds * args.tables, "sit")
    rounds = [
        (made[r * args.tables : (r + 1) * args.tables], cookies[4 * r * args.tables :])
        for r in range(args.rounds)
    ]
    env = server_environment()
    speed = [machine_speed()]
    servers = [
        DaphneServer(free_port(), env, OUT / f"daphne-sitdown-{k}.log") for k in range(args.servers)
    ]
    figures = {"tables": [], "echo": []}  # per round: (cpu parts, latencies, failures)
    try:
        for server in servers:
            server.start()
        ports = [server.port for server in servers]
        meter = ServerCpu(servers, None)
        for r, (rooms, cookies) in enumerate(rounds):
            starts = schedule(args.tables, args.stagger, seed=r)
            for kind in ("tables", "echo"):
                out, failures = [], []
                settle(meter)
                if kind == "tables":
                    clients = functools.partial(table_clients, rooms, cookies, ports, starts, out)
                else:
                    clients = functools.partial(echo_clients, ports, starts, out)
                parts = measured(measured_round(clients, meter, out, failures))
                figures[kind].append((parts, out, failures))
    finally:
        for server in servers:
            server.stop()
    speed.append(machine_speed())

    sockets = 4 * args.tables
    print(
        f"{args.tables} tables x 4 sockets sitting down over {args.stagger:g} s (open, ready, "
        f"the deal's first state) vs as many echo sockets (open, one round trip); "
        f"Daphne x{args.servers}, PostgreSQL + Redis layer"
    )
    print(
        f"machine speed: a fixed Python loop took {speed[0]:.3f} s of CPU before the runs, "
        f"{speed[1]:.3f} after (compare runs at like speeds)"
    )
    print(
        f"{'round':>6} {'':8}{'Daphne ms':>10}{'PG ms':>8}{'Redis ms':>9}"
        f"{'p50 ms':>8}{'p99 ms':>8}{'ok':>10}"
    )
    for r in range(args.rounds):
        for kind in ("tables", "echo"):
            parts, out, failures = figures[kind][r]
            per = {k: 1000 * v / sockets for k, v in parts.items()}
            print(
                f"{r + 1:>6} {kind:8}{per['Daphne']:>10.2f}{per['PostgreSQL']:>8.2f}"
                f"{per['Redis']:>9.2f}{pct(out, 0.5):>8.1f}{pct(out, 0.99):>8.1f}"
                f"{f'{len(out)}/{sockets}':>10}"
            )
            if failures:
                kinds = sorted({f"{type(e).__name__}: {e}"[:100] for e in failures})
                print(f"       failures: {len(failures)} ({'; '.join(kinds[:3])})")
    print("(CPU a socket: a table's is its share of the sit-down, the deal included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
