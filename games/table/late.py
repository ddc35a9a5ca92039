"""What a spectator of a room with a spectator delay may know now: the table as it was
that many seconds ago (against ghosting).  Seated players see the table as it is.

The socket rebuilds the hand itself from the action log (``selectors.spectator_snapshot``)
and holds every later frame; this module does the same for the room's payload (its
scores and count of hands are as they stood then) and says which finished hands'
replays are still inside the delay.  Everything here is read from the database, so
every server process answers alike."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Hand, Room, Settlement


def cutoff(delay: int, now: datetime | None = None) -> datetime:
    """The moment a spectator ``delay`` seconds late sees now."""
    return (now or timezone.now()) - timedelta(seconds=delay)


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
    return out


def room_for(payload: dict, delay: int) -> dict:
    """``payload`` (``selectors.room_payload`` for its reader) as its reader may see it
    now: live for a seated player (it carries ``my_seat``), late for anyone else."""
    if not delay or "my_seat" in payload:
        return payload
    return room_as_of(payload, cutoff(delay))


def replay_held(hand: Hand, user) -> bool:
    """Whether ``hand``'s record is still inside its room's spectator delay for ``user``:
    it ended less than the delay ago and they did not play it."""
    delay = hand.room.spectator_delay
    if not delay or hand.ended_at is None or hand.ended_at <= cutoff(delay):
        return False
    return not (user is not None and user.is_authenticated and user.pk in hand.players)
