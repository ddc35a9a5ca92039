"""The hand page: a hand's replay, its verify panel and its review panel.

The page holds no rules: the replay's frames come from the REST API
(``games.replays.api``) and the verify panel re-deals from the variant's deal as data.
"""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Hand
from games.replays import selectors
from games.rooms.variants import lang, variant_name
from games.rooms.views import shared_strings
from games.rules import get_variant
from games.table import late
from reviews.selectors import review_boot


def replay_strings() -> dict[str, str]:
    """The hand page's JavaScript strings (replay and verify panel), in the reader's language."""
    return {
        **shared_strings(),
        "step_of": _("Step %(n)s of %(total)s"),
        "deal": _("The deal"),
        "play": pgettext("replay", "Play"),
        "pause": pgettext("replay", "Pause"),
        "first": _("First step"),
        "last": _("Last step"),
        "discard": _("discards"),
        "draw": _("draws"),
        # The table closing a claim window nobody took (logged for the discarder's seat).
        "close": _("nobody claims it"),
        "leave": _("Left the table"),
        "choice": _("Chooses"),
        "no_wins": _("No win yet."),
        "copied": _("Link copied."),
        "copy_failed": _("Copy the link from the box."),
        "load_failed": _("The replay could not be loaded."),
        "verifying": _("Checking…"),
        "commit_ok": _(
            "Match: SHA-256 of this server seed is the commitment published before the deal."
        ),
        "commit_bad": _(
            "Mismatch: SHA-256 of this server seed is not the commitment published before the deal."
        ),
        "deal_ok": _(
            "Match: these seeds deal exactly the hands, flowers and indicator of the replay."
        ),
        "deal_bad": _("Mismatch: these seeds deal other tiles than the ones played (%(what)s)."),
        "draws_ok": _(
            "Match: all %(n)s tiles drawn during the hand came from this wall, in order."
        ),
        "draws_bad": _("Mismatch: step %(n)s drew %(got)s where this wall gives %(expected)s."),
        "verify_ok": _("Verified: this deal followed from seeds fixed before anyone saw them."),
        "verify_bad": _("Not verified: the seeds do not match what was played."),
        "verify_error": _("These seeds cannot be checked: %(error)s"),
        "no_crypto": _("This browser has no Web Crypto: use the command line check instead."),
        "computed": _("computed"),
        "expected": _("published"),
        "wall_order": _("The wall as dealt, from the front"),
        "dice": _("Dice"),
    }


def hand(request, pk):
    """A finished hand's replay and its verify panel; a hand in play shows its commitment."""
    hand = get_object_or_404(Hand.objects.select_related("room"), pk=pk)
    if not selectors.hand_visible_to(hand, request.user):
        # Friendly, not a stack trace: the hand exists but is for its players.
        return render(request, "games/hand_private.html", {"hand": hand}, status=403)
    if late.replay_held(hand, request.user):
        context = {"hand": hand, "delayed": hand.room.spectator_delay}
        return render(request, "games/hand_private.html", context, status=403)
    variant = get_variant(hand.variant)
    record = selectors.hand_record(hand)
    if record is None:
        return render(request, "games/hand_private.html", {"hand": hand, "no_record": True})
    over = hand.status == Hand.Status.ENDED
    names = [p["bot_names"][lang()] if p["bot_names"] else p["name"] for p in record["players"]]
    boot = {
        "hand_id": hand.pk,
        "over": over,
        "record": record,
        "frames_url": f"/api/hands/{hand.pk}/frames/",
        # The variant's deal as data, for the verify panel's re-deal (no secret in it).
        "deal": variant.deal_procedure(variant.options.resolve_stored(record["rules"])),
        "patterns": variant.pattern_names(),
        "reasons": variant.reason_names(),
        "winds": variant.plays_winds,
        "variant": variant.site_data(),
        "strings": replay_strings(),
        # The review (复盘) panel: its own app, shown to whoever may see the replay.
        "review": review_boot(hand, request.user) if over else None,
    }
    return render(
        request,
        "games/hand.html",
        {
            "hand": hand,
            "record": record,
            "over": over,
            "player_names": names,
            "variant_name": variant_name(hand.variant),
            "boot": boot,
        },
    )
