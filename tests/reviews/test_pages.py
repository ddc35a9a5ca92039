"""The replay page's review panel: offered to the hand's players, in both languages."""

from __future__ import annotations

import pytest

from games.models import Hand
from games.table import services as game_services
from tests.games.test_fair import played_hand
from tests.ux.test_translations import english_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_is_offered_a_review_in_both_languages_and_others_only_read(make_user, client):
    ann, room, hand = played_hand(make_user)
    client.force_login(ann)
    for language, ask in (("zh-hans", "复盘我的打法"), ("en", "Review my play")):
        client.cookies["django_language"] = language
        ann.language = language  # a signed-in player's own language wins over the cookie
        ann.save(update_fields=["language"])
        r = client.get(f"/hands/{hand.pk}/")
        page = r.content.decode()
        assert r.status_code == 200
        assert 'id="review-ask"' in page and ask in page and "js/review.js" in page
        boot = r.context["boot"]["review"]
        assert boot["seat"] == 0 and boot["url"] == f"/api/hands/{hand.pk}/reviews/"
        assert set(boot["strings"]) >= {"ask", "pending", "agreed", "throttled"}
        assert "not_your_hand" in boot["strings"]["errors"]
        if language == "zh-hans":
            assert boot["strings"]["strong"] == "高手"
            assert english_in(page, {"ann", "Web Crypto"}) == []
    client.force_login(make_user("bob"))
    client.cookies["django_language"] = "en"
    r = client.get(f"/hands/{hand.pk}/")
    page = r.content.decode()
    assert 'id="review"' in page and 'id="review-ask"' not in page
    assert r.context["boot"]["review"]["seat"] is None


def test_a_hand_in_play_has_no_review_panel(make_user, client):
    ann = make_user("ann")
    room = game_services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    game_services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    client.force_login(ann)
    r = client.get(f"/hands/{hand.pk}/")
    assert r.status_code == 200 and 'id="review"' not in r.content.decode()
    assert r.context["boot"]["review"] is None
