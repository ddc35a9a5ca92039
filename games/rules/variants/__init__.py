"""Variant registry: ``get_variant("sichuan")``."""

from .base import UnknownVariant, Variant, available, get_variant, register

__all__ = ["UnknownVariant", "Variant", "available", "get_variant", "register"]
