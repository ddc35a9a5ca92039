"""The ASGI application: Django for pages and the API, Channels for the table sockets
and the play page's.

Importing this module sets nothing outside it; process tuning for the socket server
lives in ``config.serve``, which only the server process runs."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (routing, consumers, sessions).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from config.origin import SameOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from ranked.routing import websocket_urlpatterns as play_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The session only: the table socket reads its user in its first database
        # call (``games.table.consumers``), on a worker thread, not before the handshake.
        # Only the site's own pages open one (scheme, host and port: ``config.origin``).
        "websocket": SameOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns + play_urlpatterns))
        ),
    }
)
