"""Record pages (我的战绩, a club's 战绩, one match's 大结算).

They read through ``records.selectors``, refuse what the API refuses (a match one
may not see is not found; a club's records are for its members) and count against
the same throttle as the API.  The summary image is drawn in the browser
(``static/js/records.js``) from the data the page shows.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from config.api_views import throttle_allows
from config.converters import row_id
from games.rooms.variants import listed_variants
from games.rules import get_variant
from records import selectors
from records.throttles import RecordsReadThrottle

PER_PAGE = 20


def _lang() -> str:
    return "en" if (get_language() or "").startswith("en") else "zh-hans"


def _variant_names() -> dict:
    return {v.key: v.name for v in listed_variants()}


def _too_many(request):
    return render(request, "429.html", status=429)


def _rows(matches, me=None) -> list[dict]:
    """Matches as the lists show them: players with totals, the reader's seat marked."""
    names = _variant_names()
    return [
        {
            "match": m,
            "variant_name": names.get(m.variant, m.variant),
            "players": list(m.players.all()),
            "mine": next((p for p in m.players.all() if me and p.user_id == me.pk), None),
        }
        for m in matches
    ]


@login_required
def my_records(request):
    if not throttle_allows(RecordsReadThrottle, request):
        return _too_many(request)
    page = Paginator(selectors.matches_of(request.user), PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request, "records/my_records.html", {"page": page, "rows": _rows(page, request.user)}
    )


def _date(raw: str | None) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


@login_required
def club_records(request, pk):
    m = club_selectors.membership_of(pk, request.user)
    if m is None:
        raise Http404("no such club")
    if not throttle_allows(RecordsReadThrottle, request):
        return _too_many(request)
    member = row_id(request.GET.get("member"))
    since, until = _date(request.GET.get("since")), _date(request.GET.get("until"))
    qs = selectors.club_matches(pk, member=member, since=since, until=until, reader=request.user)
    page = Paginator(qs, PER_PAGE).get_page(request.GET.get("page"))
    filters = {
        k: v
        for k, v in (
            ("member", member),
            ("since", since and since.isoformat()),
            ("until", until and until.isoformat()),
        )
        if v
    }
    return render(
        request,
        "records/club_records.html",
        {
            "club": m.club,
            "me": m,
            "page": page,
            "rows": _rows(page, request.user),
            "members": club_selectors.members(pk),
            "member": member,
            "since": since,
            "until": until,
            "query": urlencode(filters),
            "csv_query": urlencode({**filters, "format": "csv"}),
        },
    )


def image_strings() -> dict[str, str]:
    """The summary image's words, in the reader's language."""
    return {
        "title": _("Match summary"),
        "total": _("Total"),
        "wins": _("Wins"),
        "self_draws": _("Self-draws"),
        "fed": _("Dealt in"),
        "best": _("Best hand"),
        "big_winner": _("Big winner"),
        "top_feeder": _("Top feeder"),
        "hand": _("Hand"),
        "hand_no": _("hand %(n)s"),
    }


def _result_spec(variant: str, lang: str) -> dict:
    """How the variant's win values read (``static/js/score_line.js``), in ``lang``."""
    raw = get_variant(variant).site_data()["result"]
    return {
        "unit": raw["unit"][lang],
        "combine": raw["combine"],
        "base": raw.get("base", 0),
        "capped": raw["capped"][lang] if raw.get("capped") else "",
        "base_name": _("Base"),
    }


def match(request, pk):
    record = selectors.visible_match(pk, request.user)
    if record is None:
        raise Http404("no such match")
    if not throttle_allows(RecordsReadThrottle, request):
        return _too_many(request)
    view = selectors.match_view(record, _lang())
    variant_name = _variant_names().get(record.variant, record.variant)
    boot = {
        "variant": str(variant_name),
        "ended_at": timezone.localtime(record.ended_at).strftime("%Y-%m-%d %H:%M"),
        "players": view["players"],
        "hands": view["hands"],
        "strings": image_strings(),
        "filename": f"match-{record.pk}.png",
        # The image says where the match was played and how it ended.
        "club": record.club.name if record.club_id else "",
        "room": _("Table %(n)s") % {"n": record.room_id},
        "ended": _("dissolved") if record.ended_by == "dissolved" else _("played to the end"),
        "result": _result_spec(record.variant, _lang()),
    }
    return render(
        request,
        "records/match.html",
        {
            "record": record,
            "variant_name": variant_name,
            "players": view["players"],
            "hands": view["hands"],
            "boot": boot,
        },
    )
