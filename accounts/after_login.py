"""Where a visitor goes once signed in, kept in their session across whichever door
(the header's Log in or Sign up, a link inside a form) they take to sign in.

An invite link opened while signed out is the case: it is remembered with what it
invites to, the login and sign-up pages name it, and the first sign-in or sign-up
lands on it. The session outlives the log-in (Django keeps its data when it renews
the key)."""

from django.http import HttpRequest

SESSION_KEY = "after_login"


def remember(request: HttpRequest, url: str, **invited_to: str) -> None:
    """Keep ``url`` (a path on this site) for after the sign-in; ``invited_to`` names what
    it invites to (``club=name`` or ``room=code``) for the login and sign-up pages."""
    request.session[SESSION_KEY] = {"url": url, **invited_to}


def take(request: HttpRequest) -> str | None:
    """The remembered path, forgotten as it is given (None without one)."""
    pending = request.session.pop(SESSION_KEY, None)
    return pending["url"] if pending else None


def forget(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)
