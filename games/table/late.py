"""What the world may know now of a room with a spectator delay: the table as it was that
many seconds ago (against ghosting).  Seated players see their table as it is.

A hand of such a room becomes public ``delay`` seconds after it ended (a hand in play is
not public at all: ``games.delay``).  Until then nothing shows it to
anyone who did not play it: the room's payload and its vote are as they stood then
(``room_for``, ``vote_for``), the lobby still lists a room whose match ended since
(``rooms_finishing``), a hand's record is refused the same way in play and after
(``replay_held``); the rule itself, which the boards, the members' totals and the match
records apply too, is ``games.delay``, below them all.  The socket rebuilds the hand
itself from the action log (``selectors.spectator_snapshot``) and holds every later
frame.  Everything here is read from the database, so every server process answers
alike."""

from __future__ import annotations

from datetime import datetime

from games.delay import cutoff
from games.models import DissolveVote, Hand, Room, Seat, Settlement
from games.table.readers import readers
from games.table.vote_state import vote_json


def room_as_of(payload: dict, when: datetime) -> dict:
    """The room payload as it stood at ``when``: the hands that ended or were settled since
    take back what they moved (scores, hands played, the game being over), a hand dealt
    since is still the next one, and the readies for it are not yet known."""
    room_id = payload["id"]
    ended_since = Hand.objects.filter(room_id=room_id, ended_at__gt=when)
    dealt_since = Hand.objects.filter(room_id=room_id, started_at__gt=when).order_by("number")
    out = {**payload, "seats": [dict(s) for s in payload["seats"]]}
    settled_since = Settlement.objects.filter(hand__room_id=room_id).filter(
        created_at__gt=when
    ) | Settlement.objects.filter(hand__in=ended_since)
    for deltas in settled_since.values_list("deltas", flat=True):
        for seat, delta in zip(out["seats"], deltas, strict=False):
            seat["score"] -= delta
    n_ended = ended_since.count()
    if n_ended:
        out["hands_played"] = payload["hands_played"] - n_ended
        if payload["status"] == Room.Status.FINISHED:
            out["status"] = Room.Status.PLAYING
    first = dealt_since.values("number", "commitment").first()
    if first is not None:
        out["next_commitment"] = first["commitment"]
        out["next_hand_number"] = first["number"]
    if n_ended or first is not None:
        out["next_hand_at"] = None
        for seat in out["seats"]:
            seat["ready"], seat["client_seed"] = False, None
    match_id = payload.get("match_id")
    if match_id is not None and readers.match_ended_after(match_id, when):
        out["match_id"] = None  # its record is not public yet, nor that it ended
        if out["status"] == Room.Status.FINISHED:
            out["status"] = Room.Status.PLAYING
    out["vote"] = vote_as_of(payload.get("vote"), room_id, when)
    return out


def rooms_finishing(now: datetime | None = None) -> list[int]:
    """Rooms whose match is over but not yet for their spectators: the lobby lists them,
    as still playing (``room_for``), until the delay has passed."""
    return readers.rooms_with_match_held(now)


def _seated(room_id, user) -> bool:
    """``user`` plays in the room now (a seat they have not left): they see it live."""
    if user is None or not user.is_authenticated:
        return False
    return Seat.objects.filter(room_id=room_id, user=user, left=False).exists()


def room_for(payload: dict, delay: int) -> dict:
    """``payload`` (``selectors.room_payload`` for its reader) as its reader may see it
    now: live for a seated player (it carries ``my_seat``), late for anyone else."""
    if not delay or "my_seat" in payload:
        return payload
    return room_as_of(payload, cutoff(delay))


def vote_as_of(vote: dict | None, room_id, when: datetime) -> dict | None:
    """A room's latest dissolve vote (``vote_state.vote_json``) as it stood at ``when``:
    an earlier one if it was proposed since, still open (no answer known) if it was
    decided since."""
    if vote is not None and datetime.fromisoformat(vote["created_at"]) > when:
        earlier = (
            DissolveVote.objects.filter(room_id=room_id, created_at__lte=when)
            .order_by("-created_at", "-id")
            .first()
        )
        seats = Seat.objects.filter(room_id=room_id).select_related("user")
        vote = vote_json(earlier, list(seats)) if earlier is not None else None
    if (
        vote is not None
        and vote["decided_at"]
        and datetime.fromisoformat(vote["decided_at"]) > when
    ):
        voters = [{**v, "answer": None} for v in vote["voters"]]
        vote = {**vote, "status": DissolveVote.Status.OPEN, "decided_at": None, "voters": voters}
    return vote


def vote_for(vote: dict | None, room: Room, user) -> dict | None:
    """The room's latest vote as ``user`` may see it now (``room_for``'s rule)."""
    if not room.spectator_delay or _seated(room.pk, user):
        return vote
    return vote_as_of(vote, room.pk, cutoff(room.spectator_delay))


def replay_held(hand: Hand, user) -> bool:
    """Whether ``hand``'s record is still held from ``user``: its room has a delay, they
    did not play it, and it is in play or ended less than the delay ago.  A hand in play
    is refused as one just ended is, so the refusal tells nothing of when it ended."""
    delay = hand.room.spectator_delay
    if not delay or (hand.ended_at is not None and hand.ended_at <= cutoff(delay)):
        return False
    return not (user is not None and user.is_authenticated and user.pk in hand.players)
