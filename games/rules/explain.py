"""How a win's points were made, written out for players (zh-hans and en).

One small explainer per variant key, beside the rules it restates (Sichuan:
``base × 2^(fan−1)`` after the fan cap, ``sichuan.win_value``).  A variant without
an explainer gets ``None`` and the table shows the fan total alone.
"""

from __future__ import annotations

from collections.abc import Callable

from .state import HandState


def _sichuan(s: HandState, win: dict) -> dict:
    from .variants.sichuan import win_value

    opts = s.rules
    raw = sum(item["value"] for item in win["items"])
    fan = win["total"]
    value = win_value(fan, opts)
    cap_zh = f"（封顶 {fan} 番）" if raw > fan else ""
    cap_en = f" (capped at {fan} fan)" if raw > fan else ""
    zh = f"{raw} 番{cap_zh} → 2^({fan}−1) × 底分 {opts.base} = {value}"
    en = f"{raw} fan{cap_en} → 2^({fan}−1) × base {opts.base} = {value}"
    kong = s.kongs[win["kong"]] if win.get("kong") is not None else None
    giver_pays = (
        kong is not None and kong["kind"] == "zhi_gang" and opts.dian_gang_hua == "discarder"
    )
    if win["win_type"] == "self_draw" and giver_pays:
        zh += f"；点杠花：点杠者付 {value}"
        en += f"; kong-flower: the kong's discarder pays {value}"
    elif win["win_type"] == "self_draw":
        if opts.self_draw_bonus == "base":
            zh += f"；自摸加底：每家付 {value} + {opts.base} = {value + opts.base}"
            en += f"; self-draw adds the base: each player pays {value} + {opts.base}"
            en += f" = {value + opts.base}"
        else:
            zh += f"；自摸：每家付 {value}"
            en += f"; self-draw: each player pays {value}"
    else:
        zh += f"；点炮者付 {value}"
        en += f"; the discarder pays {value}"
    return {"zh-hans": zh, "en": en, "value": value}


EXPLAINERS: dict[str, Callable[[HandState, dict], dict]] = {"sichuan": _sichuan}


def explain_wins(s: HandState) -> list[dict | None]:
    """One explanation per win, in win order (``None`` where the variant has none)."""
    explain = EXPLAINERS.get(s.variant)
    wins = [s.won[seat] for seat in s.win_order]
    return [explain(s, w) if explain and w else None for w in wins]
