"""Spectating: what a spectator socket receives, live and late, and who counts as
watching.

A spectator must never get a concealed tile, a drawn tile or a claim option, nor the wall
or the server seed before the hand is over: every frame a spectator socket receives
through whole hands played with bots is scanned, for every variant.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Hand, HandAction, Room, Settlement
from games.rules import DealSeeds, available, replay, view
from games.table import presence, selectors, services
from tests.games.conftest import play_out, sweep
from tests.games.test_consumers import connect, cookie_for, drain, play_hand, receive_until
from tests.live import choose

pytestmark = pytest.mark.django_db(transaction=True)

SECRET_KEYS = {"server_seed", "wall", "dead", "drawn", "my_pick", "win_refused", "code"}


def _keys(obj) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(obj, dict):
        out = set(obj)
        for v in obj.values():
            out |= _keys(v)
        return out
    if isinstance(obj, list):
        out = set()
        for v in obj:
            out |= _keys(v)
        return out
    return set()


def assert_spectator_frame(msg) -> None:
    """Nothing a spectator may not see: checked on every frame but a hand's result."""
    if msg["t"] == "hand_end":
        return  # the hand is over: every hand face up, the seed revealed
    d = msg["d"]
    if msg["t"] == "room":
        assert "code" not in d and "my_seat" not in d and "next_server_seed" not in d
        return
    if msg["t"] != "state":
        return
    assert d["seat"] is None
    assert d["legal"] == [], "a spectator was offered an action"
    assert d["hints"] is None and d["deadline"] is None
    if d["phase"] != "ended":
        leaked = _keys({k: v for k, v in d.items() if k != "events"}) & SECRET_KEYS
        assert not leaked, f"a spectator's state carries {leaked}"
        for p in d["players"]:
            if p["won"] is None:
                assert "hand" not in p, f"a spectator saw seat {p['seat']}'s concealed tiles"
            assert all(m["tiles"] is None for m in p["melds"] if m["concealed"])
            assert p.get("que") is None or all(q.get("que_chosen") for q in d["players"])
    for e in d["events"]:
        assert "private" not in e and "only" not in e
        assert isinstance(e.get("wall", 0), int)  # how many tiles are left, not which
        assert e["type"] not in ("ClaimAnswered", "WinRefused")  # one seat's own business
        if e["type"] == "TileDrawn":
            assert "tile" not in e
        if e["type"] in ("TilesChosen", "SuitChosen", "TilesExchanged"):
            assert not ({"tiles", "suit", "received"} & set(e))


def _whole_hand_watched(make_user, variant: str):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant=variant, bots=3, hands=1)
    ann_cookie, bob_cookie = cookie_for(ann), cookie_for(bob)
    seen: list[dict] = []

    async def run():
        player = connect(room, ann_cookie)
        await player.connect()
        watcher = connect(room, bob_cookie)
        assert (await watcher.connect())[0]
        await player.send_json_to({"t": "ready"})
        task = asyncio.ensure_future(play_hand(player, 0, []))
        await receive_until(watcher, "hand_end", seen=seen, timeout=120)
        await task
        # A resync mid-way and a late joiner get the same kind of view.
        await watcher.send_json_to({"t": "sync"})
        await receive_until(watcher, "state", seen=seen)
        seen.extend(await drain(watcher))
        await player.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
    return room, seen


@pytest.mark.parametrize("variant", [v.key for v in available()])
def test_every_frame_a_spectator_gets_through_a_whole_hand_hides_what_it_must(make_user, variant):
    room, seen = _whole_hand_watched(make_user, variant)
    hand = Hand.objects.get(room=room, number=1)
    states = [m for m in seen if m["t"] == "state"]
    # The whole hand, every version from the deal to the end (a quick hand can be short,
    # so count versions, not frames).
    versions = {m["v"] for m in states}
    assert states[-1]["d"]["phase"] == "ended" and states[-1]["v"] == hand.version
    assert versions >= set(range(min(versions), hand.version + 1)) and min(versions) <= 1
    for msg in seen:
        assert_spectator_frame(msg)
    # The server seed appears nowhere before the result is announced; the next hand's
    # seed appears nowhere at all.
    end_at = next(
        i
        for i, m in enumerate(seen)
        if m["t"] == "hand_end" or (m["t"] == "state" and m["d"]["phase"] == "ended")
    )
    before = json.dumps(seen[:end_at])
    assert hand.server_seed not in before
    room.refresh_from_db()
    assert room.next_server_seed not in json.dumps(seen)
    # Draws happened, and the spectator heard of them without the tile.
    drawn = [e for m in states for e in m["d"]["events"] if e["type"] == "TileDrawn"]
    assert drawn and all("tile" not in e for e in drawn)


def test_rest_room_endpoints_show_a_spectator_no_code_and_no_seat(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    client.force_login(bob)
    one = client.get(f"/api/rooms/{room.pk}/").json()
    listed = next(r for r in client.get("/api/rooms/").json() if r["id"] == room.pk)
    for payload in (one, listed):
        assert "code" not in payload and "my_seat" not in payload
        assert room.next_server_seed not in json.dumps(payload)
    # 托管 is for the seated only: a spectator gets a refusal, not a view.
    r = client.post(f"/api/rooms/{room.pk}/auto/", {"auto": True}, content_type="application/json")
    assert r.status_code in (403, 409) and r.json()["code"] == "not_seated"
    # The table page boots a spectator with no seat.
    page = client.get(f"/rooms/{room.pk}/")
    assert page.status_code == 200 and b'"seat": null' in page.content


# --------------------------------------------------------------------------
# The spectator delay


def test_the_delay_is_set_at_creation_bounded_and_refused_clearly(make_user, client):
    ann = make_user("ann")
    client.force_login(ann)
    base = {"variant": "sichuan", "bots": 3}
    for bad in (-1, 301, "10", 1.5, True, [5]):
        r = client.post("/api/rooms/", {**base, "spectator_delay": bad}, "application/json")
        assert r.status_code == 400 and r.json()["code"] == "bad_delay", (bad, r.json())
    assert not Room.objects.exists()
    r = client.post("/api/rooms/", base, "application/json")
    assert r.status_code == 201 and r.json()["spectator_delay"] == 0  # casual rooms: live
    r = client.post("/api/rooms/", {**base, "spectator_delay": 300}, "application/json")
    assert r.status_code == 201 and r.json()["spectator_delay"] == 300
    assert Room.objects.get(pk=r.json()["id"]).spectator_delay == 300


def _played_some(room, user, actions: int = 12):
    """Start the room's hand and let bots and timers play ``actions`` moves or more."""
    services.room_ready(room_id=room.pk, user=user)
    hand = Hand.objects.get(room=room)
    for i in range(1, 200):
        sweep(minutes=0.3 * i)
        hand.refresh_from_db()
        if hand.version >= actions or hand.status == Hand.Status.ENDED:
            return hand
    raise AssertionError("the hand did not move")


def test_a_delayed_join_snapshot_is_the_hand_as_it_was_then_rebuilt_from_the_log(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, spectator_delay=35)
    hand = _played_some(room, ann)
    # Pretend the hand started 100 s ago and each action came 10 s after the one before.
    now = timezone.now()
    start = now - timedelta(seconds=100)
    Hand.objects.filter(pk=hand.pk).update(started_at=start)
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    for i, row in enumerate(rows):
        HandAction.objects.filter(pk=row.pk).update(created_at=start + timedelta(seconds=10 * i))
    shown, backlog = selectors.spectator_snapshot(room.pk, 35, now=now)

    cutoff = now - timedelta(seconds=35)
    known = [r for i, r in enumerate(rows) if start + timedelta(seconds=10 * i) <= cutoff]
    assert 0 < len(known) < len(rows)
    state = next(m for m in shown if m["t"] == "state")
    # The same as the pure engine's replay of that much of the log, seen from no seat.
    seeds = DealSeeds(hand.server_seed, tuple(hand.client_seeds), hand.number)

    def replayed(upto):
        log = [(r.seat, r.action) for r in rows[:upto]]
        return replay(hand.variant, hand.rules, seeds, None, log, hand.match)

    then = replayed(len(known))
    assert state["v"] == then.public_version  # the version the table showed 35 s ago
    assert state["d"]["players"] == view(then, None)["players"]
    assert state["d"]["server_time"] == cutoff.isoformat()
    assert_spectator_frame(state)
    # Everything since comes later, each frame that much later than it happened.
    # A pass in a claim window that stays open is its answerer's alone: no frame for it.
    public = []
    for i in range(len(known), len(rows)):
        before, after = replayed(i).public_version, replayed(i + 1).public_version
        if after != before:
            public.append((rows[i], after))
    later = [env for _, env in backlog]
    assert [env["v"] for env in later] == [v for _, v in public]
    for (at, env), (row, _) in zip(backlog, public, strict=True):
        assert at == start + timedelta(seconds=10 * row.seq - 10 + 35)
        assert_spectator_frame(env)
    # A live spectator of a room without a delay sees the table as it is.
    Room.objects.filter(pk=room.pk).update(spectator_delay=0)
    live = next(m for m in selectors.table_snapshot(room.pk, None) if m["t"] == "state")
    assert live["v"] == replayed(len(rows)).public_version


def test_a_delayed_spectator_learns_the_result_only_when_the_last_move_is_old_enough(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, spectator_delay=30)
    services.room_ready(room_id=room.pk, user=ann)
    hand = play_out(room)
    # The whole hand took place in the last 20 s.
    now = timezone.now()
    start = now - timedelta(seconds=20)
    Hand.objects.filter(pk=hand.pk).update(started_at=start)
    HandAction.objects.filter(hand=hand).update(created_at=now - timedelta(seconds=5))
    Settlement.objects.filter(hand=hand).update(created_at=now - timedelta(seconds=4))
    shown, backlog = selectors.spectator_snapshot(room.pk, 30, now=now)
    assert [m["t"] for m in shown] == ["room"]  # 30 s ago the hand had not started
    kinds = [env["t"] for _, env in backlog]
    assert kinds[0] == "state" and kinds[-2:] == ["hand_end", "settled"]
    assert backlog[0][0] == start + timedelta(seconds=30)
    end_at = dict((env["t"], at) for at, env in backlog)["hand_end"]
    assert end_at == now + timedelta(seconds=25)
    secret = json.dumps([env for _, env in backlog[:-2] if env["d"]["phase"] != "ended"])
    assert hand.server_seed not in secret
    # Once it is all older than the delay, the result and settlement come with the snapshot.
    shown, backlog = selectors.spectator_snapshot(room.pk, 30, now=now + timedelta(seconds=60))
    assert [m["t"] for m in shown] == ["room", "state", "hand_end", "settled"] and not backlog
    assert shown[1]["d"]["phase"] == "ended"


def test_a_spectator_sees_each_action_only_after_the_delay(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, spectator_delay=2)
    ann_cookie, bob_cookie = cookie_for(ann), cookie_for(bob)

    @database_sync_to_async
    def acted_at(version) -> float:
        """When the action that made ``version`` was recorded (wall clock)."""
        return HandAction.objects.get(hand__room=room, seq=version).created_at.timestamp()

    async def run():
        player = connect(room, ann_cookie)
        await player.connect()
        watcher = connect(room, bob_cookie)
        assert (await watcher.connect())[0]
        await drain(player)
        await drain(watcher)
        await player.send_json_to({"t": "ready"})
        await receive_until(player, "state", timeout=2)
        # The bots' 定缺 and the rest: several versions, at once for the player.
        await database_sync_to_async(sweep)()
        got = [m for m in await drain(player) if m["t"] == "state"]
        latest = got[-1]["v"] if got else 0
        assert latest > 0
        early = [m for m in await drain(watcher) if m["t"] == "state"]
        assert early == [], "the spectator saw the hand before the delay"
        seen = []
        while not any(m["t"] == "state" and m["v"] == latest for m in seen):
            seen.append(await watcher.receive_json_from(timeout=5))
        assert time.time() >= await acted_at(latest) + 1.9  # as old as the delay, at least
        states = [m for m in seen if m["t"] == "state"]
        assert [m["v"] for m in states] == sorted(m["v"] for m in states)
        for m in seen:
            assert_spectator_frame(m)

        # A second spectator who joins now gets the hand as it was 2 s ago (not begun,
        # or fewer moves), then catches up once the moves are old enough.
        mine = [m for m in got + await drain(player) if m["t"] == "state"][-1]
        assert mine["d"]["legal"]  # the bots wait for the player's own 定缺
        action = choose(mine["d"]["legal"])
        await player.send_json_to({"t": "act", "v": mine["v"], "action": action})
        await receive_until(player, "state", timeout=2)
        await database_sync_to_async(sweep)()  # and the bots move on
        carol = await database_sync_to_async(make_user)("carol")
        late = connect(room, await database_sync_to_async(cookie_for)(carol))
        assert (await late.connect())[0]
        now_v = (await database_sync_to_async(Hand.objects.get)(room=room)).version
        first = [m for m in await drain(late) if m["t"] == "state"]
        assert all(m["v"] < now_v for m in first), "the join snapshot did not lag"
        seen = []
        while not any(m["t"] == "state" and m["v"] == now_v for m in seen):
            seen.append(await late.receive_json_from(timeout=6))
        assert time.time() >= await acted_at(now_v) + 1.9
        for m in seen:
            assert_spectator_frame(m)
        for sock in (player, watcher, late):
            await sock.disconnect()

    async_to_sync(run)()


# --------------------------------------------------------------------------
# Watchers


def test_players_and_spectators_see_how_many_watch(make_user, client):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    cookies = [cookie_for(u) for u in (ann, bob, cat)]

    async def watchers_now(sock, expected):
        """The count the socket's room messages arrive at: the newest one after a
        drain, or (when that is not yet ``expected``: a slow machine's room message may
        still be on its way) the first later one that shows it, within 10 s."""
        rooms = [m for m in await drain(sock) if m["t"] == "room"]
        count = rooms[-1]["d"]["watchers"] if rooms else None
        deadline = asyncio.get_running_loop().time() + 10
        while count != expected and asyncio.get_running_loop().time() < deadline:
            msg = await receive_until(sock, "room", timeout=10)
            count = msg["d"]["watchers"]
        return count

    async def run():
        player = connect(room, cookies[0])
        await player.connect()
        assert await watchers_now(player, 0) == 0  # the player is not a watcher
        bob_sock = connect(room, cookies[1])
        await bob_sock.connect()
        assert await watchers_now(player, 1) == 1
        assert await watchers_now(bob_sock, 1) == 1
        cat_sock, cat_tab = connect(room, cookies[2]), connect(room, cookies[2])
        await cat_sock.connect()
        await cat_tab.connect()  # two tabs: still one person watching
        assert await watchers_now(player, 2) == 2
        await bob_sock.disconnect()
        assert await watchers_now(player, 1) == 1
        await cat_sock.disconnect()
        await cat_tab.disconnect()
        assert await watchers_now(player, 0) == 0
        await player.disconnect()

    async_to_sync(run)()
    client.force_login(bob)
    assert client.get(f"/api/rooms/{room.pk}/").json()["watchers"] == 0


def test_a_dead_servers_spectators_stop_counting(make_user, settings):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    presence.watch_presence(room_id=room.pk, user=bob, channel="gone.1", present=True)
    assert selectors.room_payload(room.pk)["watchers"] == 1
    later = timezone.now() + timedelta(seconds=settings.GAME_PRESENCE_TTL + 1)
    assert selectors.fresh_users(room.pk, later) == set()  # no longer counted
    presence.presence_expire(later)
    assert selectors.room_payload(room.pk)["watchers"] == 0


def test_every_action_of_a_public_room_carries_the_spectators_view(make_user):
    """An action's frames carry the spectators' view at a public table, watched or not
    (with no concealed tile); a private table has no spectators and no such view."""
    from games.table import publish
    from tests.games.conftest import four_seated

    users = [make_user(f"w{i}") for i in range(4)]
    room, hand = four_seated(users)

    def one_action() -> list:
        """Any seat's next legal action; the frames its commit published."""
        recorded: list = []
        real, publish._send = publish._send, recorded.append
        try:
            for seat in range(4):
                env = next(e for e in selectors.table_snapshot(room.pk, seat) if e["t"] == "state")
                if env["d"]["legal"]:
                    action = choose(env["d"]["legal"])
                    services.hand_act(
                        room_id=room.pk, user=users[seat], version=env["v"], action=action
                    )
                    break
        finally:
            publish._send = real
        return [f for batch in recorded for _, message in batch for f in message.get("frames", ())]

    def audiences(frames) -> set:
        return {audience for _, audience, _ in frames}

    frames = one_action()
    assert audiences(frames) == {u.pk for u in users} | {publish.WATCH}
    watch = [json.loads(text) for _, audience, text in frames if audience == publish.WATCH]
    assert watch and all(w["d"]["seat"] is None for w in watch)
    assert not _keys(watch) & SECRET_KEYS
    Room.objects.filter(pk=room.pk).update(private=True)
    assert audiences(one_action()) == {u.pk for u in users}
