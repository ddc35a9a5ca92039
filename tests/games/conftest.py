from datetime import timedelta

import pytest
from django.utils import timezone

from games.table import selectors, services, timers


@pytest.fixture(autouse=True)
def _table_settings(settings):
    # Tests drive the sweeper themselves; bots act as soon as they are swept.
    settings.GAME_SWEEPER = False
    settings.GAME_BOT_DELAY = 0
    # Claim windows close at the first sweep after their discard (their length is
    # tested on its own, in test_claim_privacy).
    settings.GAME_CLAIM_WINDOW = 0
    # Sweeps below jump at most an hour ahead: the next hand only starts when readied.
    settings.GAME_NEXT_HAND_SECONDS = 3 * 3600


def four_seated(users, *, hands: int = 1):
    """A Sichuan room with these four players seated and ready: its first hand is dealt.
    Returns the room and that hand."""
    from games.models import Hand

    room = services.room_create(owner=users[0], variant="sichuan", hands=hands)
    for u in users[1:]:
        services.room_join(room_id=room.pk, user=u)
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    return room, Hand.objects.get(room=room, status=Hand.Status.PLAYING)


def sweep(minutes: float = 0) -> int:
    """Fire what is due ``minutes`` from now (0: only bots; 1+: human timers too)."""
    return timers.deadlines_fire_due(timezone.now() + timedelta(minutes=minutes))


def play_out(room, *, max_sweeps=500):
    """Let every seat's deadline pass until the room's current hand ends, and wait for
    its settlement (on a real worker it must not still be writing when the test's
    database is flushed)."""
    from games.models import Hand

    for i in range(1, max_sweeps):
        sweep(minutes=0.3 * i)  # each sweep passes one more 15-second human timer
        hand = Hand.objects.filter(room=room).order_by("-number").first()
        if hand is not None and hand.status == Hand.Status.ENDED:
            wait_settled(hand)
            return hand
    raise AssertionError("hand did not end")


def wait_settled(hand, timeout: float = 30):
    """Settlement runs on Celery: inline here, on a real worker in the services profile.
    Waits for the task's last write (the hand marked settled), not only for its results,
    and for the match's record when the hand ended the match: a test's database flushed
    while the worker still writes can deadlock the flush."""
    from games.models import Hand, Room, Settlement
    from leaderboards.models import RatingChange
    from records.models import Match
    from tests.live import wait_for

    wait_for(
        lambda: (
            Settlement.objects.filter(hand=hand).exists()
            and RatingChange.objects.filter(hand=hand).count() == 4
            and Hand.objects.filter(pk=hand.pk, settled_at__isnull=False).exists()
        ),
        timeout,
        f"hand {hand.pk} to be settled and rated",
    )
    # The match's record follows its last hand's settlement (its own task, queued by it).
    if Room.objects.filter(pk=hand.room_id, status=Room.Status.FINISHED).exists():
        wait_for(
            lambda: Match.objects.filter(room_id=hand.room_id).exists(),
            timeout,
            f"the match of room {hand.room_id} to be recorded",
        )
    return Settlement.objects.get(hand=hand)


def present_seats(room) -> set[int]:
    """The people's seats the room's payload shows connected (a fresh socket there)."""
    seats = selectors.room_payload(room.pk)["seats"]
    return {s["index"] for s in seats if s["connected"] and not s["is_bot"]}
