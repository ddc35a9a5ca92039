"""Rooms, seats, hands and the action log.

The action log (:class:`HandAction`) is the truth; ``Hand.state`` is a cache of
the engine state it leads to, saved in the same transaction as each action and
rebuildable with ``manage.py hand_verify``.  Every change to a hand locks its
:class:`Room` row first, then reads and writes the hand; the order of every row lock
(users, club, room, hand, the rest) is in ``games.locks``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_server_seed() -> str:
    """A hand's server seed: 32 bytes from the OS CSPRNG, as 64 lowercase hex digits.

    Drawn before the hand it deals and committed to (its SHA-256 is published) before
    anyone sends a client seed; revealed when the hand is over."""
    return secrets.token_hex(32)


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    class BotLevel(models.TextChoices):  # games.rules.bots.LEVELS
        BASIC = "basic", pgettext_lazy("bot level", "Basic")
        STRONG = "strong", pgettext_lazy("bot level", "Strong")

    variant = models.CharField(max_length=20)
    # The effective house rules: variant defaults overlaid with the room's choices.
    rules = models.JSONField(default=dict)
    # The room's own choices, as sent (shown in the lobby as highlights).
    rule_choices = models.JSONField(default=dict, blank=True)
    hands_total = models.PositiveSmallIntegerField(default=8)
    discard_seconds = models.PositiveSmallIntegerField(null=True, default=15)
    claim_seconds = models.PositiveSmallIntegerField(null=True, default=8)
    private = models.BooleanField(default=False)
    code = models.CharField(max_length=6, unique=True, default=new_join_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_rooms"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    hands_played = models.PositiveSmallIntegerField(default=0)
    # The match between hands (games.rules.MatchState as JSON): the next dealer and their
    # streak, seat and prevailing winds. The engine decides it; stored so that a restart
    # resumes the match exactly. Empty: a new match (dice for the first dealer).
    match = models.JSONField(default=dict, blank=True)
    # When the next hand starts even if not everyone has readied (between hands).
    next_hand_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Bumped by every room frame sent (``games.table.publish.room_changed_on_commit``):
    # sent after the commit, two frames may cross on the way; a client keeps the newer.
    revision = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # A club room (seen only by the club's members) and the preset version its rules came from.
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.PROTECT)
    preset_version = models.ForeignKey(
        "clubs.PresetVersion", null=True, blank=True, on_delete=models.PROTECT
    )
    # The server seed of the next hand, drawn before anyone readies for it: its commitment
    # is public from then on, so it cannot be chosen after the client seeds are seen.
    next_server_seed = models.CharField(max_length=64, default=new_server_seed)
    # Spectators see the table this many seconds late (against ghosting); 0: live.
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    # How well the table's bot players play (not 托管: that always plays at STRONG).
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, default=BotLevel.STRONG)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"room {self.pk} ({self.variant})"

    @property
    def ws_path(self) -> str:
        return f"/ws/rooms/{self.pk}/"


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    ready = models.BooleanField(default=False)
    # A human who left a hand in progress: a bot plays the seat from then on.
    left = models.BooleanField(default=False)
    score = models.BigIntegerField(default=0)  # running total in this room
    # The client seed this seat's player sent with ready for the next hand (32 hex
    # digits); empty: none sent, the server supplies one at the deal.
    client_seed = models.CharField(max_length=32, blank=True, default="")
    # 托管: the player asked the bot policy to play for them (games.table.assist).
    auto = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_unique_index"),
        ]

    @property
    def is_bot(self) -> bool:
        return self.user is not None and self.user.is_bot

    @property
    def bot_controlled(self) -> bool:
        return self.is_bot or self.left or self.auto


class Hand(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        ENDED = "ended", _("ended")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=20)
    rules = models.JSONField()
    # Provably fair deal: the server seed (secret until the hand ends), its SHA-256 (public
    # from before the deal) and the four client seeds in seat order (public).
    server_seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    client_seeds = models.JSONField(default=list)
    dealer = models.SmallIntegerField(null=True)  # who dealt (after the dice, if rolled)
    # The match this hand was dealt under, as given to new_hand (replays need it).
    match = models.JSONField(default=dict, blank=True)
    # Who sat where for this hand (user ids), frozen at the start.
    players = models.JSONField()
    state = models.JSONField()  # snapshot of the engine state (a cache of the log)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(null=True, blank=True)
    # Per-seat decision deadlines {"0": iso, ...}; deadline_at is their minimum, for the sweeper.
    deadlines = models.JSONField(default=dict)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # When the settlement task finished (stored, rated, announced).  An ended hand without
    # it still owes its settlement: the sweeper sends the task again (games.table.settling).
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="hand_unique_number"),
        ]
        indexes = [
            # Only the hands still owed a settlement: a handful, however many have ended.
            models.Index(
                fields=["ended_at"],
                name="hand_unsettled",
                condition=models.Q(status="ended", settled_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of room {self.room_id}"


class HandAction(models.Model):
    """One accepted action, in order: the hand's source of truth."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # Who decided it: "player", "bot" (a bot seat), "timeout" (the deadline passed).
    source = models.CharField(max_length=10, default="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="action_unique_seq"),
        ]


class Settlement(models.Model):
    """A hand's stored settlement; one per hand, so a retried task is a no-op."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="settlement")
    transfers = models.JSONField()
    deltas = models.JSONField()  # per seat
    details = models.JSONField(default=dict)  # 查花猪/查大叫 results, refunds
    created_at = models.DateTimeField(auto_now_add=True)


class Presence(models.Model):
    """One open table socket of a signed-in user, kept fresh by its server's heartbeat.

    It belongs to the user, not to a seat: a seat counts as present while its *current*
    occupant has a fresh row, so a socket kept open after its user left cannot vouch for
    whoever takes the seat next.  A server that dies stops beating and its rows expire,
    so a crash cannot leave a player counted as present (which would keep the away clock
    from ever starting)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences"
    )
    channel = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField(db_index=True)


class DissolveVote(models.Model):
    """A proposal to end a room's match early (解散房间) and its answers; written only by
    ``games.table.votes``, which says how a vote is decided."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PASSED = "passed", _("passed")
        REFUSED = "refused", _("refused")
        LAPSED = "lapsed", _("the match ended first")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="dissolve_votes")
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    voters = models.JSONField(default=list)  # user ids
    answers = models.JSONField(default=dict)  # {user id: "agree" | "refuse"}
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    # When the unanswered count as agreeing; None once decided (the sweeper looks for due ones).
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "-created_at", "-id"]
        constraints = [
            # One open vote a room at a time.
            models.UniqueConstraint(
                fields=["room"], condition=models.Q(status="open"), name="dissolve_one_open"
            ),
        ]
