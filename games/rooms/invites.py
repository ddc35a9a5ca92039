"""A room's invite: its join code as a link and a QR code, for its seated players
(the link and QR pieces are the clubs' invites', ``clubs.invites``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import after_login
from clubs.invites import qr_svg, sign_in_first
from clubs.throttles import InviteQRThrottle
from config.api_views import throttle_allows
from games.models import Room
from games.rooms import throttles
from games.table import selectors as game_selectors


def room_invite_url(request, room: Room) -> str:
    return request.build_absolute_uri(reverse("room-invite", args=[room.code]))


@login_required
def room_qr(request, pk):
    room = Room.objects.filter(pk=pk).first()
    if room is None or game_selectors.seat_of(room, request.user) is None:
        raise Http404("no such room")
    if not throttle_allows(InviteQRThrottle, request):
        return render(request, "429.html", status=429)
    return qr_svg(room_invite_url(request, room))


def room_invite(request, code):
    if not throttle_allows(throttles.JoinCodeThrottle, request):  # as typing the code
        messages.error(request, _("Too many join attempts: wait a minute and try again."))
        return redirect("lobby")
    room = Room.objects.filter(code=code.upper()[:6]).first()
    if room is None:
        raise Http404("no such invite")
    if not request.user.is_authenticated:
        return sign_in_first(request, room=room.code)
    after_login.forget(request)
    if game_selectors.seat_of(room, request.user) is not None:
        return redirect("room", pk=room.pk)
    return render(request, "games/invite_room.html", {"room": room, "code": room.code})
