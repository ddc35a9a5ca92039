"""Chosen deals for the browser tests: two URLs that only the test settings install
(``tests.urls``), so a production server never answers them.

``POST /test/rooms/<id>/deal/`` deals the room's next hand from the seeds given
(``{"server_seed": <64 hex>, "client_seeds": [<32 hex> × 4]}``, by seat; a bot's seat, or
one left out, keeps its default): it readies every human seat through ``room_ready``, as
the players' Ready would, so the
hand is dealt, recorded and published as any other, and its replay and fairness check
hold.  A test picks the seeds by dealing them with the pure engine first.

``POST /test/rooms/<id>/rig/`` lays out tiles in the hand being played (``{"hands":
{<seat>: <tiles>}, "drawn": <tile>, "front": <tiles>}``): the named seats get those
tiles, the wall's next draws are ``front``, and every other tile is still somewhere
once (taken from the wall and the unnamed hands, which get the spares back).  The
state is rewritten under the room's lock at the same version, so pages show it after a
reload; the hand's seeds and log no longer rebuild it (no replay, no spectator delay).
Both answer the hand as the server holds it, so a test can check what it set up.
"""

from __future__ import annotations

import json
from collections import Counter

from django.db import transaction
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config.refusals import ServiceError
from games.models import Hand, Room, Seat
from games.rules import tiles as T
from games.table.services import room_ready


def lay_out(state: dict, hands: dict[int, str], front: str = "", drawn: str | None = None):
    """``state`` (a hand's JSON) with ``hands`` held and ``front`` next off the wall.

    The tiles come from the hidden places (the hands and the wall; rivers and melds are
    history): the unnamed hands keep what they can and are filled from the wall; the wall
    keeps its order after ``front``.  Raises ValueError when the tiles are not there."""
    held = {k: T.parse(state["hands"][k]) for k in range(4)}
    wall = [T.parse_one(t) for t in state["wall"]]
    want = {int(k): T.parse(v) for k, v in hands.items()}
    for seat, tiles in want.items():
        if len(tiles) != len(held[seat]):
            raise ValueError(f"seat {seat} holds {len(held[seat])} tiles, not {len(tiles)}")
    first = T.parse(front)
    hidden = Counter(wall) + sum((Counter(h) for h in held.values()), Counter())
    named = sum((Counter(h) for h in want.values()), Counter()) + Counter(first)
    if named - hidden:
        raise ValueError(f"not hidden: {T.fmt(sorted((named - hidden).elements()))}")
    free = hidden - named

    def take(tiles, limit: int | None = None):
        """The tiles of ``tiles`` still free, in order (at most ``limit``), now taken."""
        out = []
        for t in tiles:
            if limit is not None and len(out) == limit:
                break
            if free[t]:
                free[t] -= 1
                out.append(t)
        return out

    out = dict(state, hands=list(state["hands"]))
    for seat in range(4):
        if seat in want:
            out["hands"][seat] = T.fmt(want[seat])
    for seat in set(range(4)) - set(want):
        mine = take(held[seat])
        mine += take(wall, len(held[seat]) - len(mine))
        out["hands"][seat] = T.fmt(sorted(mine))
    rest = take(wall)
    rest += list(free.elements())  # the named seats' spares
    out["wall"] = [T.to_str(t) for t in first + rest]
    if drawn is not None:
        seat = state["turn"]
        if T.parse_one(drawn) not in T.parse(out["hands"][seat]):
            raise ValueError(f"the drawn {drawn} is not in seat {seat}'s hand")
        out["drawn"] = drawn
    assert len(out["wall"]) == len(wall)
    return out


def answer(hand: Hand) -> JsonResponse:
    return JsonResponse({"hand_id": hand.pk, "number": hand.number, "state": hand.state})


def body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise ValueError("send a JSON object")
    return data


@csrf_exempt
@require_POST
def deal(request, room_id: int):
    try:
        data = body(request)
        with transaction.atomic():
            room = Room.objects.select_for_update().get(pk=room_id)
            if "server_seed" in data:
                room.next_server_seed = data["server_seed"]
                room.save(update_fields=["next_server_seed"])
            seeds = data.get("client_seeds") or [None] * 4
            for seat in Seat.objects.filter(room=room).select_related("user").order_by("index"):
                if seat.user_id and not seat.bot_controlled:
                    room_ready(room_id=room.pk, user=seat.user, client_seed=seeds[seat.index])
        hand = Hand.objects.filter(room_id=room_id).order_by("-number").first()
        if hand is None:
            raise ValueError("no hand was dealt (is every seat filled?)")
    except Room.DoesNotExist:
        return JsonResponse({"detail": "no such room"}, status=404)
    except (ValueError, ServiceError) as e:
        return JsonResponse({"detail": str(e)}, status=400)
    return answer(hand)


@csrf_exempt
@require_POST
def rig(request, room_id: int):
    try:
        data = body(request)
        with transaction.atomic():
            Room.objects.select_for_update().get(pk=room_id)
            hand = Hand.objects.filter(room_id=room_id).order_by("-number").first()
            if hand is None or hand.state["phase"] == "ended":
                raise ValueError("no hand in play")
            hand.state = lay_out(
                hand.state, data.get("hands", {}), data.get("front", ""), data.get("drawn")
            )
            hand.save(update_fields=["state"])
    except Room.DoesNotExist:
        return JsonResponse({"detail": "no such room"}, status=404)
    except ValueError as e:
        return JsonResponse({"detail": str(e)}, status=400)
    return answer(hand)
