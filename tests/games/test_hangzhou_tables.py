"""Hangzhou at a live table: the match carries the dealer's streak from hand to hand,
settlement runs in the task, ratings are per variant."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Hand, Room
from games.rules import HandState, settle
from games.table import services
from leaderboards.models import Rating, RatingChange
from tests.games.conftest import play_out, wait_settled

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hangzhou_game_keeps_its_match_settles_and_rates(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="hangzhou", bots=3, hands=3)
    services.room_ready(room_id=room.pk, user=ann)
    hands = []
    for n in range(1, 4):
        hand = play_out(room)
        assert hand.number == n
        hands.append(hand)
        room.refresh_from_db()
        assert room.match == hand.result["match"]  # stored: a restart resumes the match
        if n < 3:
            services.room_ready(room_id=room.pk, user=ann)
    assert Room.objects.get(pk=room.pk).status == "finished"
    for prev, nxt in zip(hands, hands[1:], strict=False):
        # Each hand was dealt under the match the previous one ended with: a dealer who
        # won or drew stays with a longer streak, otherwise the winner deals at streak 1.
        assert nxt.match == prev.result["match"]
        winners = prev.result["winners"]
        if not winners or prev.dealer in winners:
            assert nxt.match["dealer"] == prev.dealer
            assert nxt.match["streak"] == prev.match["streak"] + 1
        else:
            assert nxt.match["dealer"] == winners[0] and nxt.match["streak"] == 1
    for hand in hands:
        s = wait_settled(hand)
        assert s.deltas == settle(HandState.from_json(hand.state))["deltas"]
        assert sum(s.deltas) + s.details["pot"] == 0
        assert RatingChange.objects.filter(hand=hand, rated=False).count() == 4
    # Recorded with the settlement's scores, but a game with bots moves no public rating.
    assert Rating.objects.filter(user=ann, variant="hangzhou", hands=0).exists()
    assert not Rating.objects.filter(user=ann, variant="sichuan").exists()
    call_command("hand_verify", *[h.pk for h in hands])


def test_the_hangzhou_view_shows_the_indicator_and_wilds_to_everyone(make_user):
    from games.table.selectors import table_snapshot

    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="hangzhou", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    state = HandState.from_json(hand.state)
    for seat in (0, None):  # a player and a spectator
        d = next(m for m in table_snapshot(room.pk, seat) if m["t"] == "state")["d"]
        assert d["indicator"] is not None and d["wild_kinds"]
        assert d["match"]["streak"] == state.match.streak
        assert "wall" not in d and "server_seed" not in d
        assert d["commitment"] == hand.commitment == state.seeds.commitment
