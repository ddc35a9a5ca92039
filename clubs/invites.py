"""Invite links: a club's invite code (and, through ``games.rooms.invites``, a room's
join code) as a link and a QR code.

The link opens a page that says what it joins and asks to confirm (a scanned code
never joins anyone by itself); joining goes through the same services, with the
same throttles, as typing the code.  The QR codes (SVG, drawn by segno) are for
the people who may see the code: a club's members, a room's seated players.
"""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import after_login
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import Club
from clubs.throttles import ClubJoinThrottle, InviteQRThrottle
from config.api_views import throttle_allows
from config.refusals import ServiceError


def club_invite_url(request, club: Club) -> str:
    return request.build_absolute_uri(reverse("club-invite", args=[club.invite_code]))


def qr_svg(text: str) -> HttpResponse:
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, title=text)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
def club_qr(request, pk):
    m = club_selectors.membership_of(pk, request.user)
    if m is None:
        raise Http404("no such club")
    if not throttle_allows(InviteQRThrottle, request):
        return render(request, "429.html", status=429)
    return qr_svg(club_invite_url(request, m.club))


def sign_in_first(request, **invited_to):
    """A visitor signed out is asked to sign in or up; the invite waits for them."""
    after_login.remember(request, request.path, **invited_to)
    return redirect_to_login(request.get_full_path())


@require_http_methods(["GET", "POST"])
def club_invite(request, code):
    # Each look-up of a code counts against the join limit: a code must not be guessable
    # by reading pages either.
    if not throttle_allows(ClubJoinThrottle, request):
        messages.error(request, _("Too many join attempts: wait a minute and try again."))
        return redirect("clubs")
    club = Club.objects.filter(invite_code=code.upper()[:8]).first()
    if not request.user.is_authenticated:
        if club is None:
            raise Http404("no such invite")
        return sign_in_first(request, club=club.name)
    after_login.forget(request)
    if request.method == "POST":
        try:
            joined = club_services.club_join(user=request.user, invite_code=code)
        except ServiceError as e:
            messages.error(request, e.message)
            return redirect("clubs")
        if joined.membership is None:  # the club vets who joins: the request waits
            return redirect(f"{reverse('clubs')}?requested#my-requests")
        return redirect("club", pk=joined.membership.club_id)
    if club is None:
        raise Http404("no such invite")
    if club_selectors.is_member(club.pk, request.user):
        return redirect("club", pk=club.pk)
    return render(request, "clubs/invite_club.html", {"club": club, "code": code})
