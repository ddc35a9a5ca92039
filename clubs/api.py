"""REST API for clubs (DRF; session auth with CSRF).  The names and shapes are a
public contract.  Views are thin: parse, call one service or
selector, shape the answer.  Every refusal is ``{"code", "detail"}`` (plus
``"option"`` when a house rule is at fault).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from clubs import selectors, services
from config.api_views import ServiceAPIView
from config.refusals import ServiceError
from leaderboards.selectors import club_leaderboard
from leaderboards.serializers import LeaderboardSerializer
from leaderboards.services import club_board_set

ERROR = OpenApiResponse(description='{"code": ..., "detail": ...}')
CLUB = OpenApiResponse(
    description="a club: id, name, invite_code, role, announcement, join_needs_approval, "
    "members, presets; to the owner and managers also pending_requests and each member's "
    "matches, hands and total in the club's rooms"
)
JOINED = OpenApiResponse(description='{"club": id, "role": ...}: joined (201) or already in (200)')
PENDING = OpenApiResponse(
    description='{"status": "pending", "request": id}: the club vets who joins; '
    "the request waits for its owner or a manager"
)
JOIN_REQUESTS = OpenApiResponse(
    description="join requests, pending first: each id, user_id, name, status "
    '("pending", "approved" or "denied"), created_at, decided_by, decided_at'
)
MY_REQUESTS = OpenApiResponse(
    description="the caller's join requests, newest first: each id, club, club_name, "
    "status, created_at, decided_at"
)
PRESET = OpenApiResponse(description="a preset version: id, variant, name, version, rules, locked")


class ClubAPIView(ServiceAPIView):
    """Signed-in callers only."""

    permission_classes = [IsAuthenticated]


class ClubNameSerializer(serializers.Serializer):
    name = serializers.CharField(allow_blank=True)


class ClubJoinSerializer(serializers.Serializer):
    invite_code = serializers.CharField(allow_blank=True)


class PresetCreateSerializer(serializers.Serializer):
    variant = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    rules = serializers.DictField(required=False, default=dict)
    locked = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    note = serializers.CharField(required=False, allow_blank=True, default="")
    # Seconds; checked by the service (a bad value is ``bad_delay``).
    spectator_delay = serializers.JSONField(required=False, default=None)
    # {"discard_seconds", "claim_seconds" (null: no timer), "locked"}; checked by the service.
    timers = serializers.JSONField(required=False, default=None)


class PresetUpdateSerializer(serializers.Serializer):
    rules = serializers.DictField()
    locked = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    note = serializers.CharField(required=False, allow_blank=True, default="")
    spectator_delay = serializers.JSONField(required=False, default=None)
    timers = serializers.JSONField(required=False, default=None)


class ClubUpdateSerializer(serializers.Serializer):
    # Checked and cleaned by the service (``bad_announcement``).
    announcement = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=2000
    )
    join_needs_approval = serializers.BooleanField(required=False)


class ClubBoardSerializer(serializers.Serializer):
    counts_unrated = serializers.BooleanField()


class ClubRoleSerializer(serializers.Serializer):
    role = serializers.CharField()


class ClubsView(ClubAPIView):
    @extend_schema(operation_id="clubs_list", responses={200: CLUB})
    def get(self, request):
        return Response(selectors.clubs_of(request.user))

    @extend_schema(request=ClubNameSerializer, responses={201: CLUB, 400: ERROR})
    def post(self, request):
        d = self.valid(ClubNameSerializer, strict=True)
        m = services.club_create(owner=request.user, name=d["name"])
        club = m.club
        return Response(
            {"id": club.pk, "name": club.name, "invite_code": club.invite_code, "role": m.role},
            status=201,
        )


class ClubJoinView(ClubAPIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "club_join"

    @extend_schema(
        request=ClubJoinSerializer,
        responses={200: JOINED, 201: JOINED, 202: PENDING, 404: ERROR, 409: ERROR, 429: ERROR},
    )
    def post(self, request):
        d = self.valid(ClubJoinSerializer, strict=True)
        out = services.club_join(user=request.user, invite_code=d["invite_code"])
        if out.request is not None:
            return Response({"status": "pending", "request": out.request.pk}, status=202)
        m = out.membership
        return Response({"club": m.club_id, "role": m.role}, status=201 if out.created else 200)


class MyJoinRequestsView(ClubAPIView):
    @extend_schema(operation_id="club_my_join_requests", responses={200: MY_REQUESTS})
    def get(self, request):
        return Response(selectors.my_join_requests(request.user))


class ClubDetailView(ClubAPIView):
    @extend_schema(operation_id="club_retrieve", responses={200: CLUB, 404: ERROR})
    def get(self, request, pk):
        return Response(selectors.club_payload(services.member_of(pk, request.user)))

    @extend_schema(
        operation_id="club_partial_update",
        request=ClubUpdateSerializer,
        responses={200: CLUB, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def patch(self, request, pk):
        services.manager_of(pk, request.user)  # who may, before what was sent is judged
        d = self.valid(ClubUpdateSerializer, strict=True)
        services.club_update(club_id=pk, actor=request.user, **d)
        return Response(selectors.club_payload(services.member_of(pk, request.user)))


class JoinRequestsView(ClubAPIView):
    @extend_schema(
        operation_id="club_join_requests_list",
        responses={200: JOIN_REQUESTS, 403: ERROR, 404: ERROR},
    )
    def get(self, request, pk):
        services.manager_of(pk, request.user)
        return Response(selectors.join_requests(pk))


class JoinRequestDecideView(ClubAPIView):
    """``approve/`` or ``deny/`` one pending request (the URL says which)."""

    approve = True

    @extend_schema(request=None, responses={200: JOIN_REQUESTS, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request, pk, rid):
        r = services.join_request_decide(
            club_id=pk, actor=request.user, request_id=rid, approve=self.approve
        )
        return Response(selectors.join_request_payload(r))


class InviteView(ClubAPIView):
    @extend_schema(request=None, responses={200: CLUB, 403: ERROR})
    def post(self, request, pk):
        club = services.club_invite_rotate(club_id=pk, actor=request.user)
        return Response({"id": club.pk, "invite_code": club.invite_code})


class BoardView(ClubAPIView):
    @extend_schema(request=ClubBoardSerializer, responses={200: CLUB, 403: ERROR})
    def post(self, request, pk):
        services.owner_of(pk, request.user)
        d = self.valid(ClubBoardSerializer, strict=True)
        club = club_board_set(club_id=pk, actor=request.user, counts_unrated=d["counts_unrated"])
        return Response({"id": club.pk, "counts_unrated": club.board_counts_unrated})


class PresetsView(ClubAPIView):
    @extend_schema(request=PresetCreateSerializer, responses={201: PRESET, 400: ERROR, 403: ERROR})
    def post(self, request, pk):
        services.manager_of(pk, request.user)  # who may, before what was sent is judged
        d = self.valid(PresetCreateSerializer, strict=True)
        version = services.preset_create(club_id=pk, actor=request.user, **d)
        return Response(selectors.version_payload(version), status=201)


class PresetDetailView(ClubAPIView):
    @extend_schema(operation_id="club_preset_retrieve", responses={200: PRESET, 404: ERROR})
    def get(self, request, pk, pid):
        services.member_of(pk, request.user)
        return Response(selectors.version_payload(_preset(pk, pid).versions.latest("number")))

    @extend_schema(request=PresetUpdateSerializer, responses={200: PRESET, 400: ERROR})
    def put(self, request, pk, pid):
        services.manager_of(pk, request.user)
        d = self.valid(PresetUpdateSerializer, strict=True)
        version = services.preset_update(club_id=pk, preset_id=pid, actor=request.user, **d)
        return Response(selectors.version_payload(version))


class PresetVersionsView(ClubAPIView):
    @extend_schema(responses={200: PRESET, 403: ERROR, 404: ERROR})
    def get(self, request, pk, pid):
        services.manager_of(pk, request.user)
        return Response(selectors.versions(_preset(pk, pid)))


class MemberRoleView(ClubAPIView):
    @extend_schema(request=ClubRoleSerializer, responses={200: CLUB, 403: ERROR, 404: ERROR})
    def post(self, request, pk, user_id):
        services.owner_of(pk, request.user)
        d = self.valid(ClubRoleSerializer, strict=True)
        m = services.member_set_role(
            club_id=pk, actor=request.user, user_id=user_id, role=d["role"]
        )
        return Response({"user_id": m.user_id, "role": m.role})


class MemberView(ClubAPIView):
    @extend_schema(request=None, responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, pk, user_id):
        services.member_remove(club_id=pk, actor=request.user, user_id=user_id)
        return Response(status=204)


class ClubLeaderboardView(ClubAPIView):
    @extend_schema(
        operation_id="club_leaderboard_retrieve",
        parameters=[OpenApiParameter("variant", str, OpenApiParameter.QUERY)],
        responses={200: LeaderboardSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request, pk):
        services.member_of(pk, request.user)
        variant = selectors.variant_or_none(request.query_params.get("variant", ""))
        if variant is None:
            raise ServiceError("unknown_variant", "variant must be one of the playable variants")
        rows = club_leaderboard(pk, variant.key)
        return Response(LeaderboardSerializer({"variant": variant.key, "players": rows}).data)


def _preset(club_id, preset_id):
    preset = selectors.preset_in_club(club_id, preset_id)
    if preset is None:
        raise ServiceError("no_preset", "no such preset in this club", 404)
    return preset
