"""``evaluate`` never ends in a traceback: any request, well formed or not, gets either a
result of the documented shape or ``{"error": ...}`` with exit status 2 (shared/rules/README.md,
"Scoring one hand from outside").  Requests are built near the contract (14 tiles, real
melds, real options) so that most of them reach a variant's scorer, with any field replaced
by junk now and then."""

from __future__ import annotations

import io
import json
from math import prod

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import tiles as T
from games.rules.evaluate import FIELDS, MELD_KINDS, evaluate, main_evaluate
from games.rules.model import WIN_FLAGS, WIN_TYPES, WINDS
from games.rules.variants.registry import available, get_variant

VARIANTS = [v.key for v in available()]

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
any_tile = st.integers(0, T.NUM_TILES - 1)


def tiles_of(key: str):
    """A tile of the variant's set mostly (so that requests reach its scorer; flowers are
    laid out, not held), any now and then."""
    variant = get_variant(key)
    kinds = sorted({t for t in variant.wall_tiles(variant.resolve_options()) if t < T.FLOWER})
    return mostly(st.sampled_from(kinds), any_tile)


def tiles_text(tile, n: int):
    return st.lists(tile, min_size=n, max_size=n).map(T.fmt)


def mostly(good, other):
    """``good`` seven times in eight, else ``other``."""
    return st.sampled_from([True] * 7 + [False]).flatmap(lambda g: good if g else other)


def sometimes(good):
    """Mostly ``good``, now and then anything."""
    return mostly(good, junk)


@st.composite
def meld(draw, tile):
    kind = draw(st.sampled_from(MELD_KINDS))
    t = draw(tile)
    if kind == "chi":
        shown = T.fmt([t, t + 1, t + 2]) if T.is_suited(t) and t % 9 <= 6 else T.fmt([t] * 3)
    else:
        shown = T.fmt([t] * (4 if kind == "gang" else 3))
    out = {"kind": kind, "tiles": shown}
    if draw(st.booleans()):
        out["concealed"] = kind == "gang" and draw(st.booleans())
    return draw(sometimes(st.just(out)))


def option_value(option):
    if option.type == "bool":
        good = st.booleans()
    elif option.type == "choice":
        good = st.sampled_from(option.choices)
    elif option.type == "map":
        good = st.dictionaries(st.sampled_from(option.keys), st.integers(-1, 15), max_size=3)
    elif option.choices:
        good = st.sampled_from(option.choices)
    else:
        good = st.integers(option.min if option.min is not None else -3, (option.max or 20))
    return sometimes(good)


@st.composite
def request(draw, key: str, spoilt: bool):
    """A request as the contract describes it (tiles, melds and house rules at times out of
    range, so it reaches the scorer or the parser's checks of values); ``spoilt``: then one
    field replaced by anything, dropped, or one added."""
    variant = get_variant(key)
    tile = tiles_of(key)
    melds = draw(st.lists(meld(tile), max_size=4))
    n = 13 - 3 * len(melds) + draw(st.sampled_from([0] * 14 + [-1, 1]))
    hand = draw(tiles_text(tile, max(n, 0)))
    win_tile = draw(tiles_text(tile, 1))
    if draw(st.booleans()):  # sets and a pair: a shape that may win
        shape = []
        for _ in range(4 - len(melds)):
            t = draw(tile)
            chow = T.is_suited(t) and t % 9 <= 6 and draw(st.booleans())
            shape += [t, t + 1, t + 2] if chow else [t] * 3
        shape += [draw(tile)] * 2
        last = shape.pop(draw(st.integers(0, len(shape) - 1)))
        hand, win_tile = T.fmt(shape), T.to_str(last)
    options = {o.id: o for o in variant.options.options}
    chosen = draw(st.lists(st.sampled_from(sorted(options)), max_size=3, unique=True))
    req = {
        "variant": key,
        "rules": draw(st.fixed_dictionaries({i: option_value(options[i]) for i in chosen})),
        "hand": hand,
        "melds": melds,
        "win_tile": win_tile,
        "win_type": draw(st.sampled_from(WIN_TYPES)),
        "flags": draw(st.lists(st.sampled_from(WIN_FLAGS), max_size=3, unique=True)),
        "missing_suit": draw(st.sampled_from("mps")),
        "seat_wind": draw(st.sampled_from(WINDS)),
        "round_wind": draw(st.sampled_from(WINDS)),
        "wild": draw(tiles_text(any_tile, 1)),
        "flowers": draw(st.lists(st.integers(T.FLOWER, T.NUM_TILES - 1), max_size=8).map(T.fmt)),
        "cai_piao": draw(st.integers(0, 4)),
    }
    kept = ("variant", "hand", "melds", "win_tile", "win_type")  # required, or counted in 14
    for field in FIELDS:
        if field not in kept and draw(st.booleans()):
            del req[field]
    if spoilt:
        spoil = draw(st.sampled_from(["junk", "drop", "add"]))
        field = draw(st.sampled_from(FIELDS))
        if spoil == "junk":
            req[field] = draw(junk)
        elif spoil == "drop":
            req.pop(field, None)
        else:
            req[draw(st.text(min_size=1, max_size=5))] = draw(junk)
    return req


def assert_documented(answer: dict, key: str) -> None:
    json.dumps(answer)  # an answer is JSON
    if "error" in answer:
        assert set(answer) == {"error"} and isinstance(answer["error"], str) and answer["error"]
    elif answer["win"] is True:
        assert set(answer) == {"win", "items", "total"}
        assert isinstance(answer["total"], int) and answer["items"]
        names = get_variant(key).pattern_names()
        for item in answer["items"]:
            assert set(item) == {"id", "value"} and isinstance(item["value"], int)
            assert item["id"] in names, item
        # An item that applies several times is listed once (its values summed, or for a
        # multiplier multiplied), so the total follows from the items as the variant adds up.
        ids = [item["id"] for item in answer["items"]]
        assert len(ids) == len(set(ids)), answer
        values = [item["value"] for item in answer["items"]]
        if key == "hangzhou":
            assert answer["total"] == prod(values), answer
        elif key == "ningbo":
            assert answer["total"] == 1 + sum(values), answer
    else:
        assert answer["win"] is False and set(answer) == {"win", "reason"}
        assert isinstance(answer["reason"], str) and answer["reason"]


@pytest.mark.parametrize("spoilt", [False, True], ids=["near", "spoilt"])
@pytest.mark.parametrize("key", VARIANTS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_request_gets_a_result_or_an_error(key, spoilt, data):
    req = data.draw(request(key, spoilt))
    assert_documented(evaluate(req), key)
    out = io.StringIO()
    code = main_evaluate(io.StringIO(json.dumps(req)), out)
    answer = json.loads(out.getvalue())
    assert code == (2 if "error" in answer else 0)
    assert_documented(answer, key)
