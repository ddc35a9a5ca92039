"""The flow points the spec settles exactly, on rigged deals: the last discard, 漏胡,
the liability rules (承包, 十二张落地 and 包先不包后), 财飘 after a claim, the
Hangzhou dealer's dealt hand, and what ``evaluate`` must accept."""

from __future__ import annotations

import pytest

from games.rules import legal_actions, settle
from games.rules import tiles as T
from games.rules.evaluate import evaluate
from games.rules.model import Meld

from .rig import act, rig

VARIANTS = ("sichuan", "hangzhou", "guangzhou", "ningbo")


def deal(variant, hands, **kw):
    """A rigged hand; the wild indicator (Hangzhou, Ningbo) is 9s unless given, so the
    other 9s are wild (and in Hangzhou 白板 plays as a 9s)."""
    if variant == "sichuan":
        kw.setdefault("que", "ssss")
        rules = {"last_four_forced_win": False, **kw.pop("rules", {})}
        return rig(hands, variant=variant, rules=rules, **kw)
    if variant in ("hangzhou", "ningbo"):
        kw.setdefault("indicator", "9s")
    return rig(hands, variant=variant, que=None, **kw)


def pass_all(s):
    """Everyone with an open claim passes."""
    while s.phase == "claim":
        seat = next(k for k in s.claim["options"] if k not in s.claim["answers"])
        s = act(s, seat, "pass")
    return s


# --- the last discard ------------------------------------------------------------

# Dealer 0 throws 5m with no drawable tile left.  Seat 1 could chow it (46m) and win on
# it; seat 2 holds three 5m (pung or kong).
LAST_DISCARD = {
    "sichuan": [
        "5m123p456p789p1239m",
        "46m111p222p333p77p",
        "555m45689p78m99m1m",
        "1239m667m44p66p88p",
    ],
    "other": [
        "5m123p456p789p1234s",
        "46m111z222z333z77z",
        "555m13579p2468s1m",
        "179m13579s66z123p",
    ],
}


def _last_discard(variant, **kw):
    hands = LAST_DISCARD["sichuan" if variant == "sichuan" else "other"]
    # Hangzhou allows a discard win only from the dealer's second hand.
    return deal(variant, hands, wall_size=0, streak=2, **kw)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_last_discard_may_be_won_on_but_not_claimed(variant):
    s = act(_last_discard(variant), 0, "discard", tile="5m")
    assert s.phase == "claim"
    assert legal_actions(s, 1) == [{"type": "hu"}, {"type": "pass"}]
    assert legal_actions(s, 2) == []  # no pung, no kong of the last discard
    s = act(s, 1, "hu")
    assert s.phase == "ended" and s.won[1]["win_type"] == "discard"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_last_discard_nobody_wins_on_ends_the_hand_as_a_draw(variant):
    s = pass_all(act(_last_discard(variant), 0, "discard", tile="5m"))
    assert s.phase == "ended" and s.result["reason"] == "exhausted"
    assert s.win_order == [] and len(s.melds[1]) == len(s.melds[2]) == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_kong_is_declared_with_no_drawable_tile_left(variant):
    if variant == "sichuan":  # the older Sichuan rig takes short hands for the others
        hands = ["5m1111p456p789p123m", "9m", "9m", "9m"]
    else:
        hands = ["5m1111p456p789p123s", "2345678m234567s", "2345678s23456z9m", "2345678p11z77z8s9m"]
    s = deal(variant, hands, wall_size=0)
    assert {a["type"] for a in legal_actions(s, 0)} == {"discard"}
    s = deal(variant, hands, wall_size=1)
    assert {"type": "gang", "tile": "1p"} in legal_actions(s, 0)


# --- 漏胡 in Ningbo ----------------------------------------------------------------

# Dealer 0 throws 1m; seat 3 waits on 1m/4m (23m open wait), seats 1 and 2 hold junk.
NINGBO_PASS = [
    "1m123p456p789p11z47z",
    "1357s2468m16p347z",
    "89m2468s1357p237z",
    "23m456m789m234p66z",
]


def _ningbo_pass(front):
    s = act(deal("ningbo", NINGBO_PASS, front=front, rules={"min_tai": 0}), 0, "discard", tile="1m")
    assert legal_actions(s, 3) == [{"type": "hu"}, {"type": "pass"}]
    return act(s, 3, "pass")


def test_ningbo_lou_hu_bars_the_passed_kind_until_the_players_own_draw():
    s = _ningbo_pass(front="1m4m")
    assert s.turn == 1 and s.drawn == 0  # seat 1 drew the other 1m
    s = act(s, 1, "discard", tile="1m")
    assert s.phase == "play" and s.turn == 2  # no 胡 for seat 3 on the passed kind
    s = act(s, 2, "discard", tile="4m")
    assert legal_actions(s, 3)[0] == {"type": "hu"}  # only the passed kind is barred


def test_ningbo_lou_hu_lifts_at_the_players_own_draw():
    s = _ningbo_pass(front="5z6z7s1m")
    for seat, tile in ((1, "5z"), (2, "6z"), (3, "7s")):
        s = pass_all(act(s, seat, "discard", tile=tile))
    s = act(s, 0, "discard", tile="1m")
    assert legal_actions(s, 3)[0] == {"type": "hu"}


# --- 承包 counts chows and pungs only ---------------------------------------------------


def test_hangzhou_cheng_bao_does_not_count_a_kong_claimed_from_a_discard():
    # Seat 1 has punged two of the dealer's discards, kongs the dealer's 7p (直杠) and
    # self-draws on the replacement: two chows/pungs, so nobody is liable.
    hands = ["1m123p456p789p11z47z", "777p123m6z", "1357s2468m16p347z", "89m2468s1359p237z"]
    pungs = [("peng", "444s", 0), ("peng", "222s", 0)]
    s = deal("hangzhou", hands, melds={1: pungs}, back="6z")
    s.vs["claims_from"][1] = [2, 0, 0, 0]
    s = act(s, 0, "discard", tile="7p")
    assert legal_actions(s, 1)[0] == {"type": "gang"}
    s = act(s, 1, "gang")
    assert s.vs["claims_from"][1] == [2, 0, 0, 0]
    s = act(s, 1, "hu")
    # 杠开: W = 2; the dealer pays W × D (D = 2), the others W each.
    paid = sorted((t["from"], t["reason"], t["amount"]) for t in settle(s)["transfers"])
    assert paid == [(0, "hu", 4), (2, "hu", 2), (3, "hu", 2)]


# --- Guangzhou 十二张落地 --------------------------------------------------------------

FOURTH_MELD = ["9s159m19p28s1z2z3z4z6z7z", "99s23m", "147m258p369s1567z", "258m147s369p2345z"]


@pytest.mark.parametrize(("concealed", "liable"), [(True, None), (False, 0)])
def test_guangzhou_shi_er_zhang_a_concealed_kong_is_not_exposed(concealed, liable):
    # Seat 1 shows a chow and a pung and holds a kong of 5s; the dealer's 9s is punged.
    melds = {1: [("chi", "123p", 0), ("peng", "444s", 3), ("gang", "5555s", 3)]}
    s = deal("guangzhou", FOURTH_MELD, melds=melds, wall_size=60)
    if concealed:
        s.melds[1][2] = Meld("gang", s.melds[1][2].tiles, concealed=True)
    s = act(act(s, 0, "discard", tile="9s"), 1, "peng")
    bao = s.vs["bao"][1]
    assert (bao and bao["seat"]) == liable
    assert liable is None or bao["rule"] == "shi_er_zhang"


# Seat 1 shows three sets (plain, or three dragon pungs, the last fed by seat 3, which is
# liable for its 大三元); seat 2 shows three sets.
BAO_XIAN = {
    "plain": (
        [("chi", "123p", 0), ("peng", "444s", 3), ("chi", "567p", 0)],
        "246m258s369p1467z",
        "8p5z2s5s6m1p7s",
        {"seat": 0, "rule": "shi_er_zhang"},
    ),
    "dragons": (
        [("peng", "555z", 3), ("peng", "666z", 3), ("peng", "777z", 3)],
        "2467m1258s369p14z",
        "8p3s2s5s6m1p7s",
        {"seat": 3, "rule": "da_san_yuan"},
    ),
}


@pytest.mark.parametrize("case", sorted(BAO_XIAN))
def test_guangzhou_bao_xian_bu_bao_hou_the_discarder_is_liable_for_the_first_only(case):
    # The dealer's 9s brings seat 1 to 十二张落地, later its 9p brings seat 2 there: the
    # dealer is liable for seat 1 at most (not when seat 1's first liability is 大三元),
    # never for seat 2, whose self-draw is paid by all three.
    first, seat3, front, bao = BAO_XIAN[case]
    melds = {1: first, 2: [("peng", "111z", 3), ("peng", "222z", 0), ("chi", "789m", 1)]}
    hands = ["9s9p15m368s4p8p34567z", "99s23m", "99p17s", seat3]
    s = deal("guangzhou", hands, melds=melds, wall_size=60, front=front)
    if case == "dragons":  # recorded when seat 1 punged seat 3's 7z
        s.vs["bao"][1] = bao
    s = act(act(s, 0, "discard", tile="9s"), 1, "peng")
    assert s.vs["bao"][1] == bao
    s = pass_all(act(s, 1, "discard", tile="2m"))
    for seat in (2, 3):
        s = pass_all(act(s, seat, "discard", tile=T.to_str(s.drawn)))
    s = act(act(s, 0, "discard", tile="9p"), 2, "peng")
    assert s.vs["bao"][2] is None
    s = pass_all(act(s, 2, "discard", tile="1s"))
    while s.turn != 2 or s.drawn is None:
        s = pass_all(act(s, s.turn, "discard", tile=T.to_str(s.drawn)))
    s = act(s, 2, "hu")
    assert sorted((t["from"], t["reason"]) for t in settle(s)["transfers"]) == [
        (0, "hu"),
        (1, "hu"),
        (3, "hu"),
    ]


# --- the Hangzhou dealer's dealt hand -------------------------------------------------

# Four sets, 5p and one wild (9s): 暴头 when 5p is taken as the drawn tile, plain when
# the wild is (and the wild sorts last).
DEALT = "123m456m789m789p5p9s"


def test_hangzhou_dealt_hand_is_scored_by_the_drawn_tile_that_scores_most():
    hands = [DEALT, "1357s2468m16p347z", "89m2468s1346p237z", "23m456m1234p2468s"]
    s = deal("hangzhou", hands)
    assert legal_actions(s, 0)[0] == {"type": "hu"}
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "bao_tou", "value": 2}] and s.won[0]["total"] == 2


@pytest.mark.parametrize("win_tile", ["9s", "5p", "1m"])
def test_hangzhou_evaluate_dealt_hand_any_order(win_tile):
    tiles = T.parse(DEALT)
    tiles.remove(T.parse_one(win_tile))
    request = {
        "variant": "hangzhou",
        "hand": T.fmt(tiles),
        "win_tile": win_tile,
        "win_type": "self_draw",
        "wild": "9s",
        "flags": ["dealt_hand"],
    }
    assert evaluate(request) == {"win": True, "items": [{"id": "bao_tou", "value": 2}], "total": 2}
    # Without the flag the tile given as won is the drawn one.
    drawn = evaluate({**request, "flags": []})
    assert drawn["total"] == (2 if win_tile == "5p" else 1)


# --- Hangzhou 财飘 after a claimed pung --------------------------------------------------


def test_hangzhou_a_wild_thrown_after_a_claimed_pung_is_no_cai_piao():
    # Seat 1 pungs the dealer's 7z and, complete with two wilds, throws one: no win was
    # possible, so no 财飘 lock (seat 3 may pung 8p) and no 财飘 item on its 暴头 win.
    hands = [
        "1m123p456p789p11z47z",
        "77z123m456m789m9s9s",
        "1357s2468m16p234z",
        "88p1p2468s359m246z",
    ]
    s = deal("hangzhou", hands, front="8p5s6s3z")
    s = act(act(s, 0, "discard", tile="7z"), 1, "peng")
    s = act(s, 1, "discard", tile="9s")
    assert s.vs["lock"] is None and s.vs["piao"][1] == 0
    assert s.vs["wild_window"] == {"seat": 1, "ready": True}  # the 逃跑 window still opens
    s = act(s, 2, "discard", tile="8p")
    assert {"type": "peng"} in legal_actions(s, 3)
    s = pass_all(s)
    for seat in (3, 0):
        s = pass_all(act(s, seat, "discard", tile=T.to_str(s.drawn)))
    s = act(s, 1, "hu")
    assert s.won[1]["items"] == [{"id": "bao_tou", "value": 2}]


# --- evaluate: a Hangzhou chow with 白板 standing in -------------------------------------

CHOW_WITH_BAI_BAN = {
    "variant": "hangzhou",
    "hand": "123p456p789p1z",
    "melds": [{"kind": "chi", "tiles": "46m5z", "concealed": False}],
    "win_tile": "1z",
    "win_type": "self_draw",
    "wild": "5m",
}


def test_evaluate_accepts_a_hangzhou_chow_with_bai_ban_for_the_wilds_kind():
    assert evaluate(CHOW_WITH_BAI_BAN) == {
        "win": True,
        "items": [{"id": "ping_hu", "value": 1}],
        "total": 1,
    }


@pytest.mark.parametrize(
    "change",
    [
        {"wild": "5z"},
        {"rules": {"bai_ban_stands_in": False}},
        {"variant": "guangzhou", "wild": None},
    ],
)
def test_evaluate_still_refuses_bai_ban_in_a_chow_where_it_stands_for_nothing(change):
    answer = evaluate({**CHOW_WITH_BAI_BAN, **change})
    assert answer == {"error": "melds[0]: a chi is three consecutive tiles of one suit, got 46m5z"}


def test_the_live_chow_with_bai_ban_scores_the_same_through_evaluate():
    # Seat 1 chows the dealer's 6m with 4m and 白板 (a 5m while 5m is the 财神), then
    # self-draws 2z.
    hands = [
        "6m123p456p789p11z47z",
        "4m5z123p456p789s24z",
        "1357s2468m16p347z",
        "89m2468s1357p237z",
    ]
    s = deal("hangzhou", hands, indicator="5m", front="3z6s7s2z")
    s = act(s, 0, "discard", tile="6m")
    assert {"type": "chi", "tiles": "46m5z"} in legal_actions(s, 1)
    s = pass_all(act(act(s, 1, "chi", tiles="46m5z"), 1, "discard", tile="4z"))
    for seat in (2, 3, 0):
        s = pass_all(act(s, seat, "discard", tile=T.to_str(s.drawn)))
    hand = list(s.hands[1])
    hand.remove(s.drawn)
    s = act(s, 1, "hu")
    request = {
        "variant": "hangzhou",
        "hand": T.fmt(hand),
        "melds": [{"kind": m.kind, "tiles": T.fmt(m.tiles)} for m in s.melds[1]],
        "win_tile": "2z",
        "win_type": "self_draw",
        "wild": "5m",
    }
    assert request["melds"] == [{"kind": "chi", "tiles": "46m5z"}]
    answer = evaluate(request)
    assert answer["win"] and answer["items"] == s.won[1]["items"]


# --- settled points the engine already follows, pinned ------------------------------

# Seat 1 adds the drawn 5p to its pung; the dealer (0) and seat 2 both wait on 5p.
ROB = ["46p123m456m789m11z7z", "1357s2468m26z", "46p123s456s789s22z", "89m2468s137p9p347z"]


def _rob(streak):
    pung = {1: [("peng", "555p", 0)]}
    s = deal("hangzhou", ROB, melds=pung, front="5p", streak=streak)
    s = act(s, 0, "discard", tile="7z")
    return act(s, 1, "gang", tile="5p")


def test_hangzhou_qiang_gang_follows_the_discard_win_rule():
    s = _rob(streak=2)
    assert legal_actions(s, 0) == [{"type": "hu"}, {"type": "pass"}]
    assert legal_actions(s, 2) == []  # two non-dealers never win on each other's tiles
    s = act(s, 0, "hu")
    assert s.won[0]["win_type"] == "rob_kong"
    assert [(t["from"], t["to"], t["amount"]) for t in s.transfers] == [(1, 0, 4)]  # W × D
    s = _rob(streak=1)  # 平庄: no 放冲, so no 抢杠 either
    assert s.phase == "play" and s.turn == 1 and s.melds[1][0].kind == "gang"


NINGBO = {"variant": "ningbo", "wild": "9s", "rules": {"min_tai": 0}}


def test_ningbo_da_diao_counts_a_concealed_kong_as_laid_down():
    melds = [
        {"kind": "gang", "tiles": "2222p", "concealed": True},
        {"kind": "peng", "tiles": "333s"},
        {"kind": "chi", "tiles": "456m"},
        {"kind": "peng", "tiles": "777p"},
    ]
    answer = evaluate(
        {**NINGBO, "hand": "1m", "melds": melds, "win_tile": "1m", "win_type": "discard"}
    )
    ids = {i["id"] for i in answer["items"]}
    assert {"da_diao", "dan_diao", "an_gang"} <= ids


@pytest.mark.parametrize(
    ("hand", "win_tile"),
    [("1122m3344p5566s7z", "7z"), ("1122m3344p5566s8m", "8m"), ("1122m3344p5566s9s", "7z")],
)
def test_ningbo_a_seven_pairs_win_lists_no_wait_item(hand, win_tile):
    rules = {"min_tai": 0, "qi_dui": True}
    answer = evaluate(
        {**NINGBO, "rules": rules, "hand": hand, "win_tile": win_tile, "win_type": "discard"}
    )
    assert answer["win"] and "qi_dui" in {i["id"] for i in answer["items"]}
    assert not {"dan_diao", "bian_zhang", "jia_zhang", "da_diao"} & {
        i["id"] for i in answer["items"]
    }


@pytest.mark.parametrize(
    ("hand", "win_tile", "win"),
    [
        ("123m456p789p111s9s", "3m", False),  # one wild: self-draw only
        ("12m9s456p789p111s9s", "3m", True),  # 123m, the two wilds elsewhere
        ("123m456p789p11s9s9s", "3m", True),  # 3m with the two wilds as a set
        ("123m456p789p11s9s9s", "5z", True),  # 5z with the two wilds as a set
        ("12m9s456p789p111s9s", "5z", False),  # every reading pairs 5z with a wild
    ],
)
def test_ningbo_bai_da_dan_diao_with_two_wilds_may_win_on_a_discard(hand, win_tile, win):
    request = {**NINGBO, "hand": hand, "win_tile": win_tile, "win_type": "discard"}
    answer = evaluate(request)
    assert answer["win"] is win
    if not win:
        assert answer["reason"].startswith("百搭单吊")
    assert evaluate({**request, "win_type": "self_draw"})["win"]
