"""What other apps show on a room's seat plates (a player's 段位 at a ranked table): an
app registers a source here and the room's payload carries its labels (the table
imports no such app)."""

from __future__ import annotations

from collections.abc import Callable

_sources: list[Callable[[int], dict[int, dict]]] = []


def register(source: Callable[[int], dict[int, dict]]) -> None:
    """Add ``source(room_id) -> {user_id: label}`` (a label: a small JSON object)."""
    if source not in _sources:
        _sources.append(source)


def seat_labels(room_id: int) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for source in _sources:
        out.update(source(room_id))
    return out
