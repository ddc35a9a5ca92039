"""REST API for a hand's record and its replay frames (DRF; read-only).

Who may read them is the hand page's rule: its players, and everyone once the hand
is visible to them (private tables and the spectator delay hold it back).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response

from config.api_views import ServiceAPIView
from config.refusals import ServiceError
from games.models import Hand
from games.replays import selectors
from games.rooms.api import ERROR_SCHEMA
from games.rules.record import frames

HAND_SCHEMA = OpenApiResponse(
    description=(
        "a hand's record: variant, rules, match, dealer, hand_number, commitment, "
        "client_seeds; once over also server_seed, actions [{seq, seat, action, result}] "
        "and settlement {transfers, deltas}; plus id, room, players, status"
    )
)


def _record_of(hand: Hand) -> dict:
    record = selectors.hand_record(hand)
    if record is None:
        raise ServiceError(
            "no_record", "this hand was dealt before verifiable deals: it has no record", 409
        )
    return record


class HandRecordView(ServiceAPIView):
    """``GET /api/hands/{id}/``: the record ``python -m games.rules replay`` checks."""

    permission_classes = []

    @extend_schema(
        operation_id="hand_record",
        responses={200: HAND_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA},
    )
    def get(self, request, pk):
        hand = selectors.readable_hand(pk, request.user)
        return Response(_record_of(hand))


class HandFramesView(ServiceAPIView):
    """``GET /api/hands/{id}/frames/``: the replay's steps, every hand face up (finished
    hands only)."""

    permission_classes = []

    @extend_schema(
        operation_id="hand_frames",
        responses={
            200: OpenApiResponse(description="[{seq, seat, action, events, view}]"),
            403: ERROR_SCHEMA,
            404: ERROR_SCHEMA,
            409: ERROR_SCHEMA,
        },
    )
    def get(self, request, pk):
        hand = selectors.readable_hand(pk, request.user)
        if hand.status != Hand.Status.ENDED:
            raise ServiceError(
                "hand_in_play", "this hand is still being played: replays open when it ends", 409
            )
        return Response(frames(_record_of(hand)))
