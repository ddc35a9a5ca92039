"""Room and table services: every write to a room or a hand goes through here.

Each service checks, does, and publishes **on commit** (``publish.py``), so a
client never hears of a change that rolled back.  Locking policy: a service
that touches a room's seats or hands first locks the :class:`Room` row with
``select_for_update`` and holds it to the end of its transaction; that one
lock serialises everything at a table (on SQLite, whose transactions are
IMMEDIATE here, the database lock does the same).  A move is one path
(``hand_act``): lock the room, load the hand, apply the engine, append the action
and save the snapshot in that transaction, publish each seat's view on commit.
Consumers, REST views, Celery tasks and the deadline sweeper all call these
functions.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs import selectors as club_selectors
from clubs.services import check_spectator_delay, check_timer, room_rules
from config.refusals import ServiceError
from games.models import Hand, Presence, Room, Seat, new_server_seed
from games.rules import (
    DealSeeds,
    HandState,
    MatchState,
    OptionsError,
    Rejection,
    UnknownVariant,
    apply,
    commitment,
    default_client_seed,
    get_variant,
    new_hand,
    new_match,
)
from games.rules.rng import CLIENT_SEED_BYTES, is_client_seed
from games.table import finisher, holds, limits, publish, store
from games.table.bot_accounts import BOT_NAMES, bot_user
from games.table.clocks import closing, same_decision, set_deadlines, untimed
from games.table.messages import step_events
from games.table.selectors import (
    match_score,
    room_and_playing,
    seat_viewers,
    seats_with_users,
)

# --------------------------------------------------------------------------
# Rooms


def _check_timer(value, *, private: bool, name: str):
    if value is None and not private:
        raise ServiceError("bad_timer", f"public rooms need a {name} timer")
    try:
        return check_timer(value, name)
    except ValueError as e:
        raise ServiceError("bad_timer", str(e)) from None


@transaction.atomic
def room_create(
    *,
    owner,
    variant: str,
    rules: dict | None = None,
    hands: int = 8,
    private: bool = False,
    bots: int = 0,
    discard_seconds: int | None = 15,
    claim_seconds: int | None = 8,
    preset: int | None = None,
    spectator_delay: int | None = None,
    bot_level: str = Room.BotLevel.STRONG,
) -> Room:
    timers = (discard_seconds, claim_seconds)
    club = _club_rules(preset, owner, variant, rules, timers) if preset is not None else None
    spectator_delay = _check_delay(spectator_delay, club.spectator_delay if club else 0)
    try:
        v = get_variant(club.variant if club else variant)
        opts = v.resolve_options(club.rules if club else rules or {})
    except (UnknownVariant, OptionsError) as e:
        code = "bad_rules" if isinstance(e, OptionsError) else "unknown_variant"
        raise ServiceError(code, str(e)) from None
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= 64:
        raise ServiceError("bad_length", "hands must be a whole number from 1 to 64")
    if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots <= 3:
        raise ServiceError("bad_bots", "bots must be 0..3")
    if not isinstance(private, bool):
        raise ServiceError("bad_private", "private must be true or false")
    if bot_level not in Room.BotLevel.values:
        known = ", ".join(Room.BotLevel.values)
        raise ServiceError("bad_bot_level", f"bot_level must be one of {known}, not {bot_level!r}")
    if club is not None:  # a club's tables are its members' only: they may run untimed
        timers = (club.discard_seconds, club.claim_seconds)
    discard_seconds = _check_timer(timers[0], private=private or club is not None, name="discard")
    claim_seconds = _check_timer(timers[1], private=private or club is not None, name="claim")
    limits.lock_user(owner)  # the counts below hold until this room is written
    waiting = Room.objects.filter(owner=owner, status=Room.Status.OPEN).count()
    if waiting >= settings.GAME_MAX_OPEN_ROOMS:
        raise ServiceError(
            "too_many_rooms",
            f"you already have {waiting} rooms waiting for players: "
            "start or leave one before opening another",
            409,
        )
    limits.check_tables(owner)  # the owner sits at seat 0
    for _ in range(5):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    variant=v.key,
                    rules=opts.to_json(),
                    rule_choices=club.choices if club else dict(rules or {}),
                    club_id=club.club_id if club else None,
                    preset_version=club.version if club else None,
                    hands_total=hands,
                    private=private,
                    owner=owner,
                    discard_seconds=discard_seconds,
                    claim_seconds=claim_seconds,
                    spectator_delay=spectator_delay,
                    bot_level=bot_level,
                )
            break
        except IntegrityError:  # join code collision: draw another
            continue
    else:  # pragma: no cover
        raise ServiceError("busy", "could not allocate a join code, try again", 503)
    Seat.objects.create(room=room, index=0, user=owner)
    for i in range(1, 4):
        Seat.objects.create(room=room, index=i, user=bot_user(i) if i <= bots else None)
    publish.room_changed_on_commit(room.pk)
    return room


def _check_delay(value, floor: int) -> int:
    """The room's spectator delay: ``floor`` (its club preset's, 0 otherwise) unless it
    asks for more; never less than the preset's."""
    if value is None:
        return floor
    try:
        value = check_spectator_delay(value)
    except ValueError as e:
        raise ServiceError("bad_delay", str(e)) from None
    if value < floor:
        raise ServiceError(
            "bad_delay", f"the club's preset shows spectators the table {floor} s late at least"
        )
    return value


def _club_rules(preset, owner, variant, rules, timers):
    """A club room's rules, from the preset's newest version and the room's unlocked choices."""
    try:
        club = room_rules(preset_id=preset, user=owner, overrides=rules, timers=timers)
    except ServiceError as e:
        raise ServiceError(e.code, e.message, e.status) from None
    if variant and variant != club.variant:
        raise ServiceError("bad_variant", f"the preset is for {club.variant}, not {variant}")
    return club


def room_lock(room_id) -> Room:
    """The room's row, locked until the transaction ends: the first lock of every change
    to a room or its hand (a cap check takes the user's row before it: ``limits``).  Call
    inside ``transaction.atomic``; refuses an unknown room (``no_room``, 404)."""
    try:
        return Room.objects.select_for_update().get(pk=int(room_id))
    except (ValueError, TypeError, Room.DoesNotExist):
        raise ServiceError("no_room", "no such room", 404) from None


def room_lock_playing(room_id) -> tuple[Room, bool]:
    """``room_lock``, and whether a hand is being played in the room (one statement on
    PostgreSQL).  Same precondition: inside ``transaction.atomic``."""
    room, playing = room_and_playing(room_id, lock=True)
    if room is None:
        raise ServiceError("no_room", "no such room", 404)
    return room, playing


def check_member(room: Room, user) -> None:
    """A club's tables are its members' only: one removed from the club (or who left it)
    acts at none of them, even from a seat still theirs until the hand ends."""
    if club_selectors.room_hidden_from(room.club_id, user):
        raise ServiceError("not_member", "you are no longer a member of this table's club", 403)


def hand_in_play(room: Room) -> Hand | None:
    """The hand being played in ``room``, or None.  Call with the room locked
    (``room_lock``) when the hand is to be changed."""
    try:  # a room plays one hand at a time
        return Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    except Hand.DoesNotExist:
        return None


@transaction.atomic
def room_join(*, room_id, user, code: str | None = None) -> Room:
    """Take a free seat: before the game starts, or between two of its hands (a seat
    whose player left opens for someone else until the next hand starts)."""
    limits.lock_user(user)  # before the room's: the order every cap check takes
    room = room_lock(room_id)
    seats = seats_with_users(room.pk)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None and not mine.left:
        return room
    if club_selectors.room_hidden_from(room.club_id, user):
        raise ServiceError("no_room", "no such room", 404)
    if room.private and (not isinstance(code, str) or code.strip().upper() != room.code):
        raise ServiceError("wrong_code", "wrong join code for this private room", 403)
    if mine is not None:  # left this hand: out of the room until it is over
        raise ServiceError("left", "you left this game's current hand", 409)
    if room.status == Room.Status.FINISHED or hand_in_play(room) is not None:
        raise ServiceError("room_started", "this room's game has already started", 409)
    free = [s for s in seats if s.user_id is None]
    if not free:
        raise ServiceError("room_full", "this room is full", 409)
    limits.check_tables(user)
    seat = free[0]
    seat.user = user
    seat.ready = False
    # A new occupant starts at 0 (not at the previous one's running total); one coming back
    # to the match, to any seat, has their own total back (leaving wipes no loss).
    seat.score = match_score(room.pk, user.pk)
    seat.save(update_fields=["user", "ready", "score"])
    publish.room_changed_on_commit(room.pk)
    publish.reseat_on_commit(room.pk, [user.pk])
    return room


@transaction.atomic
def room_leave(*, room_id, user) -> Room:
    """The one way out of a room (REST ``leave/`` and the socket's ``leave`` action).

    Mid-hand it is 逃跑: the variant's penalty is taken once, a bot plays the seat to the
    end of the hand, and the seat then opens for someone else.  Between hands or before
    the game it costs nothing and frees the seat at once.  Either way the player is out:
    no socket of theirs acts for the seat or sees its tiles again.  Where the variant says
    leaving ends the game, the match ends with the hand (or at once between hands).
    (Put out by the room's club mid-hand: ``assist.seat_put_out``, no penalty.)"""
    room = room_lock(room_id)
    seats = seats_with_users(room.pk)
    seat = next((s for s in seats if s.user_id == user.pk and not s.left), None)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated in this room", 409)
    if holds.seats_held(room.pk):
        return holds.seat_hold(room, seat)
    Presence.objects.filter(room=room, user=user).delete()
    hand = hand_in_play(room)
    ends_match = get_variant(room.variant).leave_ends_match
    if hand is not None:
        state = HandState.from_json(hand.state)
        out = apply(state, seat.index, {"type": "leave"})
        if isinstance(out, Rejection):
            raise ServiceError(out.code, out.reason, 409)
        seat.left = True
        seat.ready = False
        seat.save(update_fields=["left", "ready"])
        if ends_match:
            # This hand is the match's last (Ningbo: leaving ends the game).
            room.hands_total = room.hands_played + 1
            room.save(update_fields=["hands_total"])
        hand_save_steps(room, hand, [(seat.index, {"type": "leave"}, "player", *out)], seats)
    elif room.status != Room.Status.FINISHED:
        seat.user = None
        seat.ready = False
        seat.save(update_fields=["user", "ready"])
        if room.status == Room.Status.PLAYING and ends_match:
            room.status, room.next_hand_at = Room.Status.FINISHED, None
            room.save(update_fields=["status", "next_hand_at"])
        else:
            finisher.close_if_only_bots(room, seats)
    publish.room_changed_on_commit(room.pk)
    publish.reseat_on_commit(room.pk, [user.pk])
    return room


def _lock_own_open_room(room_id, user, verb: str) -> Room:
    """The room locked, if ``user`` owns it and its game has not started (bots come and
    go only then)."""
    room = room_lock(room_id)
    if room.owner_id != user.pk:
        raise ServiceError("not_owner", f"only the room's owner can {verb} bots", 403)
    check_member(room, user)
    if room.status != Room.Status.OPEN:
        raise ServiceError("room_started", "this room's game has already started", 409)
    return room


@transaction.atomic
def room_add_bot(*, room_id, user) -> Room:
    room = _lock_own_open_room(room_id, user, "add")
    seats = seats_with_users(room.pk)
    free = [s for s in seats if s.user_id is None]
    if not free:
        raise ServiceError("room_full", "this room is full", 409)
    used = {s.user.username for s in seats if s.user is not None and s.user.is_bot}
    n = next(i for i in range(4) if BOT_NAMES[i] not in used)
    seat = free[0]
    seat.user = bot_user(n)
    seat.save(update_fields=["user"])
    if hand_start_next(room) is None:  # a deal tells the table itself
        publish.room_changed_on_commit(room.pk)
    return room


@transaction.atomic
def room_remove_bot(*, room_id, user, seat_index: int) -> Room:
    room = _lock_own_open_room(room_id, user, "remove")
    seat = next((s for s in seats_with_users(room.pk) if s.index == seat_index), None)
    if seat is None or not seat.is_bot:
        raise ServiceError("not_a_bot", "there is no bot in that seat", 409)
    seat.user = None
    seat.save(update_fields=["user"])
    publish.room_changed_on_commit(room.pk)
    return room


def _check_client_seed(client_seed) -> str:
    """A client seed as sent with ready: 16 bytes as 32 lowercase hex digits (None: none)."""
    if client_seed is None:
        return ""
    if not is_client_seed(client_seed):
        raise ServiceError(
            "bad_client_seed",
            f"client_seed must be {2 * CLIENT_SEED_BYTES} lowercase hex digits (16 random bytes)",
        )
    return client_seed


@transaction.atomic
def room_ready(*, room_id, user, client_seed: str | None = None) -> Room:
    """Ready for the next hand, optionally with this seat's client seed for its deal.

    The seed is checked before anything is touched; sent again while already ready, it
    replaces the earlier one (until the deal, when seeds are fixed)."""
    seed = _check_client_seed(client_seed)
    room, playing = room_lock_playing(room_id)
    check_member(room, user)
    seats = seats_with_users(room.pk)
    seat = next((s for s in seats if s.user_id == user.pk and not s.left), None)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated in this room", 409)
    if room.status == Room.Status.FINISHED:
        raise ServiceError("game_over", "this room's game is over", 409)
    if seat.ready:
        if seed and seed != seat.client_seed and not playing:
            seat.client_seed = seed
            seat.save(update_fields=["client_seed"])
            publish.room_changed_on_commit(room.pk)
        return room  # otherwise nothing changed: nothing to tell the table
    seat.ready = True
    fields = ["ready"]
    if seed:
        seat.client_seed = seed
        fields.append("client_seed")
    seat.save(update_fields=fields)
    # A ready that deals the hand is told with the deal (``_hand_start``'s room payload).
    if hand_start_next(room, seats=seats, playing=playing) is None:
        _auto_ready_clock(room, seats)
        publish.room_changed_on_commit(room.pk)
    return room


def _auto_ready_clock(room: Room, seats: list[Seat]) -> None:
    """Where the variant gives the last player a countdown (``Variant.ready_countdown``),
    start it once everyone else is ready: the hand then starts without them waiting.
    ``seats``: as they are now (room locked)."""
    seconds = get_variant(room.variant).ready_countdown(room.rules)
    if not seconds or any(s.user_id is None for s in seats):
        return
    if sum(1 for s in seats if not (s.ready or s.bot_controlled)) != 1:
        return
    if room.status == Room.Status.OPEN and holds.seats_held(room.pk):
        return  # a held room's first deal waits for all: the holder calls off a no-show
    due = timezone.now() + timedelta(seconds=seconds)
    if room.next_hand_at is None or due < room.next_hand_at:
        room.next_hand_at = due
        room.save(update_fields=["next_hand_at"])


def hand_start_next(
    room: Room,
    *,
    force: bool = False,
    seats: list[Seat] | None = None,
    playing: bool | None = None,
) -> Hand | None:
    """Start the next hand if four seats are filled and every human is ready.  Call with
    the room locked (``room_lock``), inside its transaction.

    ``force`` (the between-hands timer) starts it with whoever is not ready; ``seats``:
    the room's seats as they are now, if the caller has them (room locked); ``playing``:
    whether a hand is being played, if the caller read it with the lock."""
    if playing is None:
        playing = hand_in_play(room) is not None
    if room.status == Room.Status.FINISHED or playing:
        return None
    seats = seats if seats is not None else seats_with_users(room.pk)
    if any(s.user_id is None for s in seats):
        if not (force and room.status == Room.Status.PLAYING):
            return None
        # A seat whose player left stayed open for the time between hands; nobody took
        # it, so a bot does and the game goes on.
        used = {s.user_id for s in seats}
        spare = (bot_user(n) for n in range(4))
        for seat in seats:
            if seat.user_id is None:
                seat.user = next(b for b in spare if b.pk not in used)
                used.add(seat.user.pk)
                seat.save(update_fields=["user"])
    if not force and not all(s.ready or s.bot_controlled for s in seats):
        return None
    return _hand_start(room, seats)


def _hand_start(room: Room, seats: list[Seat]) -> Hand:
    # The deal's seeds: the server seed committed to before anyone readied, and each
    # seat's client seed (sent with ready) or the default fixed by the commitment.
    server_seed = room.next_server_seed
    committed = commitment(server_seed)
    seeds = DealSeeds(
        server_seed=server_seed,
        client_seeds=tuple(s.client_seed or default_client_seed(committed, s.index) for s in seats),
        hand_number=room.hands_played + 1,
    )
    if room.match:
        match = MatchState.from_json(room.match)
    else:  # the first hand: the variant starts the match
        match = new_match(room.variant, room.rules, room.hands_total)
    # A table's claim windows are private: every discard opens one, for the same time.
    match = replace(match, private_claims=True)
    state = new_hand(room.variant, room.rules, seeds, match=match)
    now = timezone.now()
    hand = Hand.objects.create(
        room=room,
        number=seeds.hand_number,
        variant=room.variant,
        rules=room.rules,
        server_seed=server_seed,
        commitment=committed,
        client_seeds=list(seeds.client_seeds),
        dealer=state.dealer,
        match=match.to_json(),
        players=[s.user_id for s in seats],
        state=state.to_json(),
        version=state.public_version,
    )
    set_deadlines(room, hand, state, seats, now)
    hand.save(update_fields=["deadlines", "deadline_at"])
    # A client seed is for one hand: the next one needs a fresh seed with the next ready.
    Seat.objects.filter(room=room).update(ready=False, client_seed="")
    for seat in seats:  # as the database now has them
        seat.ready, seat.client_seed = False, ""
    room.status = Room.Status.PLAYING
    room.next_hand_at = None
    room.next_server_seed = new_server_seed()
    room.save(update_fields=["status", "next_hand_at", "next_server_seed"])
    publish.hand_changed_on_commit(
        room.pk,
        hand,
        [(state, [{"type": "HandStarted"}])],
        viewers=seat_viewers(seats),
        private=room.private,
    )
    # One payload for the deal and the ready (or bot) that dealt it: the callers send none
    # of their own when a hand starts.
    publish.room_changed_on_commit(room.pk)
    return hand


# --------------------------------------------------------------------------
# Playing


@transaction.atomic
def hand_act(*, room_id, user, version, action) -> int:
    """Apply a seated player's action; returns the new version.

    The one write path of a move: lock the room, read its playing hand (current: read
    under the lock), apply the engine, then ``hand_save_steps``."""
    room = store.lock_room(room_id)
    if room is None:
        raise ServiceError("no_room", "no such room", 404)
    # Who is connected decides a clock only at a table without timers.
    hand, seats, fresh = store.read_table(room, presence=untimed(room))
    if hand is None:
        raise ServiceError("no_hand", "no hand is being played in this room", 409)
    seat = next((s for s in seats if s.user_id == user.pk and not s.left), None)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated in this room", 403)
    if not isinstance(action, dict):
        raise ServiceError("bad_action", "an action is an object")
    if action.get("type") == "leave":
        # One leave path, whichever door it comes through (the lock is re-entered).
        room_leave(room_id=room.pk, user=user)
        return Hand.objects.get(pk=hand.pk).version
    check_member(room, user)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError("bad_version", "v must be the version of the state you act on")
    if action.get("type") == "close":  # the table's own, when the window's time is over
        raise ServiceError("illegal", "the table closes a claim window, not a player", 409)
    state = HandState.from_json(hand.state)

    def stale():
        return ServiceError(
            "stale", f"stale version {version}: the table is at {hand.version}", 409
        )

    if version != hand.version and not same_decision(hand, state, version):
        raise stale()
    out = apply(state, seat.index, action)
    if isinstance(out, Rejection):
        if version != hand.version:  # e.g. this seat has answered since: the table moved on
            raise stale()
        raise ServiceError(out.code, out.reason, 409)
    now = timezone.now()
    steps = [(seat.index, action, "player", *out), *closing(hand, out[0], now)]
    hand_save_steps(room, hand, steps, seats, now, fresh=fresh)
    return hand.version


def hand_save_steps(
    room: Room, hand: Hand, steps, seats: list[Seat], now=None, *, fresh=None
) -> None:
    """Save the snapshot and append accepted actions to the log, in this transaction
    (the room locked), and publish each seat's view on commit.

    ``steps`` is a list of ``(seat, action, source, new_state, events)``; ``now`` is the
    clock the actions were decided on (a deadline sweep's).  At the hand's end the room
    moves on in the same transaction (``finisher.hand_ended``).  ``fresh``: the users
    connected there, if the caller read them under the lock (``clocks.set_deadlines``)."""
    now = now or timezone.now()
    state = steps[-1][3]
    hand.state = state.to_json()
    # The version the table shows: an answer that leaves a claim window open is its
    # answerer's alone (``games.rules.apply``), and only they are sent its state.
    shown = hand.version
    private_to = []
    for seat, _, _, st, _ in steps:
        private_to.append(seat if st.public_version == shown else None)
        shown = st.public_version
    hand.version = state.public_version
    if state.phase == "ended":
        hand.status = Hand.Status.ENDED
        hand.result = state.result
        hand.ended_at = now
        hand.deadlines, hand.deadline_at = {}, None
    else:
        set_deadlines(room, hand, state, seats, now, fresh=fresh)
    store.save_move(hand, [(st.version, seat, act, source) for seat, act, source, st, _ in steps])
    if state.phase == "ended":
        finisher.hand_ended(room, hand, state, seats, now)
    publish.hand_changed_on_commit(
        room.pk,
        hand,
        [(step[3], step_events(*step)) for step in steps],
        viewers=seat_viewers(seats),
        private=room.private,
        private_to=private_to,
    )
    if state.phase == "ended":
        # After the hand's own messages are queued: the table hears hand_end before
        # the room moves on and before settled (eager Celery settles on commit, in order).
        finisher.announce_ended(room, hand)
