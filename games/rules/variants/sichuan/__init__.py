"""The Sichuan rule set: the flow (`variant.py`), its scoring (`fan.py`), house rules
(`options.py`) and what the site shows about it (`site.py`)."""

from .variant import Sichuan

__all__ = ["Sichuan"]
