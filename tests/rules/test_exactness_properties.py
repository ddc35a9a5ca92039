"""Hypothesis playouts per variant for the flow points the spec settles exactly.

In every hand, under random house rules, with bots mixed with random choices (so
wins are passed, odd claims made and walls run out):

* once no drawable tile is left, nobody may chow, pung or kong: a claim window offers
  only 胡 and pass, and one's own turn only 胡 and discards;
* 漏胡: no seat wins on a discard (or robbed kong) of a kind it passed a win on, before
  the bar lifts (its own next draw; in Guangzhou also its chow, pung or kong); Sichuan's
  过胡 lets only a bigger win through;
* every liability transfer names a rule whose condition holds in the final state, and
  so does every liability recorded (Guangzhou's public ``bao``) that nobody paid.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    DealSeeds,
    MatchState,
    apply,
    awaited,
    legal_actions,
    new_hand,
    settle,
    view,
)
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.engine import Rejection

from .test_playouts import RULES

VARIANTS = sorted(RULES)
WINDS = {T.parse_one(t) for t in ("1z", "2z", "3z", "4z")}
DRAGONS = {T.parse_one(t) for t in ("5z", "6z", "7z")}


def _lifts(variant: str, event: dict, seat: int) -> bool:
    """Whether ``event`` lifts ``seat``'s 漏胡 bar."""
    if event.get("seat") != seat:
        return False
    if event["type"] == "TileDrawn":
        return True
    return variant == "guangzhou" and event["type"] in ("TileClaimed", "KongDeclared")


def _barred(variant: str, bars: list, win: dict) -> bool:
    """Whether a discard (or robbed-kong) ``win`` breaks its seat's 漏胡 bars."""
    if variant == "sichuan":  # 过胡: a bigger win may go through
        return any(win["total"] <= value for _, value in bars)
    return any(kind == win["tile"] for kind, _ in bars)


def _playout(variant: str, rules: dict, seed: int, randomness: float, streak: int):
    """Play one hand, checking the last-discard and 漏胡 rules at every step.

    Most wins offered on a discard are passed, so that bars arise, and the others
    mostly throw a barred seat the kind it passed; melds are mostly made, a kong
    before a pung before a chow; otherwise bots play, with a random legal action in
    ``randomness`` of the decisions."""
    rng = random.Random(seed ^ 0xBA5E)
    match = MatchState(dealer=seed % 4, streak=streak)  # Hangzhou: 放冲 from streak 2
    state = new_hand(variant, rules, DealSeeds.for_test(seed), match=match)
    bars: list[list] = [[] for _ in range(4)]  # per seat: (kind passed, its value)
    steps = 0
    while state.phase != "ended":
        steps += 1
        assert steps < 2000
        if state.phase in ("play", "claim") and not state.wall:
            for seat in range(4):
                kinds = {a["type"] for a in legal_actions(state, seat)}
                allowed = {"hu", "pass"} if state.phase == "claim" else {"hu", "discard"}
                assert kinds <= allowed, (seat, kinds)
        seat = awaited(state)[0]
        legal = legal_actions(state, seat)
        claim = state.claim
        if claim is not None and {"type": "hu"} in legal:
            # A barred win is not even offered.
            offered = {"tile": T.to_str(claim["tile"]), "total": claim["scores"][str(seat)]}
            assert not _barred(variant, bars[seat], offered)
        tempting = [
            {"type": "discard", "tile": kind}
            for k in range(4)
            if k != seat
            for kind, _ in bars[k]
            if {"type": "discard", "tile": kind} in legal
        ]
        melds = sorted(
            (a for a in legal if a["type"] in ("chi", "peng", "gang")),
            key=lambda a: ("chi", "peng", "gang").index(a["type"]),
        )
        if claim is not None and {"type": "hu"} in legal:
            action = {"type": "hu"} if rng.random() < 0.3 else {"type": "pass"}
        elif tempting and rng.random() < 0.8:
            action = tempting[0]  # offer a barred seat the kind it passed
        elif melds and rng.random() < 0.7:
            action = melds[-1]  # meld eagerly, a kong first: liabilities arise
        elif rng.random() < randomness:
            action = legal[rng.randrange(len(legal))]
        else:
            action = choose_action(state, seat)
        out = apply(state, seat, action)
        assert not isinstance(out, Rejection), out
        if claim is not None and {"type": "hu"} in legal and action["type"] != "hu":
            bars[seat].append((T.to_str(claim["tile"]), claim["scores"][str(seat)]))
        state, events = out
        for e in events:
            for k in range(4):
                if _lifts(variant, e, k):
                    bars[k] = []
            if e["type"] == "HandWon":
                for w in e["wins"]:
                    if w["win_type"] != "self_draw":
                        assert not _barred(variant, bars[w["seat"]], w), (w, bars)
    return state


# --- the liability rules, read off the final state ------------------------------------


def _win_of(state, order: int) -> dict:
    return next(w for w in state.won if w is not None and w["order"] == order)


def _exposed_sets(melds, kinds) -> list:
    return [m for m in melds if m.kind != "chi" and not m.concealed and m.tile in kinds]


def _liability_holds(state, t: dict) -> bool | None:
    """Whether the rule ``t`` names holds in the final state (None: not a liability)."""
    reason, payer = t["reason"], t["from"]
    if reason == "gang_shang_pao":  # Sichuan: the discarder's kong income goes on
        kong = state.kongs[t["kong"]]
        return kong["seat"] == payer and any(
            w is not None
            and w["seat"] == t["to"]
            and w["win_type"] == "discard"
            and w["from"] == payer
            and w["kong"] == kong["id"]
            for w in state.won
        )
    if reason not in (
        "cheng_bao",
        "yi_pao_san_xiang",
        "gang_shang_kai_hua_bao",
        "qiang_gang",
        "shi_er_zhang",
        "da_si_xi",
        "da_san_yuan",
    ):
        return None
    win = _win_of(state, t["win"])
    melds = state.melds[win["seat"]]
    if reason == "yi_pao_san_xiang":
        return (
            win["win_type"] == "discard"
            and win["from"] == payer
            and sum(
                w is not None and w["win_type"] == "discard" and w["from"] == payer
                for w in state.won
            )
            == 3
        )
    if reason == "qiang_gang":
        return win["win_type"] == "rob_kong" and win["from"] == payer
    if win["win_type"] != "self_draw":
        return False
    if reason == "cheng_bao":  # chows and pungs (a pung later added to still counts)
        fed = [
            m
            for m in melds
            if m.from_seat == payer
            and (m.kind in ("chi", "peng") or (m.kind == "gang" and m.added))
        ]
        return len(fed) >= state.rules.cheng_bao_claims
    if reason == "gang_shang_kai_hua_bao":
        return win.get("turn_kind") == "kong" and state.kongs[win["kong"]]["from"] == payer
    return _bao_holds(state, win["seat"], {"seat": payer, "rule": reason})


def _bao_holds(state, seat: int, bao: dict) -> bool:
    """Whether a Guangzhou liability for ``seat``'s self-draw holds in the final state."""
    melds, payer, rule = state.melds[seat], bao["seat"], bao["rule"]
    if rule == "shi_er_zhang":
        exposed = [m for m in melds if not m.concealed]
        # 包先不包后: a discarder is liable for one player's 十二张落地 at most.
        named = [p["bao"] for p in view(state, None)["players"]].count(bao)
        return len(exposed) == 4 and exposed[3].from_seat == payer and named == 1
    kinds, need = (WINDS, 4) if rule == "da_si_xi" else (DRAGONS, 3)
    shown = _exposed_sets(melds, kinds)
    return len(shown) == need and shown[-1].from_seat == payer


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seed=st.integers(0, 2**63 - 1),
    randomness=st.sampled_from([0.1, 0.3, 1.0]),
    streak=st.integers(1, 3),
)
def test_last_discard_lou_hu_and_liability_hold_in_random_playouts(
    variant, data, seed, randomness, streak
):
    rules = data.draw(RULES[variant], label="rules")
    state = _playout(variant, rules, seed, randomness, streak)
    for t in settle(state)["transfers"]:
        assert _liability_holds(state, t) in (None, True), t
    # Liabilities recorded for a self-draw that did not come hold too (they are public):
    # Guangzhou's 包, and the claims Hangzhou's 承包 counts (chows and pungs only).
    for seat, player in enumerate(view(state, None)["players"]):
        if player.get("bao") is not None:
            assert _bao_holds(state, seat, player["bao"]), (seat, player["bao"])
        if "claims_from" in player:
            fed = [0] * 4
            for m in state.melds[seat]:
                if m.from_seat is not None and (m.kind != "gang" or m.added):
                    fed[m.from_seat] += 1
            assert player["claims_from"] == fed, (seat, state.melds[seat])
