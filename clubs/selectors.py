"""Club reads: the caller's clubs, a club's members (with their totals in its rooms) and
presets, join requests, versions, diffs, audit.

``room_hidden_from`` is what ``games`` asks before it shows a room: a club's
rooms are seen only by the club's members.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from clubs.models import AuditEntry, Club, JoinRequest, Membership, Preset, PresetVersion
from games import delay
from games.models import Settlement
from games.rules import UnknownVariant, available, get_variant

Role = Membership.Role
LANGS = ("zh-hans", "en")
YES = {"zh-hans": "是", "en": "yes"}
NO = {"zh-hans": "否", "en": "no"}
NO_LIMIT = {"zh-hans": "不限", "en": "no limit"}
UNSET = {"zh-hans": "—", "en": "—"}
AS_DEFAULT = {"zh-hans": "默认", "en": "default"}
NO_TIMER = {"zh-hans": "不限时", "en": "no timer"}
TIMER_LABELS = {
    "discard_seconds": {"zh-hans": "出牌计时", "en": "Discard timer"},
    "claim_seconds": {"zh-hans": "吃碰计时", "en": "Claim timer"},
}


def membership_of(club_id, user) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.select_related("club").filter(club_id=club_id, user=user).first()


def is_member(club_id, user) -> bool:
    return membership_of(club_id, user) is not None


def member_club_ids(user) -> list[int]:
    if user is None or not user.is_authenticated:
        return []
    return list(Membership.objects.filter(user=user).values_list("club_id", flat=True))


def room_hidden_from(club_id, user) -> bool:
    """Whether a room of ``club_id`` (None: not a club room) is hidden from ``user``."""
    return club_id is not None and not is_member(club_id, user)


def clubs_of(user) -> list[dict]:
    """The caller's clubs, as ``GET /api/clubs/`` lists them."""
    return [
        {"id": m.club_id, "name": m.club.name, "invite_code": m.club.invite_code, "role": m.role}
        for m in Membership.objects.filter(user=user).select_related("club").order_by("club__name")
    ]


def requests_waiting(user) -> dict[int, int]:
    """The pending join requests of the clubs ``user`` manages: club id -> how many."""
    managed = Membership.objects.filter(user=user, role__in=[Role.OWNER, Role.MANAGER])
    rows = (
        JoinRequest.objects.filter(
            status=JoinRequest.Status.PENDING, club_id__in=managed.values("club_id")
        )
        .values("club_id")
        .annotate(n=Count("pk"))
        .values_list("club_id", "n")
    )
    return dict(rows)


def members(club_id, *, with_stats: bool = False) -> list[dict]:
    """The members, owner first, then managers, then by name; ``with_stats`` adds each
    one's ``matches``, ``hands`` and ``total`` in the club's rooms (what managers see)."""
    order = {Role.OWNER: 0, Role.MANAGER: 1, Role.MEMBER: 2}
    rows = [
        {"user_id": m.user_id, "name": m.user.shown_name, "role": m.role}
        for m in Membership.objects.filter(club_id=club_id).select_related("user")
    ]
    if with_stats:
        stats = member_stats(club_id)
        for row in rows:
            row.update(stats.get(row["user_id"], NO_PLAY))
    return sorted(rows, key=lambda r: (order[r["role"]], r["name"].lower(), r["user_id"]))


NO_PLAY = {"matches": 0, "hands": 0, "total": 0}


def member_stats(club_id) -> dict[int, dict]:
    """Per player (user id): the matches (rooms) of this club they played a settled hand
    in, those hands, and the sum of their settlements, from each hand's frozen seating
    (``Hand.players``) and its ``Settlement.deltas``.  A match still being played counts
    with the hands settled so far."""
    stats: dict[int, dict] = {}
    rooms: dict[int, set] = {}
    # The hands not public yet (``games.table.late``) move no one's totals.
    settled = Settlement.objects.filter(hand__room__club_id=club_id)
    settled = settled.exclude(hand_id__in=delay.hands_held(room__club_id=club_id)).values_list(
        "hand__room_id", "hand__players", "deltas"
    )
    for room_id, players, deltas in settled:
        for seat, user_id in enumerate(players):
            if user_id is None or seat >= len(deltas):
                continue
            row = stats.setdefault(user_id, dict(NO_PLAY))
            row["hands"] += 1
            row["total"] += int(deltas[seat])
            rooms.setdefault(user_id, set()).add(room_id)
    for user_id, played in rooms.items():
        stats[user_id]["matches"] = len(played)
    return stats


def join_requests(club_id, limit: int = 200) -> list[dict]:
    """The club's join requests for its managers: the pending ones first (oldest first),
    then the decided ones, newest first."""
    qs = JoinRequest.objects.filter(club_id=club_id).select_related("user", "decided_by")
    pending = qs.filter(status=JoinRequest.Status.PENDING).order_by("created_at", "pk")
    decided = qs.exclude(status=JoinRequest.Status.PENDING).order_by("-decided_at", "-pk")
    return [join_request_payload(r) for r in [*pending[:limit], *decided[:limit]]]


def join_request_payload(r: JoinRequest) -> dict:
    return {
        "id": r.pk,
        "user_id": r.user_id,
        "name": r.user.shown_name,
        "status": r.status,
        "created_at": r.created_at.isoformat(),
        "decided_by": r.decided_by.shown_name if r.decided_by else None,
        "decided_at": r.decided_at.isoformat() if r.decided_at else None,
    }


def my_join_requests(user, limit: int = 50) -> list[dict]:
    """The caller's own requests, newest first: the club's name (they hold its invite
    code) and the outcome, so they see that one waits and how it went."""
    if user is None or not user.is_authenticated:
        return []
    return [
        {
            "id": r.pk,
            "club": r.club_id,
            "club_name": r.club.name,
            "status": r.status,
            "created_at": r.created_at.isoformat(),
            "decided_at": r.decided_at.isoformat() if r.decided_at else None,
        }
        for r in JoinRequest.objects.filter(user=user).select_related("club")[:limit]
    ]


def latest_version(preset: Preset) -> PresetVersion | None:
    return preset.versions.order_by("-number").first()


def version_payload(version: PresetVersion) -> dict:
    preset = version.preset
    return {
        "id": preset.pk,
        "variant": preset.variant,
        "name": preset.name,
        "version": version.number,
        "rules": version.rules,
        "locked": version.locked,
        "note": version.note,
        "spectator_delay": version.spectator_delay,
        "timers": version.timers,
    }


def presets(club_id) -> list[dict]:
    out = []
    for preset in Preset.objects.filter(club_id=club_id).prefetch_related("versions"):
        version = max(preset.versions.all(), key=lambda v: v.number, default=None)
        if version is not None:
            out.append(version_payload(version))
    return out


def club_payload(membership: Membership) -> dict:
    """A club as ``GET /api/clubs/{id}/`` shows it to one of its members; managers also
    get each member's totals and the number of pending join requests."""
    club = membership.club
    out = {
        "id": club.pk,
        "name": club.name,
        "invite_code": club.invite_code,
        "role": membership.role,
        "announcement": club.announcement,
        "join_needs_approval": club.join_needs_approval,
        "members": members(club.pk, with_stats=membership.manages),
        "presets": presets(club.pk),
    }
    if membership.manages:
        out["pending_requests"] = JoinRequest.objects.filter(
            club_id=club.pk, status=JoinRequest.Status.PENDING
        ).count()
    return out


def preset_in_club(club_id, preset_id) -> Preset | None:
    return Preset.objects.filter(club_id=club_id, pk=preset_id).first()


def versions(preset: Preset) -> list[dict]:
    """Every version of a preset, oldest first, with who saved it, when, and why."""
    return [
        {
            "version": v.number,
            "rules": v.rules,
            "locked": v.locked,
            "note": v.note,
            "spectator_delay": v.spectator_delay,
            "timers": v.timers,
            "author": {"id": v.author_id, "name": v.author.shown_name if v.author else None},
            "created_at": v.created_at.isoformat(),
        }
        for v in preset.versions.select_related("author").order_by("number")
    ]


# --------------------------------------------------------------------------
# Readable differences between versions


def _value_names(option, value) -> dict:
    if value is None:
        return NO_LIMIT
    if isinstance(value, bool):
        return YES if value else NO
    labels = option.choice_labels or {}
    if not isinstance(value, dict) and value in labels:
        zh, en = labels[value]
        return {"zh-hans": zh, "en": en}
    return {lang: str(value) for lang in LANGS}


def _map_names(key_names: dict, values: dict, keys) -> dict:
    """Some entries of a map option ("清一色 3, 七对 2") named in both languages."""
    sep = {"zh-hans": "，", "en": ", "}
    return {
        lang: sep[lang].join(
            f"{key_names.get(k, {}).get(lang) or k} {values[k]}" for k in keys if k in values
        )
        for lang in LANGS
    }


def _map_change(variant, option, before: dict | None, after: dict) -> tuple[dict, dict]:
    """The old and new names of a map option's entries that changed, and only those."""
    before = {**option.default, **(before or {})}
    after = {**option.default, **(after or {})}
    keys = [k for k in option.keys if before.get(k) != after.get(k)]
    names = variant.pattern_names()
    return _map_names(names, before, keys) if keys else AS_DEFAULT, (
        _map_names(names, after, keys) if keys else AS_DEFAULT
    )


def rules_diff(variant_key: str, old: dict | None, new: dict) -> list[dict]:
    """What changed from ``old`` to ``new`` (a version's ``rules`` and ``locked``).

    One row per changed option: its id and label, and the old and new values
    (``lock_old``/``lock_new`` for the lock) named in both languages.  A map
    option (a fan table) names only the entries that changed."""
    variant = get_variant(variant_key)
    old = old or {"rules": {}, "locked": []}
    rows = []
    for option in variant.options.options:
        before, after = old["rules"].get(option.id), new["rules"].get(option.id)
        was_locked, is_locked = option.id in old["locked"], option.id in new["locked"]
        value_changed = option.id not in old["rules"] or before != after
        if not value_changed and was_locked == is_locked:
            continue
        if option.type == "map":
            old_names, new_names = _map_change(variant, option, before, after)
            if option.id not in old["rules"]:
                old_names = UNSET
        else:
            old_names = _value_names(option, before) if option.id in old["rules"] else UNSET
            new_names = _value_names(option, after)
        rows.append(
            {
                "option": option.id,
                "label": {"zh-hans": option.label_zh, "en": option.label_en},
                "value_changed": value_changed,
                "old": old_names,
                "new": new_names,
                "lock_changed": was_locked != is_locked,
                "lock_old": was_locked,
                "lock_new": is_locked,
            }
        )
    return rows + _timers_diff(old.get("timers"), new.get("timers"))


def _seconds_names(value) -> dict:
    return NO_TIMER if value is None else {"zh-hans": f"{value} 秒", "en": f"{value} s"}


def _timers_diff(old: dict | None, new: dict | None) -> list[dict]:
    """Rows like the options' for the room timers a version sets (and locks)."""
    if new is None:
        return []
    rows = []
    for key, label in TIMER_LABELS.items():
        value_changed = old is None or old[key] != new[key]
        lock_changed = old is not None and old["locked"] != new["locked"]
        if not value_changed and not lock_changed:
            continue
        rows.append(
            {
                "option": key,
                "label": label,
                "value_changed": value_changed,
                "old": _seconds_names(old[key]) if old is not None else UNSET,
                "new": _seconds_names(new[key]),
                "lock_changed": lock_changed,
                "lock_old": bool(old and old["locked"]),
                "lock_new": new["locked"],
            }
        )
    return rows


def version_history(preset: Preset) -> list[dict]:
    """Every version, newest first, each with its diff from the one before."""
    rows = []
    previous = None
    for v in preset.versions.select_related("author").order_by("number"):
        current = {"rules": v.rules, "locked": v.locked, "timers": v.timers}
        rows.append({"version": v, "diff": rules_diff(preset.variant, previous, current)})
        previous = current
    return rows[::-1]


def audit_log(club_id, limit: int = 200):
    return (
        AuditEntry.objects.filter(club_id=club_id)
        .select_related("actor", "target_user", "preset_version__preset")
        .order_by("-created_at", "-pk")[:limit]
    )


# --------------------------------------------------------------------------
# Variants for the preset editor


def variant_choices() -> list[dict]:
    """Every playable variant of the engine's registry (new ones appear by themselves)."""
    return [{"key": v.key, "name": {"zh-hans": v.name_zh, "en": v.name_en}} for v in available()]


def variant_or_none(key: Any):
    try:
        return get_variant(key)
    except UnknownVariant:
        return None


def room_club_info(club_id, preset_version_id) -> dict:
    """What a room's payload says about its club: the club, the preset version its
    rules came from (``{"id", "version"}``) and their names for the table header."""
    club = Club.objects.filter(pk=club_id).first() if club_id else None
    version = (
        PresetVersion.objects.select_related("preset").filter(pk=preset_version_id).first()
        if preset_version_id
        else None
    )
    return {
        "club": club.pk if club else None,
        "club_name": club.name if club else None,
        "preset": {"id": version.preset_id, "version": version.number} if version else None,
        "preset_name": version.preset.name if version else None,
    }
