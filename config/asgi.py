import gc
import importlib
import os
import sys

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.db.backends.signals import connection_created

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (routing, consumers, session middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from accounts.sessions import SocketSessionMiddleware  # noqa: E402
from config import handshake_logs, tcp_writes  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The session only: the table socket reads its user in its first database call
        # (games.consumers._enter), after the handshake, not on the shared sync thread.
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(SocketSessionMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)


# Frames out are sent at once rather than on the loop's next pass (issue 15; the module
# says why and what it keeps).
tcp_writes.install()
# Autobahn's debug arguments pretty-printed only when logged (the module says why).
handshake_logs.install()


def warm() -> None:
    """Load now what the first sockets would otherwise wait for: the channel layer (and
    its Redis client), the variants and Sichuan's scoring tables (imported on first use).
    In the table benchmark a fresh server spent 3 % of its first 20 s importing them,
    with a burst of tables sitting down waiting behind it."""
    from channels.layers import get_channel_layer

    from games.rules import variants

    get_channel_layer()
    variants.available()
    importlib.import_module("games.rules.variants.sichuan_fan")  # imported inside Sichuan


warm()


# The collector of a socket server (issue 15).  What is loaded by now (Django, the apps,
# Twisted, Channels, what ``warm`` loaded) lives as long as the process, so it is frozen
# out of the cyclic collector's passes, and the youngest generation is collected every
# 7,000 new objects instead of 700.  At 250 tables the two Daphne processes otherwise
# spent 10.6 s of a 2-minute benchmark in 3,563 collections, 28 of them full ones that
# stopped all of a process's sockets for up to 0.3 s each (after: 1.0 s in 107, the
# longest 0.11 s).
GC_YOUNG_THRESHOLD = 7000
gc.freeze()
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])

# The socket server's switch interval (issue 15, ``GAME_SOCKET_SWITCH_INTERVAL``).  Its
# event loop shares the GIL with the worker threads that run database calls; a thread
# that wants the GIL waits up to the interval before it asks the holder to let go, and
# the loop, woken by a socket, is such a thread.  With CPython's 5 ms, every hand-off
# could cost the loop 5 ms: at 250 paced tables on two cores, while the tables sat down
# (a thousand sockets opening, a thread busy with each), moves waited 130 ms at p99 in
# "thread -> state frame out" with the GIL held only a third of the time.  0.5 ms lets
# the loop back in within half a millisecond (README, Benchmarks, the seventeenth round).
sys.setswitchinterval(settings.GAME_SOCKET_SWITCH_INTERVAL)


def commit_without_waiting(sender, connection, **kwargs) -> None:
    """The socket server's PostgreSQL connections commit without waiting for the disk
    (``GAME_SOCKET_ASYNC_COMMIT``, issue 15).  On this project's machines a commit that
    waits for its WAL flush stalls for 50-700 ms every few seconds (the virtual disk's
    fsync), and a table's next move waits behind it: at 50 paced tables, 20 % CPU, p99
    114-417 ms with every commit flushed against 19 ms without.  What a crash of the
    database (not a restart: that flushes) can lose is the last ~0.6 s (three
    ``wal_writer_delay``) of moves, whole: a move's log row and snapshot are one
    transaction, so a hand is never half-saved, and clients resync to it.  The WAL is
    flushed in order, so a later durable commit (the settlement task's, a page's or the
    API's, on their own processes) makes every move before it durable."""
    if connection.vendor == "postgresql" and settings.GAME_SOCKET_ASYNC_COMMIT:
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")


connection_created.connect(commit_without_waiting, dispatch_uid="socket-server-async-commit")
