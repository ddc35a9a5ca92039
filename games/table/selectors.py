"""Read-side helpers: what the API and the sockets show about rooms and hands."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from clubs import selectors as club_selectors
from games.models import Hand, HandAction, Presence, Room, Seat, Settlement
from games.rules import (
    DealSeeds,
    HandState,
    Rejection,
    apply,
    commitment,
    get_variant,
    new_hand,
)
from games.table import badges
from games.table.bot_accounts import display_names
from games.table.late import room_as_of, rooms_finishing
from games.table.messages import envelope, hand_end_payload, played_for, seat_state
from games.table.vote_state import latest_vote
from leaderboards.models import RatingChange
from leaderboards.rating import counts_publicly, display_rating
from records.models import Match

log = logging.getLogger(__name__)


def _seat_payload(seat: Seat, present: set[int], labels: dict | None = None) -> dict:
    user = seat.user
    return {
        "bot_names": display_names(user),
        "index": seat.index,
        "user_id": user.pk if user else None,
        "name": user.shown_name if user else None,
        "is_bot": bool(user and user.is_bot),
        "ready": seat.ready,
        "left": seat.left,
        "auto": seat.auto,
        "connected": seat.index in present or bool(user and user.is_bot),
        "score": seat.score,
        # Sent with ready for the next deal (public, like the commitment); None: not yet.
        "client_seed": seat.client_seed or None,
        "rank": (labels or {}).get(seat.user_id),  # e.g. 段位 at a ranked table
    }


def room_and_playing(room_id, *, owner: bool = False, lock: bool = False):
    """(the room, or None: no such room or not an id; whether a hand is being played in
    it), in one statement; ``owner``: with its owner read too; ``lock``: the room's row
    locked until the transaction ends (``services.room_lock_playing``)."""
    try:
        room_id = int(room_id)
    except (ValueError, TypeError):
        return None, False
    playing = Hand.objects.filter(room=OuterRef("pk"), status=Hand.Status.PLAYING)
    rooms = Room.objects.annotate(playing=Exists(playing))
    if owner:
        rooms = rooms.select_related("owner")
    if lock:
        rooms = rooms.select_for_update(of=("self",))
    room = rooms.filter(pk=room_id).first()
    return (None, False) if room is None else (room, room.playing)


def seats_with_users(room_id) -> list[Seat]:
    """The room's seats in order, each with its user (None: a free seat)."""
    return list(Seat.objects.filter(room_id=room_id).select_related("user").order_by("index"))


def room_payload(room_or_id, *, for_user=None) -> dict | None:
    room, playing = room_or_id, None
    if not isinstance(room, Room):
        room, playing = room_and_playing(room_or_id, owner=True)
        if room is None:
            return None
    seats = seats_with_users(room.pk)
    v = get_variant(room.variant)
    present, watchers = _presence_of(seats, fresh_users(room.pk))
    labels = badges.seat_labels(room.pk)
    out = {
        "id": room.pk,
        "variant": room.variant,
        "variant_name": {"zh-hans": v.name_zh, "en": v.name_en},
        "rules": room.rules,
        "rule_choices": room.rule_choices,
        "hands_total": room.hands_total,
        "hands_played": room.hands_played,
        "discard_seconds": room.discard_seconds,
        "claim_seconds": room.claim_seconds,
        "private": room.private,
        # Whether its hands move the public boards, shown before anyone joins.
        "rated": counts_publicly(room.hands_total, any(s.user and s.user.is_bot for s in seats)),
        "status": room.status,
        "owner_id": room.owner_id,
        "owner": room.owner.shown_name,
        "seats": [_seat_payload(s, present, labels) for s in seats],
        "free_seats": sum(1 for s in seats if s.user_id is None),
        "next_hand_at": room.next_hand_at.isoformat() if room.next_hand_at else None,
        **_next_deal(room, playing),
        "ws": room.ws_path,
        "spectator_delay": room.spectator_delay,
        "bot_level": room.bot_level,
        "watchers": watchers,
        **club_selectors.room_club_info(room.club_id, room.preset_version_id),
        # The latest dissolve vote (解散房间), and once the match is over its record (the
        # 大结算 is read from /api/matches/<id>/summary/; None until it is recorded).
        "vote": latest_vote(room.pk, seats) if room.status != Room.Status.OPEN else None,
        "match_id": _match_id(room),
    }
    mine = next((s for s in seats if for_user is not None and s.user_id == for_user.pk), None)
    if mine is not None and not mine.left:
        out["code"] = room.code
        out["my_seat"] = mine.index
    return out


def _match_id(room: Room) -> int | None:
    if room.status != Room.Status.FINISHED:
        return None
    return Match.objects.filter(room_id=room.pk).values_list("pk", flat=True).first()


def _next_deal(room: Room, playing: bool | None = None) -> dict:
    """The next hand's public deal inputs, known to every seat before it is dealt: the
    commitment to its server seed (never the seed) and its number.  ``playing``: whether
    a hand is being played (None: look)."""
    if room.status == Room.Status.FINISHED:
        return {"next_commitment": None, "next_hand_number": None}
    if playing is None:
        playing = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    return {
        "next_commitment": commitment(room.next_server_seed),
        "next_hand_number": room.hands_played + (2 if playing else 1),
    }


def fresh_users(room_id, now: datetime | None = None) -> set[int]:
    """The users with a Presence row in the room whose server has beaten within
    ``GAME_PRESENCE_TTL``."""
    since = (now or timezone.now()) - timedelta(seconds=settings.GAME_PRESENCE_TTL)
    fresh = Presence.objects.filter(room_id=room_id, seen_at__gte=since)
    return set(fresh.values_list("user_id", flat=True))


def _presence_of(seats, fresh: set[int]) -> tuple[set[int], int]:
    """(seats whose current occupant has a fresh socket, how many other users have one:
    the watchers) from the room's seats and the users with a fresh socket there."""
    playing = {s.user_id for s in seats if s.user_id and not s.left}
    present = {s.index for s in seats if s.user_id in fresh and not s.left}
    return present, len(fresh - playing)


def open_rooms(limit: int = 100, *, for_user=None):
    """Public rooms; a club's rooms only for its members.  A room whose match ended is
    still listed while it is not over for its spectators (``late.rooms_finishing``)."""
    clubs = Q(club__isnull=True) | Q(club_id__in=club_selectors.member_club_ids(for_user))
    return (
        Room.objects.filter(clubs, private=False)
        .exclude(Q(status=Room.Status.FINISHED) & ~Q(pk__in=rooms_finishing()))
        .select_related("owner")
        .order_by("-created_at")[:limit]
    )


def seat_of(room, user) -> int | None:
    """The seat ``user`` plays in ``room`` (a room or its id) now; None once they left."""
    if user is None or not user.is_authenticated:
        return None
    room_id = room.pk if isinstance(room, Room) else room
    seats = Seat.objects.filter(room_id=room_id, user=user, left=False).order_by("id")
    return seats.values_list("index", flat=True).first()


def access_of(room_id, user) -> tuple[int, bool, int | None, int, int | None] | None:
    """(room id, private, club id, spectator delay, the seat ``user`` plays there now as
    ``seat_of`` says) for a socket opening or re-reading its seat; None: no such room."""
    try:
        room_id = int(room_id)
    except (ValueError, TypeError):
        return None
    room = Room.objects.filter(pk=room_id).values("private", "club_id", "spectator_delay").first()
    if room is None:
        return None
    seat = seat_of(room_id, user)
    return room_id, room["private"], room["club_id"], room["spectator_delay"], seat


def match_score(room_id, user_id) -> int:
    """What ``user_id`` has won or lost so far in the room's match: the settlements of the
    hands they played there, from whichever seat (0 for one who has played none)."""
    rows = Settlement.objects.filter(hand__room_id=room_id).values_list("hand__players", "deltas")
    return sum(
        d for players, deltas in rows for p, d in zip(players, deltas, strict=True) if p == user_id
    )


def seat_viewers(seats) -> dict[int, int]:
    """Seat index -> the user who sees that seat's private view: its human occupant,
    unless they left (a bot plays it then, and nobody watches from it)."""
    return {s.index: s.user_id for s in seats if s.user_id and not s.left and not s.is_bot}


def table_snapshot(room_id, seat: int | None) -> list[dict]:
    """Everything a (re)connecting socket needs: room, then the latest hand's state.

    A spectator of a room with a spectator delay gets the table as it was that long ago
    (``spectator_snapshot``)."""
    payload = room_payload(room_id)
    if seat is None and payload is not None and payload["spectator_delay"]:
        return spectator_snapshot(room_id, payload["spectator_delay"], payload=payload)[0]
    out = [envelope("room", None, payload)]
    hand = Hand.objects.filter(room_id=room_id).order_by("-number").first()
    if hand is not None:
        state = HandState.from_json(hand.state)
        events = played_for_since(hand, seat) if seat is not None else []
        out.append(seat_state(state, seat, hand.deadlines, hand.number, events))
        if state.phase == "ended":
            out.append(envelope("hand_end", state.public_version, hand_end_payload(state, hand)))
            settled = settled_payload(hand)
            if settled is not None:
                out.append(envelope("settled", None, settled))
    return out


# The most moves a returning player is told were made for them (the latest ones).
PLAYED_FOR_SHOWN = 8


def played_for_since(hand: Hand, seat: int) -> list[dict]:
    """The moves the clock made for ``seat`` in ``hand`` since the seat's last move of its
    own (``messages.played_for`` events, oldest first): what a player coming back to the
    table is told.  The server's closing of a claim window on the seat's discard is logged
    under the seat, and is no move of the player's."""
    rows = (
        HandAction.objects.filter(hand=hand, seat=seat)
        .exclude(source="server")
        .order_by("-seq")
        .values_list("seq", "action", "source")[:PLAYED_FOR_SHOWN]
    )
    out = []
    for seq, action, source in rows:
        if source != "timeout":
            break
        out.append(played_for(seat, seq, action))
    return out[::-1]


def settled_payload(hand: Hand, settlement: Settlement | None = None, changes=None) -> dict | None:
    """The ``settled`` message of the hand (None: not settled yet).  ``settlement`` and
    ``changes`` (its rating changes): the settlement task's own, which it has just
    written or found (read here when not given).  The seats' running scores are read
    here in any case: the settlement moved them."""
    if settlement is None:
        settlement = Settlement.objects.filter(hand=hand).first()
    if settlement is None:
        return None
    shown = []
    if changes is None:
        changes = RatingChange.objects.filter(hand=hand)
    for rc in changes:
        if not rc.rated:  # an unrated room's hand moved no rating
            continue
        # As players see ratings: the skill estimate (leaderboards.rating.display_rating).
        before, after = display_rating(rc.mu_before), display_rating(rc.mu_after)
        shown.append(
            {
                "user_id": rc.user_id,
                "seat": hand.players.index(rc.user_id),
                "before": before,
                "after": after,
                "change": after - before,
            }
        )
    seats = Seat.objects.filter(room_id=hand.room_id)
    return {
        "hand": hand.number,
        "hand_id": hand.pk,
        "transfers": settlement.transfers,
        "deltas": settlement.deltas,
        "details": settlement.details,
        "scores": list(seats.order_by("index").values_list("score", flat=True)),
        "ratings": sorted(shown, key=lambda c: c["seat"]),
    }


# --------------------------------------------------------------------------
# Hands: how a hand was dealt (its record is ``games.replays.selectors``), a room's hands


def deal_inputs(hand: Hand):
    """``(seeds, dealer, match)`` exactly as ``new_hand`` was called for this hand: the
    match it was dealt under (its dealer None when the dice chose); hands stored before
    matches existed name the dealer.  Raises ValueError for a hand dealt before
    verifiable deals (fewer than four client seeds)."""
    seeds = DealSeeds(hand.server_seed, tuple(hand.client_seeds), hand.number)
    dealer, match = (None, hand.match) if hand.match else (hand.dealer, None)
    return seeds, dealer, match


def room_hands(room: Room) -> list[dict]:
    """The room's finished hands, newest first, for the room page's list."""
    rows = (
        Hand.objects.filter(room=room, status=Hand.Status.ENDED)
        .order_by("-number")
        .values("pk", "number", "ended_at")
    )
    return [{"id": r["pk"], "number": r["number"], "ended_at": r["ended_at"]} for r in rows]


# Spectators of a room with a delay (against ghosting)


def _hand_frames(hand: Hand):
    """Every state a hand went through, rebuilt from its action log with the pure engine:
    ``(when, state, events)`` from the deal on, in order.  The log is the truth (the
    same inputs as ``manage.py hand_verify``), so this holds whichever process served
    the table and however long ago."""
    try:
        seeds, dealer, match = deal_inputs(hand)
        state = new_hand(hand.variant, hand.rules, seeds, dealer, match)
    except ValueError:  # a hand stored before seeds existed: it cannot be re-dealt
        return
    yield hand.started_at, state, [{"type": "HandStarted"}]
    actions = HandAction.objects.filter(hand=hand).order_by("seq")
    for row in actions.values_list("created_at", "seat", "action"):
        at, seat, action = row
        out = apply(state, seat, action)
        if isinstance(out, Rejection):  # pragma: no cover - hand_verify's business
            log.error("hand %s: log action %s does not replay: %s", hand.pk, action, out.reason)
            return
        shown = state.public_version
        state, events = out
        if state.public_version != shown:  # an answer only its answerer saw is skipped
            yield at, state, events


def _late_state(hand: Hand, state, events, at: datetime) -> dict:
    # The clock shown is the one running at that moment only if nothing happened since.
    live = hand.status == Hand.Status.PLAYING and state.public_version == hand.version
    env = seat_state(state, None, hand.deadlines if live else {}, hand.number, events)
    # The moment the frame shows: the client's clock-skew correction then moves the
    # deadlines it carries by the delay too.
    env["d"]["server_time"] = at.isoformat()
    return env


def spectator_snapshot(
    room_id, delay: int, *, now: datetime | None = None, payload: dict | None = None
) -> tuple[list[dict], list[tuple[datetime, dict]]]:
    """What a spectator sees ``delay`` seconds late: the envelopes to send now (the room,
    then the hand as it was at ``now - delay``, its result and settlement if they were
    known by then) and the backlog, ``(when to send, envelope)`` for every frame from
    then until ``now``, which the socket releases at those times (later frames reach it
    through the channel layer and are held back by the same delay).

    Built from the action log, not from a process's memory: any server can serve it."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=delay)
    late = timedelta(seconds=delay)
    payload = payload if payload is not None else room_payload(room_id)
    out = [envelope("room", None, room_as_of(payload, cutoff))]
    backlog: list[tuple[datetime, dict]] = []
    hands = list(Hand.objects.filter(room_id=room_id).order_by("number"))
    shown = [h for h in hands if h.started_at <= cutoff][-1:]
    for hand in shown + [h for h in hands if h.started_at > cutoff]:
        shown_state = final = ended_at = None
        for at, state, events in _hand_frames(hand):
            final, ended_at = state, at  # a hand ends with its last action
            if at <= cutoff:
                shown_state = state
            else:
                backlog.append((at + late, _late_state(hand, state, events, at)))
        if shown_state is not None:
            out.append(_late_state(hand, shown_state, [], cutoff))
        if final is None or final.phase != "ended":
            continue
        end = envelope("hand_end", final.public_version, hand_end_payload(final, hand))
        settlement = Settlement.objects.filter(hand=hand).first()
        settled = settled_payload(hand) if settlement is not None else None
        if ended_at <= cutoff:
            out.append(end)
            if settled is not None and settlement.created_at <= cutoff:
                out.append(envelope("settled", None, settled))
                continue
        else:
            backlog.append((ended_at + late, end))
        if settled is not None:
            at = max(settlement.created_at, ended_at) + late
            backlog.append((at, envelope("settled", None, settled)))
    backlog.sort(key=lambda item: item[0])
    return out, backlog
