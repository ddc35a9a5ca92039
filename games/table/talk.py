"""The table socket's talk between moves: dissolve votes and quick phrases.  Parses the
frame and calls one service; refusals are ``ServiceError`` as for any frame."""

from __future__ import annotations

from config.refusals import ServiceError
from games.table import phrases, votes

# Frame types handled here: {"t": "phrase", "phrase": id}, {"t": "dissolve"},
# {"t": "dissolve_answer", "agree": true|false}.
KINDS = ("phrase", "dissolve", "dissolve_answer")


def socket_message(*, room_id, user, msg: dict) -> None:
    kind = msg["t"]
    if kind == "phrase":
        phrases.phrase_send(room_id=room_id, user=user, phrase=msg.get("phrase"))
    elif kind == "dissolve":
        votes.vote_propose(room_id=room_id, user=user)
    elif kind == "dissolve_answer":
        if not isinstance(msg.get("agree"), bool):
            raise ServiceError("bad_message", '"dissolve_answer" needs "agree": true or false')
        votes.vote_answer(room_id=room_id, user=user, agree=msg["agree"])
