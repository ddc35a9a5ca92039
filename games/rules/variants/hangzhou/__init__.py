"""The Hangzhou rule set: the flow (`variant.py`), its scoring (`score.py`), house rules
(`options.py`) and what the site shows about it (`site.py`)."""

from .variant import Hangzhou

__all__ = ["Hangzhou"]
