"""Reads of match records for the API and the pages."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from clubs import selectors as club_selectors
from games import delay
from games.models import Hand
from games.rules import get_variant
from games.table.bot_accounts import display_names
from records.models import Match


def _with_players(qs: QuerySet) -> QuerySet:
    return qs.select_related("room").prefetch_related("players__user")


def matches_of(user) -> QuerySet:
    """The matches ``user`` played a hand of, newest first."""
    return _with_players(Match.objects.filter(participants=user))


def _still_delayed(matches: QuerySet) -> list[int]:
    """Of these matches, those not public yet (``games.table.late``): their record holds
    the last hand's result, so it waits like that hand's replay for anyone who did not
    play it."""
    return delay.held(matches, ended="ended_at", delay="room__spectator_delay")


def club_matches(
    club_id,
    *,
    member: int | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    reader=None,
) -> QuerySet:
    """A club's matches, newest first; ``member`` played in them, ended within the
    dates (both included, days of the current time zone: the reader's); those still
    inside their room's spectator delay only if ``reader`` played in them."""
    qs = Match.objects.filter(club_id=club_id)
    held = _still_delayed(qs)
    if held:
        played = Q(participants=reader) if reader is not None else Q(pk__in=[])
        qs = qs.exclude(Q(pk__in=held) & ~played)
    if member is not None:
        qs = qs.filter(participants=member)
    if since is not None:
        qs = qs.filter(ended_at__date__gte=since)
    if until is not None:
        qs = qs.filter(ended_at__date__lte=until)
    return _with_players(qs)


def match_visible_to(match: Match, user) -> bool:
    """As a room's hands are: a private (or club) room's match is for the people who
    played in it; every other match is public."""
    room = match.room
    hidden = room.private or club_selectors.room_hidden_from(match.club_id, user)
    if not hidden and not _still_delayed(Match.objects.filter(pk=match.pk)):
        return True
    if user is None or not user.is_authenticated:
        return False
    if not match.participants.filter(pk=user.pk).exists():
        return False
    if not club_selectors.room_hidden_from(match.club_id, user):
        return True
    # Out of the club since: theirs only if they sat to its end (its later hands are not).
    last = Hand.objects.filter(room_id=match.room_id).order_by("-number").first()
    return last is None or user.pk in last.players


def visible_match(pk, user) -> Match | None:
    match = _with_players(Match.objects.filter(pk=pk)).first()
    if match is None or not match_visible_to(match, user):
        return None
    return match


def match_payload(match: Match) -> dict:
    """The public shape of one match (``GET /api/matches/{id}/``)."""
    return {
        "id": match.pk,
        "variant": match.variant,
        "club": match.club_id,
        "room": match.room_id,
        # In the reader's zone, with its offset: the same instant, and a page that shows
        # the string's date and time shows the reader's own.
        "started_at": timezone.localtime(match.started_at).isoformat(),
        "ended_at": timezone.localtime(match.ended_at).isoformat(),
        "ended_by": match.ended_by,
        "players": [
            {"seat": p.seat, "name": p.name, "is_bot": p.is_bot, "total": p.total}
            for p in match.players.all()
        ],
        "hands": [h["id"] for h in match.summary.get("hands", [])],
    }


CSV_HEADER = [
    "match",
    "variant",
    "club",
    "room",
    "started_at",
    "ended_at",
    "ended_by",
    "seat",
    "user_id",
    "name",
    "is_bot",
    "total",
]


def csv_rows(matches) -> list[list]:
    """One row per player per match, under ``CSV_HEADER``."""
    return [
        [
            m.pk,
            m.variant,
            m.club_id or "",
            m.room_id,
            timezone.localtime(m.started_at).isoformat(),
            timezone.localtime(m.ended_at).isoformat(),
            m.ended_by,
            p.seat,
            p.user_id or "",
            p.name,
            int(p.is_bot),
            p.total,
        ]
        for m in matches
        for p in m.players.all()
    ]


def _named(names: dict | None, lang: str, fallback: str) -> str:
    return names[lang] if names else fallback


def match_view(match: Match, lang: str) -> dict:
    """The match page's 大结算: the stored summary with names for people (players,
    scoring items) in ``lang`` ("zh-hans" or "en"); the browser draws the image from it."""
    patterns = get_variant(match.variant).pattern_names()
    players = {p.seat: p for p in match.players.all()}

    def name(seat) -> str:
        p = players.get(seat)
        if p is None:
            return "?"
        return _named(display_names(p.user) if p.user else None, lang, p.name or "?")

    def items(raw) -> list[dict]:
        return [
            {
                "id": i["id"],
                "name": patterns.get(i["id"], {}).get(lang, i["id"]),
                "value": i["value"],
            }
            for i in raw
        ]

    out_players = []
    for p in match.summary.get("players", []):
        best = p["best"]
        out_players.append(
            {
                **p,
                "name": name(p["seat"]),
                "is_bot": players[p["seat"]].is_bot if p["seat"] in players else False,
                "best": {**best, "items": items(best["items"])} if best else None,
            }
        )
    hands = [
        {
            **h,
            "wins": [
                {
                    **w,
                    "name": name(w["seat"]),
                    "from_name": name(w["from"]) if w["from"] is not None else "",
                    "items": items(w["items"]),
                }
                for w in h["wins"]
            ],
        }
        for h in match.summary.get("hands", [])
    ]
    return {"players": out_players, "hands": hands}


def match_of_room(room_id) -> int | None:
    """The room's match record's id, once its match is recorded."""
    return Match.objects.filter(room_id=room_id).values_list("pk", flat=True).first()


def match_ended_after(match_id, when: datetime.datetime) -> bool:
    return Match.objects.filter(pk=match_id, ended_at__gt=when).exists()


def rooms_with_match_held(now: datetime.datetime | None = None) -> list[int]:
    """Rooms whose match is over but not yet for their spectators (the lobby lists them
    as still playing until the delay has passed)."""
    ids = delay.held(Match.objects.all(), ended="ended_at", delay="room__spectator_delay", now=now)
    return list(Match.objects.filter(pk__in=ids).values_list("room_id", flat=True)) if ids else []
