"""Where a table move's time goes: timestamps for the table benchmark (issue 15).

Off unless ``GAME_TIMELINE_DIR`` names a directory (``tests/bench/bench_tables.py
--timeline`` sets it for the servers it starts).  Then each process keeps, for every
move a socket hands to a worker thread, when the frame reached the consumer and when
the service started and ended in the thread, and for every hand frame a socket sends,
when; a thread appends them to ``<dir>/<pid>.txt`` once a second (and as the process
exits).  ``time.perf_counter`` is the machine's monotonic clock, the same in every
process, so the benchmark's clients line their send and receive times up with these:
send → consumer → thread → service done → frame out → client.  Off, each hook costs
one check of a constant.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from pathlib import Path

DIR = os.environ.get("GAME_TIMELINE_DIR") or None
ON = DIR is not None

_rows: list[tuple] = []
_lock = threading.Lock()
_writer: threading.Thread | None = None

now = time.perf_counter


def record(*fields) -> None:
    """One row (its fields written with spaces between them); call only when ``ON``."""
    _rows.append(fields)  # list.append is atomic: no lock on the hot path
    if _writer is None:
        _start()


def flush() -> None:
    with _lock:
        taken = _rows[:]
        del _rows[: len(taken)]
        if not taken:
            return
        with open(Path(DIR) / f"{os.getpid()}.txt", "a") as out:
            out.writelines(" ".join(map(str, row)) + "\n" for row in taken)


def _start() -> None:
    global _writer
    with _lock:
        if _writer is not None:
            return

        def write() -> None:
            while True:
                time.sleep(1.0)
                flush()

        _writer = threading.Thread(target=write, name="timeline", daemon=True)
        _writer.start()
    atexit.register(flush)
