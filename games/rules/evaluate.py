"""``python -m games.rules evaluate``: score one hand described in JSON.

The contract is public (``../shared/rules/README.md``, "Scoring one hand from
outside").  :func:`evaluate` turns a request object into the answer object;
:func:`main_evaluate` is the stdin/stdout wrapper the CLI calls.

Answers: ``{"win": true, "items": [...], "total": N}`` or ``{"win": false,
"reason": ...}`` for a well-formed request (exit 0); ``{"error": ...}`` for a
malformed one (exit 2).  Whether the tiles make a legal win is the variant's
question; this module only checks that the request describes a possible hand
(known fields, valid tiles, 14 tiles with a kong counted as 3, at most four of
a kind unless a wild is named).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from . import tiles as T
from .model import WIN_FLAGS, WIN_TYPES, WINDS, Meld, WinContext
from .options import OptionsError
from .variants import UnknownVariant, get_variant

FIELDS = (
    "variant",
    "rules",
    "hand",
    "melds",
    "win_tile",
    "win_type",
    "flags",
    "missing_suit",
    "seat_wind",
    "round_wind",
    "wild",
    "flowers",
    "cai_piao",
)
REQUIRED = ("variant", "hand", "win_tile", "win_type")
MELD_FIELDS = ("kind", "tiles", "concealed")
MELD_KINDS = ("chi", "peng", "gang")


class RequestError(ValueError):
    """A malformed request; the message is the ``error`` text."""


def _tiles(value: Any, field: str) -> list[int]:
    if not isinstance(value, str):
        raise RequestError(f"{field} must be a tile string, got {type(value).__name__}")
    try:
        return T.parse(value)
    except T.TileError as e:
        raise RequestError(f"{field}: {e}") from None


def _hand_tiles(value: Any, field: str, wilds: frozenset[int] = frozenset()) -> list[int]:
    tiles = _tiles(value, field)
    flowers = [t for t in tiles if T.is_flower(t) and t not in wilds]
    if flowers:
        raise RequestError(f"{field}: flowers ({T.fmt(flowers)}) belong in 'flowers'")
    return tiles


def _one_tile(
    value: Any, field: str, *, flowers: bool = False, wilds: frozenset[int] = frozenset()
) -> int:
    tiles = _tiles(value, field) if flowers else _hand_tiles(value, field, wilds)
    if len(tiles) != 1:
        raise RequestError(f"{field} must be exactly one tile, got {len(tiles)}")
    return tiles[0]


def _meld(value: Any, index: int, kind_of=lambda t: t) -> Meld:
    """One meld of the request.  ``kind_of`` is the kind a tile plays as in a shape (a
    stand-in such as Hangzhou's 白板 chows as the 财神 kind); the meld keeps the faces."""
    where = f"melds[{index}]"
    if not isinstance(value, Mapping):
        raise RequestError(f"{where} must be an object")
    unknown = sorted(set(value) - set(MELD_FIELDS))
    if unknown:
        raise RequestError(f"{where}: unknown field(s) {', '.join(unknown)}")
    kind = value.get("kind")
    if kind not in MELD_KINDS:
        raise RequestError(f"{where}: kind must be one of {', '.join(MELD_KINDS)}, got {kind!r}")
    if "tiles" not in value:
        raise RequestError(f"{where}: missing 'tiles'")
    tiles = sorted(_hand_tiles(value["tiles"], f"{where}.tiles"))
    concealed = value.get("concealed", False)
    if not isinstance(concealed, bool):
        raise RequestError(f"{where}: concealed must be true or false")
    if concealed and kind != "gang":
        raise RequestError(f"{where}: only a gang can be concealed")
    shown = T.fmt(tiles)
    if kind == "chi":
        kinds = sorted(kind_of(t) for t in tiles)
        ok = (
            len(kinds) == 3
            and T.is_suited(kinds[0])
            and kinds[0] // 9 == kinds[2] // 9
            and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
        )
        if not ok:
            raise RequestError(
                f"{where}: a chi is three consecutive tiles of one suit, got {shown}"
            )
    else:
        size = 3 if kind == "peng" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise RequestError(f"{where}: a {kind} is {size} equal tiles, got {shown}")
    return Meld(kind=kind, tiles=tuple(tiles), concealed=concealed)


def _wind(value: Any, field: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in WINDS:
        raise RequestError(f"{field} must be one of E, S, W, N, got {value!r}")
    return WINDS.index(value)


def _parse(request: Any):
    """Validate a request; return ``(variant, options, WinContext)``."""
    if not isinstance(request, Mapping):
        raise RequestError(f"the request must be a JSON object, got {type(request).__name__}")
    unknown = sorted(set(request) - set(FIELDS))
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(unknown)} (known: {', '.join(FIELDS)})")
    missing = [f for f in REQUIRED if f not in request]
    if missing:
        raise RequestError(f"missing field(s) {', '.join(missing)}")

    key = request["variant"]
    if not isinstance(key, str):
        raise RequestError("variant must be a string")
    try:
        variant = get_variant(key)
        opts = variant.resolve_options(request.get("rules"))
    except (UnknownVariant, OptionsError) as e:
        raise RequestError(str(e)) from None

    # The indicator is a tile of the variant's set: a flower only where the set has
    # flowers (a season or plant makes its set wild), and wild flowers are held like any
    # wild: only flowers that are not wild belong in 'flowers'.
    wild = request.get("wild")
    if wild is not None:
        wild = _one_tile(wild, "wild", flowers=True)
        if wild not in variant.wall_tiles(opts):
            raise RequestError(f"wild: {T.to_str(wild)} is not a tile of {variant.key}")
    wilds = variant.wild_kinds_for(wild, opts) if wild is not None else frozenset()
    hand = _hand_tiles(request["hand"], "hand", wilds)
    win_tile = _one_tile(request["win_tile"], "win_tile", wilds=wilds)
    raw_melds = request.get("melds", [])
    if not isinstance(raw_melds, list):
        raise RequestError("melds must be a list")
    melds = tuple(
        _meld(m, i, lambda t: variant.shape_kind(wild, opts, t)) for i, m in enumerate(raw_melds)
    )

    win_type = request["win_type"]
    if win_type not in WIN_TYPES:
        raise RequestError(f"win_type must be one of {', '.join(WIN_TYPES)}, got {win_type!r}")
    flags = request.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise RequestError("flags must be a list of strings")
    bad = sorted(set(flags) - set(WIN_FLAGS))
    if bad:
        raise RequestError(f"unknown flag(s) {', '.join(bad)} (known: {', '.join(WIN_FLAGS)})")

    missing_suit = request.get("missing_suit")
    if missing_suit is not None:
        if not isinstance(missing_suit, str) or missing_suit not in T.SUIT_LETTER_TO_INDEX:
            raise RequestError(f"missing_suit must be m, p or s, got {missing_suit!r}")
        missing_suit = T.SUIT_LETTER_TO_INDEX[missing_suit]

    flowers = _tiles(request.get("flowers", ""), "flowers")
    if any(not T.is_flower(t) for t in flowers):
        raise RequestError("flowers may hold only f tiles")
    cai_piao = request.get("cai_piao", 0)
    if isinstance(cai_piao, bool) or not isinstance(cai_piao, int) or cai_piao < 0:
        raise RequestError(f"cai_piao must be a whole number >= 0, got {cai_piao!r}")

    n = len(hand) + 3 * len(melds) + 1
    if n != 14:
        raise RequestError(
            f"hand + 3 per meld + the winning tile must be 14 tiles, got {n} "
            f"({len(hand)} in hand, {len(melds)} meld(s))"
        )
    if wild is None:
        counts = T.counts([*hand, win_tile, *(t for m in melds for t in m.tiles)])
        over = [t for t in range(T.NUM_KINDS) if counts[t] > 4]
        if over:
            raise RequestError(f"more than four of {T.fmt(over)}")

    ctx = WinContext(
        hand=tuple(hand),
        melds=melds,
        win_tile=win_tile,
        win_type=win_type,
        flags=frozenset(flags),
        missing_suit=missing_suit,
        seat_wind=_wind(request.get("seat_wind"), "seat_wind"),
        round_wind=_wind(request.get("round_wind"), "round_wind"),
        wild=wild,
        flowers=tuple(flowers),
        cai_piao=cai_piao,
        dealer="dealt_hand" in flags,
    )
    return variant, opts, ctx


def evaluate(request: Any) -> dict:
    """Score one hand: the answer object, or ``{"error": ...}`` for bad input."""
    try:
        variant, opts, ctx = _parse(request)
    except RequestError as e:
        return {"error": str(e)}
    try:
        result = variant.score(ctx, opts)
    except NotImplementedError:
        return {"error": f"scoring is not available yet for variant {variant.key!r}"}
    return result.to_json()


def main_evaluate(stdin: TextIO, stdout: TextIO) -> int:
    """Read one JSON object from ``stdin``, print the answer on one line.

    Returns the exit status: 0 for a scored result (win or not), 2 for
    malformed input.
    """
    try:
        request = json.loads(stdin.read())
    except ValueError as e:  # JSONDecodeError, or bytes that are not UTF-8
        answer: dict = {"error": f"invalid JSON: {e}"}
    else:
        answer = evaluate(request)
    stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    stdout.flush()
    return 2 if "error" in answer else 0
