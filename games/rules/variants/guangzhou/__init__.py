"""The Guangzhou rule set: the flow (`variant.py`), its scoring (`fan.py`), house rules
(`options.py`) and what the site shows about it (`site.py`)."""

from .variant import Guangzhou

__all__ = ["Guangzhou"]
