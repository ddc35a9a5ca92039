"""The base of every REST view over the services (apart from ``config.api``, which
DRF's settings name: importing ``rest_framework.views`` there would load it half-made)."""

from __future__ import annotations

from rest_framework.views import APIView

from config.refusals import ServiceError


class ServiceAPIView(APIView):
    """A view over the services: their ``ServiceError`` is its refusal (``config.api``'s
    exception handler answers it), and a body it cannot take is a ``bad_request``."""

    def body(self) -> dict:
        """The JSON object sent; anything else counts as an empty one."""
        return self.request.data if isinstance(self.request.data, dict) else {}

    def valid(self, serializer_class, *, strict: bool = False) -> dict:
        """The body as ``serializer_class`` validates it, or a ``bad_request`` naming the
        first field at fault.  ``strict``: the body must be a JSON object naming only the
        serializer's fields."""
        if strict:
            if not isinstance(self.request.data, dict):
                raise ServiceError("bad_request", "send a JSON object")
            unknown = set(self.request.data) - set(serializer_class().fields)
            if unknown:
                names = ", ".join(sorted(map(str, unknown)))
                raise ServiceError("bad_request", f"unknown field(s): {names}")
        ser = serializer_class(data=self.body())
        if not ser.is_valid():
            field, problems = next(iter(ser.errors.items()))
            raise ServiceError("bad_request", f"{field}: {' '.join(map(str, problems))}")
        return ser.validated_data


def throttle_allows(throttle_class, request) -> bool:
    """For plain Django views: count this request against ``throttle_class`` (the REST
    views' rate, so a form and its API share one limit)."""
    return throttle_class().allow_request(request, None)
