"""The registry of variants by stable key.

Every folder (package) beside this module is a variant that registers itself when
imported: adding one is adding its folder.  They are imported only when a key is first
looked up, and nothing in the engine imports this back, so there is no import cycle
between the engine, the variant interface and the variants.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path


def _variant_packages() -> list[str]:
    """The variant folders beside this module, by name."""
    here = str(Path(__file__).resolve().parent)
    return sorted(m.name for m in pkgutil.iter_modules([here]) if m.ispkg)


class UnknownVariant(ValueError):
    pass


_REGISTRY: dict = {}
_loaded = False


def register(variant):
    _REGISTRY[variant.key] = variant
    return variant


def _load() -> None:
    global _loaded
    if not _loaded:
        for name in _variant_packages():  # one being imported already is simply returned
            importlib.import_module(f"{__package__}.{name}")
        _loaded = True


def get_variant(key: str):
    _load()
    try:
        return _REGISTRY[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownVariant(
            f"unknown or unavailable variant {key!r} (available: {known})"
        ) from None


def available() -> list:
    """Every variant players can choose, in the site's order (``Variant.order``, then key);
    tests may register others, marked ``listed=False``."""
    _load()
    listed = [v for v in _REGISTRY.values() if v.listed]
    return sorted(listed, key=lambda v: (v.order, v.key))
