"""The public ``evaluate`` contract (shared/rules/README.md, "Scoring one hand
from outside"): JSON in, JSON out, exit status 0 or 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.evaluate import evaluate, main_evaluate

REPO = Path(__file__).resolve().parents[2]


def req(**fields) -> dict:
    base = {
        "variant": "sichuan",
        "hand": "123m456m789m23p55p",
        "win_tile": "4p",
        "win_type": "discard",
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


def run_main(text: str) -> tuple[int, dict, str]:
    out = io.StringIO()
    code = main_evaluate(io.StringIO(text), out)
    raw = out.getvalue()
    return code, json.loads(raw), raw


# --- scored results -----------------------------------------------------------


def test_ping_hu():
    assert evaluate(req()) == {"win": True, "items": [{"id": "ping_hu", "value": 1}], "total": 1}


def test_melds_flags_and_rules():
    answer = evaluate(
        req(
            hand="6p",
            melds=[
                {"kind": "peng", "tiles": "111m"},
                {"kind": "peng", "tiles": "444m", "concealed": False},
                {"kind": "peng", "tiles": "999p"},
                {"kind": "gang", "tiles": "2222p", "concealed": True},
            ],
            win_tile="6p",
            win_type="self_draw",
            flags=["after_kong"],
            rules={"fan_cap": None, "self_draw_bonus": "fan"},
            missing_suit="s",
        )
    )
    assert answer == {
        "win": True,
        "items": [
            {"id": "dui_dui_hu", "value": 2},
            {"id": "gen", "value": 1},
            {"id": "gang_shang_hua", "value": 1},
            {"id": "jin_gou_diao", "value": 1},
            {"id": "zi_mo_jia_fan", "value": 1},
        ],
        "total": 6,
    }


def test_total_is_capped_items_are_not():
    answer = evaluate(req(hand="1122444455779m", win_tile="9m"))
    assert answer == {"win": True, "items": [{"id": "qing_long_qi_dui", "value": 6}], "total": 4}


def test_not_a_win_is_a_result_not_an_error():
    answer = evaluate(req(hand="123m456p789s23p55p"))
    assert answer["win"] is False
    assert "three suits" in answer["reason"]
    assert set(answer) == {"win", "reason"}
    code, parsed, _ = run_main(json.dumps(req(missing_suit="p")))
    assert code == 0
    assert parsed["win"] is False


def test_chi_meld_is_a_well_formed_request_but_no_sichuan_win():
    answer = evaluate(req(hand="456m789m23p55p", melds=[{"kind": "chi", "tiles": "312m"}]))
    assert answer["win"] is False
    assert "no chow" in answer["reason"]


def test_optional_fields_accepted():
    answer = evaluate(
        req(seat_wind="E", round_wind="S", flowers="", cai_piao=0, flags=[], rules={})
    )
    assert answer["win"] is True


def test_a_repeated_multiplier_is_one_item_with_the_product():
    """Three consecutive 财飘: ``cai_piao`` is listed once at 2 × 2 × 2."""
    answer = evaluate(
        req(
            variant="hangzhou",
            hand="123p456p789p123s1m",
            win_tile="9s",
            win_type="self_draw",
            wild="1m",
            cai_piao=3,
        )
    )
    assert answer == {
        "win": True,
        "items": [{"id": "bao_tou", "value": 2}, {"id": "cai_piao", "value": 8}],
        "total": 16,
    }


def test_main_evaluate_prints_one_line():
    code, parsed, raw = run_main(json.dumps(req()))
    assert code == 0
    assert raw.endswith("\n") and raw.count("\n") == 1
    assert parsed["total"] == 1


# --- malformed input ------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, words",
    [
        (req(variant="klingon"), "unknown or unavailable variant"),
        (req(variant=None), "missing field(s) variant"),
        (req(rules={"no_such_rule": 1}), "unknown house rule 'no_such_rule'"),
        (req(rules={"fan_cap": 99}), "fan_cap"),
        (req(rules=[1]), "house rules must be an object"),
        (req(hand="123m456m789m23x55p"), "'x'"),
        (req(win_tile="0p"), "no tile 0p"),
        (req(win_tile="45p"), "exactly one tile"),
        (req(hand="123m456m789m2p55p"), "must be 14 tiles, got 13"),
        (req(hand="123m456m789m23p55p1s"), "must be 14 tiles, got 15"),
        (req(hand="5555p123m456m789m", win_tile="5p"), "more than four of 5p"),
        (req(flags=["lucky"]), "unknown flag(s) lucky"),
        (req(flags="after_kong"), "flags must be a list"),
        (req(win_type="tsumo"), "win_type must be one of"),
        (req(missing_suit="z"), "missing_suit"),
        (req(seat_wind="X"), "seat_wind"),
        (req(cai_piao=-1), "cai_piao"),
        (req(flowers="12m"), "flowers"),
        (req(hand="123m456m789m23p55f"), "flowers"),
        (req(colour="red"), "unknown field(s) colour"),
        (req(hand="456m789m23p55p", melds=[{"kind": "peng", "tiles": "123m"}]), "3 equal tiles"),
        (req(hand="456m789m23p55p", melds=[{"kind": "gang", "tiles": "111m"}]), "4 equal"),
        (req(hand="456m789m23p55p", melds=[{"kind": "chi", "tiles": "135m"}]), "consecutive"),
        (req(hand="456m789m23p55p", melds=[{"kind": "chi", "tiles": "891m"}]), "consecutive"),
        (req(hand="456m789m23p55p", melds=[{"kind": "pong", "tiles": "111m"}]), "kind must be"),
        (req(hand="456m789m23p55p", melds=[{"kind": "peng"}]), "missing 'tiles'"),
        (req(hand="456m789m23p55p", melds=[{"kind": "peng", "tiles": "111m", "x": 1}]), "x"),
        (
            req(
                hand="456m789m23p55p", melds=[{"kind": "peng", "tiles": "111m", "concealed": True}]
            ),
            "only a gang can be concealed",
        ),
        (req(melds={"kind": "peng"}), "melds must be a list"),
        ([1, 2], "must be a JSON object"),
        ("sichuan", "must be a JSON object"),
    ],
)
def test_errors(request_, words):
    answer = evaluate(request_)
    assert set(answer) == {"error"}
    assert words in answer["error"]


@pytest.mark.parametrize("flower", ["1f", "5f", "8f"])
def test_a_flower_is_no_hangzhou_indicator(flower):
    """Hangzhou's 136 tiles have no flowers: naming one as the 财神 indicator is bad input."""
    code, answer, _ = run_main(
        json.dumps(
            req(
                variant="hangzhou",
                hand="123p456p789p123s1m",
                win_tile="9s",
                win_type="self_draw",
                wild=flower,
            )
        )
    )
    assert code == 2
    assert answer == {"error": f"wild: {flower} is not a tile of hangzhou"}


def test_a_flower_is_a_ningbo_indicator():
    """Ningbo's set has flowers: a season indicator makes the four seasons wild."""
    answer = evaluate(
        req(
            variant="ningbo",
            hand="123m456m789m123p2f",
            win_tile="5p",
            win_type="self_draw",
            wild="1f",
            rules={"min_tai": 0},
        )
    )
    assert answer == {
        "win": True,
        "items": [{"id": "zi_mo", "value": 1}, {"id": "ping_hu", "value": 1}],
        "total": 3,
    }


def test_bad_tile_message_names_the_character():
    answer = evaluate(req(hand="123m456m789m23p55q"))
    assert "'q'" in answer["error"] and answer["error"].startswith("hand:")


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", "null", '"x"'])
def test_main_evaluate_malformed_exits_2(text):
    code, parsed, _ = run_main(text)
    assert code == 2
    assert set(parsed) == {"error"}


# --- through the CLI --------------------------------------------------------------


def cli(text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", "evaluate"],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_cli_good_request():
    proc = cli(json.dumps(req(hand="1122224p557799m", win_tile="4p", rules={"fan_cap": None})))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "win": True,
        "items": [{"id": "long_qi_dui", "value": 5}],
        "total": 5,
    }


def test_cli_malformed_request():
    proc = cli('{"variant": "sichuan", "hand": ')
    assert proc.returncode == 2, proc.stderr
    assert set(json.loads(proc.stdout)) == {"error"}


def test_cli_unknown_variant():
    proc = cli(json.dumps(req(variant="nowhere")))
    assert proc.returncode == 2, proc.stderr
    assert "nowhere" in json.loads(proc.stdout)["error"]
