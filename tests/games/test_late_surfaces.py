"""A spectator of a room with a spectator delay learns nothing of a hand before the delay
has passed, by any door: the public and club boards, the managers' member totals, the
room's REST and the lobby (its status, its match), the hand's record, replay and review,
and the dissolve vote.  Each surface is read while the hand is in play, just after it
ended, and once it ended the delay ago: the first two alike, the third moved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from clubs import services as club_services
from games.models import DissolveVote, Hand, Room, Settlement
from games.table import services, votes
from leaderboards.rating import RATED_MIN_HANDS
from leaderboards.selectors import leaderboard_summaries
from records.models import Match
from tests.games.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)
DELAY = 30


def client_of(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def ago(hand, seconds: float) -> None:
    """The hand (and its room's match, if it ended with it) ended ``seconds`` ago."""
    then = timezone.now() - timedelta(seconds=seconds)
    Hand.objects.filter(pk=hand.pk).update(started_at=then - timedelta(seconds=20), ended_at=then)
    Settlement.objects.filter(hand=hand).update(created_at=then)
    Match.objects.filter(room_id=hand.room_id).update(ended_at=then)


@pytest.fixture
def club_table(make_user):
    """Four members play a rated club match at a table spectators see ``DELAY`` s late;
    the club's manager (who sees the members' totals) watches.  Its first hand is on."""
    people = [make_user(n) for n in ("owner", "ann", "bob", "cy")]
    manager, outsider = make_user("manager"), make_user("outsider")
    club = club_services.club_create(owner=people[0], name="Late House").club
    for u in (*people[1:], manager):
        club_services.club_join(user=u, invite_code=club.invite_code)
    club_services.member_set_role(
        club_id=club.pk, actor=people[0], user_id=manager.pk, role="manager"
    )
    preset = club_services.preset_create(
        club_id=club.pk,
        actor=people[0],
        variant="sichuan",
        name="Late",
        rules={},
        locked=[],
        spectator_delay=DELAY,
    ).preset
    room = services.room_create(
        owner=people[0], variant="", preset=preset.pk, hands=RATED_MIN_HANDS
    )
    for u in people[1:]:
        services.room_join(room_id=room.pk, user=u)
    for u in people:
        services.room_ready(room_id=room.pk, user=u)
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    return club, room, hand, people, manager, outsider


def seen_by(club, room, hand, manager, outsider) -> dict:
    """Every surface as the watching manager (or, for the public board, an outsider)."""
    m, o = client_of(manager), client_of(outsider)
    detail = m.get(f"/api/rooms/{room.pk}/").json()
    members = m.get(f"/api/clubs/{club.pk}/").json()["members"]
    record = m.get(f"/api/hands/{hand.pk}/")
    return {
        "public board": o.get("/api/leaderboards/sichuan/").json()["players"],
        "players rated": next(
            b.players for b in leaderboard_summaries() if b.variant.key == "sichuan"
        ),
        "club board": m.get(f"/api/clubs/{club.pk}/leaderboard/?variant=sichuan").json()["players"],
        "member totals": sorted(
            (r["user_id"], r["hands"], r["total"]) for r in members if "hands" in r
        ),
        "room": {k: detail[k] for k in ("status", "hands_played", "match_id", "vote")},
        "scores": [s["score"] for s in detail["seats"]],
        "record": (record.status_code, record.json()),
        "frames": m.get(f"/api/hands/{hand.pk}/frames/").status_code,
        "review": m.get(f"/api/hands/{hand.pk}/reviews/0/").json().get("code"),
        "page": m.get(f"/hands/{hand.pk}/").status_code,
    }


def test_a_hand_shows_nowhere_before_the_delay_and_everywhere_after(club_table):
    club, room, hand, people, manager, outsider = club_table
    in_play = seen_by(club, room, hand, manager, outsider)

    play_out(room)
    ago(hand, 0)
    just_ended = seen_by(club, room, hand, manager, outsider)
    ago(hand, DELAY + 1)
    public = seen_by(club, room, hand, manager, outsider)

    # Within the delay, the ended hand reads exactly as the hand in play did.
    assert just_ended == in_play
    assert in_play["record"][0] == 403 and in_play["record"][1]["code"] == "replay_delayed"
    assert in_play["public board"] == [] and in_play["club board"] == []
    assert in_play["players rated"] == 0 and public["players rated"] == 4
    assert in_play["room"]["hands_played"] == 0
    # Past it, every surface moved.
    assert public["record"][0] == 200 and public["frames"] == 200 and public["page"] == 200
    assert public["review"] == "no_review"
    assert public["room"]["hands_played"] == 1
    assert public["scores"] == Settlement.objects.get(hand=hand).deltas
    assert {r["user_id"] for r in public["public board"]} == {u.pk for u in people}
    assert all(r["hands"] == 1 for r in public["club board"])
    winners = Hand.objects.get(pk=hand.pk).result["winners"]
    assert sum(r["wins"] for r in public["public board"]) == len(winners)
    hands = {user_id: n for user_id, n, _ in public["member totals"]}
    assert hands == {**{u.pk: 1 for u in people}, manager.pk: 0}
    # A player sees their own table live all along.
    mine = client_of(people[1]).get(f"/api/hands/{hand.pk}/")
    assert mine.status_code == 200


def test_a_match_that_ended_stays_in_the_lobby_and_unrecorded_until_the_delay(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=3, hands=1, spectator_delay=DELAY
    )
    services.room_ready(room_id=room.pk, user=ann)
    playing = client_of(bob).get(f"/api/rooms/{room.pk}/").json()
    hand = play_out(room)
    ago(hand, 0)
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED
    assert Match.objects.filter(room=room).exists()

    late = client_of(bob).get(f"/api/rooms/{room.pk}/").json()
    lobby = {r["id"]: r for r in client_of(bob).get("/api/rooms/").json()}

    # As it stood in play: no match, still playing, still listed.
    assert late["status"] == playing["status"] == "playing"
    assert late["match_id"] is None and late["hands_played"] == 0
    assert lobby[room.pk]["status"] == "playing" and lobby[room.pk]["match_id"] is None
    # Its player sees it over.
    assert client_of(ann).get(f"/api/rooms/{room.pk}/").json()["status"] == "finished"

    ago(hand, DELAY + 1)
    over = client_of(bob).get(f"/api/rooms/{room.pk}/").json()
    assert over["status"] == "finished" and over["match_id"] is not None
    assert room.pk not in {r["id"] for r in client_of(bob).get("/api/rooms/").json()}


def test_a_dissolve_vote_reaches_a_spectator_the_delay_later(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=2, hands=4, spectator_delay=DELAY
    )
    services.room_join(room_id=room.pk, user=bob)
    for u in (ann, bob):
        services.room_ready(room_id=room.pk, user=u)
    vote = votes.vote_propose(room_id=room.pk, user=ann)
    votes.vote_answer(room_id=room.pk, user=bob, agree=False)  # refused: decided at once

    def seen(user):
        c = client_of(user)
        return (
            c.get(f"/api/rooms/{room.pk}/dissolve/").json()["vote"],
            c.get(f"/api/rooms/{room.pk}/").json()["vote"],
        )

    assert seen(cy) == (None, None)
    assert seen(bob)[0]["status"] == "refused"  # a player: live
    # Proposed the delay ago, decided just now: open, nobody's answer known yet.
    DissolveVote.objects.filter(pk=vote.pk).update(
        created_at=timezone.now() - timedelta(seconds=DELAY + 1)
    )
    for shown in seen(cy):
        assert shown["status"] == "open" and shown["decided_at"] is None
        assert all(v["answer"] is None for v in shown["voters"])
    DissolveVote.objects.filter(pk=vote.pk).update(
        decided_at=timezone.now() - timedelta(seconds=DELAY + 1)
    )
    assert [v["status"] for v in seen(cy)] == ["refused", "refused"]
