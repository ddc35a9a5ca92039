"""Reads of a room's dissolve votes (解散房间): whether one passed, and what the table
shows of the latest (who proposed it, who answered what, until when)."""

from __future__ import annotations

from games.models import DissolveVote


def dissolve_passed(room_id) -> bool:
    """Whether the room's players voted to end its match (it ends with the hand in play)."""
    return DissolveVote.objects.filter(room_id=room_id, status=DissolveVote.Status.PASSED).exists()


def vote_json(vote: DissolveVote, seats) -> dict:
    """A vote as the table and the API show it; ``seats``: the room's, with their users
    (a voter who has left still counts, shown without a seat)."""
    where = {s.user_id: s for s in seats if s.user_id}
    voters = []
    for user_id in vote.voters:
        seat = where.get(user_id)
        voters.append(
            {
                "user_id": user_id,
                "seat": seat.index if seat is not None else None,
                "name": seat.user.shown_name if seat is not None else "",
                "answer": vote.answers.get(str(user_id)),
            }
        )
    return {
        "id": vote.pk,
        "status": vote.status,
        "proposer_id": vote.proposer_id,
        "voters": voters,
        "created_at": vote.created_at.isoformat(),
        "deadline_at": vote.deadline_at.isoformat() if vote.deadline_at else None,
        "decided_at": vote.decided_at.isoformat() if vote.decided_at else None,
    }


def latest_vote(room_id, seats) -> dict | None:
    """The room's latest vote (None: there has been none)."""
    vote = DissolveVote.objects.filter(room_id=room_id).order_by("-created_at", "-id").first()
    return vote_json(vote, seats) if vote is not None else None
