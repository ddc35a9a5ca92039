"""Variant registry: ``get_variant("sichuan")``."""

from .base import Variant
from .registry import UnknownVariant, available, get_variant, register

__all__ = ["UnknownVariant", "Variant", "available", "get_variant", "register"]
