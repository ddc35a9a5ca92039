"""The refusal every club service raises, and the club API turns into its answer."""

from __future__ import annotations

from dataclasses import dataclass

from config.api import clip


@dataclass
class ClubError(Exception):
    """A refused request: a stable ``code``, a message for people, an HTTP status.

    ``option`` names the house rule at fault, when one is."""

    code: str
    message: str
    status: int = 400
    option: str | None = None

    def __post_init__(self):
        # Messages may quote what was sent (an option's value): never whole.
        self.message = clip(self.message)

    def __str__(self) -> str:
        return self.message
