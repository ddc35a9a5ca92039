"""Club pages: my clubs (and my join requests), a club (its announcement, members and,
for managers, join requests), its audit history, the preset editor and a room's form.

Pages read through selectors and boot ``static/js/clubs.js``, which writes
through the REST API (``clubs.api``), so the page and the API refuse the
same things in the same words.  Outsiders get 404 (a club is not revealed),
members who are not managers 403 on the managers' pages.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from clubs import selectors
from clubs.models import Membership
from clubs.services import ANNOUNCEMENT_MAX
from config import refusals
from leaderboards.selectors import club_leaderboard


def _lang() -> str:
    return "en" if (get_language() or "").startswith("en") else "zh-hans"


def _named(names: dict) -> str:
    return names.get(_lang()) or names.get("zh-hans", "")


def _member(pk, user) -> Membership:
    m = selectors.membership_of(pk, user)
    if m is None:
        raise Http404("no such club")
    return m


def _manager(pk, user) -> Membership:
    m = _member(pk, user)
    if not m.manages:
        raise PermissionDenied("only the club's owner and managers can do this")
    return m


def _preset(pk, pid):
    preset = selectors.preset_in_club(pk, pid)
    if preset is None:
        raise Http404("no such preset")
    return preset


def ui_strings() -> dict[str, str]:
    """The club pages' JavaScript strings, translated for this request."""
    return {
        "default_choice": _("Default"),
        "no_cap": _("No cap"),
        "locked": _("Locked"),
        "lock": _("Lock for rooms"),
        "no_rooms": _("No open tables in this club."),
        "seats_filled": _("%(n)s/4 seated"),
        "join": _("Join this table"),
        "watch": _("Watch"),
        "confirm_remove": _("Remove this member from the club?"),
        "confirm_leave": _("Leave this club?"),
        "confirm_rotate": _("Make a new invite code? The old one stops working."),
        "error": _("Error"),
        "rated": _("Rated"),
        "unrated": _("Unrated"),
        "confirm_deny": _("Deny this request to join?"),
        "errors": refusals.texts(bad_announcement={"n": ANNOUNCEMENT_MAX}),
    }


def _variants() -> list[dict]:
    return [{"key": v["key"], "name": _named(v["name"])} for v in selectors.variant_choices()]


def _boot(request, m: Membership, **extra) -> dict:
    return {
        "club_id": m.club_id,
        "role": m.role,
        "user_id": request.user.pk,
        "strings": ui_strings(),
        **extra,
    }


@login_required
@ensure_csrf_cookie
def my_clubs(request):
    return render(
        request,
        "clubs/my_clubs.html",
        {
            "clubs": selectors.clubs_of(request.user),
            "waiting": selectors.requests_waiting(request.user),
            "requests": selectors.my_join_requests(request.user),
            "boot": {"strings": ui_strings()},
        },
    )


@login_required
@ensure_csrf_cookie
def club(request, pk):
    m = _member(pk, request.user)
    variants = _variants()
    names = {v["key"]: v["name"] for v in variants}
    presets = [
        {**p, "variant_name": names.get(p["variant"], p["variant"])} for p in selectors.presets(pk)
    ]
    # The board asked for, else the variant the club plays (its first preset's).
    played = [p["variant"] for p in presets if p["variant"] in names] + list(names)
    variant = request.GET.get("variant") if request.GET.get("variant") in names else played[0]
    return render(
        request,
        "clubs/club.html",
        {
            "club": m.club,
            "me": m,
            "members": selectors.members(pk, with_stats=m.manages),
            "requests": selectors.join_requests(pk, limit=20) if m.manages else [],
            "pending_requests": selectors.requests_waiting(request.user).get(pk, 0),
            "announcement_max": ANNOUNCEMENT_MAX,
            "presets": presets,
            "variants": variants,
            "variant": variant,
            "leaderboard": club_leaderboard(pk, variant),
            "boot": _boot(request, m),
        },
    )


@login_required
def history(request, pk):
    m = _manager(pk, request.user)
    return render(
        request,
        "clubs/history.html",
        {"club": m.club, "entries": selectors.audit_log(pk)},
    )


@login_required
@ensure_csrf_cookie
def preset_new(request, pk):
    m = _manager(pk, request.user)
    boot = _boot(request, m, mode="new", variants=[v["key"] for v in _variants()])
    return render(request, "clubs/preset_edit.html", {"club": m.club, "boot": boot})


def _preset_boot(version, values: str) -> dict:
    """The preset for the page's script: the editor starts from the manager's ``choices``,
    a room's form from the resolved ``rules``."""
    return {**selectors.version_payload(version), values: getattr(version, values)}


def _localised(diff: list[dict]) -> list[dict]:
    lang = _lang()
    return [{**row, **{k: row[k].get(lang, "") for k in ("label", "old", "new")}} for row in diff]


@login_required
@ensure_csrf_cookie
def preset_edit(request, pk, pid):
    m = _manager(pk, request.user)
    preset = _preset(pk, pid)
    latest = selectors.latest_version(preset)
    history = [
        {"version": row["version"], "diff": _localised(row["diff"])}
        for row in selectors.version_history(preset)
    ]
    boot = _boot(request, m, mode="edit", preset=_preset_boot(latest, "choices"))
    return render(
        request,
        "clubs/preset_edit.html",
        {"club": m.club, "preset": preset, "history": history, "boot": boot},
    )


@login_required
@ensure_csrf_cookie
def preset_play(request, pk, pid):
    m = _member(pk, request.user)
    preset = _preset(pk, pid)
    latest = selectors.latest_version(preset)
    boot = _boot(request, m, mode="play", preset=_preset_boot(latest, "rules"))
    return render(
        request,
        "clubs/preset_play.html",
        {"club": m.club, "preset": preset, "version": latest, "boot": boot},
    )
