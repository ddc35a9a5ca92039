import pytest

from games.models import Hand
from games.table import services
from tests.clubs.conftest import client_for, club, people, preset  # noqa: F401
from tests.games.conftest import _table_settings  # noqa: F401  (autouse here too)

# A broker nobody listens on, and resends due at once: the settlement fault test's.
from tests.games.test_settling import dead_broker, resend_at_once  # noqa: F401


@pytest.fixture
def table(people, preset):  # noqa: F811  (the club fixtures, imported above)
    """A club table of the member (seat 0), two bots and the club's owner (seat 3), its
    first hand dealt."""
    room = services.room_create(owner=people["member"], variant="", preset=preset.pk, bots=2)
    services.room_join(room_id=room.pk, user=people["owner"])
    for who in ("member", "owner"):
        services.room_ready(room_id=room.pk, user=people[who])
    assert Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    return room
