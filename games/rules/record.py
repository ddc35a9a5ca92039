"""Hand records: what a finished hand publishes, how anyone checks it, how it replays.

(Named ``record`` because ``games.rules.replay`` is the engine's function.)

* ``make_record(variant, rules, seeds, dealer, match, log, *, over)`` → the record (the
  shape ``GET /api/hands/{id}/`` serves; the caller adds ``id``, ``room``, ``players``
  and the stored ``settlement`` around it).
* ``check_record(record)`` → ``{"ok": true, "transfers", "deltas"}`` or
  ``{"ok": false, "error", ["seq"]}``: re-deals from the revealed seeds, re-applies every
  action and compares; never raises, whatever the input.
* ``frames(record)`` → the replay page's steps, every hand face up.

The record (JSON)::

    {"variant": "sichuan", "rules": {...every option...}, "match": {...} | null,
     "dealer": 0, "hand_number": 3, "commitment": "<64 hex>",
     "client_seeds": ["<32 hex>", x4],
     # only once the hand is over:
     "server_seed": "<64 hex>",
     "actions": [{"seq": 1, "seat": 0, "action": {"type": "discard", "tile": "5m"},
                  "result": "<16 hex>"}, ...]}

The deal's inputs are ``match`` (the match the hand was dealt under; its ``dealer`` null
when the dice chose) or, when ``match`` is null, ``dealer`` (hands dealt outside a match).
``dealer`` is always who dealt.  ``result`` is :func:`state_digest` of the state after
the action: the first 16 hex digits of SHA-256 over the UTF-8 of the state's JSON
(``HandState.to_json``) with sorted keys and compact separators.
"""

from __future__ import annotations

import hashlib
import json

from .engine import Rejection, apply, deal_wall, new_hand, settle
from .match import MatchState
from .options import Options
from .rng import DealSeeds, commitment
from .state import HandState
from .variants.registry import get_variant
from .view import view

DIGEST_HEX = 16


class RecordError(ValueError):
    """A record that does not check: ``seq`` is the first action at fault (if any)."""

    def __init__(self, message: str, seq: int | None = None):
        super().__init__(message)
        self.seq = seq


def _canonical_json(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def state_digest(state: HandState) -> str:
    """The short digest of a state recorded as each action's ``result``."""
    return hashlib.sha256(_canonical_json(state.to_json())).hexdigest()[:DIGEST_HEX]


def _plain(value):
    """``value`` as JSON would bring it back (tuples become lists)."""
    return json.loads(json.dumps(value))


# --------------------------------------------------------------------------
# Building


def make_record(
    variant: str,
    rules,
    seeds: DealSeeds,
    dealer: int | None,
    match: MatchState | dict | None,
    log: list[tuple[int, dict]],
    *,
    over: bool,
) -> dict:
    """The hand's record.  ``seeds``, ``dealer``, ``match`` and ``log`` are what the hand
    was dealt and played with (``dealer`` is ignored for the deal when ``match`` is given,
    as in ``manage.py hand_verify``).  ``server_seed`` and ``actions`` only when ``over``.
    Raises ValueError if the log does not apply."""
    if not isinstance(seeds, DealSeeds):
        raise ValueError("seeds must be DealSeeds")
    v = get_variant(variant)
    # Stored rules may name renamed or retired options: read them as stored snapshots are.
    opts = rules if isinstance(rules, Options) else v.options.resolve_stored(rules)
    if isinstance(match, dict):  # {}: no match (hands stored before matches existed)
        match = MatchState.from_json(match) if match else None
    if match is None and dealer is None:
        match = MatchState()  # what new_hand uses: a fresh match, the dice pick the dealer
    deal = (None, match) if match is not None else (dealer, None)
    record = {
        "variant": v.key,
        "rules": _plain(opts.to_json()),
        "match": match.to_json() if match is not None else None,
        "dealer": None,
        "hand_number": seeds.hand_number,
        "commitment": seeds.commitment,
        "client_seeds": list(seeds.client_seeds),
    }
    if not over:
        record["dealer"] = deal_wall(v.key, opts, seeds, *deal).dealer
        return record
    state = new_hand(v.key, opts, seeds, *deal)
    record["dealer"] = state.dealer
    actions = []
    for n, (seat, action) in enumerate(log, 1):
        out = apply(state, seat, action)
        if isinstance(out, Rejection):
            raise ValueError(f"log action {n} ({action} by seat {seat}) rejected: {out.reason}")
        state = out[0]
        actions.append(
            {"seq": n, "seat": seat, "action": _plain(action), "result": state_digest(state)}
        )
    record["server_seed"] = seeds.server_seed
    record["actions"] = actions
    return record


# --------------------------------------------------------------------------
# Reading


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def dealt(record) -> tuple[HandState, list]:
    """The dealt state of a finished hand's record and its action entries (unchecked)."""
    if not isinstance(record, dict):
        raise RecordError("a hand record is a JSON object")
    key = record.get("variant")
    if not isinstance(key, str):
        raise RecordError("variant must be a string")
    v = get_variant(key)
    rules = record.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise RecordError("rules must be an object")
    opts = v.options.resolve_stored(rules)
    server_seed = record.get("server_seed")
    if server_seed is None:
        raise RecordError("no server_seed: the hand is not over, nothing to check yet")
    committed = record.get("commitment")
    if not isinstance(committed, str):
        raise RecordError("commitment must be a string of 64 hex digits")
    actual = commitment(server_seed)  # ValueError on a malformed seed
    if actual != committed:
        raise RecordError(
            f"commitment mismatch: sha256(server_seed) is {actual}, "
            f"the record committed to {committed}"
        )
    client_seeds = record.get("client_seeds")
    if not isinstance(client_seeds, list):
        raise RecordError("client_seeds must be a list of four hex strings")
    seeds = DealSeeds(server_seed, tuple(client_seeds), record.get("hand_number"))
    match, dealer = record.get("match") or None, record.get("dealer")
    if dealer is not None and not (_is_int(dealer) and dealer in range(4)):
        raise RecordError("dealer must be a seat 0..3 or null")
    if match is not None:
        if not isinstance(match, dict):
            raise RecordError("match must be an object or null")
        m = match.get("dealer")
        if m is not None and not (_is_int(m) and m in range(4)):
            raise RecordError("match.dealer must be a seat 0..3 or null")
        state = new_hand(v.key, opts, seeds, None, match)
        if dealer is not None and state.dealer != dealer:
            raise RecordError(f"the deal makes seat {state.dealer} the dealer, not {dealer}")
    elif dealer is None:
        raise RecordError("a record without a match must name the dealer")
    else:
        state = new_hand(v.key, opts, seeds, dealer, None)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    return state, actions


def _entry(entry, n: int) -> tuple[int, dict, str | None]:
    if not isinstance(entry, dict):
        raise RecordError(f"action {n} is not an object", n)
    if entry.get("seq") != n or not _is_int(entry.get("seq")):
        raise RecordError(f"action {n} has seq {entry.get('seq')!r}, expected {n}", n)
    seat, action, result = entry.get("seat"), entry.get("action"), entry.get("result")
    if not (_is_int(seat) and seat in range(4)):
        raise RecordError(f"action {n}: seat must be 0..3", n)
    if not isinstance(action, dict):
        raise RecordError(f"action {n}: action must be an object", n)
    if result is not None and not isinstance(result, str):
        raise RecordError(f"action {n}: result must be a hex string or null", n)
    return seat, action, result


def _step(state: HandState, entry, n: int) -> tuple[HandState, list[dict], int, dict, str | None]:
    seat, action, result = _entry(entry, n)
    out = apply(state, seat, action)
    if isinstance(out, Rejection):
        raise RecordError(
            f"action {n} ({json.dumps(action, ensure_ascii=False)} by seat {seat}) "
            f"is rejected: {out.reason} [{out.code}]",
            n,
        )
    return out[0], out[1], seat, action, result


def check_record(record) -> dict:
    """Re-deal and re-play a finished hand's record (see the module docstring).

    ``{"ok": true, "transfers": [...], "deltas": [...]}`` when every action applies, every
    recorded ``result`` matches, the hand ends with the log and ``settle`` agrees with
    ``record["settlement"]`` (when present); otherwise ``{"ok": false, "error": ...}``
    with ``"seq"`` when one action is at fault.  Never raises."""
    n = 0
    try:
        state, actions = dealt(record)
        for n, entry in enumerate(actions, 1):
            state, _, seat, _, result = _step(state, entry, n)
            if result is not None:
                got = state_digest(state)
                if got != result.lower():
                    raise RecordError(
                        f"action {n} (seat {seat}) leads to another state than recorded "
                        f"(digest {got}, recorded {result})",
                        n,
                    )
        n = 0
        if state.phase != "ended":
            raise RecordError(f"the hand is not over after the {len(actions)} recorded actions")
        final = _plain(settle(state))
        stored = record.get("settlement")
        if stored is not None:
            if not isinstance(stored, dict) or not ({"transfers", "deltas"} & set(stored)):
                raise RecordError("settlement must be an object with transfers and/or deltas")
            for key in ("transfers", "deltas"):
                if key in stored and stored[key] != final[key]:
                    raise RecordError(
                        f"settlement {key} differ: the replay gives {json.dumps(final[key])}, "
                        f"the record says {json.dumps(stored[key])}"
                    )
        return {"ok": True, "transfers": final["transfers"], "deltas": final["deltas"]}
    except RecordError as e:
        out = {"ok": False, "error": str(e)}
        if e.seq is not None:
            out["seq"] = e.seq
        return out
    except ValueError as e:  # bad seeds, unknown variant or option, tiles …
        out = {"ok": False, "error": str(e)}
        if n:
            out["seq"] = n
        return out
    except Exception as e:  # noqa: BLE001 — a checker must answer, whatever it is fed
        out = {"ok": False, "error": f"malformed record ({type(e).__name__}: {e})"}
        if n:
            out["seq"] = n
        return out


# --------------------------------------------------------------------------
# Replay frames


def _revealed(events: list[dict]) -> list[dict]:
    """Events with every private part shown (the hand is over)."""
    out = []
    for e in events:
        e = {k: val for k, val in e.items() if k != "only"}
        private = e.pop("private", None)
        if private:
            e.update(private)
        out.append(e)
    return out


def frames(record) -> list[dict]:
    """The replay of a finished hand's record: frame 0 is the deal, then one frame per
    action, ``{"seq", "seat", "action", "events", "wins", "view"}``.  ``view`` is the
    spectator's view with every hand face up; ``events`` are the engine's events with
    their private parts shown; ``wins`` lists the win records of this step's ``HandWon``
    events (``seat``, ``tile``, ``win_type``, ``items`` — the score items —, ``total`` …),
    which ``view.players[k].won`` also keeps from then on.  Raises :class:`RecordError`
    (a ValueError) on a record that does not replay; ``check_record`` says why in full."""
    state, actions = dealt(record)
    out = [
        {
            "seq": 0,
            "seat": None,
            "action": None,
            "events": [],
            "wins": [],
            "view": view(state, None, reveal=True),
        }
    ]
    for n, entry in enumerate(actions, 1):
        state, events, seat, action, _ = _step(state, entry, n)
        events = _revealed(events)
        wins = [w for e in events if e["type"] == "HandWon" for w in e["wins"]]
        out.append(
            {
                "seq": n,
                "seat": seat,
                "action": action,
                "events": events,
                "wins": wins,
                "view": view(state, None, reveal=True),
            }
        )
    return out
