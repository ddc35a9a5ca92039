"""Page views: the home page, the lobby and the table page.

They render templates and boot static JavaScript modules; the pages hold no rules.  Everything
a table shows comes from the server's socket (``games.table.consumers``) and REST API
(``games.rooms.api``); joining by code goes through the same service as the API.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from games.models import Room
from games.rooms import throttles
from games.rooms.talk_words import talk_errors, talk_strings
from games.rooms.variants import lang, listed_variants
from games.rules import available, get_variant
from games.table import late, selectors, services
from games.table.phrases import phrase_list


def choice_names() -> dict:
    """Display names of house-rule choice values, from the variants' own declarations."""
    out: dict = {}
    for v in available():
        for d in v.options.describe():
            if "choice_labels" in d:
                out.setdefault(d["id"], {}).update(d["choice_labels"])
    return out


def shared_strings() -> dict[str, str]:
    """What the table and the hand page's replay both say: the tiles, winds and moves, and
    how a hand was won or drawn."""
    return {
        "wall": _("Wall"),
        "dealer": _("Dealer"),
        "indicator": _("Indicator"),
        "wilds": _("Wild tiles"),
        "flowers": _("Flowers"),
        "bot": _("bot"),
        "winds": _("ESWN"),
        "peng": _("Pung"),
        "gang": _("Kong"),
        "chi": _("Chow"),
        "hu": _("Win"),
        "pass": _("Pass"),
        "won": _("Won"),
        "drawn_game": _("Drawn hand (流局)"),
        "self_draw": _("self-draw"),
        "on_discard": _("on %(name)s's discard"),
        "rob_kong": _("robbed %(name)s's kong"),
        # The value a hand has before its items (Ningbo's 1 台), first in a result's sum.
        "base_name": _("Base"),
        "m": _("Characters"),
        "p": _("Dots"),
        "s": _("Bamboo"),
    }


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
        "you": _("you"),
        "join": _("Join this table"),
        "leave": _("Leave"),
        "leave_confirm": _("Leave this room? Leaving during a hand costs the escape penalty."),
        "add_bot": _("Add a bot"),
        "remove_bot": _("Remove bot"),
        "spectating": _("You are watching this table."),
        "spectator_late": _("You see it %(n)s s late."),
        "watchers": _("%(n)s watching"),
        "invite_code": _("Join code"),
        "hand_no": _("Hand %(n)s of %(total)s"),
        "discard": _("Discard"),
        "zimo": _("Self-draw win"),
        "your_turn": _("Your turn: discard a tile"),
        "claim_prompt": _("A tile you can claim"),
        "turn_of": _("%(name)s to play"),
        "left": _("left"),
        "result_title": _("Hand %(n)s result"),
        "win": _("Win"),
        "wall_out": _("The wall ran out"),
        **shared_strings(),
        "transfers": _("Payments"),
        "no_transfers": _("No payments"),
        "hand_deltas": _("This hand"),
        "totals": _("Running totals"),
        "rating": _("Rating"),
        "final": _("Final standings"),
        "game_over": _("The game is over."),
        "close": _("Close"),
        "back_to_lobby": _("Back to the lobby"),
        "back_to_club": _("Back to the club"),
        "next_hand_in": _("Next hand starts in %(s)s s"),
        "feed": _("Payments this hand"),
        "error": _("Error"),
        "keys": _("Keys: H win · P pung · G kong · Space/Esc pass · ←/→ + Enter discard"),
        "no_cap": _("No cap"),
        "no_timer": _("No timer"),
        "seats_filled": _("%(n)s/4 seated"),
        "hands": _("%(n)s hands"),
        "watch": _("Watch"),
        "open": _("Open"),
        "playing": _("Playing"),
        "finished": _("Finished"),
        "private": _("Private"),
        "rated": _("Rated"),
        "unrated": _("Unrated"),
        "rated_help": _("Rated: its hands move the leaderboards."),
        "unrated_help": _(
            "Unrated: bots, or fewer than 8 hands; the leaderboards do not count it."
        ),
        "no_rooms": _("No open tables right now. Create one!"),
        "default_rules": _("Default rules"),
        "default_choice": _("Default"),
        "seconds": _("sec"),
        "bot_level": _("Bots: %(level)s"),
        "bot_levels": {key: str(label) for key, label in Room.BotLevel.choices},
        # Saying why a tap is refused, announcing moves, aiding.
        "seat_wind": _("Seat wind"),
        "starts_in": _("The hand starts in %(s)s s, ready or not"),
        "win_refused_other": _("this win is not allowed here"),
        "prevailing": _("Round wind %(wind)s"),
        "wild": _("wild"),
        "streak": _("Dealer's hand %(n)s in a row"),
        "how_computed": _("How this was computed"),
        "sec_unit": _("s"),
        "auto_tag": _("Auto"),
        "running_total": _("Running total"),
        "last_discard": _("the latest discard"),
        "discard_keeps_ready": _("discarding it leaves you ready (%(n)s waits)"),
        "tap_won": _("You have won this hand; the others play on."),
        "tap_not_allowed": _("You cannot discard that tile now."),
        "tap_answer_claim": _("First answer the offer above (claim or pass)."),
        "tap_hand_over": _("This hand is over."),
        "tap_not_your_turn": _("Not your turn yet."),
        "left_n": _("×%(n)s"),
        "unseen_n": _("%(n)s not seen"),
        "hint_ready": _("Ready (听) — wins on:"),
        "hint_after": _("Discard %(tile)s and you wait on:"),
        "hint_pick": _("Tiles with a gold dot leave you ready (听) when discarded."),
        "auto_on": _("Auto-play (托管) is playing for you."),
        "auto_off": _("Take over again"),
        "skip": _("Skip"),
        "skip_hint": _("Not now: discard a tile to go on"),
        "own_offer_prompt": _("You may kong or win, or discard a tile to go on"),
        "own_win_prompt": _("You may win by self-draw, or discard a tile to go on"),
        "own_kong_prompt": _("You may kong, or discard a tile to go on"),
        "claim_prompt_tile": _("%(name)s discarded %(tile)s: claim it or pass"),
        "hand_over": _("The hand is over."),
        "other_payments": _("Other payments"),
        "hand_started": _("Hand %(n)s has started."),
        "moved_on": _("The table moved on before your move arrived: it no longer applies."),
        "call_peng": _("Pung!"),
        "call_gang": _("Kong!"),
        "call_chi": _("Chow!"),
        "chow_overridden": _("%(name)s's %(kind)s took the tile: it comes before your chow."),
        "call_hu": _("Win!"),
        "call_zimo": _("Self-draw!"),
        "auto_discard": _("Time ran out: %(tile)s was discarded for you."),
        "auto_pass": _("Time ran out: you passed."),
        "auto_move": _("Time ran out: a move was played for you."),
        "played_for_close": _("Got it"),
        "quick_play": _("Quick play"),
        "creating": _("Creating…"),
        "club_preset": _("%(club)s · %(preset)s, version %(n)s"),
        # Replays and the check of the deal.
        "replay_hand": _("Replay and check this hand"),
        "hand_link": _("Hand %(n)s: replay and check"),
        "next_commitment": _("Deal commitment of hand %(n)s"),
        "commitment_line": _(
            "The fingerprint of this deal's secret seed, fixed before anyone is ready: "
            "you can check the deal after the hand."
        ),
        "fair_link": _("How the deal is kept fair"),
        "commitment_help": _(
            "SHA-256 of the server's secret seed for this deal, fixed before anyone is "
            "ready: the seed is revealed when the hand ends, so you can check the deal."
        ),
    }


def variant_errors(variant) -> dict[str, str]:
    """A variant's own rejection codes in the reader's language (its site data)."""
    return {code: text[lang()] for code, text in variant.site_data()["errors"].items()}


def error_messages() -> dict[str, str]:
    """Refusal codes in the reader's language; the API's ``detail`` stays the fallback."""
    return {
        "bad_length": _("A game is 1 to 64 hands long."),
        "bad_bots": _("Choose 0 to 3 bots."),
        "bad_bot_level": _("The bots' level is Basic or Strong."),
        "bad_private": _("Only a private table can have no timer."),
        "bad_timer": _("Timers are 3 to 300 seconds (no timer only at a private table)."),
        "bad_delay": _(
            "The spectator delay is 0 to 300 seconds, and not less than the club preset's."
        ),
        "bad_rules": _("One of the house rules has a value it cannot take."),
        "bad_request": _("The form was not filled in correctly."),
        "unknown_variant": _("That rule set is not available yet."),
        "bad_variant": _("This club's rule preset is for another rule set."),
        "no_preset": _("There is no such rule preset in your clubs."),
        "busy": _("The server is busy; try again in a moment."),
        "no_room": _("There is no such table."),
        "wrong_code": _("That join code is not right."),
        "room_started": _("The game at this table has already started."),
        "room_full": _("This table is full."),
        "not_seated": _("You are not seated at this table."),
        "not_owner": _("Only the table's owner can do that."),
        "not_a_bot": _("There is no bot in that seat."),
        "game_over": _("The game at this table is over."),
        "left": _("You left this game's hand in progress: you can rejoin when it is over."),
        "too_many_rooms": _(
            "You already have tables waiting for players: start or leave one first."
        ),
        "too_many_tables": _(
            "You are seated at as many tables as you may be while their games go on: "
            "finish or leave one first."
        ),
        "too_many_sockets": _(
            "You have too many tables open in other tabs or windows: close one and reload."
        ),
        "not_member": _("You are no longer a member of this table's club."),
        "replay_delayed": _(
            "Spectators of this table see it late: this hand's replay opens when the delay "
            "has passed."
        ),
        "no_hand": _("No hand is being played at this table."),
        "stale": _("The table moved on before your move arrived; try again."),
        "bad_version": _("Your page is behind the table; it has been brought up to date."),
        "not_your_turn": _("Not your turn yet."),
        "out": _("You have won this hand; the others play on."),
        "tile_not_held": _("You do not hold that tile."),
        "illegal": _("That move is not allowed now."),
        "hand_over": _("This hand is over."),
        "already_left": _("You have already left this hand."),
        "bad_action": _("That move was not understood."),
        "bad_tile": _("That is not a tile of this game."),
        "rate_limited": _("Too many requests; wait a moment."),
        "network": _("No connection to the server."),
        "bad_client_seed": _("Your browser sent a malformed random seed; reload the page."),
    }


def home(request):
    return render(request, "games/home.html", {"variants": listed_variants()})


@ensure_csrf_cookie
def lobby(request):
    return render(
        request,
        "games/lobby.html",
        {
            "ui_strings": {**ui_strings(), "errors": error_messages()},
            "choice_names": choice_names(),
            "main_rules": {v.key: v.site_data()["main_rules"] for v in available()},
        },
    )


@login_required
@ensure_csrf_cookie
def room(request, pk):
    room = get_object_or_404(Room, pk=pk)
    seat = selectors.seat_of(room, request.user)
    if seat is None and club_selectors.room_hidden_from(room.club_id, request.user):
        # Not found for outsiders (nor which club), but said in words: how to get in.
        return render(request, "games/room_club.html", {"room": room}, status=404)
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
        "winds": variant.plays_winds,
        # What only this variant shows (setup phases, marks, result line …), as data.
        "variant": variant.site_data(),
        "choices": choice_names(),
        "strings": {**ui_strings(), **talk_strings()},
        "errors": {**error_messages(), **variant_errors(variant), **talk_errors()},
        "phrases": phrase_list(),
        # Where "back" leads: a club's table back to its club.
        "lobby_url": reverse("club", args=[room.club_id]) if room.club_id else reverse("lobby"),
    }
    hands = selectors.room_hands(room)
    if seat is None and room.spectator_delay:  # a spectator: the hands ended by then
        hands = [h for h in hands if h["ended_at"] <= late.cutoff(room.spectator_delay)]
    help_lines = [line[lang()] for line in boot["variant"]["help"]]
    return render(
        request,
        "games/room.html",
        {"room": room, "boot": boot, "hands": hands, "variant_help": help_lines},
    )


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
        messages.error(request, error_messages().get(e.code, e.message))
        return redirect("lobby")
    return redirect("room", pk=room.pk)
