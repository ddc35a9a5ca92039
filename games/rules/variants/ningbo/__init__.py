"""The Ningbo rule set: the flow (`variant.py`), its scoring (`tai.py`: the 台; `wilds.py`:
the 百搭; `readings.py`: the readings of a win; `bounds.py`: enough 台?), house rules
(`options.py`) and what the site shows about it (`site.py`)."""

from .variant import Ningbo

__all__ = ["Ningbo"]
