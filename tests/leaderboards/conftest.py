import pytest

from games.models import Hand, Room, Settlement


@pytest.fixture
def english(client):
    """A client that asks for the English pages."""
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def players(django_user_model):
    """Four people, seats 0-3."""
    return [
        django_user_model.objects.create_user(username=name)
        for name in ("lin", "mei", "tao", "yun")
    ]


@pytest.fixture
def bot(django_user_model):
    return django_user_model.objects.create_user(username="bot-east", is_bot=True)


@pytest.fixture
def make_hand(players):
    """An ended Sichuan hand of a full-length room, with the given per-seat settlement
    deltas (and winners), made with the ORM.  ``live`` is what the hand's own result says
    (the payments during play; the settlement may add end-of-hand ones)."""
    rooms = {}

    def make(
        deltas,
        winners=None,
        *,
        status=Hand.Status.ENDED,
        seats=None,
        variant="sichuan",
        live=None,
        hands_total=8,
        club=None,
    ):
        key = (hands_total, club)
        if key not in rooms:
            rooms[key] = Room.objects.create(
                variant=variant, owner=players[0], hands_total=hands_total, club=club
            )
        room = rooms[key]
        seats = seats if seats is not None else [p.pk for p in players]
        number = room.hands.count() + 1
        result = None
        if status == Hand.Status.ENDED:
            if winners is None:
                winners = [seat for seat, delta in enumerate(deltas) if delta > 0]
            result = {"deltas": live if live is not None else deltas, "winners": winners}
        hand = Hand.objects.create(
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
        if status == Hand.Status.ENDED:
            Settlement.objects.create(hand=hand, transfers=[], deltas=deltas)
        return hand

    return make
