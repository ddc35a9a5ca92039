"""REST framework plumbing shared by every app's API: parsing and error shapes.

Every refusal is ``{"code": ..., "detail": ...}``; no request body, however deep or
large, produces a 500 or is echoed back whole.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from config.refusals import ServiceError, clip


class SafeJSONParser(JSONParser):
    """JSON that nests past the interpreter's recursion limit is a bad request, not a crash."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None


class BodyTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "too_large"


def _body_refusal(exc) -> exceptions.APIException | None:
    """Django's refusals of a body it will not read, as API errors: Django would answer
    them with its HTML 400 page."""
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20
        return BodyTooLarge(_("The request body is over %(size)s MB.") % {"size": f"{limit:g}"})
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return exceptions.ParseError(_("The request has too many fields or files."))
    return None


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()), ("", ""))
        return f"{field}: {_first_message(value)}" if field else ""
    if isinstance(detail, list):
        return " ".join(_first_message(d) for d in detail[:3])
    return str(detail)


def api_exception_handler(exc, context):
    # Imported here: rest_framework.views reads the settings that name this module.
    from rest_framework.response import Response
    from rest_framework.views import exception_handler

    if isinstance(exc, ServiceError):
        return Response(exc.body(), status=exc.status)
    exc = _body_refusal(exc) or exc
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = getattr(exc, "default_code", "error")
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        if isinstance(codes, str):
            code = codes
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    response.data = {"code": code, "detail": clip(_first_message(detail))}
    return response


def page_not_found(request, exception):
    """Django's 404 page, but the API's shape under /api/ (a URL no route matches)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)
