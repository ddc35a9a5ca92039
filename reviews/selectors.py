"""What a review looks like to a reader, and what the replay page needs to offer one."""

from __future__ import annotations

from django.utils.translation import gettext as _

from config import refusals
from games.models import Hand
from reviews.models import HandReview


def review_payload(row: HandReview) -> dict:
    """``{"hand", "hand_number", "seat", "status", "entries", "requested_at", "done_at"}``;
    ``entries`` is null until the review is done."""
    return {
        "hand": row.hand_id,
        "hand_number": row.hand.number,
        "seat": row.seat,
        "status": row.status,
        "entries": row.entries if row.status == HandReview.Status.DONE else None,
        "requested_at": row.requested_at.isoformat(),
        "done_at": row.done_at.isoformat() if row.done_at else None,
    }


def hand_reviews(hand: Hand) -> list[dict]:
    """Every review asked for in this hand, by seat.  The caller has checked that the
    reader may see the hand's replay: its reviews are shown to the same readers."""
    rows = HandReview.objects.filter(hand=hand).select_related("hand").order_by("seat")
    return [review_payload(r) for r in rows]


def review_boot(hand: Hand, user) -> dict:
    """The replay page's review panel: where to ask and poll, which seat the reader may
    ask about (None: they did not play this hand) and its strings."""
    mine = user.pk in hand.players if user is not None and user.is_authenticated else False
    return {
        "url": f"/api/hands/{hand.pk}/reviews/",
        "seat": hand.players.index(user.pk) if mine else None,
        "hand_number": hand.number,
        "strings": review_strings(),
    }


def review_strings() -> dict:
    """The review panel's JavaScript strings, in the reader's language."""
    return {
        "title": _("Review (复盘)"),
        "ask": _("Review my play"),
        "explain": _(
            "Each of your discards and claims beside what the Strong bot would have done, and why."
        ),
        "pending": _("Preparing the review…"),
        "failed": _("This hand's review could not be made."),
        "yours": _("Your review"),
        "of_seat": _("Review of %(name)s"),
        "hand": _("Hand %(n)s"),
        "step": _("Step %(n)s"),
        "you": _("You"),
        # Who made a move, before the move ("You: discards 5s").
        "who": _("%(who)s:"),
        "strong": _("Strong bot"),
        # A move the Strong bot would have made too.
        "same": _("The Strong bot would play the same."),
        "agreed": _("%(same)s of %(total)s decisions were the Strong bot's."),
        "nothing": _("You had no choice to make in this hand."),
        "only_diff": _("Only where the Strong bot differs"),
        "error": _("The review could not be asked for: %(detail)s"),
        "throttled": _("Too many review requests: wait a minute and try again."),
        "errors": refusals.texts(),
    }
