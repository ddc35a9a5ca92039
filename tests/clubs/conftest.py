"""A club with one of each role, a Sichuan preset, and clients for each role."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs import services
from clubs.models import Membership
from tests.games.conftest import _table_settings  # noqa: F401  (autouse here too)

ROLES = ("owner", "manager", "member", "outsider", "anonymous")


@pytest.fixture
def people(make_user):
    """One user per role (the anonymous visitor is None)."""
    out = {name: make_user(name) for name in ("owner", "manager", "member", "outsider")}
    out["anonymous"] = None
    return out


@pytest.fixture
def club(people):
    club = services.club_create(owner=people["owner"], name="Tea House").club
    for name in ("manager", "member"):
        services.club_join(user=people[name], invite_code=club.invite_code)
    services.member_set_role(
        club_id=club.pk, actor=people["owner"], user_id=people["manager"].pk, role="manager"
    )
    return club


@pytest.fixture
def preset(club, people):
    """Sichuan, first win ends the hand, fan cap 3 locked."""
    version = services.preset_create(
        club_id=club.pk,
        actor=people["manager"],
        variant="sichuan",
        name="House",
        rules={"mode": "plain", "fan_cap": 3},
        locked=["fan_cap"],
    )
    return version.preset


@pytest.fixture
def client_for():
    def make(user):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return make


def role_of(club, user) -> str | None:
    m = Membership.objects.filter(club=club, user=user).first()
    return m.role if m else None
