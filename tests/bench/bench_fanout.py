"""The stock socket stack's share of a table action: Channels' consumers and the Redis
layer alone, with no database and no game.

    PYTHONPATH=. python tests/bench/bench_fanout.py [--tables 250] [--seconds 20]

A table action reaches the server as one frame and leaves it as one group message
holding a view per seat, which each of the table's four sockets receives from the
channel layer and sends on (``games.table.publish``).  This benchmark makes that
traffic with Channels' stock consumer (``tests/bench/echo_asgi.py``: ``FanConsumer``)
on the table benchmark's servers (Daphne through ``config.serve``, the Redis pub/sub
layer, a table's sockets on one process), ``--tables`` groups of four clients, one
client of each group acting the moment the last action reached all four; side by side,
in the same run on the same servers, the echo round trip (one frame in, one out) by as
many clients.  Both report the Daphne processes' CPU per action (``/proc``), the
figure to set beside the table benchmark's "Daphne CPU an action": what is left of it
is the database and the game.

Needs Redis (``REDIS_URL``, default database 11); PostgreSQL only because the site's
application is loaded beside the sockets.
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

from tests.bench import bench_tables as tables  # noqa: E402 - sets the environment first


async def _open(url: str, origin: str, run: dict):
    """A client socket, opened a few at a time (a thousand handshakes at once overrun the
    servers' listen queue: the tables of a site do not all sit down in one instant)."""
    from websockets.asyncio.client import connect

    async with run["opening"]:
        return await connect(url, origin=origin, proxy=None)


async def _fan_table(port: int, group: str, texts: list[str], run: dict) -> None:
    base = f"ws://127.0.0.1:{port}/ws/fan/{group}"
    origin = f"http://127.0.0.1:{port}"
    socks = [await _open(f"{base}/{seat}/", origin, run) for seat in range(4)]
    try:
        frame = json.dumps({"texts": texts})
        end = await _started(run)
        i = 0
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            await socks[i % 4].send(frame)
            for ws in socks:
                await asyncio.wait_for(ws.recv(), 10)
            run["latencies"].append(time.perf_counter() - t0)
            i += 1
    finally:
        for ws in socks:
            await ws.close()


async def _echo_client(port: int, text: str, run: dict) -> None:
    ws = await _open(f"ws://127.0.0.1:{port}/ws/echo/", f"http://127.0.0.1:{port}", run)
    try:
        end = await _started(run)
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            await ws.send(text)
            await asyncio.wait_for(ws.recv(), 10)
            run["latencies"].append(time.perf_counter() - t0)
    finally:
        await ws.close()


async def _started(run: dict) -> float:
    """Wait until every client is connected; the end of the measured time."""
    run["waiting"] -= 1
    if run["waiting"] == 0:
        run["cpu0"] = _daphne_cpu(run["servers"])
        run["t0"] = time.perf_counter()
        run["go"].set()
    await run["go"].wait()
    return run["t0"] + run["seconds"]


def _daphne_cpu(servers) -> float:
    return sum(tables._cpu(tables._stat(s.proc.pid))[0] for s in servers)


async def _run(servers, clients, seconds: float) -> dict:
    run = {
        "servers": servers,
        "seconds": seconds,
        "latencies": [],
        "opening": asyncio.Semaphore(20),
        "waiting": len(clients),
        "go": asyncio.Event(),
    }
    await asyncio.gather(*(c(run) for c in clients))
    run["wall"] = time.perf_counter() - run["t0"]
    run["cpu"] = _daphne_cpu(servers) - run["cpu0"]
    return run


def _measure(servers, clients, seconds: float) -> tuple[list, float, float]:
    """(the latencies, the Daphne processes' CPU seconds, the wall seconds), counted from
    the moment every client is connected."""
    run = tables.measured(_run(servers, clients, seconds))
    return run["latencies"], run["cpu"], run["wall"]


def fan_out(servers, ports, groups: int, seconds: float, view_bytes: int):
    """The stock fan-out on running ``servers``: ``groups`` groups of four clients, each
    group's clients taking turns to send one frame that all four receive (the table
    benchmark's peer, ``bench_tables.py``).  (the latencies, the Daphne processes' CPU
    seconds, the wall seconds)."""
    texts = _views(view_bytes)
    clients = [_fan(ports, t, texts) for t in range(groups)]
    return _measure(servers, clients, seconds)


def _views(view_bytes: int) -> list[str]:
    view = "x" * view_bytes
    return [json.dumps({"t": "state", "seat": seat, "pad": view}) for seat in range(4)]


def _fan(ports, t: int, texts):
    return lambda run: _fan_table(ports[t % len(ports)], f"b{t}", texts, run)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--servers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--view-bytes", type=int, default=1500, help="size of a seat's view (a state frame)"
    )
    args = parser.parse_args()
    if not tables.services_reached("bench_fanout"):
        return 1
    from tests.live import DaphneServer, free_port

    env = tables.server_environment()
    servers = [
        DaphneServer(free_port(), env, tables.OUT / f"daphne-fanout-{k}.log", app=tables.ECHO_APP)
        for k in range(args.servers)
    ]
    texts = _views(args.view_bytes)
    ports: list[int] = []

    def echo(k):
        return lambda run: _echo_client(ports[k % len(ports)], texts[0], run)

    try:
        for server in servers:
            server.start()
        ports.extend(server.port for server in servers)
        rows = [
            (
                "fan-out: 1 frame in, 4 out",
                fan_out(servers, ports, args.tables, args.seconds, args.view_bytes),
            ),
            (
                "echo: 1 frame in, 1 out",
                _measure(servers, [echo(k) for k in range(4 * args.tables)], args.seconds),
            ),
        ]
    finally:
        for server in servers:
            server.stop()
    print(
        f"{args.tables} groups of 4 clients (echo: as many clients), {args.servers} Daphne "
        f"processes, Redis pub/sub layer, views of {args.view_bytes} bytes, {args.seconds:g} s"
    )
    print(f"{'':30}{'actions/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'Daphne CPU/action':>19}")
    for label, (latencies, cpu, wall) in rows:
        n = len(latencies)
        print(
            f"{label:30}{n / wall:>10.0f}{tables.pct(latencies, 0.5):>9.1f}"
            f"{tables.pct(latencies, 0.99):>9.1f}{1000 * cpu / max(1, n):>16.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
