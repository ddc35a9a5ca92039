"""The Ningbo rule set: the flow (`variant.py`), its scoring (`tai.py`), house rules
(`options.py`) and what the site shows about it (`site.py`)."""

from .variant import Ningbo

__all__ = ["Ningbo"]
