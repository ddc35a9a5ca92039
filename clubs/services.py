"""Club writes: create, join (or ask to), roles, removals, invite codes, the
announcement, join requests and preset versions.

Each service checks the caller's role, does the write and logs an
:class:`~clubs.models.AuditEntry` in the same transaction.  Refusals are
:class:`ServiceError` with a stable ``code`` and an HTTP status; callers that are
not members are told the club does not exist (404), so a club's existence is
not revealed to outsiders.

``room_rules`` is what ``games`` calls to build a club room's rules: the
variant's defaults, then the preset version, then the room's own choices for
options the preset leaves unlocked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.names import clean_name
from clubs.models import (
    DEFAULT_TIMERS,
    AuditEntry,
    Club,
    JoinRequest,
    Membership,
    Preset,
    PresetVersion,
    Removal,
    new_invite_code,
)
from clubs.signals import member_gone
from config.refusals import ServiceError
from games.delay import SPECTATOR_DELAY_MAX
from games.rules import OptionsError, UnknownVariant, get_variant

Role = Membership.Role
Action = AuditEntry.Action
NAME_MAX = 60
NOTE_MAX = 200
ANNOUNCEMENT_MAX = 500
# The longest spectator delay a room or a preset may set, in seconds.


def check_spectator_delay(value: Any) -> int:
    """A spectator delay as sent: a whole number of seconds, 0..SPECTATOR_DELAY_MAX.

    Raises ``ValueError`` with a message for people; callers turn it into their own
    ``bad_delay`` refusal."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            f"spectator_delay must be a whole number of seconds, 0 to {SPECTATOR_DELAY_MAX}"
        )
    if not 0 <= value <= SPECTATOR_DELAY_MAX:
        raise ValueError(f"spectator_delay must be 0 to {SPECTATOR_DELAY_MAX} seconds")
    return value


TIMER_MIN, TIMER_MAX = 3, 300


def check_timer(value: Any, name: str) -> int | None:
    """A turn or claim timer as sent: 3..300 seconds, or None for no timer.

    Raises ``ValueError`` with a message for people."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not TIMER_MIN <= value <= TIMER_MAX:
        raise ValueError(f"{name} timer must be {TIMER_MIN}..{TIMER_MAX} seconds or null")
    return value


def _check_timers(value: Any, current: dict) -> dict:
    """A preset's timers as sent over ``current``: any of ``discard_seconds`` and
    ``claim_seconds`` (null: no timer) and ``locked``."""
    if value is None:
        return dict(current)
    if not isinstance(value, Mapping) or set(value) - set(DEFAULT_TIMERS):
        raise ServiceError(
            "bad_timer", "timers must be an object of discard_seconds, claim_seconds, locked"
        )
    out = {**current, **value}
    try:
        for name in ("discard", "claim"):
            check_timer(out[f"{name}_seconds"], name)
    except ValueError as e:
        raise ServiceError("bad_timer", str(e)) from None
    if not isinstance(out["locked"], bool):
        raise ServiceError("bad_timer", "timers.locked must be true or false")
    return out


def _check_delay(value: Any) -> int:
    try:
        return check_spectator_delay(value)
    except ValueError as e:
        raise ServiceError("bad_delay", str(e)) from None


# --------------------------------------------------------------------------
# Checks


def member_of(club_id, user) -> Membership:
    """The caller's membership; outsiders (and anonymous callers) hear "no such club"."""
    m = None
    if user is not None and user.is_authenticated:
        m = Membership.objects.select_related("club").filter(club_id=club_id, user=user).first()
    if m is None:
        raise ServiceError("no_club", "no such club", 404)
    return m


def manager_of(club_id, user) -> Membership:
    m = member_of(club_id, user)
    if not m.manages:
        raise ServiceError("not_manager", "only the club's owner and managers can do this", 403)
    return m


def owner_of(club_id, user) -> Membership:
    m = member_of(club_id, user)
    if m.role != Role.OWNER:
        raise ServiceError("not_owner", "only the club's owner can do this", 403)
    return m


def _clean_name(name, *, code: str) -> str:
    try:
        return clean_name(name if isinstance(name, str) else "", max_length=NAME_MAX)
    except ValidationError as e:
        raise ServiceError(code, e.messages[0]) from None


def _audit(club_id, actor, action, *, target=None, version=None, **data) -> AuditEntry:
    return AuditEntry.objects.create(
        club_id=club_id,
        actor=actor,
        action=action,
        target_user=target,
        preset_version=version,
        data=data,
    )


# --------------------------------------------------------------------------
# Clubs and members


@transaction.atomic
def club_create(*, owner, name) -> Membership:
    name = _clean_name(name, code="bad_name")
    for _ in range(5):
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, created_by=owner)
            break
        except IntegrityError:  # invite code collision: draw another
            continue
    else:  # pragma: no cover
        raise ServiceError("busy", "could not allocate an invite code, try again", 503)
    membership = Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    _audit(club.pk, owner, Action.CLUB_CREATED, name=name)
    return membership


@dataclass(frozen=True)
class JoinOutcome:
    """What a join by invite code did: a membership (``created``: new), or, in a club
    that vets who joins, a pending request."""

    membership: Membership | None = None
    created: bool = False
    request: JoinRequest | None = None


@transaction.atomic
def club_join(*, user, invite_code) -> JoinOutcome:
    """Join the club with this invite code, or ask to when the club vets who joins.

    A member joining again is told so; asking again while a request waits is refused."""
    code = invite_code.strip().upper() if isinstance(invite_code, str) else ""
    club = Club.objects.select_for_update().filter(invite_code=code).first() if code else None
    if club is None:
        raise ServiceError("bad_invite", "no club has that invite code", 404)
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None:
        return JoinOutcome(existing, False)
    # One a manager removed comes back only if a manager lets them (approves the request).
    if club.join_needs_approval or Removal.objects.filter(club=club, user=user).exists():
        # The club row is locked: two requests of one person cannot both pass this check.
        pending = JoinRequest.objects.filter(
            club=club, user=user, status=JoinRequest.Status.PENDING
        )
        if pending.exists():
            raise ServiceError("request_pending", "your request to join this club is waiting", 409)
        request = JoinRequest.objects.create(club=club, user=user)
        _audit(club.pk, user, Action.JOIN_REQUESTED, target=user)
        return JoinOutcome(request=request)
    membership = Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    # A request left from while the club vetted who joins is settled by this join.
    JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.APPROVED, decided_at=timezone.now()
    )
    _audit(club.pk, user, Action.MEMBER_JOINED, target=user)
    return JoinOutcome(membership, True)


@transaction.atomic
def club_invite_rotate(*, club_id, actor) -> Club:
    """The owner or a manager draws a new invite code; the old one stops working."""
    club = manager_of(club_id, actor).club
    for _ in range(5):
        code = new_invite_code()
        if not Club.objects.filter(invite_code=code).exists():
            break
    club.invite_code = code
    club.save(update_fields=["invite_code"])
    _audit(club.pk, actor, Action.INVITE_ROTATED)
    return club


@transaction.atomic
def club_set_board(*, club_id, actor, counts_unrated) -> Club:
    """The owner chooses whether the club's board also counts the hands the public boards
    leave out (games with bots, rooms shorter than a full match)."""
    club = owner_of(club_id, actor).club
    if not isinstance(counts_unrated, bool):
        raise ServiceError("bad_board", "counts_unrated must be true or false")
    if club.board_counts_unrated != counts_unrated:
        club.board_counts_unrated = counts_unrated
        club.save(update_fields=["board_counts_unrated"])
        _audit(club.pk, actor, Action.BOARD_CHANGED, counts_unrated=counts_unrated)
    return club


def clean_announcement(text: Any) -> str:
    """The announcement as stored: each line cleaned as names are (blank lines kept, at
    most one in a row), at most ANNOUNCEMENT_MAX characters; empty clears it."""
    if not isinstance(text, str):
        raise ServiceError("bad_announcement", "announcement must be text")
    too_long = f"the announcement is at most {ANNOUNCEMENT_MAX} characters"
    lines = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        try:
            lines.append(clean_name(line, max_length=ANNOUNCEMENT_MAX))
        except ValidationError as e:
            if e.code == "long_name":
                raise ServiceError("bad_announcement", too_long) from None
            if lines and lines[-1]:  # nothing visible on this line
                lines.append("")
    out = "\n".join(lines).strip()
    if len(out) > ANNOUNCEMENT_MAX:
        raise ServiceError("bad_announcement", too_long)
    return out


@transaction.atomic
def club_update(*, club_id, actor, announcement=None, join_needs_approval=None) -> Club:
    """The owner or a manager sets the announcement and whether joining needs approval;
    what is not given stays.  Each change is audited, an unchanged value is not."""
    club = manager_of(club_id, actor).club
    if join_needs_approval is not None and not isinstance(join_needs_approval, bool):
        raise ServiceError("bad_approval", "join_needs_approval must be true or false")
    changed = []
    if announcement is not None:
        text = clean_announcement(announcement)
        if text != club.announcement:
            club.announcement = text
            changed.append("announcement")
            _audit(club.pk, actor, Action.ANNOUNCEMENT_CHANGED, length=len(text))
    if join_needs_approval is not None and join_needs_approval != club.join_needs_approval:
        club.join_needs_approval = join_needs_approval
        changed.append("join_needs_approval")
        _audit(club.pk, actor, Action.APPROVAL_CHANGED, needs_approval=join_needs_approval)
    if changed:
        club.save(update_fields=changed)
    return club


@transaction.atomic
def join_request_decide(*, club_id, actor, request_id, approve: bool) -> JoinRequest:
    """The owner or a manager approves (the requester becomes a member) or denies a
    pending request; one already decided is refused."""
    manager_of(club_id, actor)
    request = (
        JoinRequest.objects.select_for_update()
        .select_related("user")
        .filter(pk=request_id, club_id=club_id)
        .first()
        if isinstance(request_id, int)
        else None
    )
    if request is None:
        raise ServiceError("no_request", "no such join request in this club", 404)
    if request.status != JoinRequest.Status.PENDING:
        raise ServiceError("request_handled", f"this request was already {request.status}", 409)
    request.status = JoinRequest.Status.APPROVED if approve else JoinRequest.Status.DENIED
    request.decided_by = actor
    request.decided_at = timezone.now()
    request.save(update_fields=["status", "decided_by", "decided_at"])
    if approve:
        Membership.objects.get_or_create(
            club_id=club_id, user=request.user, defaults={"role": Role.MEMBER}
        )
        Removal.objects.filter(club_id=club_id, user=request.user).delete()
    action = Action.JOIN_APPROVED if approve else Action.JOIN_DENIED
    _audit(club_id, actor, action, target=request.user, request=request.pk)
    return request


def _target(club_id, user_id) -> Membership:
    m = (
        Membership.objects.select_related("user").filter(club_id=club_id, user_id=user_id).first()
        if isinstance(user_id, int)
        else None
    )
    if m is None:
        raise ServiceError("no_member", "that user is not a member of this club", 404)
    return m


@transaction.atomic
def member_set_role(*, club_id, actor, user_id, role) -> Membership:
    """The owner makes a member a manager or a manager a member again."""
    owner_of(club_id, actor)
    if role not in (Role.MANAGER, Role.MEMBER):
        raise ServiceError("bad_role", 'role must be "manager" or "member"')
    target = _target(club_id, user_id)
    if target.role == Role.OWNER:
        raise ServiceError("owner_stays", "the owner's role cannot be changed", 403)
    if target.role != role:
        before = target.role
        target.role = role
        target.save(update_fields=["role"])
        _audit(club_id, actor, Action.ROLE_CHANGED, target=target.user, old=before, new=role)
    return target


@transaction.atomic
def member_remove(*, club_id, actor, user_id) -> None:
    """Managers remove members, the owner also managers; anyone but the owner may leave."""
    me = member_of(club_id, actor)
    target = _target(club_id, user_id)
    if target.role == Role.OWNER:
        raise ServiceError("owner_stays", "the owner cannot be removed", 403)
    if target.pk == me.pk:
        target.delete()
        _audit(club_id, actor, Action.MEMBER_LEFT, target=actor)
        _leave_tables(club_id, actor)
        return
    if not me.manages:
        raise ServiceError("not_manager", "only the club's owner and managers can do this", 403)
    if target.role == Role.MANAGER and me.role != Role.OWNER:
        raise ServiceError("not_owner", "only the club's owner can remove a manager", 403)
    target.delete()
    Removal.objects.get_or_create(club_id=club_id, user=target.user, defaults={"removed_by": actor})
    _audit(club_id, actor, Action.MEMBER_REMOVED, target=target.user, role=target.role)
    _leave_tables(club_id, target.user)


def _leave_tables(club_id, user) -> None:
    """One no longer a member is out of the club's tables at once (the table's receiver
    of ``member_gone``: ``games.table.assist.club_member_gone``)."""
    member_gone.send(sender=Club, club_id=club_id, user=user)


# --------------------------------------------------------------------------
# Presets


def _check_rules(variant, rules: Any) -> tuple[dict, dict]:
    """Validate a preset's choices the way the lobby does; returns (choices, full rules).

    Each option is checked on its own first so the error names the option at fault."""
    if not isinstance(rules, Mapping):
        raise ServiceError("bad_rules", "rules must be an object")
    for key, value in rules.items():
        try:
            variant.resolve_options({key: value})
        except OptionsError as e:
            raise ServiceError("bad_rules", str(e), option=key) from None
    try:
        resolved = variant.resolve_options(rules)
    except OptionsError as e:
        raise ServiceError("bad_rules", str(e)) from None
    return dict(rules), resolved.to_json()


def _check_locked(variant, locked: Any) -> list[str]:
    if not isinstance(locked, list) or not all(isinstance(x, str) for x in locked):
        raise ServiceError("bad_locked", "locked must be a list of option ids")
    for option in locked:
        if option not in variant.options.by_id:
            known = ", ".join(sorted(variant.options.by_id))
            raise ServiceError(
                "bad_locked", f"unknown house rule {option!r} (known: {known})", option=option
            )
    # Kept in the variant's own order, once each, so versions compare as equal.
    return [o.id for o in variant.options.options if o.id in locked]


def _check_note(note: Any) -> str:
    if note is None:
        return ""
    if not isinstance(note, str) or len(note) > NOTE_MAX:
        raise ServiceError("bad_note", f"note must be text of at most {NOTE_MAX} characters")
    return note.strip()


def _variant(key):
    try:
        return get_variant(key)
    except UnknownVariant as e:
        raise ServiceError("unknown_variant", str(e)) from None


@transaction.atomic
def preset_create(
    *,
    club_id,
    actor,
    variant,
    name,
    rules=None,
    locked=None,
    note="",
    spectator_delay=None,
    timers=None,
) -> PresetVersion:
    manager_of(club_id, actor)
    v = _variant(variant)
    name = _clean_name(name, code="bad_name")
    choices, resolved = _check_rules(v, rules if rules is not None else {})
    locked = _check_locked(v, locked if locked is not None else [])
    note = _check_note(note)
    delay = _check_delay(spectator_delay if spectator_delay is not None else 0)
    timers = _check_timers(timers, DEFAULT_TIMERS)
    preset = Preset.objects.create(club_id=club_id, variant=v.key, name=name, version=1)
    version = PresetVersion.objects.create(
        preset=preset,
        number=1,
        rules=resolved,
        choices=choices,
        locked=locked,
        note=note,
        spectator_delay=delay,
        timers=timers,
        author=actor,
    )
    _audit(club_id, actor, Action.PRESET_VERSION, version=version, preset=name, number=1)
    return version


@transaction.atomic
def preset_update(
    *, club_id, preset_id, actor, rules, locked, note="", spectator_delay=None, timers=None
) -> PresetVersion:
    """Append the preset's next version (versions are never edited).  Without a
    ``spectator_delay`` or ``timers`` the new version keeps the latest one's."""
    manager_of(club_id, actor)
    preset = (
        Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
        if isinstance(preset_id, int)
        else None
    )
    if preset is None:
        raise ServiceError("no_preset", "no such preset in this club", 404)
    v = _variant(preset.variant)
    choices, resolved = _check_rules(v, rules if rules is not None else {})
    locked = _check_locked(v, locked if locked is not None else [])
    note = _check_note(note)
    latest = preset.versions.order_by("-number").first()
    if spectator_delay is None:
        spectator_delay = latest.spectator_delay if latest is not None else 0
    delay = _check_delay(spectator_delay)
    timers = _check_timers(timers, latest.timers if latest is not None else DEFAULT_TIMERS)
    if (
        latest is not None
        and latest.rules == resolved
        and latest.locked == locked
        and latest.spectator_delay == delay
        and latest.timers == timers
    ):
        raise ServiceError("unchanged", "these are already the preset's rules and locks")
    preset.version += 1
    preset.save(update_fields=["version"])
    version = PresetVersion.objects.create(
        preset=preset,
        number=preset.version,
        rules=resolved,
        choices=choices,
        locked=locked,
        note=note,
        spectator_delay=delay,
        timers=timers,
        author=actor,
    )
    _audit(
        club_id,
        actor,
        Action.PRESET_VERSION,
        version=version,
        preset=preset.name,
        number=version.number,
    )
    return version


# --------------------------------------------------------------------------
# Rooms (called by games.table.services.room_create)


@dataclass(frozen=True)
class ClubRoomRules:
    club_id: int
    version: PresetVersion
    variant: str
    rules: dict  # the room's full resolved options
    choices: dict  # what differs from the variant's defaults (the lobby's highlights)
    spectator_delay: int = 0  # the least delay its rooms show spectators, in seconds
    discard_seconds: int | None = 15  # the room's timers (None: no timer)
    claim_seconds: int | None = 8


def room_rules(*, preset_id, user, overrides=None, timers=None) -> ClubRoomRules:
    """Rules of a room a member opens from a preset's newest version.

    Variant defaults, overlaid by the version's choices and its locked values,
    overlaid by ``overrides`` (unlocked options only).  ``timers`` is the room's
    ``(discard_seconds, claim_seconds)``: the preset's when not given; refused when
    they differ from timers the preset locks."""
    preset = (
        Preset.objects.filter(pk=preset_id).first()
        if isinstance(preset_id, int) and not isinstance(preset_id, bool)
        else None
    )
    # Another club's preset is answered as a missing one: its existence is not revealed.
    if (
        preset is None
        or user is None
        or not Membership.objects.filter(club_id=preset.club_id, user=user).exists()
    ):
        raise ServiceError("no_preset", "no such preset", 404)
    version = preset.versions.order_by("-number").first()
    v = _variant(preset.variant)
    overrides = overrides or {}
    if not isinstance(overrides, Mapping):
        raise ServiceError("bad_rules", "rules must be an object")
    for option in overrides:
        if option in version.locked:
            raise ServiceError(
                "locked_option",
                f"house rule {option!r} is locked by the club's preset",
                option=option,
            )
    _check_rules(v, overrides)
    pinned = {k: version.rules[k] for k in version.locked if k in version.rules}
    try:
        resolved = v.resolve_options(version.choices, pinned, overrides).to_json()
    except OptionsError as e:  # the variant changed under an old preset
        raise ServiceError("bad_rules", str(e)) from None
    defaults = {o.id: o.default for o in v.options.options}
    chosen = {**version.choices, **overrides}
    choices = {k: resolved[k] for k in chosen if resolved.get(k) != defaults.get(k)}
    preset_timers = (version.timers["discard_seconds"], version.timers["claim_seconds"])
    if timers is None:
        timers = preset_timers
    elif version.timers["locked"] and tuple(timers) != preset_timers:
        raise ServiceError("locked_timer", "the club's preset fixes this table's timers")
    return ClubRoomRules(
        preset.club_id, version, v.key, resolved, choices, version.spectator_delay, *timers
    )
