"""REST API for rooms and variants (DRF; session auth with CSRF).

Views are thin: parse, call one service or selector, shape the answer.
Refusals are JSON ``{"code": ..., "detail": ...}`` with a fitting status.
"""

from __future__ import annotations

from functools import wraps

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from config.api import clip
from games.models import Room
from games.rooms.throttles import JoinCodeThrottle, RoomCreateThrottle
from games.rules import available
from games.table import late, selectors, services


def _refusal(e: services.ServiceError) -> Response:
    return Response({"code": e.code, "detail": e.message}, status=e.status)


def refusals(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except services.ServiceError as e:
            return _refusal(e)

    return wrapper


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


class VariantsView(APIView):
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


def _error_from_serializer(ser) -> Response:
    field, problems = next(iter(ser.errors.items()))
    return Response(
        {"code": "bad_request", "detail": clip(f"{field}: {' '.join(map(str, problems))}")},
        status=status.HTTP_400_BAD_REQUEST,
    )


class RoomsView(APIView):
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
    @refusals
    def post(self, request):
        if not isinstance(request.data, dict):
            return Response({"code": "bad_request", "detail": "send a JSON object"}, status=400)
        unknown = set(request.data) - set(RoomCreateSerializer().fields)
        if unknown:
            return Response(
                {
                    "code": "bad_request",
                    "detail": clip(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}"),
                },
                status=400,
            )
        ser = RoomCreateSerializer(data=request.data)
        if not ser.is_valid():
            return _error_from_serializer(ser)
        d = ser.validated_data
        room = services.room_create(
            owner=request.user,
            variant=d["variant"],
            rules=d["rules"],
            hands=d["hands"],
            private=d["private"],
            bots=d["bots"],
            discard_seconds=d["discard_seconds"],
            claim_seconds=d["claim_seconds"],
            preset=d["preset"],
            spectator_delay=d["spectator_delay"],
            bot_level=d["bot_level"],
        )
        return Response(selectors.room_payload(room, for_user=request.user), status=201)


def _visible_room(pk, user) -> Room:
    room = Room.objects.filter(pk=pk).select_related("owner").first()
    if room is None:
        raise services.ServiceError("no_room", "no such room", 404)
    # A club's table is its members' only, even for one still seated at it (removed from
    # the club mid-hand); a private one is its players'.
    if club_selectors.room_hidden_from(room.club_id, user) or (
        room.private and (user is None or selectors.seat_of(room, user) is None)
    ):
        raise services.ServiceError("no_room", "no such room", 404)
    return room


class RoomDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: ROOM_SCHEMA, 404: ERROR_SCHEMA})
    @refusals
    def get(self, request, pk):
        user = request.user if request.user.is_authenticated else None
        room = _visible_room(pk, user)
        payload = selectors.room_payload(room, for_user=user)
        return Response(late.room_for(payload, room.spectator_delay))


class RoomJoinView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [JoinCodeThrottle]

    @extend_schema(request=JoinSerializer, responses={200: ROOM_SCHEMA, 403: ERROR_SCHEMA})
    @refusals
    def post(self, request, pk):
        ser = JoinSerializer(data=request.data if isinstance(request.data, dict) else {})
        ser.is_valid(raise_exception=False)
        code = ser.validated_data.get("code", "") if ser.is_valid() else ""
        room = services.room_join(room_id=pk, user=request.user, code=code)
        return Response(selectors.room_payload(room, for_user=request.user))


class RoomLeaveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    @refusals
    def post(self, request, pk):
        room = services.room_leave(room_id=pk, user=request.user)
        return Response(selectors.room_payload(room, for_user=request.user))


class ReadySerializer(serializers.Serializer):
    # 16 random bytes the browser drew with Web Crypto, as 32 lowercase hex digits: this
    # seat's share of the next deal's entropy (checked by the service).
    client_seed = serializers.CharField(required=False, allow_null=True)


class RoomReadyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ReadySerializer,
        responses={200: ROOM_SCHEMA, 400: ERROR_SCHEMA, 409: ERROR_SCHEMA},
    )
    @refusals
    def post(self, request, pk):
        body = request.data if isinstance(request.data, dict) else {}
        room = services.room_ready(
            room_id=pk, user=request.user, client_seed=body.get("client_seed")
        )
        return Response(selectors.room_payload(room, for_user=request.user))


class RoomBotsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    @refusals
    def post(self, request, pk):
        room = services.room_add_bot(room_id=pk, user=request.user)
        return Response(selectors.room_payload(room, for_user=request.user), status=201)


class RoomBotDeleteView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    @refusals
    def delete(self, request, pk, seat):
        room = services.room_remove_bot(room_id=pk, user=request.user, seat_index=seat)
        return Response(selectors.room_payload(room, for_user=request.user))
