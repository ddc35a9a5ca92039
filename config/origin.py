"""Which pages may open a table socket: the site's own, as Django's CSRF check decides
which may post a form (``CsrfViewMiddleware``).

A browser sends the page's origin (scheme, host and port) with a socket's handshake; the
socket opens only if that is exactly the address the handshake came to (its ``Host``
header, itself one of ``ALLOWED_HOSTS``, and the scheme it came by), or one of
``CSRF_TRUSTED_ORIGINS``.  A page on another port or scheme of an allowed host is another
origin and is refused, as a form of it would be."""

from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _scheme(scope) -> str:
    """``http`` or ``https``: how the page that opened the socket was served.  Behind a
    proxy that terminates TLS, its header says (``SECURE_PROXY_SSL_HEADER``, as for pages)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy is not None:
        header, secure = proxy
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        said = _header(scope, name)
        if said is not None:
            return "https" if said.split(",")[0].strip() == secure else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def same_origin(scope) -> bool:
    origin, host = _header(scope, b"origin"), _header(scope, b"host")
    if origin is None or host is None:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin.lower() == f"{_scheme(scope)}://{host}".lower()


class SameOriginValidator:
    """ASGI middleware: a websocket handshake from another origin is denied (403)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
