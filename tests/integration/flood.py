"""A handshake flood from one address, for the deploy test (its own process, as an
attacker's machine would be): ``python -m tests.integration.flood URL ORIGIN COOKIE
SOURCE HOLD LOOPS SECONDS``.

It first holds ``HOLD`` sockets open (the user at their socket cap), then runs ``LOOPS``
loops that open a socket and drop it as fast as they can, for ``SECONDS`` or until a
SIGTERM, and prints what the handshakes got as JSON: ``{"429": n, "101": n, ...}``."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections import Counter

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus, WebSocketException


async def main(url, origin, cookie, source, hold, loops, seconds) -> Counter:
    headers = {"Cookie": cookie}
    got: Counter = Counter()

    def open_one():
        return connect(
            url, origin=origin, additional_headers=headers, proxy=None, local_addr=(source, 0)
        )

    held = [await open_one() for _ in range(hold)]
    end = time.monotonic() + seconds
    stopped = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped.set)
    print(json.dumps({"holding": len(held)}), flush=True)

    async def loop():
        while time.monotonic() < end and not stopped.is_set():
            try:
                async with open_one() as ws:
                    got["101"] += 1
                    await asyncio.wait_for(ws.recv(), 5)  # the refusal's error frame
            except InvalidStatus as e:
                got[str(e.response.status_code)] += 1
            except (OSError, WebSocketException, TimeoutError):
                got["other"] += 1

    await asyncio.gather(*(loop() for _ in range(loops)))
    for ws in held:
        await ws.close()
    return got


if __name__ == "__main__":
    url, origin, cookie, source, hold, loops, seconds = sys.argv[1:8]
    out = asyncio.run(main(url, origin, cookie, source, int(hold), int(loops), float(seconds)))
    print(json.dumps(dict(out)))
