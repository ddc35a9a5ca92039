"""The registry of variants by stable key.

It imports the variant modules only when a key is first looked up, and
nothing in the engine imports it back, so there is no import cycle between
the engine, the variant interface and the variants.
"""

from __future__ import annotations

import importlib

#: the modules that register a variant when imported
MODULES = ("sichuan", "hangzhou", "guangzhou", "ningbo")


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
        for name in MODULES:  # a module being imported already is simply returned
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
