"""The variant-neutral core: stored shapes, options, the match, money and imports."""

from __future__ import annotations

import ast
import json
import pathlib

import pytest

from games.rules import (
    DealSeeds,
    HandState,
    MatchState,
    OptionsError,
    apply,
    new_hand,
    new_match,
    next_match,
    settle,
)
from games.rules.options import Option, OptionSet
from games.rules.simulate import play_hand

DATA = pathlib.Path(__file__).parent / "data"
RULES = pathlib.Path(__file__).resolve().parents[2] / "games" / "rules"


# --- stored shapes -------------------------------------------------------------------


def test_a_hand_stored_in_the_old_shape_loads_and_plays_on():
    """``sichuan_schema1.json`` was written by the engine before the variant state: a
    Sichuan hand with 换三张, stopped after a 直杠 (income inside ``kongs``, 定缺 at the
    top level) and its final state, which ran out the wall and paid 查大叫."""
    stored = json.loads((DATA / "sichuan_schema1.json").read_text())
    assert "schema" not in stored["state"] and "que" in stored["state"]
    state = HandState.from_json(stored["state"])
    assert state.vs["que"] == stored["state"]["que"]
    assert state.vs["kong_income"] == {"0": [[0, 1]]}
    assert state.vs["exchange_direction"] == stored["state"]["extra"]["exchange_direction"]
    for seat, action in stored["log"][stored["cut"] :]:
        out = apply(state, seat, action)
        assert not isinstance(out, tuple) or out[0] is not None
        state = out[0]
    old = stored["final"]
    assert state.phase == "ended" and state.hands == HandState.from_json(old).hands
    # Settled now, it pays what the old engine paid inside the live flow.
    assert settle(state)["deltas"] == old["result"]["deltas"]
    assert settle(state)["details"]["cha"] == old["extra"]["cha"]
    again = HandState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()


def test_a_renamed_or_retired_option_keeps_stored_rules_loadable():
    opts = OptionSet(
        (Option("escape_pay", "int", 16, "逃跑", "Leaving", min=0),),
        renamed={"run_pay": "escape_pay"},
        retired=("flowers",),
    )
    assert opts.resolve_stored({"run_pay": 8, "flowers": True}).escape_pay == 8
    with pytest.raises(OptionsError, match="unknown house rule 'run_pay'"):
        opts.resolve({"run_pay": 8})  # a new choice must use today's id


def test_an_unknown_schema_is_refused_clearly():
    d = new_hand("sichuan", None, DealSeeds.for_test(1)).to_json()
    d["schema"] = 99
    with pytest.raises(ValueError, match="schema 99"):
        HandState.from_json(d)


# --- map options ---------------------------------------------------------------------

VALUES = OptionSet(
    (
        Option(
            "tai_values",
            "map",
            {"zi_mo": 1, "ping_hu": 1, "qing_yi_se": 4},
            "台数",
            "Points",
            keys=("zi_mo", "ping_hu", "qing_yi_se"),
            min=0,
            max=50,
        ),
    )
)


def test_a_map_option_given_in_part_overrides_only_the_ids_it_names():
    assert VALUES.resolve({"tai_values": {"qing_yi_se": 6}}).tai_values == {
        "zi_mo": 1,
        "ping_hu": 1,
        "qing_yi_se": 6,
    }
    # Layers merge in turn: a club preset, then the room's own choice.
    both = VALUES.resolve({"tai_values": {"zi_mo": 2}}, {"tai_values": {"ping_hu": 0}})
    assert both.tai_values == {"zi_mo": 2, "ping_hu": 0, "qing_yi_se": 4}
    assert VALUES.resolve().tai_values["qing_yi_se"] == 4
    assert VALUES.describe()[0]["keys"] == ["zi_mo", "ping_hu", "qing_yi_se"]
    # Options with a map are hashable (the scoring caches key on them): equal, same hash.
    again = VALUES.resolve({"tai_values": {"zi_mo": 2}}, {"tai_values": {"ping_hu": 0}})
    assert again == both and hash(again) == hash(both)
    assert len({both, again, VALUES.resolve()}) == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"hua": 1}, "no id 'hua'"),
        ({"zi_mo": "1"}, "whole number"),
        ({"zi_mo": True}, "whole number"),
        ({"zi_mo": 51}, "at most 50"),
        ({"zi_mo": -1}, "at least 0"),
        ([1, 2], "object"),
    ],
)
def test_a_map_option_is_validated(value, message):
    with pytest.raises(OptionsError, match=message):
        VALUES.resolve({"tai_values": value})


# --- the match -----------------------------------------------------------------------


def test_match_json_round_trip_and_winds():
    m = MatchState(dealer=2, streak=3, prevailing=1, passes=5, hands_played=7, hands_total=8)
    m = m.dealt(2)
    assert m.seat_winds == (2, 3, 0, 1)  # the dealer is East
    assert MatchState.from_json(json.loads(json.dumps(m.to_json()))) == m


def test_the_deal_passes_on_and_the_prevailing_wind_moves_after_four_passes():
    m = MatchState(dealer=0, hands_total=10).dealt(0)
    for k in range(4):
        m = m.after_hand((k + 1) % 4, stays=False)
    assert m.prevailing == 1 and m.dealer == 0 and m.streak == 1 and m.hands_played == 4
    m = m.after_hand(0, stays=True)
    assert m.streak == 2 and m.passes == 4 and m.seat_winds == (0, 1, 2, 3)


def test_new_hand_takes_the_match_and_the_variant_decides_the_next():
    match = MatchState(dealer=3, hands_total=2)
    state, _ = play_hand("sichuan", {"mode": "plain"}, 5, match=match)
    assert state.dealer == 3 and state.match.seat_winds == (1, 2, 3, 0)
    after = next_match(state)
    assert after.hands_played == 1 and not after.finished
    assert after.dealer == state.result["next_dealer"]
    last, _ = play_hand("sichuan", {"mode": "plain"}, 6, match=after)
    assert next_match(last).finished


def test_new_match_by_default_lets_the_dice_pick_the_first_dealer():
    m = new_match("sichuan", None, hands_total=4)
    assert m.dealer is None and m.hands_total == 4
    s9 = DealSeeds.for_test(9)
    assert new_hand("sichuan", None, s9, match=m).dealer == new_hand("sichuan", None, s9).dealer


# --- money ---------------------------------------------------------------------------


def test_settle_refuses_a_hand_in_progress():
    with pytest.raises(ValueError, match="not over"):
        settle(new_hand("sichuan", None, DealSeeds.for_test(1)))


# --- imports -------------------------------------------------------------------------


def _module_imports(path: pathlib.Path) -> set[str]:
    """The games.rules modules a module imports, at any depth of its code."""
    rel = path.relative_to(RULES.parents[1]).with_suffix("")
    package = list(rel.parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if node.level == 0 and not mod.startswith("games.rules"):
                continue
            out.update(f"{mod}.{a.name}" for a in node.names if _exists(f"{mod}.{a.name}"))
            if _exists(mod):
                out.add(mod)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("games.rules"))
    return {m for m in out if not m.endswith("__init__")}


def _exists(mod: str) -> bool:
    p = RULES.parents[1].joinpath(*mod.split("."))
    return p.with_suffix(".py").exists()


def test_no_import_cycles_in_the_rules():
    graph = {}
    for path in RULES.rglob("*.py"):
        if path.name == "__init__.py" or path.name == "__main__.py":
            continue
        name = ".".join(path.relative_to(RULES.parents[1]).with_suffix("").parts)
        graph[name] = _module_imports(path) - {name}
    cycles = []

    def visit(node, stack):
        if node in stack:
            cycles.append(stack[stack.index(node) :] + [node])
            return
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, [*stack, node])

    for start in sorted(graph):
        visit(start, [])
    assert "games.rules.engine" in graph and graph["games.rules.engine"]
    assert not cycles, cycles[:3]
