"""The ranked refusals: one code, one text (zh and en through the catalogue) each.  They
are the games' ``ServiceError``, the refusal every interface of the site answers with."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.table.errors import ServiceError


def _texts() -> dict[str, tuple[str, int]]:
    return {
        "unknown_variant": (_("There is no such variant."), 400),
        "bad_bots_after": (_("Fill with bots after 10 to 600 seconds, or not at all."), 400),
        "queued_elsewhere": (
            _("You are already queued for another variant: leave that queue first."),
            409,
        ),
        "seated_ranked": (
            _("You are seated at a ranked table: finish that match before queueing again."),
            409,
        ),
        "penalised": (
            _("You did not come to your last ranked table: you may queue again at %(until)s."),
            403,
        ),
        "not_queued": (_("You are not in a ranked queue."), 404),
        "no_season": (_("There is no such season."), 404),
    }


def refuse(code: str, **params) -> ServiceError:
    text, status = _texts()[code]
    return ServiceError(code, text % params if params else text, status)
