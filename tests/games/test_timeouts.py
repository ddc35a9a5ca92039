"""A clock running out decides for a human only what the player would least regret: a
claim window is a pass, a turn discards the drawn tile (or the tile the variant forces);
never a claim or a win.  Only a bot, or 托管 (which the player chose), claims and wins."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand, HandAction, Seat
from games.rules import HandState, legal_actions
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.table import selectors, services, timers
from tests.games.conftest import four_seated
from tests.rules.rig import rig

pytestmark = pytest.mark.django_db

# Seat 0 (dealer, 定缺 条) must throw its 1s first; seat 1 holds 11s and may 碰 it, and
# the bot policy would; seat 1's 定缺 is 万, which it has none of: its turn is free.
HANDS = ["123456789m5567p1s", "113579s2468s9s88p", "1112223334446m", "1112223334449p"]
QUE = "smps"
FRONT = "678s5p"


def _table(make_user, *, private_claims: bool = False):
    users = [make_user(f"t{i}") for i in range(4)]
    room, hand = four_seated(users)
    state = rig(HANDS, que=QUE, front=FRONT)
    if private_claims:  # the server closes each claim window, logged under the discarder
        state.match = replace(state.match, private_claims=True)
    hand.state, hand.version = state.to_json(), state.version
    hand.save(update_fields=["state", "version"])
    return room, users


def _state(room) -> HandState:
    return HandState.from_json(Hand.objects.get(room=room, status="playing").state)


def _fire(room, minutes: float) -> HandAction:
    """Let every clock run out ``minutes`` from now; the first action that took (a bot
    with no delay may act again in the same sweep)."""
    hand = Hand.objects.get(room=room, status="playing")
    before = hand.version
    when = timezone.now() + timedelta(minutes=minutes)
    assert timers.hand_fire_deadline(room.pk, hand.pk, when) >= 1
    return HandAction.objects.get(hand=hand, seq=before + 1)


def test_a_human_whose_clock_runs_out_never_claims_and_throws_the_forced_tile(make_user):
    room, users = _table(make_user)
    # Seat 0's turn: 定缺 条 forces the 1s out, whatever it drew.
    state = _state(room)
    assert {a["tile"] for a in legal_actions(state, 0) if a["type"] == "discard"} == {"1s"}
    taken = _fire(room, 1)
    assert (taken.seat, taken.action, taken.source) == (
        0,
        {"type": "discard", "tile": "1s"},
        "timeout",
    )

    # Seat 1 may 碰 the 1s and the bot policy would: a human's timeout passes.
    state = _state(room)
    assert {"type": "peng"} in legal_actions(state, 1)
    assert choose_action(state, 1)["type"] != "pass"
    taken = _fire(room, 2)
    assert (taken.seat, taken.action, taken.source) == (1, {"type": "pass"}, "timeout")

    # Seat 1's turn, no 万 to throw first: the tile it drew goes.
    state = _state(room)
    drawn = T.to_str(state.drawn)
    taken = _fire(room, 3)
    assert (taken.seat, taken.action) == (1, {"type": "discard", "tile": drawn})


def test_a_seat_on_tuoguan_claims_as_the_bot_would(make_user):
    room, users = _table(make_user)
    services.hand_act(
        room_id=room.pk,
        user=users[0],
        version=_state(room).version,
        action={"type": "discard", "tile": "1s"},
    )
    Seat.objects.filter(room=room, index=1).update(auto=True)  # 托管, as the player chose
    state = _state(room)
    wanted = choose_action(state, 1)
    assert wanted["type"] != "pass"
    taken = _fire(room, 1)
    assert (taken.seat, taken.action, taken.source) == (1, wanted, "bot")


def test_a_process_fires_its_own_rooms_deadlines_first(make_user):
    """A sweeper fires the deadlines of the rooms it has sockets in as they fall due, and
    another room's only once that is ``OTHERS_GRACE`` overdue (its own process died, or
    nobody is connected to it)."""
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, private=True)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    due = hand.deadline_at
    assert due is not None  # the bots' choices before play
    assert timers.deadlines_fire_due(due, mine={room.pk + 1}) == 0
    assert not HandAction.objects.filter(hand=hand).exists()
    late = due + timedelta(seconds=timers.OTHERS_GRACE)
    assert timers.deadlines_fire_due(late, mine={room.pk + 1}) > 0
    hand.refresh_from_db()
    assert HandAction.objects.filter(hand=hand, source="bot").exists()
    if hand.deadline_at is not None:  # its own process does not wait
        assert timers.deadlines_fire_due(hand.deadline_at, mine={room.pk}) > 0


def _told(room, seat) -> list[dict]:
    """The moves a (re)connecting socket at ``seat`` is told the clock made for it."""
    envelopes = selectors.table_snapshot(room.pk, seat)
    state = next(e for e in envelopes if e["t"] == "state")["d"]
    return [e for e in state["events"] if e["type"] == "PlayedFor"]


def test_a_player_coming_back_is_told_what_the_clock_played_until_they_move(make_user):
    room, users = _table(make_user, private_claims=True)
    assert _told(room, 0) == []
    first = _fire(room, 1)  # seat 0's discard of 1s
    second = _fire(room, 2)  # seat 1's pass on it, and the server's close of the window
    assert HandAction.objects.filter(hand__room=room, seat=0, source="server").exists()
    assert _told(room, 0) == [
        {"type": "PlayedFor", "seat": 0, "seq": first.seq, "action": first.action}
    ]
    assert _told(room, 1) == [
        {"type": "PlayedFor", "seat": 1, "seq": second.seq, "action": {"type": "pass"}}
    ]
    assert _told(room, 2) == []
    spectator = next(e for e in selectors.table_snapshot(room.pk, None) if e["t"] == "state")
    assert all(e["type"] != "PlayedFor" for e in spectator["d"]["events"])

    # Seat 1's clock runs out on its turn too: both its moves are news to it.
    _fire(room, 3)
    third = HandAction.objects.filter(hand__room=room, seat=1, source="timeout").latest("seq")
    assert third.action["type"] == "discard" and third.seq > second.seq
    assert [e["seq"] for e in _told(room, 1)] == [second.seq, third.seq]

    # A move of the player's own: what the clock did before is no longer news.
    state, minutes = _state(room), 3
    while state.turn != 0 or not any(a["type"] == "discard" for a in legal_actions(state, 0)):
        minutes += 1
        _fire(room, minutes)
        state = _state(room)
    assert _told(room, 0)[0]["seq"] == first.seq
    mine = next(a for a in legal_actions(state, 0) if a["type"] == "discard")
    services.hand_act(room_id=room.pk, user=users[0], version=state.public_version, action=mine)
    assert _told(room, 0) == []
