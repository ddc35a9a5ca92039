"""The socket server's entry point: Daphne's command line, after two tuning steps.

    python -m config.serve -b 127.0.0.1 -p 8000 config.asgi:application

What the application loads (Django, the apps, Twisted, Channels, the rules' variants)
lives as long as the process, so it is frozen out of the cyclic collector's passes
before the first socket connects: a long-lived server otherwise walks it again and
again in full collections that stop every socket of the process while they run.
Only this module, run as the server, does it; importing the application changes
nothing in the interpreter."""

import gc
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # No health check (``SELECT 1``) before a connection's first query after each call:
    # every database call of the server runs again on a new connection when its
    # connection died (``games.table.consumers._db``; the sweeper retries its sweep).
    os.environ.setdefault("DB_CONN_HEALTH_CHECKS", "0")
    from daphne.cli import CommandLineInterface

    import config.asgi  # noqa: F401 - loaded before the freeze

    gc.collect()
    gc.freeze()
    CommandLineInterface().run(sys.argv[1:])


if __name__ == "__main__":
    main()
