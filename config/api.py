"""REST framework plumbing shared by every app's API: parsing and error shapes.

Every refusal is ``{"code": ..., "detail": ...}``; no request body, however deep or
large, produces a 500 or is echoed back whole.
"""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

MAX_DETAIL = 300  # characters of a refusal's text; offending values are cut, not echoed


def clip(text: str, limit: int = MAX_DETAIL) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class SafeJSONParser(JSONParser):
    """JSON that nests past the interpreter's recursion limit is a bad request, not a crash."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()), ("", ""))
        return f"{field}: {_first_message(value)}" if field else ""
    if isinstance(detail, list):
        return " ".join(_first_message(d) for d in detail[:3])
    return str(detail)


def api_exception_handler(exc, context):
    # Imported here: rest_framework.views reads the settings that name this module.
    from rest_framework.views import exception_handler

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
