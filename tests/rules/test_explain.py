"""Every variant writes out how a win's payments were made, in both languages."""

from __future__ import annotations

import re

import pytest

from games.rules import DealSeeds, apply, available, legal_actions, new_hand
from games.rules.bots import choose_action
from games.rules.explain import explain_wins


def finished_hands_with_wins(variant: str, count: int):
    found, seed = 0, 0
    while found < count and seed < 400:
        seed += 1
        s = new_hand(variant, {}, DealSeeds.for_test(seed))
        while s.phase != "ended":
            seat = next(k for k in range(4) if legal_actions(s, k))
            s, _ = apply(s, seat, choose_action(s, seat, "basic"))
        if s.win_order:
            found += 1
            yield s


@pytest.mark.parametrize("variant", [v.key for v in available()])
def test_explanations_name_every_payment_of_the_win(variant):
    explained = 0
    for s in finished_hands_with_wins(variant, 5):
        wins = [s.won[seat] for seat in s.win_order]
        for win, how in zip(wins, explain_wins(s), strict=True):
            if how is None:
                continue
            explained += 1
            assert set(how) == {"zh-hans", "en", "value"} and how["value"] > 0
            paid = [t["amount"] for t in s.transfers if t.get("win") == win["order"]]
            if variant == "hangzhou":
                # Each payment written as W × its shares, and it adds up to what was paid.
                written = [int(x) for x in re.findall(r"pays [^;]*= (\d+)", how["en"])]
                assert sorted(written) == sorted(paid), (how["en"], paid)
                assert f"D = {win['d']}" in how["en"] and "底分" in how["zh-hans"]
                # A payer is named by their wind in full: a lone "W" is only the win value.
                assert re.findall(r"(\w+) pays", how["en"])
                assert set(re.findall(r"(\w+) pays", how["en"])) <= {
                    "East",
                    "South",
                    "West",
                    "North",
                }
            if variant == "guangzhou":
                written = [int(x) for x in re.findall(r"pays (\d+)", how["en"])]
                assert sorted(written) == sorted(paid), (how["en"], paid)
                assert f"2^{win['fan']['fan']}" in how["en"]
    assert explained > 0 or variant not in ("sichuan", "hangzhou", "guangzhou")
