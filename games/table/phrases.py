"""Quick phrases and emoji (快捷语/表情): a fixed set, no free text.

A seated player sends one by its id; everyone at the table is shown it beside the
seat, in their own language.  At most one per ``PHRASE_SECONDS`` per player, counted
in the cache (Redis with the services profile, so every server process shares the
count); spectators cannot send.  Nothing is stored: a phrase is gone once shown."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from clubs.selectors import room_hidden_from
from config.refusals import ServiceError
from games.models import Room
from games.table import publish
from games.table.selectors import seat_of

PHRASE_SECONDS = 3

# id -> the words, translated for each reader (an emoji is the same in every language).
PHRASES = {
    "hurry": _("Hurry up, the flowers are wilting!"),
    "nice": _("Nice hand!"),
    "again": _("One more round!"),
    "sorry": _("Sorry, bad connection."),
    "luck": _("Good luck, everyone!"),
    "thanks": _("Thanks for the game!"),
    "think": _("Let me think…"),
    "oops": _("Oops, wrong tile!"),
}
EMOJI = {
    "smile": "😄",
    "laugh": "😂",
    "cry": "😭",
    "angry": "😡",
    "thumbs": "👍",
    "party": "🎉",
    "think_face": "🤔",
    "flower": "🌹",
}


def phrase_list() -> list[dict]:
    """The set as the table offers it, in the reader's language: ``{"id", "text",
    "emoji"}`` (``emoji``: shown large, without a bubble's words)."""
    return [{"id": k, "text": str(v), "emoji": False} for k, v in PHRASES.items()] + [
        {"id": k, "text": v, "emoji": True} for k, v in EMOJI.items()
    ]


def phrase_send(*, room_id, user, phrase) -> dict:
    """``user`` says ``phrase`` (an id of the set) at the table; returns what was shown."""
    if not isinstance(phrase, str) or (phrase not in PHRASES and phrase not in EMOJI):
        raise ServiceError("bad_phrase", "not one of the quick phrases")
    room = Room.objects.filter(pk=room_id).values("club_id").first()
    if room is None or room_hidden_from(room["club_id"], user):
        raise ServiceError("no_room", "no such room", 404)
    seat = seat_of(room_id, user)
    if seat is None:
        raise ServiceError("spectator", "spectators cannot send quick phrases", 403)
    # One key a player, whichever table or process: ``add`` sets it only if absent.
    if not cache.add(f"phrase:{user.pk}", 1, timeout=PHRASE_SECONDS):
        raise ServiceError(
            "phrase_too_soon", f"one quick phrase every {PHRASE_SECONDS} seconds", 429
        )
    said = {"seat": seat, "user_id": user.pk, "phrase": phrase}
    publish.phrase_said(room_id, said)
    return said
