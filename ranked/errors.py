"""The ranked refusals: each code's status.  Their words are in ``config.refusals``, the
site's one registry (zh and en through the catalogue)."""

from __future__ import annotations

from config.refusals import ServiceError
from config.refusals import refuse as refusal

STATUS = {
    "unknown_variant": 400,
    "bad_bots_after": 400,
    "queued_elsewhere": 409,
    "seated_ranked": 409,
    "penalised": 403,
    "not_queued": 404,
    "no_season": 404,
}


def refuse(code: str, **params) -> ServiceError:
    return refusal(code, STATUS[code], **params)
