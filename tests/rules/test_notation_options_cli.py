"""Tile notation, typed house rules, and the waits/simulate commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import OptionsError, TileError, get_variant
from games.rules import tiles as T

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("123m55z", "123m55z"),
        ("55z 321m", "123m55z"),
        ("9s1f1m", "1m9s1f"),
        ("1m1p1s1z1f", "1m1p1s1z1f"),
        ("  ", ""),
        ("12345678f", "12345678f"),
    ],
)
def test_parse_any_order_print_canonically(text, canonical):
    assert T.fmt(T.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1x", "unexpected character 'x' at position 1"),
        ("0m", "no tile 0m"),
        ("8z", "no tile 8z"),
        ("9f", "no tile 9f"),
        ("123", "digit '1' at position 0 has no suit letter"),
        ("m", "suit letter 'm' at position 0 has no digits"),
        ("1m,2m", "unexpected character ','"),
    ],
)
def test_bad_tile_strings_name_the_problem(text, message):
    with pytest.raises(TileError, match=message):
        T.parse(text)


@given(st.lists(st.integers(0, T.NUM_TILES - 1), max_size=20))
def test_fmt_parse_round_trip(tiles):
    assert sorted(T.parse(T.fmt(tiles))) == sorted(tiles)


@given(st.text(alphabet="0123456789mpszf ", max_size=4))
def test_parse_one_reads_a_tile_name_as_parse_does(text):
    # A tile's own name is looked up; anything else is parsed, so both agree everywhere.
    try:
        expected = T.parse(text)
    except TileError:
        expected = None
    if expected is None or len(expected) != 1:
        with pytest.raises(TileError):
            T.parse_one(text)
    else:
        assert T.parse_one(text) == expected[0]


@pytest.mark.parametrize("variant", ["sichuan", "hangzhou", "guangzhou", "ningbo"])
def test_options_read_as_attributes_and_get_as_the_mapping(variant):
    opts = get_variant(variant).resolve_options(None)
    for key in opts:
        assert getattr(opts, key) == opts[key] == opts.get(key)
    assert opts.get("no_such_rule", 3) == 3
    with pytest.raises(AttributeError):
        getattr(opts, "no_such_rule")  # noqa: B009
    with pytest.raises(AttributeError):
        opts.base_stake = 1
    assert opts == get_variant(variant).resolve_options(None)


def test_house_rules_resolve_validate_and_describe():
    v = get_variant("sichuan")
    opts = v.resolve_options({"mode": "plain"}, {"fan_cap": None})
    assert opts.mode == "plain" and opts.fan_cap is None and opts.dealer_rule == "discarder"
    assert v.resolve_options().dealer_rule == "dice"  # 血战's default dealer rule
    with pytest.raises(AttributeError):
        opts.mode = "xuezhan"
    for bad, msg in [
        ({"flowers": True}, "unknown house rule 'flowers'"),
        ({"fan_cap": 14}, "at most 13"),
        ({"fan_cap": "4"}, "whole number"),
        ({"ding_que": 1}, "true or false"),
        ({"direct_kong_pay": 3}, "one of 1, 2"),
        ({"mode": "quick"}, "one of xuezhan, plain"),
        ({"ding_que": None}, "may not be null"),
    ]:
        with pytest.raises(OptionsError, match=msg):
            v.resolve_options(bad)
    with pytest.raises(OptionsError, match="must be an object"):
        v.resolve_options(["mode"])
    described = {d["id"]: d for d in v.options.describe()}
    assert set(described) == set(v.resolve_options())
    assert described["cha_da_jiao"] == {
        "id": "cha_da_jiao",
        "type": "choice",
        "default": "max",
        "nullable": False,
        "label": {"zh-hans": "查大叫", "en": "Not-ready check pays"},
        "choices": ["max", "min"],
        "choice_labels": {
            "max": {"zh-hans": "按最大番", "en": "The best reading"},
            "min": {"zh-hans": "按最小番", "en": "The least reading"},
        },
        # Its one line of help, carried by the option like every variant's.
        "help": {
            "zh-hans": "流局时，没听牌的玩家按听牌者可能的最大或最小番数赔付。",
            "en": "When the wall runs out, players not ready pay the ready ones their best or "
            "their least possible hand.",
        },
    }
    json.dumps(v.options.describe())


def run_cli(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", "123456789m"),  # 九莲宝灯: all nine
        ("1122334455667m", "147m"),  # seven pairs (7m) and the runs (1m, 4m, 7m)
        ("123456789m1199p", "19p"),
        ("123456789m119p1s", ""),  # three suits: a Sichuan hand cannot win
        ("1111m234p567p789p", ""),  # only a fifth 1m would do: not ready
    ],
)
def test_waits_command(hand, expected):
    out = run_cli("waits", "--variant", "sichuan", "--hand", hand)
    assert out.returncode == 0, out.stderr
    assert out.stdout == expected + "\n"


ALL = "123456789m123456789p123456789s1234567z"


@pytest.mark.parametrize(
    ("hand", "wild", "expected"),
    [
        # Four sets and a lone wild (暴头): any tile, the three other 财神 included.
        ("123m456m789m123p9s", "9s", ALL),
        # 白板 plays as 9s: 12p waits on 3p, or the wild makes 123p and 白板 pairs with a
        # drawn 白板 or wild.
        ("123m456m789m12p5z9s", "9s", "3p9s5z"),
        # The indicator is 白板: the other 白板 are the wilds, 9s is a plain tile.
        ("123m456m789m12p5z5z", "5z", ALL),
        ("123m456m789m1199p", "5z", "19p5z"),  # a drawn wild completes either pair
    ],
)
def test_waits_command_with_a_wild(hand, wild, expected):
    out = run_cli("waits", "--variant", "hangzhou", "--hand", hand, "--wild", wild)
    assert out.returncode == 0, out.stderr
    assert out.stdout == expected + "\n"


def test_waits_command_refuses_bad_input():
    out = run_cli("waits", "--variant", "sichuan", "--hand", "123x")
    assert out.returncode == 2 and "unexpected character 'x'" in out.stderr
    out = run_cli("waits", "--variant", "sichuan", "--hand", "123m")
    assert out.returncode == 2 and "3n+1" in out.stderr
    out = run_cli("waits", "--variant", "mars", "--hand", "1m")
    assert out.returncode == 2 and "unknown" in out.stderr
    out = run_cli("waits", "--variant", "sichuan", "--hand", "1m", "--rules", '{"x": 1}')
    assert out.returncode == 2 and "unknown house rule" in out.stderr


def test_simulate_command_reports_rate_and_summary():
    out = run_cli("simulate", "--variant", "sichuan", "--hands", "20", "--seed", "3")
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("20 hands in") and "hands/s" in first and "invariants held" in first
    assert "流局 rate" in out.stdout and "patterns" in out.stdout
    again = run_cli("simulate", "--variant", "sichuan", "--hands", "20", "--seed", "3")
    # Deterministic from the seed (only the timing differs).
    assert out.stdout.splitlines()[1:] == again.stdout.splitlines()[1:]
