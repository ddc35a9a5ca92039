"""REST API for match records (DRF; session auth).  The shapes are a public contract:
``GET /api/matches/``, ``GET /api/matches/{id}/`` and ``GET /api/clubs/{id}/matches/``
(``?format=csv`` for the club's owner and managers).  Refusals are
``{"code", "detail"}`` like the rest of ``/api/``.
"""

from __future__ import annotations

import csv
import datetime
import io

from django.http import HttpResponse
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import services as club_services
from clubs.api import ClubAPIView
from config.converters import row_id
from config.refusals import ServiceError
from records import selectors
from records.throttles import RecordsExportThrottle, RecordsReadThrottle

MATCH = OpenApiResponse(
    description=(
        '{"id", "variant", "club": id|null, "room": id, "started_at", "ended_at", '
        '"ended_by": "complete"|"dissolved", "players": [{"seat", "name", "is_bot", "total"}], '
        '"hands": [hand ids]}'
    )
)
MATCH_PAGE = OpenApiResponse(description='{"count", "next", "previous", "results": [match]}')
ERROR = OpenApiResponse(description='{"code": ..., "detail": ...}')


class MatchPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class CSVRenderer(BaseRenderer):
    """Lets ``?format=csv`` through content negotiation; the view writes the file."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


def _page(view: APIView, qs) -> Response:
    paginator = MatchPagination()
    page = paginator.paginate_queryset(qs, view.request, view=view)
    return paginator.get_paginated_response([selectors.match_payload(m) for m in page])


class MatchesView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [RecordsReadThrottle]

    @extend_schema(operation_id="matches_list", responses={200: MATCH_PAGE, 403: ERROR})
    def get(self, request):
        return _page(self, selectors.matches_of(request.user))


class MatchDetailView(APIView):
    permission_classes = []
    throttle_classes = [RecordsReadThrottle]

    @extend_schema(operation_id="match_retrieve", responses={200: MATCH, 404: ERROR})
    def get(self, request, pk):
        match = selectors.visible_match(pk, request.user)
        if match is None:
            raise exceptions.NotFound("no such match")
        return Response(selectors.match_payload(match))


SUMMARY = OpenApiResponse(
    description=(
        '{"players": [{"seat", "name", "is_bot", "total", "wins", "self_draws", "fed", '
        '"best": {"hand", "number", "total", "win_type", "items": [{"id", "name", "value"}]}'
        '|null, "marks": ["big_winner"|"top_feeder"]}], "hands": [{"id", "number", '
        '"deltas", "wins": [{"seat", "name", "win_type", "from", "from_name", "total", '
        '"items"}]}]}'
    )
)


class MatchSummaryView(APIView):
    """``GET /api/matches/{id}/summary/``: the 大结算 (the data the match page and its
    image are drawn from), names in the reader's language."""

    permission_classes = []
    throttle_classes = [RecordsReadThrottle]

    @extend_schema(operation_id="match_summary", responses={200: SUMMARY, 404: ERROR})
    def get(self, request, pk):
        match = selectors.visible_match(pk, request.user)
        if match is None:
            raise exceptions.NotFound("no such match")
        lang = "en" if (get_language() or "").startswith("en") else "zh-hans"
        return Response(selectors.match_view(match, lang))


def _date(params, name: str) -> datetime.date | None:
    raw = params.get(name)
    if not raw:
        return None
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise ServiceError("bad_request", f"{name}: a date as YYYY-MM-DD") from None


def _member(params) -> int | None:
    raw = params.get("member")
    if not raw:
        return None
    member = row_id(raw)
    if member is None:
        raise ServiceError("bad_request", "member: a user id")
    return member


class ClubMatchesView(ClubAPIView):
    renderer_classes = [JSONRenderer, CSVRenderer]

    def get_throttles(self):
        csv_asked = self.request.query_params.get("format") == "csv"
        return [RecordsExportThrottle() if csv_asked else RecordsReadThrottle()]

    def handle_exception(self, exc):
        # A refused CSV download still answers in the API's JSON shape.
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)

    @extend_schema(
        operation_id="club_matches_list",
        parameters=[
            OpenApiParameter("member", int, OpenApiParameter.QUERY),
            OpenApiParameter("since", datetime.date, OpenApiParameter.QUERY),
            OpenApiParameter("until", datetime.date, OpenApiParameter.QUERY),
            OpenApiParameter("format", str, OpenApiParameter.QUERY, enum=["json", "csv"]),
        ],
        responses={200: MATCH_PAGE, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def get(self, request, pk):
        wants_csv = request.accepted_renderer.format == "csv"
        if wants_csv:
            club_services.manager_of(pk, request.user)
        else:
            club_services.member_of(pk, request.user)
        params = request.query_params
        qs = selectors.club_matches(
            pk,
            member=_member(params),
            since=_date(params, "since"),
            until=_date(params, "until"),
            reader=request.user,
        )
        if not wants_csv:
            return _page(self, qs)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(selectors.CSV_HEADER)
        writer.writerows(selectors.csv_rows(qs))
        # With a byte-order mark Excel reads the file as UTF-8; without one, Excel on a
        # Chinese Windows reads it as GBK and garbles the names.
        response = HttpResponse(
            out.getvalue().encode("utf-8-sig"), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="club-{pk}-matches.csv"'
        return response
