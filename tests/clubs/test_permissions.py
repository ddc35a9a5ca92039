"""Who may do what: owner / manager / member / outsider / anonymous × every club endpoint,
every club page, a club room's API and page, and the table socket.

Outsiders are told a club (or its room) does not exist; the anonymous get 403 from the
API and the login redirect from pages; refusals carry a ``code``."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from clubs import services
from games.table import services as game_services
from tests.clubs.conftest import ROLES
from tests.games.test_consumers import connect, cookie_for, refused

pytestmark = pytest.mark.django_db

OK, CREATED, GONE = 200, 201, 204


@pytest.fixture
def world(people, club, preset, make_user):
    """The club, its preset, one more plain member to remove, and a club room."""
    extra = make_user("extra")
    services.club_join(user=extra, invite_code=club.invite_code)
    room = game_services.room_create(owner=people["owner"], variant="", preset=preset.pk)
    return {
        "club": club.pk,
        "preset": preset.pk,
        "room": room.pk,
        "extra": extra.pk,
        "member": people["member"].pk,
        "code": club.invite_code,
    }


# name: (method, url, body, {role: status or (status, code)})
API = {
    "list clubs": (
        "get",
        "/api/clubs/",
        None,
        {"owner": OK, "manager": OK, "member": OK, "outsider": OK, "anonymous": 403},
    ),
    "create club": (
        "post",
        "/api/clubs/",
        {"name": "New"},
        {
            "owner": CREATED,
            "manager": CREATED,
            "member": CREATED,
            "outsider": CREATED,
            "anonymous": 403,
        },
    ),
    "join club": (
        "post",
        "/api/clubs/join/",
        {"invite_code": "{code}"},
        {"owner": OK, "manager": OK, "member": OK, "outsider": CREATED, "anonymous": 403},
    ),
    "club detail": (
        "get",
        "/api/clubs/{club}/",
        None,
        {"owner": OK, "manager": OK, "member": OK, "outsider": (404, "no_club"), "anonymous": 403},
    ),
    "rotate invite": (
        "post",
        "/api/clubs/{club}/invite/",
        None,
        {
            "owner": OK,
            "manager": OK,
            "member": (403, "not_manager"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "create preset": (
        "post",
        "/api/clubs/{club}/presets/",
        {"variant": "sichuan", "name": "P2", "rules": {}, "locked": []},
        {
            "owner": CREATED,
            "manager": CREATED,
            "member": (403, "not_manager"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "read preset": (
        "get",
        "/api/clubs/{club}/presets/{preset}/",
        None,
        {"owner": OK, "manager": OK, "member": OK, "outsider": (404, "no_club"), "anonymous": 403},
    ),
    "edit preset": (
        "put",
        "/api/clubs/{club}/presets/{preset}/",
        {"rules": {"base": 2}, "locked": [], "note": "n"},
        {
            "owner": OK,
            "manager": OK,
            "member": (403, "not_manager"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "preset versions": (
        "get",
        "/api/clubs/{club}/presets/{preset}/versions/",
        None,
        {
            "owner": OK,
            "manager": OK,
            "member": (403, "not_manager"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "change role": (
        "post",
        "/api/clubs/{club}/members/{member}/role/",
        {"role": "manager"},
        {
            "owner": OK,
            "manager": (403, "not_owner"),
            "member": (403, "not_owner"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "remove member": (
        "delete",
        "/api/clubs/{club}/members/{extra}/",
        None,
        {
            "owner": GONE,
            "manager": GONE,
            "member": (403, "not_manager"),
            "outsider": (404, "no_club"),
            "anonymous": 403,
        },
    ),
    "club leaderboard": (
        "get",
        "/api/clubs/{club}/leaderboard/?variant=sichuan",
        None,
        {"owner": OK, "manager": OK, "member": OK, "outsider": (404, "no_club"), "anonymous": 403},
    ),
    "open club room": (
        "post",
        "/api/rooms/",
        {"preset": "{preset}"},
        {
            "owner": CREATED,
            "manager": CREATED,
            "member": CREATED,
            "outsider": (404, "no_preset"),
            "anonymous": 403,
        },
    ),
    "club room detail": (
        "get",
        "/api/rooms/{room}/",
        None,
        {
            "owner": OK,
            "manager": OK,
            "member": OK,
            "outsider": (404, "no_room"),
            "anonymous": (404, "no_room"),
        },
    ),
    "join club room": (
        "post",
        "/api/rooms/{room}/join/",
        {},
        {"owner": OK, "manager": OK, "member": OK, "outsider": (404, "no_room"), "anonymous": 403},
    ),
}

LOGIN = 302
PAGES = {
    "my clubs": ("/clubs/", {"owner": OK, "manager": OK, "member": OK, "outsider": OK}),
    "club page": ("/clubs/{club}/", {"owner": OK, "manager": OK, "member": OK, "outsider": 404}),
    "history": (
        "/clubs/{club}/history/",
        {"owner": OK, "manager": OK, "member": 403, "outsider": 404},
    ),
    "new preset": (
        "/clubs/{club}/presets/new/",
        {"owner": OK, "manager": OK, "member": 403, "outsider": 404},
    ),
    "preset editor": (
        "/clubs/{club}/presets/{preset}/",
        {"owner": OK, "manager": OK, "member": 403, "outsider": 404},
    ),
    "open a table": (
        "/clubs/{club}/presets/{preset}/play/",
        {"owner": OK, "manager": OK, "member": OK, "outsider": 404},
    ),
    "club table page": (
        "/rooms/{room}/",
        {"owner": OK, "manager": OK, "member": OK, "outsider": 404},
    ),
}


def _fill(value, ids):
    if isinstance(value, str):
        filled = value.format(**ids)
        return int(filled) if value == "{preset}" else filled
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", sorted(API))
def test_api(endpoint, role, world, people, client_for):
    method, url, body, expected = API[endpoint]
    want = expected[role]
    status, code = want if isinstance(want, tuple) else (want, None)

    client = client_for(people[role])
    kwargs = {"format": "json"} if body is not None else {}
    r = getattr(client, method)(_fill(url, world), _fill(body, world), **kwargs)

    assert r.status_code == status, (endpoint, role, r.content[:300])
    if status >= 400:
        assert "code" in r.json()
    if code is not None:
        assert r.json()["code"] == code


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", sorted(PAGES))
def test_page(page, role, world, people, client_for):
    url, expected = PAGES[page]
    client = client_for(people[role])

    r = client.get(_fill(url, world))

    if role == "anonymous":
        assert r.status_code == LOGIN and r["Location"].startswith("/accounts/login/")
    else:
        assert r.status_code == expected[role], (page, role)


SOCKET = {"owner": True, "manager": True, "member": True, "outsider": 4403, "anonymous": 4401}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_table_socket(role, world, people):
    from games.models import Room

    room = Room.objects.get(pk=world["room"])
    cookie = cookie_for(people[role]) if people[role] is not None else None

    async def run():
        comm = connect(room, cookie)
        if SOCKET[role] is True:
            connected, _ = await comm.connect()
            assert connected
            msg = await comm.receive_json_from(timeout=10)
            assert msg["t"] == "room" and msg["d"]["club"] == world["club"]
            await comm.disconnect()
        else:
            assert await refused(comm) == SOCKET[role]

    async_to_sync(run)()


@pytest.mark.parametrize(("role", "status"), [("owner", 200), ("manager", 403), ("member", 403)])
def test_only_the_owner_chooses_what_the_club_board_counts(client_for, people, club, role, status):
    from clubs.models import AuditEntry, Club

    r = client_for(people[role]).post(
        f"/api/clubs/{club.pk}/board/", {"counts_unrated": True}, format="json"
    )

    assert r.status_code == status
    counted = Club.objects.get(pk=club.pk).board_counts_unrated
    assert counted is (status == 200)
    assert AuditEntry.objects.filter(action="board_changed").exists() is (status == 200)


def test_a_bad_board_choice_is_refused(client_for, people, club):
    r = client_for(people["owner"]).post(
        f"/api/clubs/{club.pk}/board/", {"counts_unrated": "maybe"}, format="json"
    )

    assert r.status_code == 400 and r.json()["code"] == "bad_request"
