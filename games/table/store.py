"""The table's storage on a move's path: read a room's state under its lock, save a move.

On PostgreSQL these are hand-written statements, the fewest a durable move takes: one
locks the room, one reads its playing hand with the seats, their users and (when the
caller asks) the fresh presence, one saves the hand's snapshot and appends the actions
(a data-modifying CTE).  The ORM's version of the same reads and writes compiles every
query afresh at every move, which cost a move more than the engine, the views and the
disk flush together.  Elsewhere (SQLite, the embedded profile) the ORM does the same
work.  Either way the objects returned are the models' own, as the ORM loads them, and
what is saved is what the models read back: ``services.hand_save_steps`` stays the one write
path, this module only its storage.

Call inside a transaction (the room lock is held to its end).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import JSONField
from django.utils import timezone

from games.models import Hand, HandAction, Room, Seat
from games.table.selectors import fresh_users, seats_with_users

User = get_user_model()
# What a seat's user is read with: what the table uses of them (whether a bot, the name
# shown, the bot's account name); any other field is read by Django if ever asked for.
USER_FIELDS = ("id", "username", "display_name", "is_bot")


def _sql() -> bool:
    return connection.vendor == "postgresql"


@cache
def _columns(model) -> tuple[tuple[str, ...], frozenset[str]]:
    """(a model's concrete columns in field order, those holding JSON)."""
    fields = model._meta.concrete_fields
    return (
        tuple(f.column for f in fields),
        frozenset(f.column for f in fields if isinstance(f, JSONField)),
    )


def _instance(model, row, names, json_columns):
    """A model instance from a row, as the ORM's ``from_db`` makes it (JSON decoded)."""
    values = [
        orjson.loads(v) if name in json_columns and isinstance(v, str) else v
        for name, v in zip(names, row, strict=True)
    ]
    return model.from_db(connection.alias, list(names), values)


def _select(model, alias: str) -> str:
    return ", ".join(f'{alias}."{c}"' for c in _columns(model)[0])


@cache
def _lock_sql(skip_locked: bool) -> str:
    wait = " SKIP LOCKED" if skip_locked else ""
    return f"SELECT {_select(Room, 'r')} FROM games_room r WHERE r.id = %s FOR UPDATE{wait}"


def lock_room(room_id, *, skip_locked: bool = False) -> Room | None:
    """The room, its row locked to the end of the transaction; None: no such room, not
    an id (or, with ``skip_locked``, one another transaction holds)."""
    try:
        room_id = int(room_id)
    except (ValueError, TypeError):
        return None
    if not _sql():
        rooms = Room.objects.select_for_update(skip_locked=skip_locked)
        return rooms.filter(pk=room_id).first()
    with connection.cursor() as cur:
        cur.execute(_lock_sql(skip_locked), [room_id])
        row = cur.fetchone()
    return None if row is None else _instance(Room, row, *_columns(Room))


@cache
def _table_sql() -> str:
    seat_cols = _columns(Seat)[0]
    seat_row = ", ".join([*(f's."{c}"' for c in seat_cols), *(f'u."{f}"' for f in USER_FIELDS)])
    return (
        f"SELECT {_select(Hand, 'h')}, "
        f"(SELECT jsonb_agg(jsonb_build_array({seat_row}) ORDER BY s.index) "
        f"FROM games_seat s LEFT JOIN {User._meta.db_table} u ON u.id = s.user_id "
        "WHERE s.room_id = %(room)s), "
        "CASE WHEN %(presence)s THEN (SELECT array_agg(p.user_id) FROM games_presence p "
        "WHERE p.room_id = %(room)s AND p.seen_at >= %(since)s) END "
        "FROM (VALUES (1)) one LEFT JOIN games_hand h "
        "ON h.room_id = %(room)s AND h.status = 'playing'"
    )


def _seat(values) -> Seat:
    names, _ = _columns(Seat)
    seat = Seat.from_db(connection.alias, list(names), values[: len(names)])
    user = values[len(names) :]
    if user[0] is not None:
        seat.user = User.from_db(connection.alias, list(USER_FIELDS), user)
    else:
        seat.user = None
    return seat


def read_table(
    room: Room, *, presence: bool = False, now: datetime | None = None
) -> tuple[Hand | None, list[Seat], set[int] | None]:
    """Under the room's lock: (its playing hand, None if none; its seats in order with
    their users; with ``presence``, the users with a fresh socket there as
    ``selectors.fresh_users`` says, else None)."""
    if not _sql():
        hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
        return hand, seats_with_users(room.pk), fresh_users(room.pk, now) if presence else None
    since = (now or timezone.now()) - timedelta(seconds=settings.GAME_PRESENCE_TTL)
    with connection.cursor() as cur:
        cur.execute(_table_sql(), {"room": room.pk, "presence": presence, "since": since})
        row = cur.fetchone()
    names, json_columns = _columns(Hand)
    n = len(names)
    hand = None if row[0] is None else _instance(Hand, row[:n], names, json_columns)
    seats = [_seat(values) for values in orjson.loads(row[n] or "[]")]
    for seat in seats:
        seat.room = room
    if hand is not None:
        hand.room = room
    fresh = None if not presence else set(row[n + 1] or ())
    return hand, seats, fresh


def _json(value) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


@cache
def _save_sql(steps: int) -> str:
    rows = ", ".join(["(%s, %s, %s, %s::jsonb, %s, %s)"] * steps)
    return (
        "WITH saved AS (UPDATE games_hand SET state = %s::jsonb, version = %s, "
        "deadlines = %s::jsonb, deadline_at = %s, status = %s, result = %s::jsonb, "
        "ended_at = %s WHERE id = %s RETURNING id) "
        "INSERT INTO games_handaction (hand_id, seq, seat, action, source, created_at) "
        f"SELECT v.* FROM (VALUES {rows}) v(hand_id, seq, seat, action, source, created_at), "
        "saved"
    )


def save_move(hand: Hand, actions: list[tuple[int, int, dict, str]]) -> None:
    """Save the hand's snapshot as it now is (state, version, deadlines, status, result,
    end) and append ``actions`` (``(seq, seat, action, source)``) to its log, in one
    statement."""
    if not _sql():
        fields = ["state", "version", "deadlines", "deadline_at", "status", "result", "ended_at"]
        hand.save(update_fields=fields)
        HandAction.objects.bulk_create(
            HandAction(hand=hand, seq=seq, seat=seat, action=action, source=source)
            for seq, seat, action, source in actions
        )
        return
    now = timezone.now()
    params = [
        _json(hand.state),
        hand.version,
        _json(hand.deadlines),
        hand.deadline_at,
        hand.status,
        None if hand.result is None else _json(hand.result),
        hand.ended_at,
        hand.pk,
    ]
    for seq, seat, action, source in actions:
        params += [hand.pk, seq, seat, _json(action), source, now]
    with connection.cursor() as cur:
        cur.execute(_save_sql(len(actions)), params)
