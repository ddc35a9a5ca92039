"""The rules pages (规则, 本桌规则), read off the variant objects.

Nothing here restates a rule: the scoring items are the variant's own
(``pattern_names``) with the values its options give them, or scored by the
variant's own ``score`` on a small example hand; the house options are the
variant's ``OptionSet`` with their help (every option is a ``HelpedOption``).
The example hands below are only shapes to score: a variant that refuses one (or
scores it as something else) simply shows no example for that item.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.rules import available, get_variant
from games.rules import tiles as T
from games.rules.model import WinContext

# (the 13 tiles before the win, the winning tile, how it was won)
EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("123m456m789m234p5p", "5p", "discard"),
    ("123m456m789m234p5p", "5p", "self_draw"),
    ("123m456m789p234s5s", "5s", "discard"),
    ("111m333m555p777p9p", "9p", "discard"),
    ("111m333p555s777m9p", "9p", "discard"),
    ("11m33m55m77p99p22p4p", "4p", "discard"),
    ("1111m33m55m77p99p2p", "2p", "discard"),
    ("222m555m888m222p5p", "5p", "discard"),
    ("123m789m123p789p9p", "9p", "discard"),
    ("111m333m555m777m9m", "9m", "discard"),
    ("11335577m99m22m4m", "4m", "discard"),
    ("1111335577m99m2m", "2m", "discard"),
    ("123m123m789m789m9m", "9m", "discard"),
    ("1112345678999m", "5m", "discard"),
    ("1123456789999m", "1m", "discard"),
    ("11m33m55p77p99s22s4s", "4s", "discard"),
    ("1111m33m55p77p99s2s", "2s", "discard"),
    ("123m456m789m111z5z", "5z", "discard"),
    ("111z222z333z444z5z", "5z", "discard"),
    ("111z222z333z44z23m", "1m", "discard"),
    ("19m19p19s1234567z", "1m", "discard"),
    ("555z666z77z123m44m", "7z", "discard"),
    ("555z666z77z123m45m", "6m", "discard"),
    ("111m999p111s111z9s", "9s", "discard"),
    ("234m567m345p67p88s", "5p", "discard"),
    ("234m567m345p68p88s", "7p", "discard"),
    ("123m456m789p12s55s", "3s", "discard"),
)


def tile_codes(notation: str) -> list[str]:
    """Tiles in notation, one code each ("1m", "5z"), in the canonical order."""
    return [T.to_str(t) for t in sorted(T.parse(notation))]


def listed_keys() -> list[str]:
    """The rule sets offered to players, each with a rules page."""
    return [v.key for v in available() if v.listed]


def _scored_examples(variant, opts) -> dict[str, dict]:
    """The first example hand each scoring item shows up in, scored with ``opts``."""
    found: dict[str, dict] = {}
    for hand, win, win_type in EXAMPLES:
        try:
            ctx = WinContext(
                hand=tuple(T.parse(hand)),
                melds=(),
                win_tile=T.parse_one(win),
                win_type=win_type,
                seat_wind=0,
                round_wind=0,
            )
            score = variant.score(ctx, opts)
        except (T.TileError, ValueError, KeyError, IndexError):
            continue
        if not score.win:
            continue
        for item in score.items:
            found.setdefault(
                item.id,
                {
                    "tiles": tile_codes(hand),
                    "win": win,
                    "text": f"{T.fmt(T.parse(hand))} + {win}",
                    "self_draw": win_type == "self_draw",
                    "value": item.value,
                    "total": score.total,
                },
            )
    return found


def _pattern_values(variant, opts) -> dict[str, int]:
    """Item values the house rules set outright (a map option keyed by item ids)."""
    names = variant.pattern_names()
    values: dict[str, int] = {}
    for option in variant.options.options:
        if option.type == "map" and set(option.keys) & set(names):
            values.update(opts[option.id])
    return values


def _text(option, value, lang: str, names: dict) -> str:
    """An option's value in words."""
    if value is None:
        return _("none (no limit)")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return ", ".join(f"{names.get(k, {}).get(lang, k)} {n}" for k, n in value.items())
    labels = option.choice_labels or {}
    if value in labels:
        zh, en = labels[value]
        return en if lang == "en" else zh
    return str(value)


def _help(option, lang: str) -> str:
    return option.help_en if lang == "en" else option.help_zh


def _source(option, value, default, preset: dict, chosen: dict) -> str:
    """Where a room's value came from: the defaults, the club's preset, the room's own
    choice, or (an option whose default depends on others) the other options."""
    if value == default:
        return "default"
    if option.id in preset:
        picked = preset[option.id]
        if option.type == "map" and picked is not None:
            picked = {**default, **picked}
        if picked == value:
            return "preset"
    if option.derive is not None and option.id not in chosen:
        return "derived"
    return "room"


def rule_page(
    variant_key: str,
    lang: str,
    *,
    rules: dict | None = None,
    preset: dict | None = None,
    chosen: dict | None = None,
) -> dict:
    """Everything a rules page shows.  With ``rules`` (本桌规则: a room's effective rules),
    ``preset`` (the layer of the club preset version it came from) and ``chosen`` (the
    room's choices), each option says whether it differs from the default and where its
    value came from."""
    variant = get_variant(variant_key)
    preset = variant.options.upgrade(preset or {})
    chosen = {**preset, **variant.options.upgrade(chosen or {})}
    defaults = variant.resolve_options()
    opts = variant.options.resolve_stored(rules) if rules is not None else defaults
    names = variant.pattern_names()
    values = _pattern_values(variant, opts)
    examples = _scored_examples(variant, opts)
    items = []
    for pid, name in names.items():
        example = examples.get(pid)
        value = values.get(pid, example["value"] if example else None)
        items.append({"id": pid, "name": name.get(lang, pid), "value": value, "example": example})
    options = []
    for option in variant.options.options:
        value, default = opts[option.id], defaults[option.id]
        if option.type == "map":
            changed = {k: n for k, n in value.items() if default.get(k) != n}
            shown = _text(option, changed, lang, names) if changed else _("as default")
        else:
            shown = _text(option, value, lang, names)
        source = _source(option, value, default, preset, chosen)
        options.append(
            {
                "id": option.id,
                "label": option.label_en if lang == "en" else option.label_zh,
                "help": _help(option, lang),
                "value": shown,
                "default": _text(option, default, lang, names) if option.type != "map" else "",
                "differs": value != default,
                "source": source,
            }
        )
    reasons = variant.reason_names()
    return {
        "key": variant.key,
        "name": variant.name_en if lang == "en" else variant.name_zh,
        "description": variant.description_en if lang == "en" else variant.description_zh,
        "unit": variant.site_data()["result"]["unit"][lang],
        "items": items,
        "payments": [r.get(lang, k) for k, r in reasons.items()],
        "options": options,
    }
