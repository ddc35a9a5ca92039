from django.http import Http404
from django.shortcuts import render
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from leaderboards.selectors import leaderboard, leaderboard_summaries, variant_info
from leaderboards.serializers import LeaderboardSerializer


def index(request):
    return render(request, "leaderboards/index.html", {"boards": leaderboard_summaries()})


def board(request, variant):
    info = variant_info(variant)
    if info is None:
        raise Http404("unknown variant")
    return render(
        request, "leaderboards/board.html", {"variant": info, "rows": leaderboard(info.key)}
    )


@extend_schema(
    operation_id="leaderboard_retrieve",
    summary="A variant's leaderboard",
    description="Rated players of one variant, best first (top 100).",
    parameters=[
        OpenApiParameter(
            "variant",
            str,
            OpenApiParameter.PATH,
            description="Variant key, as listed by GET /api/variants/.",
        )
    ],
    responses={
        200: LeaderboardSerializer,
        404: OpenApiResponse(
            inline_serializer("NotFound", {"detail": serializers.CharField()}),
            description="Unknown variant.",
        ),
    },
)
@api_view(["GET"])
@permission_classes([AllowAny])
def board_api(request, variant):
    info = variant_info(variant)
    if info is None:
        raise NotFound(f"Unknown variant {variant!r}.")
    data = {"variant": info.key, "players": leaderboard(info.key)}
    return Response(LeaderboardSerializer(data).data)
