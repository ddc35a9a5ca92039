"""static/js/score_line.js writes every variant's win so that its parts add up (or multiply)
to the total it shows, the base among them; English units are spaced ("6 tai"); an item
worth nothing is left out beside items worth something.  Runs the real module under Node."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import available, get_variant
from tests.games import node

SCRIPT = Path(__file__).parent / "js" / "score_line.mjs"
BASE_NAME = {"zh-hans": "底", "en": "Base"}


@pytest.fixture(scope="module")
def module(tmp_path_factory) -> Path:
    return node.as_module(tmp_path_factory.mktemp("scorejs"), "score_line.js")


def parts(module: Path, cases: list[dict]) -> list[dict]:
    return node.results(SCRIPT, module, cases)


def spec(variant: str, lang: str) -> dict:
    """The variant's result data as the page hands it to the module, in ``lang``."""
    raw = get_variant(variant).site_data()["result"]
    named = {k: v[lang] if isinstance(v, dict) else v for k, v in raw.items()}
    return {**named, "base_name": BASE_NAME[lang]}


def number(text: str) -> int:
    return int(re.search(r"(\d+)\D*$", text).group(1))


items = st.lists(
    st.fixed_dictionaries(
        {"id": st.sampled_from(["a", "b", "c", "d"]), "value": st.integers(0, 8)}
    ).map(lambda d: {**d, "name": f"item {d['id']}"}),
    max_size=5,
)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([v.key for v in available()]), st.sampled_from(["zh-hans", "en"]), items
        ),
        min_size=1,
        max_size=20,
    )
)
def test_the_parts_shown_make_the_total_shown(module, cases):
    batch = []
    for variant, lang, its in cases:
        s = spec(variant, lang)
        if s["combine"] == "times":
            its = [{**i, "value": max(1, i["value"])} for i in its]
            total = 1
            for i in its:
                total *= i["value"]
        else:
            total = s.get("base", 0) + sum(i["value"] for i in its)
        batch.append({"win": {"items": its, "total": total}, "spec": s})
    for case, shown in zip(batch, parts(module, batch), strict=True):
        s, win = case["spec"], case["win"]
        values = [number(i["text"]) for i in shown["items"]]
        if s["combine"] == "times":
            product = 1
            for v in values:
                product *= v
            assert shown["total"] == f"×{win['total']}" and product == win["total"], shown
        else:
            assert sum(values) == number(shown["total"]) == win["total"], shown
            assert not shown["capped"]
        if any(i["value"] != (1 if s["combine"] == "times" else 0) for i in win["items"]):
            assert len(shown["items"]) == len(
                [i for i in win["items"] if i["value"] != (1 if s["combine"] == "times" else 0)]
            ) + (1 if s.get("base") and s["combine"] != "times" else 0)


def test_what_a_reader_sees(module):
    ningbo = {
        "items": [
            {"id": "dan_diao", "name": "单吊", "value": 1},
            {"id": "ying_hu", "name": "硬胡", "value": 1},
            {"id": "zheng_hua", "name": "正花", "value": 2},
        ],
        "total": 5,
    }
    chicken = {
        "items": [
            {"id": "ji_hu", "name": "Chicken hand", "value": 0},
            {"id": "zi_mo", "name": "Self-drawn", "value": 1},
        ],
        "total": 1,
    }
    alone = {"items": [{"id": "ji_hu", "name": "Chicken hand", "value": 0}], "total": 0}
    capped = {
        "items": [
            {"id": "qing_yi_se", "name": "清一色", "value": 2},
            {"id": "gen", "name": "根", "value": 3},
        ],
        "total": 4,
    }
    got = parts(
        module,
        [
            {"win": ningbo, "spec": spec("ningbo", "zh-hans")},
            {
                "win": {**ningbo, "items": [{**i, "name": i["id"]} for i in ningbo["items"]]},
                "spec": spec("ningbo", "en"),
            },
            {"win": chicken, "spec": spec("guangzhou", "en")},
            {"win": alone, "spec": spec("guangzhou", "en")},
            {"win": capped, "spec": spec("sichuan", "zh-hans")},
        ],
    )
    assert got[0]["line"] == "底 1台 + 单吊 1台 + 硬胡 1台 + 正花 2台 = 5台"
    assert got[1]["line"] == "Base 1 tai + dan_diao 1 tai + ying_hu 1 tai + zheng_hua 2 tai = 5 tai"
    assert got[2]["line"] == "Self-drawn 1 fan = 1 fan"  # no "Chicken hand 0 fan" beside it
    assert got[3]["line"] == "Chicken hand 0 fan = 0 fan"
    assert got[4]["line"] == "清一色 2番 + 根 3番 = 4番 (封顶)" and got[4]["capped"]
