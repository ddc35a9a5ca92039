"""The authentication backends: Django's and allauth's, with the signed-in user's read
written out.

Every page request of a signed-in user and every table socket's connect reads the
user behind its session through its backend's ``get_user``, and the ORM compiled that
``SELECT`` afresh each time: in the table benchmark's busiest seconds (a thousand sockets
sitting down in ten) it was 4.6 % of the socket servers' CPU, most of it compiling
(issue 15).  Here the same row is read by a statement written once and built into a user
exactly as the ORM builds one (``games.rows``); everything else, logging in
and the checks ``django.contrib.auth.get_user`` makes of the session, is the library's.

Sessions made before these classes name Django's and allauth's own paths as their
backend; ``accounts.sessions`` reads those as these (``RENAMED``), so nobody is signed
out by the change.
"""

from __future__ import annotations

from allauth.account import auth_backends as allauth_backends
from django.contrib.auth import backends as django_backends
from django.contrib.auth import get_user_model

from games import rows

_USER = rows.ModelColumns(get_user_model(), "u")


def user_by_id(user_id):
    """The user with this primary key, as ``User._default_manager.get(pk=...)`` gives it;
    None if there is none."""
    pk = _USER.model._meta.pk
    return rows.first(_USER, f"WHERE u.{rows.here().ops.quote_name(pk.column)} = %s", [user_id])


class _UserReadWrittenOut:
    def get_user(self, user_id):
        user = user_by_id(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class ModelBackend(_UserReadWrittenOut, django_backends.ModelBackend):
    """``django.contrib.auth.backends.ModelBackend``."""


class AuthenticationBackend(_UserReadWrittenOut, allauth_backends.AuthenticationBackend):
    """``allauth.account.auth_backends.AuthenticationBackend``."""


# The backend paths stored in sessions before this module, and what they are now.
RENAMED = {
    "django.contrib.auth.backends.ModelBackend": f"{__name__}.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": f"{__name__}.AuthenticationBackend",
}
