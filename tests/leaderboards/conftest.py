import pytest

from games.models import Hand, Room


@pytest.fixture
def english(client):
    """A client that asks for the English pages."""
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def players(django_user_model):
    """Four accounts, seats 0-3; the last two are bots."""
    return [
        django_user_model.objects.create_user(username=name, is_bot=name.startswith("bot"))
        for name in ("lin", "mei", "bot-east", "bot-west")
    ]


@pytest.fixture
def make_hand(players):
    """An ended Sichuan hand with the given per-seat deltas (and winners), made with the ORM."""
    room = None

    def make(deltas, winners=None, *, status=Hand.Status.ENDED, seats=None, variant="sichuan"):
        nonlocal room
        if room is None:
            room = Room.objects.create(variant=variant, owner=players[0])
        seats = seats if seats is not None else [p.pk for p in players]
        number = room.hands.count() + 1
        result = None
        if status == Hand.Status.ENDED:
            if winners is None:
                winners = [seat for seat, delta in enumerate(deltas) if delta > 0]
            result = {"deltas": deltas, "winners": winners}
        return Hand.objects.create(
            room=room,
            number=number,
            variant=variant,
            rules={},
            server_seed="",
            commitment="",
            players=seats,
            state={},
            status=status,
            result=result,
        )

    return make
