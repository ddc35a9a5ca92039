"""Django's database session store, with its one read per request written out.

Every page request and every table socket's connect reads its session.  Through the ORM
a read cost 0.48-0.53 ms of CPU, most of it compiling the query, against 0.17 ms with
the same statement written out (decoding included): in the table benchmark's busiest
seconds (a thousand sockets sitting down in twelve) the session read was a tenth of what
a connect cost.  Same table,
same rule (a session past its expiry date is no session), same decoding; everything else,
writes included, is ``django.contrib.sessions.backends.db``'s.  ``SESSION_ENGINE`` names
this module.

A session's stored backend path is read through ``accounts.backends.RENAMED``: sessions
from before the project's own backends stay signed in.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from accounts.backends import RENAMED


class SessionStore(db.SessionStore):
    def load(self):
        data = self._stored_data()
        if data is None:
            self._session_key = None  # as the database store does: no such session
            return {}
        session = self.decode(data)
        renamed = RENAMED.get(session.get(BACKEND_SESSION_KEY))
        if renamed is not None:
            session[BACKEND_SESSION_KEY] = renamed
        return session

    def _stored_data(self) -> str | None:
        """The session's stored data, unless it is missing or has expired."""
        if self.session_key is None:
            return None
        model = self.model
        conn = connections[router.db_for_read(model)]
        qn = conn.ops.quote_name
        key = model._meta.get_field("session_key").column
        data = model._meta.get_field("session_data").column
        expires = model._meta.get_field("expire_date").column
        with conn.cursor() as cur:
            cur.execute(
                f"SELECT {qn(data)} FROM {qn(model._meta.db_table)}"
                f" WHERE {qn(key)} = %s AND {qn(expires)} > %s",
                [self.session_key, conn.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cur.fetchone()
        return None if row is None else row[0]


class SocketSessionMiddleware:
    """The handshake's session in a socket's ``scope["session"]``: this engine's store
    for the session cookie, read when first used, never saved (inside Channels'
    ``CookieMiddleware``).

    Channels' ``SessionMiddleware`` also wraps the socket's ``send`` to save a modified
    session and set its cookie with a page's response; a socket has no response to set
    a cookie on and its consumers never write the session, so all that wrapper did was
    look at the session on every frame out (several a move, at every seat)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        store = import_module(settings.SESSION_ENGINE).SessionStore
        return await self.inner(dict(scope, session=store(key)), receive, send)
