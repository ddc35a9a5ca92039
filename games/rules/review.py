"""A finished hand's review (复盘) for one seat: each decision beside the strong bot's.

``review(record, seat)`` replays a finished hand's record (the shape of
:mod:`games.rules.record`) and, at each of ``seat``'s discards and claim answers
where it had a choice, asks the strong bot what it would have done from the same
seat's view.  Each entry::

    {"seq": 12, "played": {"type": "discard", "tile": "5s"},
     "strong": {"type": "discard", "tile": "9m"}, "same": false,
     "reason": {"zh-hans": "…", "en": "…"}}

The reason is one phrase: the 向听 or the acceptance the other choice keeps, the
danger of the tile played (an opponent looked ready), a claim's worth, all pungs
(碰碰胡) in reach where the strong bot heads for them (Ningbo), or the value aimed
for.  Pure, like the rest of the engine: a task may call it and store the result.
Raises :class:`games.rules.record.RecordError` on a record that does
not replay.
"""

from __future__ import annotations

from . import tiles as T
from .engine import apply, legal_actions
from .heuristics import counts_shanten, shape_counts
from .record import RecordError, dealt
from .strong import choose, pung_shanten
from .valuation import Table, seat_state

# How much more dangerous (expected points lost) a discard must be to be named so.
_DANGER_GAP = 0.25


def review(record, seat: int) -> list[dict]:
    if seat not in range(4):
        raise ValueError("seat must be 0..3")
    state, actions = dealt(record)
    out = []
    for n, entry in enumerate(actions, 1):
        if not isinstance(entry, dict):
            raise RecordError(f"action {n} is not an object", n)
        who, action = entry.get("seat"), entry.get("action")
        if who == seat and state.phase in ("play", "claim") and len(legal_actions(state, seat)) > 1:
            best = choose(state, seat)
            out.append(_entry(state, seat, n, action, best))
        result = apply(state, who, action)
        if not isinstance(result, tuple):
            raise RecordError(f"action {n} is rejected: {result.reason}", n)
        state = result[0]
    if state.phase != "ended":
        raise RecordError("the hand is not over: nothing to review yet")
    return out


def _entry(state, seat: int, n: int, played: dict, best: dict) -> dict:
    played = dict(played)
    same = _same(played, best)
    reason = _SAME if same else _why(state, seat, played, best)
    return {"seq": n, "played": played, "strong": best, "same": same, "reason": reason}


def _same(a: dict, b: dict) -> bool:
    def norm(x):
        out = dict(x)
        for key in ("tile", "tiles"):
            if key in out:
                out[key] = T.fmt(T.parse(out[key]))
        return out

    try:
        return norm(a) == norm(b)
    except T.TileError:
        return False


_SAME = {"zh-hans": "与高手的选择相同", "en": "what the strong bot would do"}


def _why(state, seat: int, played: dict, best: dict) -> dict:
    m = seat_state(state, seat)
    table = Table(m, seat)
    kinds = (played.get("type"), best.get("type"))
    if kinds == ("discard", "discard"):
        return _why_discard(table, T.parse_one(played["tile"]), T.parse_one(best["tile"]))
    if best.get("type") == "hu":
        return {"zh-hans": "可以胡牌", "en": "the hand could win here"}
    if played.get("type") == "hu":
        return {
            "zh-hans": "自摸的机会大，值得等待",
            "en": "a self-draw, which everyone pays, was likely enough to wait for",
        }
    if played.get("type") == "chi" and table.v.bot_pung_road:
        return {
            "zh-hans": "吃牌就做不成碰碰胡",
            "en": "a chow rules out all pungs (碰碰胡)",
        }
    if best.get("type") in ("peng", "chi", "gang"):
        name = _CLAIM_NAMES[best["type"]]
        return {
            "zh-hans": f"{name[0]}能让牌更接近听牌",
            "en": f"the {name[1]} brings the hand a step closer",
        }
    if played.get("type") in ("peng", "chi", "gang"):
        name = _CLAIM_NAMES[played["type"]]
        return {
            "zh-hans": f"{name[0]}牌不如等待：暴露手牌，所得不多",
            "en": f"the {name[1]} shows the hand for less than waiting is worth",
        }
    return {"zh-hans": "高手另有打算", "en": "the strong bot had another plan"}


_CLAIM_NAMES = {"peng": ("碰", "pung"), "chi": ("吃", "chow"), "gang": ("杠", "kong")}


def _why_discard(table: Table, played: int, best: int) -> dict:
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    facts = {}
    for t in (played, best):
        rest = list(hand)
        rest.remove(t)
        c, w = shape_counts(m, seat, rest)
        seven = table.seven and not m.melds[seat]
        sh = counts_shanten(c, w, seven)
        facts[t] = (sh, table.acceptance(c, w, sh, seven), table.danger(t), pung_shanten(c, w))
    (sh_p, acc_p, danger_p, pung_p), (sh_b, acc_b, danger_b, pung_b) = facts[played], facts[best]
    name_p, name_b = T.to_str(played), T.to_str(best)
    if danger_p - danger_b > _DANGER_GAP * table.base_points:
        ready = max(range(4), key=lambda k: table.threats[k])
        return {
            "zh-hans": f"{name_p}危险：{ready}号位看起来已听牌",
            "en": f"{name_p} was dangerous: seat {ready} looked ready",
        }
    if sh_b < sh_p:
        return {
            "zh-hans": f"打{name_b}离听牌差{sh_b}步，而不是{sh_p}步",
            "en": f"throwing {name_b} leaves the hand {sh_b} from ready instead of {sh_p}",
        }
    if table.v.bot_pung_road and pung_b < pung_p:
        return {
            "zh-hans": f"打{name_b}离碰碰胡差{pung_b}步，而不是{pung_p}步",
            "en": (
                f"throwing {name_b} leaves all pungs (碰碰胡) {pung_b} from ready "
                f"instead of {pung_p}"
            ),
        }
    if sh_b == sh_p and acc_b > acc_p:
        return {
            "zh-hans": f"打{name_b}保留{acc_b}张进张，而不是{acc_p}张",
            "en": f"keeps {acc_b} tiles of acceptance instead of {acc_p}",
        }
    if danger_b < danger_p:
        return {
            "zh-hans": f"{name_b}比{name_p}更安全",
            "en": f"{name_b} was safer than {name_p}",
        }
    return {
        "zh-hans": f"打{name_b}为更大的牌型留出机会",
        "en": f"throwing {name_b} keeps a more valuable hand in reach",
    }
