"""Claim windows are private: a spectator and a seat without an option receive the same
frames whether somebody could claim a discard (and passed) or nobody could.

Two tables are dealt the same wall (the same server seed, so the same commitment and
client seeds); then, in one, the seat across from the dealer is given a pair of the tile
the dealer will throw (swapped with two wall tiles nobody sees), and in the other nobody
holds it.  The dealer is on 托管, so the sweeper throws it at a moment the test chooses;
the sockets of the spectator and of the seat after the dealer record every frame from
the discard to that seat's turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Hand, HandAction, Room, Seat
from games.rules import HandState, apply
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.table import services, timers
from tests.games.test_consumers import connect, cookie_for, drain

pytestmark = pytest.mark.django_db(transaction=True)

SEED = "5e" * 32
RULES = {"ding_que": False, "huan_san_zhang": False}  # Sichuan without setup: no chows


def _table(make_user, tag: str):
    users = [make_user(f"{tag}{i}") for i in range(4)]
    room = services.room_create(owner=users[0], variant="sichuan", rules=RULES, hands=1)
    for u in users[1:]:
        services.room_join(room_id=room.pk, user=u)
    Room.objects.filter(pk=room.pk).update(next_server_seed=SEED)
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    return room, users, Hand.objects.get(room=room, status=Hand.Status.PLAYING)


def _rig(hand, *, pung: bool, at) -> tuple[int, int, str]:
    """Lay the tiles out (see the module docstring) and put the dealer on 托管 with its
    clock running out ``at``; returns (dealer, the seat across, the tile it throws)."""
    state = HandState.from_json(hand.state)
    dealer = state.dealer
    across = (dealer + 2) % 4
    thrown = choose_action(state, dealer, "strong")
    assert thrown["type"] == "discard"
    t = T.parse_one(thrown["tile"])
    assert state.hands[dealer].count(t) <= 2
    middle = list(range(10, len(state.wall) - 10))  # neither the next draw nor the back
    spare = [i for i in middle if state.wall[i] != t]
    for k in range(4):
        if k == dealer:
            continue
        hand_k = state.hands[k]
        for n, held in enumerate(hand_k):
            if held == t:
                i = spare.pop()
                hand_k[n], state.wall[i] = state.wall[i], hand_k[n]
    if pung:
        have = [i for i in middle if state.wall[i] == t][:2]
        assert len(have) == 2
        mine = state.hands[across]
        for n, i in enumerate(have):
            mine[n], state.wall[i] = state.wall[i], mine[n]
    for h in state.hands:
        h.sort()
    after = apply(state, dealer, thrown)[0]
    options = after.claim["options"]
    assert options == ({across: [{"type": "peng"}, {"type": "pass"}]} if pung else {})
    assert choose_action(state, dealer, "strong") == thrown
    deadlines = {**hand.deadlines, "seats": {str(dealer): at.isoformat()}}
    Hand.objects.filter(pk=hand.pk).update(
        state=state.to_json(), deadlines=deadlines, deadline_at=at
    )
    Seat.objects.filter(room=hand.room, index=dealer).update(auto=True)
    return dealer, across, thrown["tile"]


async def _states(comm, n: int) -> list[dict]:
    """The next ``n`` state frames (and whatever else comes with them)."""
    out = []
    while sum(1 for m in out if m["t"] == "state") < n:
        out.append(await comm.receive_json_from(timeout=10))
    return out + await drain(comm)


def _played(make_user, tag: str, fan_name: str, *, pung: bool, at):
    """Every frame the spectator and the seat after the dealer receive from the dealer's
    discard to that seat's turn, with the server's wall clock taken out."""
    room, users, hand = _table(make_user, tag)
    dealer, across, tile = _rig(hand, pung=pung, at=at)
    nxt = (dealer + 1) % 4
    cookies = [cookie_for(u) for u in (make_user(fan_name), users[nxt], users[across])]
    window = timedelta(seconds=1)

    async def run():
        socks = [connect(room, c) for c in cookies]
        for s in socks:
            assert (await s.connect())[0]
        for s in socks:  # each socket's snapshot, then whatever the joins sent with it
            await _states(s, 1)
        fire = database_sync_to_async(timers.deadlines_fire_due)
        assert await fire(at) == 1  # the dealer's discard opens the window
        if pung:
            first = [m for m in await _states(socks[2], 1) if m["t"] == "state"][-1]
            assert {"type": "peng"} in first["d"]["legal"]
            act = database_sync_to_async(services.hand_act)
            v = await act(
                room_id=room.pk, user=users[across], version=first["v"], action={"type": "pass"}
            )
            answered = await _states(socks[2], 1)
            mine = [m for m in answered if m["t"] == "state"][-1]
            # Only its answerer hears of the pass, on the version everyone is at.
            assert mine["v"] == v == first["v"] and mine["d"]["legal"] == []
            assert [e["type"] for e in mine["d"]["events"]] == ["ClaimAnswered"]
            assert await fire(at + window / 2) == 0  # still within the window
        assert await fire(at + window) == 1  # closed: the next seat draws
        seen = [await _states(s, 2) for s in socks[:2]]
        for s in socks:
            await s.disconnect()
        return seen

    seen = async_to_sync(run)()
    log = list(HandAction.objects.filter(hand=hand).values_list("source", "action"))
    assert log[0] == ("bot", {"type": "discard", "tile": tile})
    assert log[-1] == ("server", {"type": "close"})
    assert len(log) == (3 if pung else 2)
    # Room frames carry presence (who is connected, how many watch): the sockets' own
    # joins send them, and one may come late, after the snapshots were read. They hold
    # nothing of the hand, so the frames compared are the hand's.
    seen = [[m for m in frames if m["t"] != "room"] for frames in seen]
    for frames in seen:
        for m in frames:
            m["d"].pop("server_time", None)
    return seen


def test_spectators_and_seats_without_options_see_the_same_frames_either_way(make_user, settings):
    settings.GAME_CLAIM_WINDOW = 1.0
    # The same moment for both discards, far enough ahead that the window is still open
    # when the pass is sent however slow the machine (a pass after the window's time
    # would close it at once).
    at = timezone.now() + timedelta(minutes=5)
    pung = _played(make_user, "p", "pfan", pung=True, at=at)
    nobody = _played(make_user, "n", "nfan", pung=False, at=at)
    for frames_pung, frames_nobody in zip(pung, nobody, strict=True):
        assert [m["t"] for m in frames_pung] == ["state", "state"]
        assert frames_pung == frames_nobody
    discard, close = pung[0]
    # The window is public, the same length for every discard, with nothing to answer.
    assert discard["d"]["phase"] == "claim" and discard["d"]["legal"] == []
    assert discard["d"]["turn_deadline"] == (at + timedelta(seconds=1)).isoformat()
    assert close["v"] == discard["v"] + 1 and close["d"]["phase"] == "play"


def test_the_last_answer_closes_a_window_whose_time_is_over(make_user, settings):
    """An answer that leaves nobody to decide, after the window's time is over, closes
    it in its own transaction, as the next sweep would have: the log and the table are
    the same as if the sweeper had closed it."""
    settings.GAME_CLAIM_WINDOW = 1.0
    at = timezone.now() - timedelta(seconds=5)
    room, users, hand = _table(make_user, "c")
    dealer, across, tile = _rig(hand, pung=True, at=at)
    assert timers.deadlines_fire_due(at) == 1  # the discard opens the window, due at + 1 s
    hand.refresh_from_db()
    assert HandState.from_json(hand.state).phase == "claim"
    services.hand_act(
        room_id=room.pk, user=users[across], version=hand.version, action={"type": "pass"}
    )
    log = list(HandAction.objects.filter(hand=hand).values_list("source", "action"))
    assert log == [
        ("bot", {"type": "discard", "tile": tile}),
        ("player", {"type": "pass"}),
        ("server", {"type": "close"}),
    ]
    hand.refresh_from_db()
    state = HandState.from_json(hand.state)
    assert state.phase == "play" and state.turn == (dealer + 1) % 4
    assert timers.deadlines_fire_due(timezone.now()) == 0  # nothing left for the sweeper
    # The next decision has its clock, and the sweeper meets it.
    nxt = str(state.turn)
    assert list(hand.deadlines["seats"]) == [nxt] and "close" not in hand.deadlines
    assert hand.deadline_at.isoformat() == hand.deadlines["seats"][nxt]
    assert timers.deadlines_fire_due(hand.deadline_at) == 1
    assert HandAction.objects.filter(hand=hand).last().source == "timeout"


def test_an_answer_that_closes_its_window_comes_back_as_one_frame_a_version(make_user, settings):
    """The answerer of a window that closes in its answer's transaction hears of both in
    one state frame, one version on from the window's, with its own answer's event: a
    frame of its own on the window's version as well would show that version twice."""
    settings.GAME_CLAIM_WINDOW = 1.0
    at = timezone.now() - timedelta(seconds=5)
    room, users, hand = _table(make_user, "f")
    dealer, across, tile = _rig(hand, pung=True, at=at)
    cookie = cookie_for(users[across])

    async def run():
        sock = connect(room, cookie)
        assert (await sock.connect())[0]
        await _states(sock, 1)
        assert await database_sync_to_async(timers.deadlines_fire_due)(at) == 1
        window = [m for m in await _states(sock, 1) if m["t"] == "state"][-1]
        assert window["d"]["phase"] == "claim" and {"type": "peng"} in window["d"]["legal"]
        act = database_sync_to_async(services.hand_act)
        v = await act(
            room_id=room.pk, user=users[across], version=window["v"], action={"type": "pass"}
        )
        frames = [m for m in await _states(sock, 1) if m["t"] == "state"]
        await sock.disconnect()
        return window["v"], v, frames

    opened, v, frames = async_to_sync(run)()
    assert v == opened + 1
    assert [m["v"] for m in frames] == [v]
    (closed,) = frames
    assert closed["d"]["phase"] == "play"
    mine = [e for e in closed["d"]["events"] if e["type"] == "ClaimAnswered"]
    assert mine == [{"type": "ClaimAnswered", "seat": across, "action": {"type": "pass"}}]
