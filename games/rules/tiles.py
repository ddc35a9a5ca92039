"""Tile notation: the compact ``123m456p789s1234567z12f`` strings of the spec.

A tile is an ``int`` index:

====== ======= ============================
index  string  meaning
====== ======= ============================
0..8   1m..9m  万 characters
9..17  1p..9p  筒 dots
18..26 1s..9s  条 bamboo
27..33 1z..7z  东 南 西 北 白 发 中
34..41 1f..8f  春 夏 秋 冬 梅 兰 竹 菊
====== ======= ============================

Indices sort in the canonical printing order (m, p, s, z, f; ascending), so a
sorted list of indices prints canonically.  Hands for analysis are *count
vectors*: a list of 34 ints (flowers never take part in a hand shape).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "mpszf"
SUIT_SIZES = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}

NUM_KINDS = 34  # kinds that can be part of a hand shape (m, p, s, z)
NUM_TILES = 42  # with the eight flowers

# The three numbered suits, as indices of the first tile of each.
MAN, PIN, SOU = 0, 9, 18
HONOR = 27
FLOWER = 34

SUIT_NAMES = {"m": ("万", "characters"), "p": ("筒", "dots"), "s": ("条", "bamboo")}


class TileError(ValueError):
    """A tile string that does not follow the notation."""


def parse(text: str) -> list[int]:
    """Parse ``"123m 55z"`` into tile indices, in the order written.

    Whitespace is ignored; digits must be followed by a suit letter.  Raises
    :class:`TileError` naming the offending character.
    """
    if not isinstance(text, str):
        raise TileError(f"tiles must be a string, got {type(text).__name__}")
    tiles: list[int] = []
    pending: list[tuple[int, str]] = []  # (position, digit)
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "0123456789":
            pending.append((pos, ch))
        elif ch in SUIT_SIZES:
            if not pending:
                raise TileError(f"suit letter {ch!r} at position {pos} has no digits before it")
            for dpos, digit in pending:
                n = int(digit)
                if not 1 <= n <= SUIT_SIZES[ch]:
                    raise TileError(
                        f"no tile {digit}{ch} (position {dpos}): {ch} tiles are 1..{SUIT_SIZES[ch]}"
                    )
                tiles.append(SUIT_BASE[ch] + n - 1)
            pending = []
        else:
            raise TileError(f"unexpected character {ch!r} at position {pos}")
    if pending:
        pos, digit = pending[0]
        raise TileError(f"digit {digit!r} at position {pos} has no suit letter after it")
    return tiles


def parse_one(text: str) -> int:
    """Parse exactly one tile (``"5p"``)."""
    tile = _INDEX.get(text) if isinstance(text, str) else None
    if tile is not None:
        return tile  # a tile's own name, looked up (bots and the engine read one per action)
    tiles = parse(text)
    if len(tiles) != 1:
        raise TileError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def suit_of(tile: int) -> str:
    if tile < 27:
        return "mps"[tile // 9]
    return "z" if tile < FLOWER else "f"


def number_of(tile: int) -> int:
    """The face number, 1-based (``1z`` is 1)."""
    return tile - SUIT_BASE[suit_of(tile)] + 1


# Every tile's suit letter, face number and name, looked up: the views write each
# player's tiles out at every action.
_SUIT = [suit_of(t) for t in range(NUM_TILES)]
_NUMBER = [str(number_of(t)) for t in range(NUM_TILES)]
_NAME = [_NUMBER[t] + _SUIT[t] for t in range(NUM_TILES)]
_INDEX = {name: t for t, name in enumerate(_NAME)}


def to_str(tile: int) -> str:
    if 0 <= tile < NUM_TILES:
        return _NAME[tile]
    return f"{number_of(tile)}{suit_of(tile)}"


def fmt(tiles: Iterable[int]) -> str:
    """Canonical string: sorted, one suit letter per run (``"123m55z"``)."""
    out: list[str] = []
    last_suit = None
    for t in sorted(tiles):
        if 0 <= t < NUM_TILES:
            s, n = _SUIT[t], _NUMBER[t]
        else:
            s, n = suit_of(t), str(number_of(t))
        if last_suit is not None and s != last_suit:
            out.append(last_suit)
        out.append(n)
        last_suit = s
    if last_suit is not None:
        out.append(last_suit)
    return "".join(out)


def counts(tiles: Iterable[int], size: int = NUM_KINDS) -> list[int]:
    """Count vector of ``size`` kinds (flowers are an error for the default size)."""
    c = [0] * size
    for t in tiles:
        c[t] += 1
    return c


def from_counts(c: Iterable[int]) -> list[int]:
    return [t for t, n in enumerate(c) for _ in range(n)]


def is_suited(tile: int) -> bool:
    return tile < HONOR


def is_honor(tile: int) -> bool:
    return HONOR <= tile < FLOWER


def is_flower(tile: int) -> bool:
    return tile >= FLOWER


def is_terminal(tile: int) -> bool:
    return tile < HONOR and tile % 9 in (0, 8)


def suit_index(tile: int) -> int:
    """0, 1, 2 for m, p, s; 3 for honours; 4 for flowers."""
    if tile < 27:
        return tile // 9
    return 3 if tile < FLOWER else 4


SUIT_LETTER_TO_INDEX = {"m": 0, "p": 1, "s": 2}
