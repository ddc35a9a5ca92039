"""House rules: a typed, frozen options object per variant.

A variant declares its options as a tuple of :class:`Option`.  ``resolve``
overlays overrides (a club preset, then a room's choices) on the defaults and
validates the result once; everything downstream reads attributes of the
frozen :class:`Options` it returns.  ``describe`` is the machine-readable form
that forms and the API render.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class OptionsError(ValueError):
    """An unknown option id or a value the option does not allow."""


@dataclass(frozen=True)
class Option:
    id: str
    type: str  # "bool" | "int" | "choice" | "map" (id -> int; ``keys`` lists the ids)
    default: Any
    label_zh: str
    label_en: str
    choices: tuple[Any, ...] = ()  # for "choice" (and restricted "int")
    min: int | None = None
    max: int | None = None
    nullable: bool = False
    # A default that depends on other options (e.g. Sichuan's dealer rule by mode).
    derive: Callable[[Mapping[str, Any]], Any] | None = None
    # Display names of choice values: {value: (Chinese, English)}.
    choice_labels: Mapping[Any, tuple[str, str]] | None = None
    # For "map": the ids it may hold (its default names every one of them).
    keys: tuple[str, ...] = ()

    def merge(self, current: Any, value: Any) -> Any:
        """A layer's value over the value so far: a map given in part overrides only
        the ids it names; anything else replaces."""
        value = self.check(value)
        if self.type == "map" and value is not None:
            return {**(current if current is not None else self.default), **value}
        return value

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable or self.derive is not None:
                return None
            raise OptionsError(f"option {self.id!r} may not be null")
        if self.type == "bool":
            if not isinstance(value, bool):
                raise OptionsError(f"option {self.id!r} must be true or false, got {value!r}")
            return value
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionsError(f"option {self.id!r} must be a whole number, got {value!r}")
            if self.choices and value not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {self.id!r} must be one of {allowed}, got {value}")
            if self.min is not None and value < self.min:
                raise OptionsError(f"option {self.id!r} must be at least {self.min}, got {value}")
            if self.max is not None and value > self.max:
                raise OptionsError(f"option {self.id!r} must be at most {self.max}, got {value}")
            return value
        if self.type == "map":
            if not isinstance(value, Mapping):
                raise OptionsError(f"option {self.id!r} must be an object of id: number")
            out = {}
            for key, n in value.items():
                if key not in self.keys:
                    known = ", ".join(self.keys)
                    raise OptionsError(f"option {self.id!r} has no id {key!r} (known: {known})")
                if isinstance(n, bool) or not isinstance(n, int):
                    raise OptionsError(f"option {self.id!r}: {key} must be a whole number")
                if self.min is not None and n < self.min:
                    raise OptionsError(f"option {self.id!r}: {key} must be at least {self.min}")
                if self.max is not None and n > self.max:
                    raise OptionsError(f"option {self.id!r}: {key} must be at most {self.max}")
                out[key] = n
            return out
        if self.type == "choice":
            if value not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {self.id!r} must be one of {allowed}, got {value!r}")
            return value
        raise AssertionError(f"bad option type {self.type}")

    def describe(self) -> dict:
        d: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "default": self.default,
            "nullable": self.nullable,
            "label": {"zh-hans": self.label_zh, "en": self.label_en},
        }
        if self.choices:
            d["choices"] = list(self.choices)
        if self.choice_labels:
            d["choice_labels"] = {
                str(k): {"zh-hans": zh, "en": en} for k, (zh, en) in self.choice_labels.items()
            }
        if self.keys:
            d["keys"] = list(self.keys)
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        return d


class Options(Mapping[str, Any]):
    """Validated, frozen house rules.  Read as attributes: ``opts.fan_cap``."""

    __slots__ = ("_values", "_hash", "__dict__")

    def __init__(self, values: Mapping[str, Any]):
        values = dict(values)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_hash", None)
        # Every option is an instance attribute too, so ``opts.min_tai`` is a plain lookup
        # (the scorers and bots read options at every call); an id naming a method of the
        # class (``get``, ``items`` …) is left to ``opts[id]``, as before.
        object.__getattribute__(self, "__dict__").update(
            (k, v) for k, v in values.items() if not hasattr(Options, k)
        )

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Options are frozen")

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)  # Mapping's own goes through a KeyError

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self) == dict(other)

    def __hash__(self) -> int:
        if self._hash is None:  # made once: the scoring caches hash the rules at every call
            # A "map" option's value is a dict: hashed as its items (equal options, equal
            # hash).
            items = (
                (k, tuple(sorted(v.items())) if isinstance(v, Mapping) else v)
                for k, v in self._values.items()
            )
            object.__setattr__(self, "_hash", hash(tuple(sorted(items))))
        return self._hash

    def to_json(self) -> dict:
        return dict(self._values)


@dataclass(frozen=True)
class HelpedOption(Option):
    """An :class:`Option` with a one-line help text, and one per choice value."""

    help_zh: str = ""
    help_en: str = ""
    # {value: (Chinese, English)}: what choosing that value means.
    choice_help: Mapping[Any, tuple[str, str]] | None = None

    def describe(self) -> dict:
        d = super().describe()
        d["help"] = {"zh-hans": self.help_zh, "en": self.help_en}
        if self.choice_help:
            d["choice_help"] = {
                str(k): {"zh-hans": zh, "en": en} for k, (zh, en) in self.choice_help.items()
            }
        return d


class OptionSet:
    """A variant's house rules.

    ``renamed`` maps an option id that used to exist to its current id, and
    ``retired`` lists ids that no longer exist: stored rules (a saved hand, a room)
    are read through :meth:`resolve_stored`, which applies both, so renaming or
    retiring an option never makes a stored hand unloadable.  New choices go
    through :meth:`resolve`, which refuses unknown ids."""

    def __init__(
        self,
        options: tuple[Option, ...],
        *,
        renamed: Mapping[str, str] | None = None,
        retired: tuple[str, ...] = (),
    ):
        self.options = options
        self.by_id = {o.id: o for o in options}
        self.renamed = dict(renamed or {})
        self.retired = frozenset(retired)

    def resolve(self, *layers: Mapping[str, Any] | None) -> Options:
        """Defaults, overlaid by each layer in turn, validated."""
        chosen: dict[str, Any] = {}
        for layer in layers:
            if layer is None:
                continue
            if not isinstance(layer, Mapping):
                raise OptionsError(f"house rules must be an object, got {type(layer).__name__}")
            for key, value in layer.items():
                opt = self.by_id.get(key)
                if opt is None:
                    known = ", ".join(sorted(self.by_id))
                    raise OptionsError(f"unknown house rule {key!r} (known: {known})")
                chosen[key] = opt.merge(chosen.get(key), value)
        values = {o.id: chosen.get(o.id, o.default) for o in self.options}
        for o in self.options:
            if o.derive is not None and values[o.id] is None:
                values[o.id] = o.derive(values)
        return Options(values)

    def upgrade(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """Stored rules in today's ids: renamed ids follow, retired ones are dropped."""
        out: dict[str, Any] = {}
        for key, value in stored.items():
            if key in self.retired:
                continue
            out[self.renamed.get(key, key)] = value
        return out

    def resolve_stored(self, stored: Mapping[str, Any] | None) -> Options:
        return self.resolve(self.upgrade(stored or {}))

    def describe(self) -> list[dict]:
        return [o.describe() for o in self.options]
