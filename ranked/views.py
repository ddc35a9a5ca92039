"""Ranked play's pages: /play/ (queue for a variant, the current 段位, the boards' links)
and a variant's season board."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from games.rooms.variants import listed_variants, variant_info
from ranked import ladder, selectors
from ranked.models import Season
from ranked.services import current_season


@ensure_csrf_cookie
def play(request):
    mine = {}
    if request.user.is_authenticated:
        mine = {s["variant"]: s for s in selectors.standings(request.user)}
    variants = [{"info": v, "standing": mine.get(v.key)} for v in listed_variants()]
    return render(
        request,
        "ranked/play.html",
        {
            "variants": variants,
            "season": current_season(),
            "tiers": ladder_rows(),
            "texts": {
                "idle": _("You are not queued."),
                "waiting": _(
                    "Queued for %(variant)s: %(n)s players waiting, you for %(s)s seconds."
                ),
                "seated": _("Seated: opening your table…"),
                "variants": {v.key: v.name for v in listed_variants()},
            },
        },
    )


def ladder_rows() -> list[dict]:
    """The ladder as the play page explains it: each step, its goal and fourth's cost."""
    return [
        {
            "name": ladder.step_name(i, request_lang()),
            "goal": s.goal,
            "fourth": ladder.FOURTH_COST[s.tier],
            "floor": s.floor,
        }
        for i, s in enumerate(ladder.STEPS)
    ]


def request_lang() -> str:
    return get_language() or "en"


def board(request, variant):
    info = variant_info(variant)
    if info is None:
        raise Http404("unknown variant")
    season = selectors.season_of(request.GET.get("season")) if request.GET.get("season") else None
    season = season or current_season()
    return render(
        request,
        "ranked/board.html",
        {
            "variant": info,
            "board": selectors.board(info.key, season),
            "seasons": Season.objects.all(),
            "season": season,
        },
    )
