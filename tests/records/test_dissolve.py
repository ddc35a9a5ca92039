"""Dissolve votes (解散房间) through the REST contract and the sweeper: proposals,
answers, the 60-second default, the 5-minute limit and every refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import DissolveVote, Room
from games.table import selectors, services, votes
from records.models import Match
from tests.games.conftest import play_out
from tests.records.test_service import wait_recorded

pytestmark = pytest.mark.django_db(transaction=True)


def url(room, tail=""):
    return f"/api/rooms/{room.pk}/dissolve/{tail}"


def test_all_agreeing_ends_the_match_after_the_hand_in_play(table, people, client_for):
    member, owner = client_for(people["member"]), client_for(people["owner"])
    r = member.post(url(table))
    assert r.status_code == 201, r.json()
    vote = r.json()
    assert vote["status"] == "open"
    assert vote["proposer_id"] == people["member"].pk
    answers = {v["user_id"]: (v["seat"], v["answer"]) for v in vote["voters"]}
    # The two humans vote (bots do not); the proposer has agreed.
    assert answers == {people["member"].pk: (0, "agree"), people["owner"].pk: (3, None)}
    assert owner.get(url(table)).json()["vote"]["id"] == vote["id"]
    r = owner.post(url(table, "answer/"), {"agree": True}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "passed"
    table.refresh_from_db()
    assert table.status == Room.Status.PLAYING  # the hand in play is finished first
    play_out(table)
    table.refresh_from_db()
    assert table.status == Room.Status.FINISHED and table.hands_played == 1
    match = wait_recorded(table)
    assert match.ended_by == "dissolved"
    payload = selectors.room_payload(table.pk)
    assert payload["match_id"] == match.pk
    assert payload["vote"]["status"] == "passed"
    got = member.get(f"/api/matches/{match.pk}/").json()
    assert got["ended_by"] == "dissolved" and len(got["hands"]) == 1


def test_between_hands_a_passed_vote_ends_the_match_at_once(table, people, client_for):
    play_out(table)
    table.refresh_from_db()
    assert table.status == Room.Status.PLAYING and table.next_hand_at is not None
    assert client_for(people["owner"]).post(url(table)).status_code == 201
    r = client_for(people["member"]).post(url(table, "answer/"), {"agree": True}, format="json")
    assert r.json()["status"] == "passed"
    table.refresh_from_db()
    assert table.status == Room.Status.FINISHED and table.next_hand_at is None
    match = wait_recorded(table)
    assert match.ended_by == "dissolved"
    assert [h["number"] for h in match.summary["hands"]] == [1]


def test_no_answer_within_60_seconds_counts_as_agreeing(table, people, client_for):
    vote_id = client_for(people["member"]).post(url(table)).json()["id"]
    now = timezone.now()
    assert votes.votes_fire_due(now + timedelta(seconds=55)) == 0
    assert DissolveVote.objects.get(pk=vote_id).status == "open"
    assert votes.votes_fire_due(now + timedelta(seconds=61)) == 1
    vote = DissolveVote.objects.get(pk=vote_id)
    assert vote.status == "passed" and vote.deadline_at is None
    assert vote.answers == {str(people["member"].pk): "agree"}  # the silent one is not made up
    assert votes.votes_fire_due(now + timedelta(seconds=120)) == 0  # fired once


def test_a_refusal_keeps_the_match_and_a_player_proposes_once_in_5_minutes(
    table, people, client_for
):
    member, owner = client_for(people["member"]), client_for(people["owner"])
    member.post(url(table))
    r = owner.post(url(table, "answer/"), {"agree": False}, format="json")
    assert r.json()["status"] == "refused"
    assert {v["answer"] for v in r.json()["voters"]} == {"agree", "refuse"}
    table.refresh_from_db()
    assert table.status == Room.Status.PLAYING
    r = member.post(url(table))
    assert r.status_code == 429 and r.json()["code"] == "vote_too_soon"
    assert owner.post(url(table)).status_code == 201  # another player may
    r = owner.post(url(table))
    assert r.status_code == 409 and r.json()["code"] == "vote_open"
    # Five minutes on, the member may propose again.
    later = timezone.now() + timedelta(minutes=5, seconds=1)
    DissolveVote.objects.filter(status="open").update(status="refused", deadline_at=None)
    vote = votes.vote_propose(room_id=table.pk, user=people["member"], now=later)
    assert vote.status == "open"


@pytest.mark.parametrize(
    ("who", "method", "tail", "body", "status", "code"),
    [
        ("outsider", "post", "", None, 404, "no_room"),  # not a member of the club
        ("outsider", "get", "", None, 404, "no_room"),
        ("outsider", "post", "answer/", {"agree": True}, 404, "no_room"),
        ("anonymous", "post", "", None, 403, "not_authenticated"),
        ("manager", "post", "", None, 403, "not_seated"),  # a member, not a player
        ("manager", "post", "answer/", {"agree": True}, 403, "not_voter"),
        ("member", "post", "answer/", {"agree": True}, 409, "answered"),
        ("owner", "post", "answer/", {"agree": "yes please"}, 400, "bad_request"),
        ("owner", "post", "answer/", {}, 400, "bad_request"),
    ],
)
def test_refusals_change_nothing(table, people, client_for, who, method, tail, body, status, code):
    client_for(people["member"]).post(url(table))
    before = list(DissolveVote.objects.values("status", "answers"))
    client = client_for(people[who])
    r = getattr(client, method)(url(table, tail), body, format="json")
    assert r.status_code == status, r.content
    assert r.json()["code"] == code
    assert list(DissolveVote.objects.values("status", "answers")) == before


def test_no_vote_before_the_match_starts_nor_after_it_ended(people, preset, client_for):
    room = services.room_create(owner=people["member"], variant="", preset=preset.pk, bots=3)
    member = client_for(people["member"])
    r = member.post(url(room))
    assert r.status_code == 409 and r.json()["code"] == "not_started"
    services.room_ready(room_id=room.pk, user=people["member"])
    play_out(room)
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    r = member.post(url(room))
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    r = member.post(url(room, "answer/"), {"agree": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "game_over"


def test_answering_with_no_open_vote_is_refused(table, people, client_for):
    r = client_for(people["owner"]).post(url(table, "answer/"), {"agree": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "no_vote"
    assert client_for(people["owner"]).get(url(table)).json() == {"vote": None}


def test_a_vote_open_when_the_match_ends_on_its_own_lapses(people, preset, client_for):
    room = services.room_create(
        owner=people["member"], variant="", preset=preset.pk, bots=2, hands=1
    )
    services.room_join(room_id=room.pk, user=people["owner"])
    for who in ("member", "owner"):
        services.room_ready(room_id=room.pk, user=people[who])
    client_for(people["member"]).post(url(room))
    play_out(room)
    assert votes.votes_fire_due(timezone.now() + timedelta(seconds=61)) == 1
    assert DissolveVote.objects.get(room=room).status == "lapsed"
    assert wait_recorded(room).ended_by == "complete"
    assert Match.objects.filter(room=room).count() == 1


def test_the_schema_names_the_vote_and_phrase_endpoints(client_for, people):
    schema = client_for(people["member"]).get("/api/schema/?format=json").json()
    for path, method in (
        ("/api/rooms/{id}/dissolve/", "get"),
        ("/api/rooms/{id}/dissolve/", "post"),
        ("/api/rooms/{id}/dissolve/answer/", "post"),
        ("/api/rooms/{id}/phrases/", "post"),
    ):
        assert method in schema["paths"][path], (path, method)


def test_a_player_alone_with_bots_ends_the_match_by_proposing(people, preset, client_for):
    room = services.room_create(owner=people["member"], variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=room.pk, user=people["member"])
    r = client_for(people["member"]).post(url(room))
    assert r.json()["status"] == "passed"  # the only voter has agreed
    assert [v["user_id"] for v in r.json()["voters"]] == [people["member"].pk]
    play_out(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.hands_played == 1
    assert wait_recorded(room).ended_by == "dissolved"
