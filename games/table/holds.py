"""Rooms whose seats are held to the end of the match (ranked play): there, leaving hands
the seat to 托管 instead of giving it up, and the match counts.  The app that holds
rooms registers a test here; the table asks it (the table imports no such app)."""

from __future__ import annotations

from collections.abc import Callable

_tests: list[Callable[[int], bool]] = []


def register(test: Callable[[int], bool]) -> None:
    """Add ``test(room_id) -> bool``: whether that room's seats are held."""
    if test not in _tests:
        _tests.append(test)


def seats_held(room_id: int) -> bool:
    return any(test(room_id) for test in _tests)
