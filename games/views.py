"""Page views: the home page, the lobby and the table page.

They render templates and boot static JavaScript modules; the pages hold no rules.  Everything
a table shows comes from the server's socket (``games.consumers``) and REST API
(``games.api``); joining by code goes through the same service as the API.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from games import selectors, services, throttles
from games.models import Room
from games.rules import available, get_variant
from games.variants import VARIANTS


def choice_names() -> dict:
    """Display names of house-rule choice values, from the variants' own declarations."""
    out: dict = {}
    for v in available():
        for d in v.options.describe():
            if "choice_labels" in d:
                out.setdefault(d["id"], {}).update(d["choice_labels"])
    return out


def ui_strings() -> dict[str, str]:
    """The table's and lobby's JavaScript strings, translated by Django for this request."""
    return {
        "connecting": _("Connecting…"),
        "connected": _("Connected"),
        "reconnecting": _("Reconnecting…"),
        "offline": _("Disconnected"),
        "ready": _("Ready"),
        "ready_next": _("Ready for the next hand"),
        "waiting_players": _("Waiting for players"),
        "waiting_ready": _("Waiting for everyone to be ready"),
        "is_ready": _("ready"),
        "not_ready": _("not ready"),
        "empty_seat": _("Empty seat"),
        "bot": _("bot"),
        "you": _("you"),
        "join": _("Join this table"),
        "leave": _("Leave"),
        "leave_confirm": _("Leave this room? Leaving during a hand costs the escape penalty."),
        "add_bot": _("Add a bot"),
        "remove_bot": _("Remove bot"),
        "spectating": _("You are watching this table."),
        "invite_code": _("Join code"),
        "hand_no": _("Hand %(n)s of %(total)s"),
        "wall": _("Wall"),
        "dealer": _("Dealer"),
        "discard": _("Discard"),
        "peng": _("Pung"),
        "gang": _("Kong"),
        "chi": _("Chow"),
        "hu": _("Win"),
        "zimo": _("Self-draw win"),
        "pass": _("Pass"),
        "que_prompt": _("Choose the suit you will give up"),
        "exchange_prompt": _("Choose three tiles of one suit to pass on"),
        "exchange_confirm": _("Pass these three"),
        "exchange_waiting": _("Waiting for the others to choose"),
        "que_waiting": _("Waiting for the others to choose a suit"),
        "your_turn": _("Your turn: discard a tile"),
        "claim_prompt": _("A tile you can claim"),
        "turn_of": _("%(name)s to play"),
        "won": _("Won"),
        "left": _("left"),
        "result_title": _("Hand %(n)s result"),
        "win": _("Win"),
        "drawn_game": _("Drawn hand (流局)"),
        "wall_out": _("The wall ran out"),
        "self_draw": _("self-draw"),
        "on_discard": _("on %(name)s's discard"),
        "rob_kong": _("robbed %(name)s's kong"),
        "fan": _("fan"),
        "capped": _("capped"),
        "transfers": _("Payments"),
        "no_transfers": _("No payments"),
        "cha": _("End-of-wall checks"),
        "hua_zhu": _("Flower pig (花猪)"),
        "ready_hand": _("Ready hand (听牌)"),
        "not_ready_hand": _("Not ready (未听)"),
        "hand_deltas": _("This hand"),
        "totals": _("Running totals"),
        "rating": _("Rating"),
        "settling": _("Settling…"),
        "final": _("Final standings"),
        "game_over": _("The game is over."),
        "close": _("Close"),
        "back_to_lobby": _("Back to the lobby"),
        "next_hand_in": _("Next hand starts in %(s)s s"),
        "feed": _("Payments this hand"),
        "exchange_dir": _("Tiles passed %(dir)s"),
        "clockwise": _("clockwise"),
        "counterclockwise": _("counter-clockwise"),
        "across": _("across"),
        "missing": _("Missing suit"),
        "error": _("Error"),
        "keys": _("Keys: H win · P pung · G kong · Space/Esc pass · ←/→ + Enter discard"),
        "winds": _("ESWN"),
        "m": _("Characters"),
        "p": _("Dots"),
        "s": _("Bamboo"),
        "no_cap": _("No cap"),
        "no_timer": _("No timer"),
        "seats_filled": _("%(n)s/4 seated"),
        "hands": _("%(n)s hands"),
        "watch": _("Watch"),
        "open": _("Open"),
        "playing": _("Playing"),
        "finished": _("Finished"),
        "private": _("Private"),
        "public": _("Public"),
        "no_rooms": _("No open tables right now. Create one!"),
        "default_rules": _("Default rules"),
        "default_choice": _("Default"),
        "seconds": _("sec"),
        "club_preset": _("%(club)s · %(preset)s, version %(n)s"),
    }


def home(request):
    return render(request, "games/home.html", {"variants": VARIANTS})


@ensure_csrf_cookie
def lobby(request):
    return render(
        request,
        "games/lobby.html",
        {
            "ui_strings": ui_strings(),
            "choice_names": choice_names(),
        },
    )


@login_required
@ensure_csrf_cookie
def room(request, pk):
    room = get_object_or_404(Room, pk=pk)
    seat = selectors.seat_of(room, request.user)
    if seat is None and club_selectors.room_hidden_from(room.club_id, request.user):
        raise Http404("no such room")
    variant = get_variant(room.variant)
    if room.private and seat is None:
        # A private table is seen only by its players: ask for the join code.
        return render(request, "games/room_code.html", {"room": room}, status=403)
    boot = {
        "room_id": room.pk,
        "user_id": request.user.pk,
        "ws": room.ws_path,
        "seat": seat,
        "patterns": variant.pattern_names(),
        "reasons": variant.reason_names(),
        "choices": choice_names(),
        "strings": ui_strings(),
        "lobby_url": "/lobby/",
    }
    return render(request, "games/room.html", {"room": room, "boot": boot})


@login_required
@require_POST
def join_by_code(request):
    if not throttles.allowed(throttles.JoinCodeThrottle, request):
        messages.error(request, _("Too many join attempts: wait a minute and try again."))
        return redirect("lobby")
    code = request.POST.get("code", "").strip().upper()[:6]
    room = Room.objects.filter(code=code).first() if code else None
    if room is None:
        messages.error(request, _("No room has that join code."))
        return redirect("lobby")
    try:
        services.room_join(room_id=room.pk, user=request.user, code=code)
    except services.ServiceError as e:
        messages.error(request, e.message)
        return redirect("lobby")
    return redirect("room", pk=room.pk)
