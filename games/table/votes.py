"""Dissolve votes (解散房间): ending a match early when its players agree.

Any seated human proposes; every human seated then (the voters; bots do not vote)
answers agree or refuse within ``VOTE_SECONDS``, and no answer counts as agreeing.  One
refusal ends the vote; when everyone has agreed (or the time is up) it passes and the
match ends: at once between hands, else after the hand in play is settled
(``games.table.finisher.hand_ended`` asks ``vote_state.dissolve_passed``), and the match is
recorded as ``dissolved``.  A player proposes at most once per ``PROPOSE_EVERY`` in a
room.  Every write takes the room lock first; the vote is a row, and its deadline is
fired by the sweeper in whichever process comes first (``votes_fire_due``).
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from clubs.selectors import room_hidden_from
from config.refusals import ServiceError
from games.models import DissolveVote, Room
from games.table import publish, signals
from games.table.selectors import seats_with_users
from games.table.services import hand_in_play, room_lock

log = logging.getLogger(__name__)

VOTE_SECONDS = 60
PROPOSE_EVERY = timedelta(minutes=5)
AGREE, REFUSE = "agree", "refuse"


def _room_for(room_id, user) -> Room:
    """The room locked, its match not over; a club room is not found by someone outside
    the club."""
    room = room_lock(room_id)
    if room_hidden_from(room.club_id, user):
        raise ServiceError("no_room", "no such room", 404)
    if room.status == Room.Status.FINISHED:
        raise ServiceError("game_over", "this room's game is over", 409)
    return room


def _open_vote(room: Room) -> DissolveVote | None:
    return DissolveVote.objects.filter(room=room, status=DissolveVote.Status.OPEN).first()


def _decide(room: Room, vote: DissolveVote, now: datetime, *, timed_out: bool = False) -> None:
    """Close ``vote`` if its answers decide it (room locked): a refusal refuses it; all
    agreeing, or the time up, passes it and ends the match (at once between hands); a
    match that ended on its own first leaves it lapsed."""
    answers = vote.answers.values()
    if room.status == Room.Status.FINISHED:  # its last hand ended meanwhile
        vote.status = DissolveVote.Status.LAPSED
    elif REFUSE in answers:
        vote.status = DissolveVote.Status.REFUSED
    elif timed_out or len(vote.answers) >= len(vote.voters):
        vote.status = DissolveVote.Status.PASSED
    else:
        return
    vote.decided_at, vote.deadline_at = now, None
    vote.save(update_fields=["status", "decided_at", "deadline_at", "answers"])
    if vote.status == DissolveVote.Status.PASSED and hand_in_play(room) is None:
        room.status, room.next_hand_at = Room.Status.FINISHED, None
        room.save(update_fields=["status", "next_hand_at"])
        # Its record: its hands are settled or on their way.
        signals.match_may_have_ended.send(sender=Room, room_id=room.pk)


@transaction.atomic
def vote_propose(*, room_id, user, now: datetime | None = None) -> DissolveVote:
    """A seated human proposes ending the match; their own answer is agree."""
    now = now or timezone.now()
    room = _room_for(room_id, user)
    seats = seats_with_users(room.pk)
    if not any(s.user_id == user.pk and not s.left for s in seats):
        raise ServiceError("not_seated", "only the players at this table can vote", 403)
    if room.status != Room.Status.PLAYING:
        raise ServiceError("not_started", "the match has not started yet", 409)
    if _open_vote(room) is not None:
        raise ServiceError("vote_open", "a vote to end the match is already open", 409)
    since = now - PROPOSE_EVERY
    last = (
        DissolveVote.objects.filter(room=room, proposer=user, created_at__gt=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if last is not None:
        wait = math.ceil((last + PROPOSE_EVERY - now).total_seconds())
        raise ServiceError(
            "vote_too_soon", f"one proposal every 5 minutes: try again in {wait} s", 429
        )
    voters = [s.user_id for s in seats if s.user_id and not s.left and not s.is_bot]
    vote = DissolveVote.objects.create(
        room=room,
        proposer=user,
        voters=voters,
        answers={str(user.pk): AGREE},
        created_at=now,
        deadline_at=now + timedelta(seconds=VOTE_SECONDS),
    )
    _decide(room, vote, now)
    publish.room_changed_on_commit(room.pk)
    return vote


@transaction.atomic
def vote_answer(*, room_id, user, agree, now: datetime | None = None) -> DissolveVote:
    """A voter answers the open vote (once)."""
    now = now or timezone.now()
    if not isinstance(agree, bool):
        raise ServiceError("bad_answer", '"agree" must be true or false')
    room = _room_for(room_id, user)
    vote = _open_vote(room)
    if vote is None:
        raise ServiceError("no_vote", "no vote to end the match is open", 409)
    if user.pk not in vote.voters:
        raise ServiceError(
            "not_voter", "only the players seated when it was proposed answer it", 403
        )
    if str(user.pk) in vote.answers:
        raise ServiceError("answered", "you have answered this vote", 409)
    vote.answers[str(user.pk)] = AGREE if agree else REFUSE
    vote.save(update_fields=["answers"])
    _decide(room, vote, now)
    publish.room_changed_on_commit(room.pk)
    return vote


@transaction.atomic
def vote_fire(vote_id, now: datetime | None = None) -> bool:
    """The vote's time is up: the unanswered agree.  Under the room lock, re-read: when
    several processes fire it, the first decides and the rest find it closed."""
    now = now or timezone.now()
    room_id = DissolveVote.objects.filter(pk=vote_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return False
    room = room_lock(room_id)
    vote = DissolveVote.objects.filter(
        pk=vote_id, status=DissolveVote.Status.OPEN, deadline_at__lte=now
    ).first()
    if vote is None:
        return False
    _decide(room, vote, now, timed_out=True)
    publish.room_changed_on_commit(room.pk)
    return True


def votes_fire_due(now: datetime | None = None) -> int:
    """Decide every open vote whose time is up (the sweeper calls this)."""
    now = now or timezone.now()
    due = DissolveVote.objects.filter(status=DissolveVote.Status.OPEN, deadline_at__lte=now)
    fired = 0
    for vote_id in due.values_list("pk", flat=True):
        try:
            fired += vote_fire(vote_id, now)
        except Exception:  # one room's failure must not starve the others
            log.exception("deciding dissolve vote %s failed", vote_id)
    return fired
