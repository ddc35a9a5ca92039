"""REST for talk between moves, through the same services as the table socket's frames:
dissolve votes (解散房间: the room's latest to anyone who may see the room; proposals and
answers from its players) and quick phrases.  The shapes are in each view's schema.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.api_views import ServiceAPIView
from games.rooms.api import ERROR_SCHEMA, room_visible
from games.rooms.throttles import TableTalkThrottle
from games.table import late, phrases, votes
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


class DissolveView(ServiceAPIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self):
        return [TableTalkThrottle()] if self.request.method == "POST" else []

    @extend_schema(operation_id="room_dissolve_vote", responses={200: LATEST, 404: ERROR_SCHEMA})
    def get(self, request, pk):
        room = room_visible(pk, request.user)
        vote = latest_vote(room.pk, seats_with_users(room.pk))
        return Response({"vote": late.vote_for(vote, room, request.user)})

    @extend_schema(
        operation_id="room_dissolve_propose",
        request=None,
        responses={201: VOTE, **REFUSALS, 429: ERROR_SCHEMA},
    )
    def post(self, request, pk):
        vote = votes.vote_propose(room_id=pk, user=request.user)
        return Response(vote_json(vote, seats_with_users(vote.room_id)), status=201)


class DissolveAnswerView(ServiceAPIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TableTalkThrottle]

    @extend_schema(
        operation_id="room_dissolve_answer",
        request=AnswerSerializer,
        responses={200: VOTE, **REFUSALS},
    )
    def post(self, request, pk):
        agree = self.valid(AnswerSerializer)["agree"]
        vote = votes.vote_answer(room_id=pk, user=request.user, agree=agree)
        return Response(vote_json(vote, seats_with_users(vote.room_id)))


class PhraseView(ServiceAPIView):
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
    def post(self, request, pk):
        phrase = self.valid(PhraseSerializer)["phrase"]
        said = phrases.phrase_send(room_id=pk, user=request.user, phrase=phrase)
        return Response(said, status=202)
