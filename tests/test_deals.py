"""The browser tests' chosen deals (``tests.deals``): a rig keeps every tile once, and
only the test settings' URLs have the hooks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from django.urls import Resolver404, resolve
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, new_hand, new_match
from games.rules import tiles as T
from tests.deals import lay_out


def dealt(variant: str, n: int) -> dict:
    match = replace(new_match(variant, {}, 4), private_claims=True)
    return new_hand(variant, {}, DealSeeds.for_test(n), match=match).to_json()


def hidden(state: dict) -> Counter:
    tiles = Counter(T.parse_one(t) for t in state["wall"])
    for h in state["hands"]:
        tiles += Counter(T.parse(h))
    return tiles


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 10_000), variant=st.sampled_from(["sichuan", "hangzhou", "ningbo"]))
def test_a_rig_lays_out_what_it_is_asked_and_keeps_every_tile_once(n, variant):
    state = dealt(variant, n)
    want = T.fmt(T.parse("123456789m55567p")[: len(T.parse(state["hands"][1]))])
    out = lay_out(state, {1: want}, front="5s6s")
    assert out["hands"][1] == want
    assert out["wall"][:2] == ["5s", "6s"]
    assert hidden(out) == hidden(state)
    for k in (0, 2, 3):
        assert len(T.parse(out["hands"][k])) == len(T.parse(state["hands"][k]))
    assert len(out["wall"]) == len(state["wall"])


def test_a_rig_refuses_tiles_that_are_not_there():
    state = dealt("sichuan", 1)
    with pytest.raises(ValueError, match="not hidden"):
        five = T.parse("11111m2345678m2345678p")[: len(T.parse(state["hands"][0]))]
        lay_out(state, {0: T.fmt(five)})
    with pytest.raises(ValueError, match="holds"):
        lay_out(state, {0: "123m"})


def test_the_hooks_are_only_under_the_test_settings():
    assert resolve("/test/rooms/1/deal/").url_name == "test-deal"
    assert resolve("/test/rooms/1/rig/", urlconf="tests.urls").url_name == "test-rig"
    with pytest.raises(Resolver404):
        resolve("/test/rooms/1/deal/", urlconf="config.urls")


@pytest.mark.django_db(transaction=True)
def test_the_deal_hook_deals_the_seeds_given_and_the_rig_lays_out_tiles(client):
    from django.contrib.auth import get_user_model

    from games.models import Hand
    from games.table import services

    owner = get_user_model().objects.create_user(username="dealer", email="d@example.com")
    room = services.room_create(owner=owner, variant="sichuan", bots=3, private=True)
    server = "ab" * 32
    seeds = ["0123456789abcdef" * 2, "fedcba9876543210" * 2, "11" * 16, "22" * 16]
    answer = client.post(
        f"/test/rooms/{room.pk}/deal/",
        {"server_seed": server, "client_seeds": seeds},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    hand = Hand.objects.get(pk=answer.json()["hand_id"])
    assert hand.server_seed == server and hand.client_seeds[0] == seeds[0]
    dealt = DealSeeds(server, tuple(hand.client_seeds), 1)
    assert hand.client_seeds[1:] != seeds[1:]  # the bots keep their default seeds
    match = replace(new_match("sichuan", room.rules, room.hands_total), private_claims=True)
    assert (
        hand.state["hands"]
        == new_hand("sichuan", room.rules, dealt, match=match).to_json()["hands"]
    )

    # The hand is in its 定缺 phase: every seat holds 13 or 14, so the rig can lay out seat 1.
    size = len(T.parse(hand.state["hands"][1]))
    want = T.fmt(T.parse("123456789m55567p")[:size])
    rigged = client.post(
        f"/test/rooms/{room.pk}/rig/", {"hands": {"1": want}}, content_type="application/json"
    )
    assert rigged.status_code == 200, rigged.content
    hand.refresh_from_db()
    assert hand.state["hands"][1] == want
    bad = client.post(
        f"/test/rooms/{room.pk}/rig/", {"hands": {"1": "1m"}}, content_type="application/json"
    )
    assert bad.status_code == 400 and "holds" in bad.json()["detail"]
    assert (
        client.post("/test/rooms/999999/deal/", {}, content_type="application/json").status_code
        == 404
    )
