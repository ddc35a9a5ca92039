"""REST for talk between moves, the same services as the table socket's frames:

- ``GET /api/rooms/<id>/dissolve/``: ``{"vote": vote|null}``, the room's latest dissolve
  vote (解散房间), to anyone who may see the room;
- ``POST /api/rooms/<id>/dissolve/``: a seated player proposes ending the match (201);
- ``POST /api/rooms/<id>/dissolve/answer/`` with ``{"agree": bool}``: a voter answers;
- ``POST /api/rooms/<id>/phrases/`` with ``{"phrase": id}``: a quick phrase (202).

A vote is ``{"id", "status": "open"|"passed"|"refused"|"lapsed", "proposer_id",
"voters": [{"user_id", "seat", "name", "answer": "agree"|"refuse"|null}],
"created_at", "deadline_at", "decided_at"}``.  Refusals are ``{"code", "detail"}``.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rooms.api import ERROR_SCHEMA, _error_from_serializer, _visible_room, refusals
from games.rooms.throttles import TableTalkThrottle
from games.table import phrases, votes
from games.table.selectors import seats_with_users
from games.table.vote_state import latest_vote, vote_json

VOTE = OpenApiResponse(
    description=(
        '{"id", "status": "open"|"passed"|"refused"|"lapsed", "proposer_id", "voters": '
        '[{"user_id", "seat", "name", "answer": "agree"|"refuse"|null}], "created_at", '
        '"deadline_at", "decided_at"}'
    )
)
LATEST = OpenApiResponse(description='{"vote": vote|null}')
SAID = OpenApiResponse(description='{"seat", "user_id", "phrase"}')
REFUSALS = {400: ERROR_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA}


class AnswerSerializer(serializers.Serializer):
    agree = serializers.BooleanField()


class PhraseSerializer(serializers.Serializer):
    phrase = serializers.CharField(max_length=40)


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


class DissolveView(APIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self):
        return [TableTalkThrottle()] if self.request.method == "POST" else []

    @extend_schema(operation_id="room_dissolve_vote", responses={200: LATEST, 404: ERROR_SCHEMA})
    @refusals
    def get(self, request, pk):
        room = _visible_room(pk, request.user)
        return Response({"vote": latest_vote(room.pk, seats_with_users(room.pk))})

    @extend_schema(
        operation_id="room_dissolve_propose",
        request=None,
        responses={201: VOTE, **REFUSALS, 429: ERROR_SCHEMA},
    )
    @refusals
    def post(self, request, pk):
        vote = votes.vote_propose(room_id=pk, user=request.user)
        return Response(vote_json(vote, seats_with_users(vote.room_id)), status=201)


class DissolveAnswerView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TableTalkThrottle]

    @extend_schema(
        operation_id="room_dissolve_answer",
        request=AnswerSerializer,
        responses={200: VOTE, **REFUSALS},
    )
    @refusals
    def post(self, request, pk):
        ser = AnswerSerializer(data=_body(request))
        if not ser.is_valid():
            return _error_from_serializer(ser)
        vote = votes.vote_answer(room_id=pk, user=request.user, agree=ser.validated_data["agree"])
        return Response(vote_json(vote, seats_with_users(vote.room_id)))


class PhraseView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TableTalkThrottle]

    @extend_schema(
        operation_id="room_phrase_send",
        request=PhraseSerializer,
        responses={
            202: SAID,
            400: ERROR_SCHEMA,
            403: ERROR_SCHEMA,
            404: ERROR_SCHEMA,
            429: ERROR_SCHEMA,
        },
    )
    @refusals
    def post(self, request, pk):
        ser = PhraseSerializer(data=_body(request))
        if not ser.is_valid():
            return _error_from_serializer(ser)
        said = phrases.phrase_send(
            room_id=pk, user=request.user, phrase=ser.validated_data["phrase"]
        )
        return Response(said, status=202)
