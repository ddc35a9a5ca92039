"""REST API for rooms and variants (DRF; session auth with CSRF).

Views are thin: parse, call one service or selector, shape the answer.
Refusals are JSON ``{"code": ..., "detail": ...}`` with a fitting status.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from clubs import selectors as club_selectors
from config.api_views import ServiceAPIView
from config.refusals import ServiceError
from games.models import Room
from games.rooms.throttles import JoinCodeThrottle, RoomCreateThrottle
from games.rules import available
from games.table import assist, late, selectors, services


class RoomCreateSerializer(serializers.Serializer):
    variant = serializers.CharField(required=False, default="")  # a preset names it
    preset = serializers.IntegerField(required=False, allow_null=True, default=None)
    rules = serializers.DictField(required=False, default=dict)
    hands = serializers.IntegerField(required=False, default=8)
    private = serializers.BooleanField(required=False, default=False)
    bots = serializers.IntegerField(required=False, default=0)
    discard_seconds = serializers.IntegerField(required=False, allow_null=True, default=15)
    claim_seconds = serializers.IntegerField(required=False, allow_null=True, default=8)
    # Seconds spectators see the table late; checked by the service (``bad_delay``).
    spectator_delay = serializers.JSONField(required=False, default=None)
    # The bots' level; checked by the service (``bad_bot_level``).
    bot_level = serializers.JSONField(required=False, allow_null=True, default="strong")


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(required=False, allow_blank=True, default="")


ROOM_SCHEMA = OpenApiResponse(
    description=(
        "a room: id, code (for seated users), ws path, seats, vote (its latest dissolve vote "
        "or null), match_id (its record once the match is over, else null)"
    )
)
ERROR_SCHEMA = OpenApiResponse(description='{"code": ..., "detail": ...}')


def _describe_rules(v) -> list[dict]:
    """The variant's house rules; a map of pattern values names its keys for people."""
    names = v.pattern_names()
    rules = v.options.describe()
    for rule in rules:
        if rule["type"] == "map":
            rule["key_labels"] = {k: names[k] for k in rule.get("keys", []) if k in names}
    return rules


class VariantsView(ServiceAPIView):
    permission_classes = []

    @extend_schema(
        responses=inline_serializer(
            "Variant",
            {
                "key": serializers.CharField(),
                "name": serializers.DictField(),
                "description": serializers.DictField(),
                "rules": serializers.ListField(),
            },
            many=True,
        )
    )
    def get(self, request):
        return Response(
            [
                {
                    "key": v.key,
                    "name": {"zh-hans": v.name_zh, "en": v.name_en},
                    "description": {"zh-hans": v.description_zh, "en": v.description_en},
                    "rules": _describe_rules(v),
                }
                for v in available()
            ]
        )


class RoomsView(ServiceAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_throttles(self):
        # Listing is free; opening rooms is what floods the lobby.
        return [RoomCreateThrottle()] if self.request.method == "POST" else []

    @extend_schema(operation_id="rooms_list", responses={200: ROOM_SCHEMA})
    def get(self, request):
        user = request.user if request.user.is_authenticated else None
        rooms = selectors.open_rooms(for_user=user)
        return Response(
            [
                late.room_for(selectors.room_payload(r, for_user=user), r.spectator_delay)
                for r in rooms
            ]
        )

    @extend_schema(request=RoomCreateSerializer, responses={201: ROOM_SCHEMA, 400: ERROR_SCHEMA})
    def post(self, request):
        data = self.valid(RoomCreateSerializer, strict=True)
        room = services.room_create(owner=request.user, **data)
        return Response(selectors.room_payload(room, for_user=request.user), status=201)


def room_visible(pk, user) -> Room:
    room = Room.objects.filter(pk=pk).select_related("owner").first()
    # A club's table is its members' only, even for one still seated at it (removed from
    # the club mid-hand); a private one is its players'.
    if (
        room is None
        or club_selectors.room_hidden_from(room.club_id, user)
        or (room.private and (user is None or selectors.seat_of(room, user) is None))
    ):
        raise ServiceError("no_room", "no such room", 404)
    return room


class RoomDetailView(ServiceAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: ROOM_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request, pk):
        user = request.user if request.user.is_authenticated else None
        room = room_visible(pk, user)
        payload = selectors.room_payload(room, for_user=user)
        return Response(late.room_for(payload, room.spectator_delay))


class RoomJoinView(ServiceAPIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [JoinCodeThrottle]

    @extend_schema(request=JoinSerializer, responses={200: ROOM_SCHEMA, 403: ERROR_SCHEMA})
    def post(self, request, pk):
        ser = JoinSerializer(data=self.body())
        code = ser.validated_data["code"] if ser.is_valid() else ""
        room = services.room_join(room_id=pk, user=request.user, code=code)
        return Response(selectors.room_payload(room, for_user=request.user))


class RoomLeaveView(ServiceAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    def post(self, request, pk):
        room = services.room_leave(room_id=pk, user=request.user)
        return Response(selectors.room_payload(room, for_user=request.user))


class ReadySerializer(serializers.Serializer):
    # 16 random bytes the browser drew with Web Crypto, as 32 lowercase hex digits: this
    # seat's share of the next deal's entropy (checked by the service).
    client_seed = serializers.CharField(required=False, allow_null=True)


class RoomReadyView(ServiceAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ReadySerializer,
        responses={200: ROOM_SCHEMA, 400: ERROR_SCHEMA, 409: ERROR_SCHEMA},
    )
    def post(self, request, pk):
        seed = self.body().get("client_seed")
        room = services.room_ready(room_id=pk, user=request.user, client_seed=seed)
        return Response(selectors.room_payload(room, for_user=request.user))


class AutoPlaySerializer(serializers.Serializer):
    auto = serializers.BooleanField()


class RoomAutoPlayView(ServiceAPIView):
    """托管 (auto-play) on or off for the caller's seat."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=AutoPlaySerializer, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    def post(self, request, pk):
        on = self.valid(AutoPlaySerializer)["auto"]
        room = assist.seat_auto_play(room_id=pk, user=request.user, on=on)
        return Response(selectors.room_payload(room, for_user=request.user))


class RoomBotsView(ServiceAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    def post(self, request, pk):
        room = services.room_add_bot(room_id=pk, user=request.user)
        return Response(selectors.room_payload(room, for_user=request.user), status=201)


class RoomBotDeleteView(ServiceAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    def delete(self, request, pk, seat):
        room = services.room_remove_bot(room_id=pk, user=request.user, seat_index=seat)
        return Response(selectors.room_payload(room, for_user=request.user))
