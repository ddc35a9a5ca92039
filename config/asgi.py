import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (routing, consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


# The collector of a socket server (issue 15).  What is loaded by now (Django, the apps,
# Twisted, Channels) lives as long as the process, so it is frozen out of the cyclic
# collector's passes, and the youngest generation is collected every 7,000 new objects
# instead of 700.  At 250 tables the two Daphne processes otherwise spent 10.6 s of a
# 2-minute benchmark in 3,563 collections, 28 of them full ones that stopped all of a
# process's sockets for up to 0.3 s each (after: 1.0 s in 107, the longest 0.11 s).
GC_YOUNG_THRESHOLD = 7000
gc.freeze()
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
