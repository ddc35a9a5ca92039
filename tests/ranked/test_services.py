"""The queue, the matching pass, arrivals and a ranked match's end, on the real services."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Room
from games.table import selectors as table_selectors
from games.table import services as table
from ranked import ladder, matcher, services
from ranked.models import Penalty, QueueEntry, Rank, RankedMatch, RankedSeat
from tests.games.conftest import play_out
from tests.live import wait_for

pytestmark = pytest.mark.django_db


def queue(users, variant="sichuan", addresses=None):
    for i, u in enumerate(users):
        address = addresses[i] if addresses else f"10.0.0.{i + 1}"
        services.queue_join(user=u, variant=variant, address=address)


def test_four_queued_are_seated_at_one_ranked_table(four):
    queue(four)
    assert matcher.match_pass() == 1
    match = RankedMatch.objects.get()
    assert sorted(s.user_id for s in match.seats.all()) == sorted(u.pk for u in four)
    assert {e.room_id for e in QueueEntry.objects.all()} == {match.room_id}
    seats = match.room.seats.order_by("index")
    assert [s.user_id for s in seats] == [u.pk for u in four]
    assert services.queue_poll(user=four[2])["room"] == match.room_id
    # The table's plates carry each player's 段位.
    plates = table_selectors.room_payload(match.room_id)["seats"]
    assert [s["rank"]["label"] for s in plates] == [{"zh-hans": "新人 1", "en": "Novice 1"}] * 4
    # A second pass finds nobody waiting: nobody is seated twice.
    assert matcher.match_pass() == 0 and RankedMatch.objects.count() == 1


def test_same_address_is_never_seated_together(four, make_user):
    fifth = make_user("r4")
    queue(four + [fifth], addresses=["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.1"])
    matcher.match_pass()
    seat_users = set(RankedSeat.objects.values_list("user_id", flat=True))
    assert len(seat_users) == 4
    # r0 and r4 share an address: at most one of them is at the table.
    assert not {four[0].pk, fifth.pk} <= seat_users


def test_three_from_one_address_form_no_table(four):
    queue(four, addresses=["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3"])
    assert matcher.match_pass() == 0
    assert QueueEntry.objects.filter(room__isnull=True).count() == 4


def test_one_queue_and_one_ranked_table_at_a_time(four):
    services.queue_join(user=four[0], variant="sichuan", address="10.0.0.1")
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[0], variant="guangzhou", address="10.0.0.1")
    assert e.value.code == "queued_elsewhere" and e.value.status == 409
    queue(four)
    matcher.match_pass()
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[1], variant="sichuan", address="10.0.0.2")
    assert e.value.code == "seated_ranked"
    # The unique index stops a second active seat even past the services' checks.
    with pytest.raises(IntegrityError), transaction.atomic():
        RankedSeat.objects.create(
            match=RankedMatch.objects.get(), user=four[1], seat=9, joined_at=timezone.now()
        )


def test_bad_variant_and_bots_after(four):
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[0], variant="nope", address=None)
    assert e.value.code == "unknown_variant"
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[0], variant="sichuan", address=None, bots_after=3)
    assert e.value.code == "bad_bots_after"
    assert not QueueEntry.objects.exists()


def test_the_band_widens_with_waiting(four, settings):
    settings.RANKED_BAND, settings.RANKED_BAND_WIDEN = 0, 10
    queue(four)
    season = services.current_season()
    Rank.objects.filter(user=four[3], season=season).update(step=3)
    assert matcher.match_pass() == 0  # three steps apart: not yet
    later = timezone.now() + timedelta(seconds=31)
    QueueEntry.objects.update(seen_at=later)
    assert matcher.match_pass(later) == 1


def test_unpolled_entries_leave_the_queue(four, settings):
    queue(four[:1])
    matcher.match_pass(timezone.now() + timedelta(seconds=settings.RANKED_QUEUE_GRACE + 1))
    assert not QueueEntry.objects.exists()


def test_a_no_show_is_penalised_and_the_others_go_back_to_the_front(four, make_user, settings):
    queue(four)
    matcher.match_pass()
    match = RankedMatch.objects.get()
    for u in four[:3]:
        table.room_ready(room_id=match.room_id, user=u)
    late = make_user("r9")
    services.queue_join(user=late, variant="sichuan", address="10.0.0.9")
    due = timezone.now() + timedelta(seconds=settings.RANKED_ARRIVE_SECONDS + 1)
    QueueEntry.objects.update(seen_at=due)
    matcher.match_pass(due)
    match.refresh_from_db()
    assert match.status == RankedMatch.Status.CANCELLED
    assert Room.objects.get(pk=match.room_id).status == Room.Status.FINISHED
    assert Penalty.objects.filter(user=four[3]).exists()
    # The three who came were back at the front of the queue: with the one waiting they
    # make the next table in the same pass; the no-show is out of the queue.
    again = RankedMatch.objects.exclude(pk=match.pk).get()
    assert set(again.seats.values_list("user_id", flat=True)) == {u.pk for u in [*four[:3], late]}
    assert [s.joined_at < late.date_joined for s in again.seats.exclude(user=late)] == [True] * 3
    assert not QueueEntry.objects.filter(user=four[3]).exists()
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[3], variant="sichuan", address="10.0.0.4")
    assert e.value.code == "penalised" and e.value.status == 403


def test_fill_with_bots_after_n_seconds_is_unranked(four):
    services.queue_join(user=four[0], variant="sichuan", address="10.0.0.1", bots_after=10)
    assert matcher.match_pass() == 0
    assert QueueEntry.objects.get().room_id is None
    later = timezone.now() + timedelta(seconds=11)
    QueueEntry.objects.update(seen_at=later)
    matcher.match_pass(later)
    entry = QueueEntry.objects.get()
    assert entry.room_id is not None and not RankedMatch.objects.exists()
    assert sum(s.is_bot for s in entry.room.seats.all()) == 3


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_moves_points_by_placement(four):
    queue(four)
    matcher.match_pass()
    match = RankedMatch.objects.get()
    for u in four:
        table.room_ready(room_id=match.room_id, user=u)
    play_out(match.room)
    # The match's record is a task of its own after the hand's settlement (a worker's,
    # in the services profile): the 段位 move when it is written.
    wait_for(
        lambda: RankedMatch.objects.filter(pk=match.pk, status="finished").exists(),
        30,
        "the ranked match settled",
    )
    match.refresh_from_db()
    seats = list(match.seats.order_by("seat"))
    assert sorted(s.placement for s in seats) == [1, 2, 3, 4]
    for s in seats:
        delta = ladder.placement_points(s.placement, s.step_before)
        expected = ladder.apply_points(ladder.Standing(s.step_before, s.points_before), delta)
        assert (s.step_after, s.points_after) == (expected.step, expected.points)
        assert not s.active
        rank = Rank.objects.get(user=s.user, variant="sichuan")
        assert (rank.step, rank.points, rank.matches) == (expected.step, expected.points, 1)
    first = next(s for s in seats if s.placement == 1)
    assert first.points_after == 60
    # The same record again changes nothing.
    assert services.match_settle(match.room_id) is None
    # Free to queue again.
    services.queue_join(user=four[0], variant="sichuan", address="10.0.0.1")


def test_a_new_season_softens_ranks(four):
    old = services.current_season()
    Rank.objects.create(
        user=four[0], variant="sichuan", season=old, step=7, points=30, mu=30, sigma=4
    )
    new = services.season_start(name="S2")
    old.refresh_from_db()
    assert old.ends == new.starts
    rank = services.rank_of(four[0], "sichuan", new)
    soft = ladder.soften(ladder.Standing(7, 30))
    assert (rank.step, rank.points, rank.mu) == (soft.step, soft.points, 30)


def test_season_start_command(four):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    first = services.current_season()
    out = StringIO()
    call_command("season_start", "2027-S1", stdout=out)
    assert "2027-S1" in out.getvalue()
    assert services.current_season().name == "2027-S1"
    first.refresh_from_db()
    assert first.ends is not None
    with pytest.raises(CommandError):
        call_command("season_start", "bad", "--starts", "tomorrow")


def test_a_table_over_before_any_hand_frees_its_players(four, settings):
    from games.table import seating

    queue(four)
    matcher.match_pass()
    match = RankedMatch.objects.get()
    seating.room_call_off(room_id=match.room_id)
    due = timezone.now() + timedelta(seconds=settings.RANKED_ARRIVE_SECONDS + 1)
    matcher.match_pass(due)
    match.refresh_from_db()
    assert match.status == RankedMatch.Status.CANCELLED
    assert not RankedSeat.objects.filter(active=True).exists()
    assert not Penalty.objects.exists()
    services.queue_join(user=four[0], variant="sichuan", address="10.0.0.1")


def test_leaving_before_the_first_deal_is_a_no_show(four, make_user, settings):
    queue(four)
    matcher.match_pass()
    match = RankedMatch.objects.get()
    for u in four[:2]:
        table.room_ready(room_id=match.room_id, user=u)
    Rank.objects.filter(user=four[1]).update(points=50)
    table.room_leave(room_id=match.room_id, user=four[1])  # readied, then left
    match.refresh_from_db()
    assert match.status == RankedMatch.Status.CANCELLED
    room = Room.objects.get(pk=match.room_id)
    assert room.status == Room.Status.FINISHED and room.hands_played == 0
    assert not RankedSeat.objects.filter(active=True).exists()
    assert list(Penalty.objects.values_list("user_id", flat=True)) == [four[1].pk]
    rank = Rank.objects.get(user=four[1], variant="sichuan")
    assert (rank.step, rank.points) == (0, 50 - settings.RANKED_NOSHOW_POINTS)
    # The other three are back in the queue at their old places, not seated anywhere.
    back = QueueEntry.objects.order_by("joined_at")
    assert [e.user_id for e in back] == [four[0].pk, four[2].pk, four[3].pk]
    assert all(e.room_id is None for e in back)
    assert [e.joined_at for e in back] == list(
        match.seats.exclude(user=four[1]).order_by("joined_at").values_list("joined_at", flat=True)
    )
    # With a fourth they are seated again at once; the leaver may not queue for a while.
    services.queue_join(user=make_user("r7"), variant="sichuan", address="10.0.0.7")
    assert matcher.match_pass() == 1
    with pytest.raises(table.ServiceError) as e:
        services.queue_join(user=four[1], variant="sichuan", address="10.0.0.2")
    assert e.value.code == "penalised"


def test_leaving_after_the_first_deal_is_auto_play_and_the_match_counts(four):
    queue(four)
    matcher.match_pass()
    match = RankedMatch.objects.get()
    for u in four:
        table.room_ready(room_id=match.room_id, user=u)
    table.room_leave(room_id=match.room_id, user=four[2])
    match.refresh_from_db()
    seat = match.room.seats.get(index=2)
    assert match.status == RankedMatch.Status.WAITING and seat.auto and not seat.left
    assert not Penalty.objects.exists()


def test_no_countdown_deals_a_ranked_table_without_its_last_player(four, settings):
    # Ningbo's countdown readies a fourth player at a table; at a ranked one the first
    # deal waits for all four, and one who never came is a no-show.
    queue(four, variant="ningbo")
    matcher.match_pass()
    match = RankedMatch.objects.get()
    for u in four[:3]:
        table.room_ready(room_id=match.room_id, user=u)
    room = Room.objects.get(pk=match.room_id)
    assert room.status == Room.Status.OPEN and room.next_hand_at is None
    due = timezone.now() + timedelta(seconds=settings.RANKED_ARRIVE_SECONDS + 1)
    QueueEntry.objects.update(seen_at=due)
    matcher.match_pass(due)
    match.refresh_from_db()
    assert match.status == RankedMatch.Status.CANCELLED
    assert list(Penalty.objects.values_list("user_id", flat=True)) == [four[3].pk]


def test_a_pass_holds_its_variants_turn_and_polls_defer_to_sweeps(four, make_user, settings):
    from django.core.cache import cache

    turns = [f"{matcher.PASS_KEY}:{v}" for v in ("sichuan", "guangzhou")] + [matcher.RAN_KEY]
    cache.delete_many(turns)
    settings.RANKED_MATCH_INTERVAL = 30
    queue(four)
    matcher.match_pass_due()  # a sweep: every variant's turn is free
    assert RankedMatch.objects.count() == 1
    more = [make_user(f"t{i}") for i in range(8)]
    queue(more[:4], addresses=[f"10.4.0.{i}" for i in range(4)])
    queue(more[4:], variant="guangzhou", addresses=[f"10.4.1.{i}" for i in range(4)])
    cache.delete(turns[1])  # Guangzhou's interval is over, Sichuan's is not
    matcher.match_pass_due()
    assert list(RankedMatch.objects.values_list("variant", flat=True).order_by("pk")) == [
        "sichuan",
        "guangzhou",
    ]
    cache.delete_many(turns[:2])
    matcher.match_pass_due(poll=True)  # a pass ended lately: polls leave it to the sweeps
    assert RankedMatch.objects.count() == 2
    cache.delete(matcher.RAN_KEY)
    matcher.match_pass_due(poll=True)  # nothing swept for three intervals: a poll matches
    assert RankedMatch.objects.count() == 3
