"""Clubs (亲友圈): members with roles, versioned house-rule presets and an audit log.

Written only by ``clubs.services``.  A preset's versions are append-only: a
room records the exact :class:`PresetVersion` it was created from, so later
edits never change a game already set up.  Every change of note writes an
:class:`AuditEntry` in the same transaction.

``games`` depends on this app (a room may belong to a club); these models import
nothing of ``games`` (the selectors read its rooms for the members' totals).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
INVITE_LENGTH = 8


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


# A room's timers unless the preset says otherwise: 15 s to discard, 8 s to claim.
DEFAULT_TIMERS = {"discard_seconds": 15, "claim_seconds": 8, "locked": False}


def default_timers() -> dict:
    return dict(DEFAULT_TIMERS)


class Club(models.Model):
    name = models.CharField(max_length=60)
    invite_code = models.CharField(max_length=INVITE_LENGTH, unique=True, default=new_invite_code)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="clubs_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The club's board also counts hands the public boards do not (with bots, or of
    # rooms shorter than a full match): the owner's choice.
    board_counts_unrated = models.BooleanField(default=False)
    # The notice (公告) at the top of the club page, written by the owner and managers.
    announcement = models.TextField(blank=True, default="")
    # A join by invite code asks the managers (a JoinRequest) instead of joining at once.
    join_needs_approval = models.BooleanField(default=False)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MANAGER = "manager", _("manager")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"

    @property
    def manages(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.MANAGER)


class Preset(models.Model):
    """A named set of house rules for one variant; its content lives in its versions."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="presets")
    variant = models.CharField(max_length=20)
    name = models.CharField(max_length=60)
    # The number of the newest version (versions are 1, 2, …, never edited).
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant}) v{self.version}"


class PresetVersion(models.Model):
    preset = models.ForeignKey(Preset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    # The full resolved options of the variant at the time, as the engine validated them.
    rules = models.JSONField()
    # The manager's choices (what was sent): the layer a room's rules are built on, so an
    # option derived from another (Sichuan's next-dealer rule) follows a room's choice.
    choices = models.JSONField(default=dict)
    locked = models.JSONField(default=list)  # option ids rooms may not change
    note = models.CharField(max_length=200, blank=True, default="")
    # Spectators of rooms made from this version see the table this many seconds late at
    # least (against ghosting): a room may ask for more, never less.
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    # The room form's timers: {"discard_seconds", "claim_seconds"} (null: no timer) and
    # "locked" (rooms keep them as they are).
    timers = models.JSONField(default=default_timers)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["preset", "number"]
        constraints = [
            models.UniqueConstraint(fields=["preset", "number"], name="presetversion_unique"),
        ]

    def __str__(self) -> str:
        return f"preset {self.preset_id} v{self.number}"


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        CLUB_CREATED = "club_created", _("created the club")
        MEMBER_JOINED = "member_joined", _("joined")
        PRESET_VERSION = "preset_version", _("saved a preset version")
        ROLE_CHANGED = "role_changed", _("changed a role")
        MEMBER_REMOVED = "member_removed", _("removed a member")
        MEMBER_LEFT = "member_left", _("left the club")
        INVITE_ROTATED = "invite_rotated", _("rotated the invite code")
        BOARD_CHANGED = "board_changed", _("changed what the club board counts")
        ANNOUNCEMENT_CHANGED = "announcement_changed", _("changed the announcement")
        APPROVAL_CHANGED = "approval_changed", _("changed whether joining needs approval")
        JOIN_REQUESTED = "join_requested", _("asked to join")
        JOIN_APPROVED = "join_approved", _("approved a request to join")
        JOIN_DENIED = "join_denied", _("denied a request to join")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    preset_version = models.ForeignKey(
        PresetVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What changed, e.g. {"from": "member", "to": "manager"}.
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.action} by {self.actor_id}"


class JoinRequest(models.Model):
    """Someone with the invite code asking to join a club that vets who joins.

    At most one pending request per person and club; an approved or denied one stays
    as the record of who decided and when (a denied person may ask again)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        DENIED = "denied", _("denied")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_join_requests"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="joinrequest_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} asks {self.club_id} ({self.status})"


class Removal(models.Model):
    """A member a manager removed: their joining again by the invite code waits for a
    manager's approval (a join request), whatever the club's setting, until one approves
    it (the row then goes).  Leaving by oneself leaves none."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_removals"
    )
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="removal_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} removed from {self.club_id}"
