"""The refusal every games service raises, and every interface turns into its own shape
(a JSON error, a socket's error frame, a page's message)."""

from __future__ import annotations

from dataclasses import dataclass

from config.api import clip


@dataclass
class ServiceError(Exception):
    """A refused request: a stable ``code``, a message for people, an HTTP status."""

    code: str
    message: str
    status: int = 400

    def __post_init__(self):
        # Messages may quote what was sent (an option's value, a tile string): never whole.
        self.message = clip(self.message)

    def __str__(self) -> str:
        return self.message
