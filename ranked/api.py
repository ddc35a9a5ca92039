"""REST for ranked play (DRF; session auth with CSRF): the queue and the season boards.
Refusals are ``{"code", "detail"}`` (``ranked.errors``)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from games.rooms.api import ERROR_SCHEMA, GameAPIView
from games.rules import UnknownVariant, get_variant
from ranked import matcher, selectors, services
from ranked.errors import refuse
from ranked.models import QueueEntry


class QueueJoinThrottle(UserRateThrottle):
    """Queue joins (a flood of joins and leaves would churn the matcher)."""

    scope = "ranked_queue"

    def get_rate(self):
        return settings.RANKED_QUEUE_RATE


def client_address(request) -> str | None:
    """The client's address as the site trusts it (DRF's, behind ``NUM_PROXIES`` proxies)."""
    return QueueJoinThrottle().get_ident(request) or None


class QueueJoinSerializer(serializers.Serializer):
    variant = serializers.CharField()
    bots_after = serializers.JSONField(required=False, default=None)


def entry_payload(entry: QueueEntry) -> dict:
    return {
        "variant": entry.variant,
        "joined_at": entry.joined_at,
        "bots_after": entry.bots_after,
        "room": entry.room_id,
    }


QUEUE_SCHEMA = OpenApiResponse(
    description='{"variant", "waited_seconds", "players_queued", "room"} (room: null while waiting)'
)


class QueueView(GameAPIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self):
        return [QueueJoinThrottle()] if self.request.method == "POST" else []

    @extend_schema(request=QueueJoinSerializer, responses={201: None, 409: ERROR_SCHEMA})
    def post(self, request):
        data = self.valid(QueueJoinSerializer)
        entry = services.queue_join(
            user=request.user,
            variant=data["variant"],
            address=client_address(request),
            bots_after=data["bots_after"],
        )
        return Response(entry_payload(entry), status=201)

    @extend_schema(responses={200: QUEUE_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request):
        # Where no process sweeps (no socket open yet on the embedded profile), polls
        # drive the matching (``matcher.match_pass_due``).
        matcher.match_pass_due(poll=True)
        return Response(services.queue_poll(user=request.user))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        services.queue_leave(user=request.user)
        return Response(status=204)


class BoardView(GameAPIView):
    permission_classes = []

    @extend_schema(responses={200: OpenApiResponse(description="the season and its players")})
    def get(self, request, variant):
        try:
            variant = get_variant(variant).key
        except UnknownVariant:
            raise refuse("unknown_variant") from None
        season = selectors.season_of(request.query_params.get("season"))
        return Response(selectors.board(variant, season))
