"""REST API for hand reviews (复盘); refusals are ``{"code", "detail"}`` like the rest of
``/api/``.

* ``POST /api/hands/{id}/reviews/``: ask for a review of your own seat in a finished
  hand you played.  202 while it is being prepared, 200 once stored (asking again
  answers the stored one).
* ``GET /api/hands/{id}/reviews/``: the hand's reviews, for whoever may see its replay.
* ``GET /api/hands/{id}/reviews/{seat}/``: one seat's review (what the page polls).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.api_views import ServiceAPIView
from config.refusals import ServiceError
from games.replays import selectors as replay_selectors
from games.rooms.api import ERROR_SCHEMA
from reviews import selectors, services
from reviews.models import HandReview
from reviews.throttles import ReviewRequestThrottle

REVIEW_SCHEMA = OpenApiResponse(
    description=(
        '{"hand", "hand_number", "seat", "status": "pending"|"done"|"failed", '
        '"entries": [{"seq", "played", "strong", "same", "reason": {"zh-hans", "en"}}] '
        '(null until done), "requested_at", "done_at"}'
    )
)


class HandReviewsView(ServiceAPIView):
    def get_permissions(self):
        # Reading follows the replay's rule (a public hand is public); asking needs a seat.
        return [IsAuthenticated()] if self.request.method == "POST" else []

    def get_throttles(self):
        return [ReviewRequestThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="hand_reviews_list",
        responses={200: REVIEW_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA},
    )
    def get(self, request, pk):
        hand = replay_selectors.readable_hand(pk, request.user)
        return Response(selectors.hand_reviews(hand))

    @extend_schema(
        operation_id="hand_review_request",
        request=None,
        responses={
            200: REVIEW_SCHEMA,
            202: REVIEW_SCHEMA,
            403: ERROR_SCHEMA,
            404: ERROR_SCHEMA,
            409: ERROR_SCHEMA,
            429: ERROR_SCHEMA,
        },
    )
    def post(self, request, pk):
        row = services.review_request(hand_id=pk, user=request.user)
        pending = row.status == HandReview.Status.PENDING
        return Response(selectors.review_payload(row), status=202 if pending else 200)


class HandReviewView(ServiceAPIView):
    permission_classes = []

    @extend_schema(
        operation_id="hand_review",
        responses={200: REVIEW_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA},
    )
    def get(self, request, pk, seat):
        hand = replay_selectors.readable_hand(pk, request.user)
        row = HandReview.objects.filter(hand=hand, seat=seat).select_related("hand").first()
        if row is None:
            raise ServiceError("no_review", "nobody has asked for this seat's review", 404)
        return Response(selectors.review_payload(row))
