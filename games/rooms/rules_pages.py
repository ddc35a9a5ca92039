"""The rules pages (规则, and 本桌规则 with ``?room=``): the variant objects' rules as
``rulebook`` lays them out, beside the variants' site data (``variants.py``)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from clubs import selectors as club_selectors
from config.api_views import throttle_allows
from config.converters import row_id
from games.models import Room
from games.rooms import rulebook
from games.rooms.throttles import RulesReadThrottle
from games.rooms.variants import lang, listed_variants
from games.table import selectors as game_selectors


def _visible_room(pk, user) -> Room | None:
    """A room as the room page shows it: a private or club room only to its players."""
    room = Room.objects.filter(pk=pk).select_related("preset_version__preset").first()
    if room is None:
        return None
    hidden = room.private or club_selectors.room_hidden_from(room.club_id, user)
    if hidden and (not user.is_authenticated or game_selectors.seat_of(room, user) is None):
        return None
    return room


def _preset_layer(version) -> dict:
    """A preset version's layer of a room's rules: its choices and its locked values."""
    pinned = {k: version.rules[k] for k in version.locked if k in version.rules}
    return {**version.choices, **pinned}


def rules_index(request):
    if not throttle_allows(RulesReadThrottle, request):
        return render(request, "429.html", status=429)
    return render(
        request,
        "rules/index.html",
        {"variants": [v for v in listed_variants() if v.key in rulebook.listed_keys()]},
    )


def rules(request, variant):
    if variant not in rulebook.listed_keys():
        raise Http404("no such rule set")
    if not throttle_allows(RulesReadThrottle, request):
        return render(request, "429.html", status=429)
    room = None
    rules_in_force = preset = chosen = None
    raw_room = request.GET.get("room", "")
    if raw_room:
        room_id = row_id(raw_room)
        room = _visible_room(room_id, request.user) if room_id is not None else None
        if room is None or room.variant != variant:
            raise Http404("no such room")
        rules_in_force, chosen = room.rules, room.rule_choices
        preset = _preset_layer(room.preset_version) if room.preset_version else None
    page = rulebook.rule_page(variant, lang(), rules=rules_in_force, preset=preset, chosen=chosen)
    return render(
        request,
        "rules/rules.html",
        {"page": page, "room": room, "unit": page["unit"]},
    )
