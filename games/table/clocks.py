"""A table's clocks: who is awaited at a decision point, how long each seat gets, and
what a clock running out decides for a human.

Call with the room row locked (the services do); nothing here writes."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from games.models import Hand, Room, Seat
from games.rules import apply, awaited, legal_actions, window_closable
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.table.selectors import fresh_users

# What a player chooses to do at someone else's discard or by winning: never decided
# for a human whose clock ran out (only 托管, which they chose, or a bot may).
CLAIMS_AND_WINS = frozenset({"hu", "peng", "gang", "chi"})


def untimed(room: Room) -> bool:
    """A table where a decision may have no clock: then whether its player is connected
    decides whether it gets one (``_delay``)."""
    return room.discard_seconds is None or room.claim_seconds is None


def same_decision(hand: Hand, state, version: int) -> bool:
    """An action sent on an older ``version`` still answers the decision in hand: the
    seats decide at once (a claim window, choosing suits or tiles to exchange; never a
    turn of play) and the table has been at this decision point since that version, so
    all that moved meanwhile is other seats' answers, which no seat sees before the
    decision is over.  Whether this seat may still answer is ``apply``'s to say; if it
    may not (it has answered already), the action is stale, as any other on an old
    version."""
    since = hand.deadlines.get("since")
    return (
        state.phase != "play"
        and isinstance(since, int)
        and since <= version < state.public_version
        and hand.deadlines.get("key") == decision_key(state)
    )


def decision_key(state) -> str:
    """Identifies one decision point: a claim window stays the same key while
    its answers come in, so seats still to answer keep their deadlines."""
    rivers = sum(len(d) for d in state.discards)
    return f"{state.phase}:{state.turn}:{rivers}:{len(state.kongs)}:{len(state.win_order)}"


def bot_level(room: Room, seat: Seat) -> str:
    """The level the bot policy plays ``seat`` at: the room's for its bot players; the
    best for a person's seat (托管, or a seat its player left)."""
    return room.bot_level if seat.is_bot else Room.BotLevel.STRONG


def seat_delay(room: Room, seat: Seat, state, present: set[int]) -> float | None:
    """Seconds this seat gets for the current decision (None: no clock)."""
    if seat.bot_controlled:
        return settings.GAME_BOT_DELAY
    delay = room.claim_seconds if state.phase == "claim" else room.discard_seconds
    if delay is None and seat.index not in present:
        # A table without timers still may not wait forever for someone who is gone.
        delay = settings.GAME_AWAY_SECONDS
    return delay


def set_deadlines(
    room: Room,
    hand: Hand,
    state,
    seats: list[Seat],
    now: datetime,
    *,
    fresh: set[int] | None = None,
) -> None:
    """Each awaited seat's clock for the decision point ``state`` is at; ``since`` is
    the version the table came to this decision point at (``same_decision``).

    A private claim window (``games.rules.window_closable``) also gets ``close``: when
    the server closes it, ``settings.GAME_CLAIM_WINDOW`` after it opened, whether anybody
    could claim or not.  It is the window's public clock; the seats with an option keep
    their own, and while one of them decides the window waits for it.  ``fresh``: the
    users with a fresh socket in the room, if the caller read them (None: read here if
    needed)."""
    key = decision_key(state)
    same = hand.deadlines.get("key") == key
    old = hand.deadlines.get("seats", {}) if same else {}
    since = hand.deadlines.get("since") if same else state.public_version
    waiting = awaited(state)
    # Presence only matters to a person's clock at a table without timers: spare every
    # other decision (a claim window nobody can answer, bots to move) the query.
    people = any(not seats[k].bot_controlled for k in waiting)
    if not (people and untimed(room)):
        users = frozenset()
    else:
        users = fresh if fresh is not None else fresh_users(room.pk, now)
    present = {s.index for s in seats if s.user_id in users and not s.left}
    per_seat = {}
    for seat in waiting:
        delay = seat_delay(room, seats[seat], state, present)
        if delay is None:
            continue
        due = now + timedelta(seconds=delay)
        kept = old.get(str(seat))
        # A clock never moves later within one decision; it moves earlier when a bot takes
        # the seat over (its player left) or the player's time is cut short.
        if kept is not None and datetime.fromisoformat(kept) < due:
            due = datetime.fromisoformat(kept)
        per_seat[str(seat)] = due.isoformat()
    deadlines = {"key": key, "since": since, "seats": per_seat}
    hand.deadline_at = min(map(datetime.fromisoformat, per_seat.values())) if per_seat else None
    if state.phase == "claim" and state.match.private_claims:
        close = hand.deadlines.get("close") if same else None
        if close is None:
            close = (now + timedelta(seconds=settings.GAME_CLAIM_WINDOW)).isoformat()
        deadlines["close"] = close
        if window_closable(state):  # nobody left to decide: the close is what is due
            hand.deadline_at = datetime.fromisoformat(close)
    hand.deadlines = deadlines


def close_due(hand: Hand, state, now: datetime) -> bool:
    """Whether the server closes ``state``'s claim window now (``set_deadlines``)."""
    close = hand.deadlines.get("close")
    return window_closable(state) and close is not None and datetime.fromisoformat(close) <= now


def closing(hand: Hand, state, now: datetime) -> list:
    """The server's close of ``state``'s claim window as a step for ``hand_save_steps``, if it is
    due now: an answer that leaves nobody deciding after the window's time closes it in
    its own transaction, as the sweeper would a moment later.  [] otherwise."""
    if not close_due(hand, state, now):
        return []
    closer = state.claim["from"]
    return [(closer, {"type": "close"}, "server", *apply(state, closer, {"type": "close"}))]


def timeout_action(state, seat: int) -> dict:
    """What a human's clock running out decides for ``seat``: a claim window is a pass; a
    turn discards the drawn tile, or the tile the variant forces (Sichuan's 定缺 suit
    first, say: then the legal discards are only those); a choice before play (定缺,
    换三张) is the bot's.  Never a claim or a win, unless the engine offers nothing else."""
    legal = legal_actions(state, seat)
    if {"type": "pass"} in legal:
        return {"type": "pass"}
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        drawn = T.to_str(state.drawn) if state.drawn is not None else None
        mine = next((a for a in discards if a["tile"] == drawn), None)
        if mine is not None:
            return mine
        bot = choose_action(state, seat)
        return bot if bot in discards else discards[-1]
    bot = choose_action(state, seat)
    if bot is not None and bot["type"] in CLAIMS_AND_WINS:
        return next((a for a in legal if a["type"] not in CLAIMS_AND_WINS), bot)
    return bot
