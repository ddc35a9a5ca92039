"""The shapes of what table sockets receive, built from engine state.

Pure functions of their arguments (no database, no channel layer), used by the
publisher for live messages and by the selectors for a reconnecting socket's
snapshot, so both always send the same thing.
"""

from __future__ import annotations

from datetime import UTC, datetime

import orjson

from games.rules import events_for, view, views
from games.rules.explain import explain_wins
from games.rules.hints import hints


def dumps(env: dict) -> str:
    """A message as the JSON text frame it goes out as (orjson: the table's states are
    most of what the server serialises)."""
    return orjson.dumps(env, option=orjson.OPT_NON_STR_KEYS).decode()


def envelope(t: str, v, d) -> dict:
    return {"t": t, "v": v, "d": d}


def seat_state(state, seat: int | None, deadlines: dict, hand_number: int, events=()) -> dict:
    """The ``state`` envelope for one seat (None: a spectator)."""
    return seat_states(state, [seat], deadlines, hand_number, events)[seat]


def seat_states(state, seats, deadlines: dict, hand_number: int, events=()) -> dict:
    """``seat_state`` for each of ``seats`` (seat -> envelope): the views built together
    (``games.rules.views``)."""
    per_seat = deadlines.get("seats", {}) if state.phase != "ended" else {}
    # Whose turn it is is public, so is its clock; a claim window's seats' clocks are not
    # (they would tell who can claim), only when the table closes it (``clocks``).
    turn_deadline = per_seat.get(str(state.turn)) if state.phase == "play" else None
    if state.phase == "claim":
        turn_deadline = deadlines.get("close")
    # Lets a client correct its countdown for clock skew.
    now = datetime.now(UTC).isoformat()
    events = list(events)
    out = {}
    for seat, d in views(state, seats).items():
        d["events"] = events_for(events, seat)
        d["deadline"] = per_seat.get(str(seat)) if seat is not None else None
        d["turn_deadline"] = turn_deadline
        d["hand"] = hand_number
        d["hints"] = hints(state, seat)  # from the seat's own view only
        d["server_time"] = now
        out[seat] = envelope("state", state.public_version, d)
    return out


def played_for(seat: int, seq: int, action: dict) -> dict:
    """The event telling ``seat``, and nobody else, that the server made ``action`` for it
    because its clock ran out (``seq``: the action's place in the hand's log).  A live
    step and a reconnecting seat's snapshot (read from the log) carry the same event."""
    return {"type": "PlayedFor", "seat": seat, "only": seat, "seq": seq, "action": action}


def step_events(seat: int, action: dict, source: str, state, events) -> list[dict]:
    """A saved step's events as the table is told them: a move the clock made is marked
    for its seat (``played_for``)."""
    if source != "timeout":
        return list(events)
    return [*events, played_for(seat, state.version, action)]


def hand_end_payload(state, hand) -> dict:
    """What everyone at the table learns when a hand ends: the result and what was paid
    during play, every hand face up.  End-of-hand payments (the variant's ``settle``)
    come afterwards in ``settled``, computed by the settlement task."""
    return {
        "hand": hand.number,
        "hand_id": hand.pk,
        "result": state.result,
        "wins": [state.won[s] for s in state.win_order],
        "transfers": state.transfers,
        "hands": view(state, None)["players"],
        "server_seed": state.seeds.server_seed,
        "commitment": state.seeds.commitment,
        "client_seeds": list(state.seeds.client_seeds),
        "explain": explain_wins(state),
    }
