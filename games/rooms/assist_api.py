"""REST endpoint for 托管 (auto-play): ``POST /api/rooms/<id>/auto/`` with ``{"auto": bool}``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rooms.api import ERROR_SCHEMA, ROOM_SCHEMA, _error_from_serializer, refusals
from games.table import assist, selectors


class AutoPlaySerializer(serializers.Serializer):
    auto = serializers.BooleanField()


class RoomAutoPlayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AutoPlaySerializer, responses={200: ROOM_SCHEMA, 409: ERROR_SCHEMA})
    @refusals
    def post(self, request, pk):
        ser = AutoPlaySerializer(data=request.data if isinstance(request.data, dict) else {})
        if not ser.is_valid():
            return _error_from_serializer(ser)
        room = assist.seat_auto_play(room_id=pk, user=request.user, on=ser.validated_data["auto"])
        return Response(selectors.room_payload(room, for_user=request.user))
