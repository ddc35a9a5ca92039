"""static/js/fair.js (the browser's verify panel) deals exactly as the Python engine.

Runs the real module under Node (Web Crypto's SHA-256 and HMAC-SHA256, as in the browser)
on many seeds of every registered variant and compares the commitment, the dealer and
dice, the wall as broken and the hands, flowers, indicator and live wall after the deal
with ``games.rules``.  A variant without a JS deal fails here, not silently in the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, available, get_variant, new_hand
from games.rules import tiles as T
from games.rules.engine import deal_wall
from games.rules.match import MatchState
from tests.games import node

SCRIPT = Path(__file__).parent / "js" / "fair_deal.mjs"


@pytest.fixture(scope="module")
def fair_module(tmp_path_factory) -> Path:
    return node.as_module(tmp_path_factory.mktemp("fairjs"), "fair.js")


def js_deals(module: Path, cases: list[dict]) -> list[dict]:
    return node.results(SCRIPT, module, cases)


def python_deal(variant: str, rules: dict, seeds: DealSeeds, dealer: int | None) -> dict:
    match = MatchState(dealer=dealer)
    d = deal_wall(variant, rules, seeds, match=match)
    s = new_hand(variant, rules, seeds, match=match)
    return {
        "commitment": seeds.commitment,
        "dealer": s.dealer,
        "dice": s.vs.get("dice"),
        "hands": [T.fmt(h) for h in s.hands],
        "flowers": [T.fmt(f) for f in s.flowers],
        "indicator": T.to_str(s.indicator) if s.indicator is not None else None,
        "wall": [T.to_str(t) for t in d.wall],
        "live": [T.to_str(t) for t in s.wall],
    }


def procedure(variant: str, rules: dict) -> dict:
    """The variant's deal as the hand page serves it."""
    v = get_variant(variant)
    return v.deal_procedure(v.resolve_options(rules))


def case(variant, rules, seeds: DealSeeds, dealer):
    return {"procedure": procedure(variant, rules), "seeds": seeds.to_json(), "dealer": dealer}


def check(module, cases):
    mine = js_deals(module, [case(*c) for c in cases])
    for c, got in zip(cases, mine, strict=True):
        assert got == python_deal(*c), f"{c[0]} seeds {c[2]} dealer {c[3]}"


VARIANTS = [v.key for v in available()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_fair_js_deals_every_variant_as_python(fair_module, variant):
    cases = []
    for n in range(12):
        seeds = DealSeeds.for_test(n, hand_number=1 + n * 7)
        cases.append((variant, {}, seeds, None if n % 2 else n % 4))
    check(fair_module, cases)


def test_fair_js_follows_the_rules_that_draw(fair_module):
    """Options that draw from the stream or change the tile set (where a variant has one)."""
    cases = []
    for v in available():
        for opt in v.options.describe():
            if opt["type"] == "bool":
                for value in (True, False):
                    cases.append((v.key, {opt["id"]: value}, DealSeeds.for_test(7), None))
    check(fair_module, cases)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    variant=st.sampled_from(VARIANTS),
    server=st.binary(min_size=32, max_size=32),
    clients=st.lists(st.binary(min_size=16, max_size=16), min_size=4, max_size=4),
    number=st.integers(1, 2**32 - 1),
    dealer=st.one_of(st.none(), st.integers(0, 3)),
)
def test_fair_js_agrees_on_any_seeds(fair_module, variant, server, clients, number, dealer):
    seeds = DealSeeds(server.hex(), tuple(c.hex() for c in clients), number)
    check(fair_module, [(variant, {}, seeds, dealer)])


def test_fair_js_refuses_malformed_seeds(fair_module):
    bad = DealSeeds.for_test(1).to_json() | {"server_seed": "AB" * 32}
    out = node.run(
        SCRIPT, fair_module, [case(VARIANTS[0], {}, DealSeeds.for_test(1), 0) | {"seeds": bad}]
    )
    assert out.returncode != 0 and "lowercase hex" in out.stderr


VERIFY = Path(__file__).parent / "js" / "fair_verify.mjs"


def js_verify(module: Path, cases: list[dict]) -> list[dict]:
    return node.results(VERIFY, module, cases)


def played(variant: str, n: int) -> dict:
    """A bot-played hand's record and replay frames, as the API serves them."""
    from games.rules.record import frames, make_record
    from games.rules.simulate import play_hand

    seeds = DealSeeds.for_test(n, hand_number=n + 1)
    match = MatchState(dealer=None if n % 2 else n % 4)
    _, log = play_hand(variant, {}, seeds, match=match, check=False)
    record = make_record(variant, {}, seeds, None, match, log, over=True)
    out = {"record": record, "frames": frames(record), "procedure": procedure(variant, {})}
    return json.loads(json.dumps(out))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_verify_panel_passes_played_hands_and_every_draw(fair_module, variant):
    cases = [played(variant, n) for n in range(4)]
    for case, got in zip(cases, js_verify(fair_module, cases), strict=True):
        drawn = sum(
            e["type"] in ("TileDrawn", "BonusLaidOut") for f in case["frames"] for e in f["events"]
        )
        assert got["commitment"] and got["deal"], got
        assert got["draws"] == {"ok": True, "draws": drawn, "mismatch": None}
        assert drawn > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_verify_panel_catches_tampering(fair_module, variant):
    case = played(variant, 5)
    seed = case["record"]["server_seed"]
    other = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    # A draw the wall did not give: the first drawn tile swapped for another kind.
    moved = json.loads(json.dumps(case))
    frame, event = next(
        (f, e) for f in moved["frames"] for e in f["events"] if e["type"] == "TileDrawn"
    )
    event["tile"] = "1z" if event["tile"] != "1z" else "2z"
    # A dealt hand that is not what the seeds deal.
    dealt = json.loads(json.dumps(case))
    p = dealt["frames"][0]["view"]["players"][1]
    p["hand"] = "1z" + p["hand"] if not p["hand"].startswith("1") else "2z" + p["hand"]
    seeded, drew, hand = js_verify(fair_module, [dict(case, server_seed=other), moved, dealt])
    assert not seeded["commitment"] and not seeded["deal"]
    assert seeded["draws"]["ok"] is False
    assert drew["commitment"] and drew["deal"] and drew["draws"]["mismatch"]["seq"] == frame["seq"]
    assert hand["commitment"] and not hand["deal"]
    assert [m["what"] for m in hand["mismatches"]] == ["hand 1"]
