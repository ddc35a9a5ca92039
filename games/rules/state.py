"""The state of one hand, as plain data.

A :class:`HandState` is never changed once an ``apply`` has returned it: the
engine clones, then mutates the clone.  Every field is JSON-friendly through
``to_json``/``from_json`` (tiles in the notation, melds as objects) so a
snapshot can be stored and compared with a replay of the action log.

The generic fields are the ones every rule set shares.  Whatever one variant
alone needs (Sichuan's 定缺 and 过胡 bar, Hangzhou's 财飘 counters, …) lives in
``vs``, a JSON object the variant owns and the engine neither reads nor names.

``version`` counts the actions applied; ``public_version`` the ones the whole table is
told of: they differ only under ``MatchState.private_claims``, where an answer that
leaves a claim window open is its answerer's alone (stored only then).

Stored snapshots carry ``schema``; ``from_json`` upgrades older shapes
(``upgrade``) so a stored hand stays loadable when the shape changes.

The deal's seeds are ``seeds`` (:class:`DealSeeds`: server seed, four client seeds,
hand number; JSON key ``"seeds"``).  Snapshots before schema 3 kept an integer
``seed`` for the retired SplitMix generator: it becomes ``DealSeeds.for_test(seed)``
so the hand loads, plays on and settles, but such a **legacy hand cannot be re-dealt**
(its wall came from the old generator; the new seeds give another wall).
"""

from __future__ import annotations

from typing import Any

from . import tiles as T
from .match import MatchState
from .model import Meld
from .rng import DealSeeds

SCHEMA = 3


def _copy(value):
    """A deep copy of plain JSON-like data (dicts, lists, scalars and frozen values).

    Faster than ``copy.deepcopy`` on the engine's small nested records, and enough:
    the state holds nothing else that is mutable."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


class HandState:
    __slots__ = (
        "variant",
        "rules",
        "seeds",
        "match",
        "dealer",
        "version",
        "public_version",
        "wall",
        "dead",
        "indicator",
        "hands",
        "melds",
        "discards",
        "flowers",
        "phase",
        "turn",
        "drawn",
        "turn_kind",
        "kong_turn",
        "claim",
        "won",
        "win_order",
        "left",
        "draws",
        "claimed_any",
        "kongs",
        "transfers",
        "result",
        "vs",
    )

    def __init__(self, **fields: Any):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    # --- derived -----------------------------------------------------------
    def is_out(self, seat: int) -> bool:
        """A seat that has won (血战) no longer plays."""
        return self.won[seat] is not None

    def in_play(self) -> list[int]:
        return [s for s in range(4) if self.won[s] is None]

    def next_in_play(self, seat: int) -> int:
        for k in range(1, 5):
            s = (seat + k) % 4
            if self.won[s] is None:
                return s
        raise AssertionError("nobody left in play")

    @property
    def extra(self) -> dict:
        """Deprecated alias of ``vs`` for callers written before the variant state."""
        return self.vs

    # --- copying -----------------------------------------------------------
    def clone(self) -> HandState:
        new = HandState.__new__(HandState)
        new.variant = self.variant
        new.rules = self.rules  # frozen Options, shared
        new.seeds = self.seeds  # frozen DealSeeds, shared
        new.match = self.match  # frozen MatchState, shared
        new.dealer = self.dealer
        new.version = self.version
        new.public_version = self.public_version
        new.wall = list(self.wall)
        new.dead = list(self.dead)
        new.indicator = self.indicator
        new.hands = [list(h) for h in self.hands]
        new.melds = [list(m) for m in self.melds]  # Meld is frozen
        new.discards = [list(d) for d in self.discards]
        new.flowers = [list(f) for f in self.flowers]
        new.phase = self.phase
        new.turn = self.turn
        new.drawn = self.drawn
        new.turn_kind = self.turn_kind
        new.kong_turn = self.kong_turn
        new.claim = _copy(self.claim)
        new.won = _copy(self.won)
        new.win_order = list(self.win_order)
        new.left = list(self.left)
        new.draws = list(self.draws)
        new.claimed_any = self.claimed_any
        new.kongs = _copy(self.kongs)
        new.transfers = _copy(self.transfers)
        new.result = _copy(self.result)
        new.vs = _copy(self.vs)
        return new

    # --- serialisation -------------------------------------------------------
    def to_json(self) -> dict:
        def tl(ts):
            return [T.to_str(t) for t in ts]

        claim = None
        if self.claim is not None:
            claim = dict(self.claim)
            claim["tile"] = T.to_str(claim["tile"])
            claim["options"] = {str(k): v for k, v in claim["options"].items()}
            claim["answers"] = {str(k): v for k, v in claim["answers"].items()}
        out = {
            "schema": SCHEMA,
            "variant": self.variant,
            "rules": dict(self.rules),
            "seeds": self.seeds.to_json(),
            "match": self.match.to_json(),
            "dealer": self.dealer,
            "version": self.version,
            "wall": tl(self.wall),
            "dead": tl(self.dead),
            "indicator": T.to_str(self.indicator) if self.indicator is not None else None,
            "hands": [T.fmt(h) for h in self.hands],
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "discards": [tl(d) for d in self.discards],
            "flowers": [T.fmt(f) for f in self.flowers],
            "phase": self.phase,
            "turn": self.turn,
            "drawn": T.to_str(self.drawn) if self.drawn is not None else None,
            "turn_kind": self.turn_kind,
            "kong_turn": self.kong_turn,
            "claim": claim,
            "won": self.won,
            "win_order": self.win_order,
            "left": self.left,
            "draws": self.draws,
            "claimed_any": self.claimed_any,
            "kongs": self.kongs,
            "transfers": self.transfers,
            "result": self.result,
            "vs": self.vs,
        }
        if self.match.private_claims:  # absent otherwise: it equals version then
            out["public_version"] = self.public_version
        return out

    @classmethod
    def from_json(cls, d: dict) -> HandState:
        from .variants.registry import get_variant

        variant = get_variant(d["variant"])
        d = variant.upgrade_state(upgrade(d))
        claim = d["claim"]
        if claim is not None:
            claim = dict(claim)
            claim["tile"] = T.parse_one(claim["tile"])
            claim["options"] = {int(k): v for k, v in claim["options"].items()}
            claim["answers"] = {int(k): v for k, v in claim["answers"].items()}
        return cls(
            variant=d["variant"],
            rules=variant.options.resolve_stored(d["rules"]),
            seeds=DealSeeds.from_json(d["seeds"]),
            match=MatchState.from_json(d["match"]),
            dealer=d["dealer"],
            version=d["version"],
            public_version=d.get("public_version", d["version"]),
            wall=[T.parse_one(t) for t in d["wall"]],
            dead=[T.parse_one(t) for t in d["dead"]],
            indicator=T.parse_one(d["indicator"]) if d["indicator"] is not None else None,
            hands=[sorted(T.parse(h)) for h in d["hands"]],
            melds=[[Meld.from_json(m) for m in ms] for ms in d["melds"]],
            discards=[[T.parse_one(t) for t in ds] for ds in d["discards"]],
            flowers=[sorted(T.parse(f)) for f in d["flowers"]],
            phase=d["phase"],
            turn=d["turn"],
            drawn=T.parse_one(d["drawn"]) if d["drawn"] is not None else None,
            turn_kind=d["turn_kind"],
            kong_turn=d["kong_turn"],
            claim=claim,
            won=list(d["won"]),
            win_order=list(d["win_order"]),
            left=list(d["left"]),
            draws=list(d["draws"]),
            claimed_any=d["claimed_any"],
            kongs=[dict(k) for k in d["kongs"]],
            transfers=list(d["transfers"]),
            result=d["result"],
            vs=dict(d["vs"]),
        )


def upgrade(d: dict) -> dict:
    """A stored snapshot in the current generic shape (variant parts still to upgrade).

    Schema 1 (before ``schema`` was stored) kept the only variant's fields at the top
    level and its kong income inside ``kongs``: every field that is not the generic
    state's moves under ``vs["legacy"]`` for the variant's own ``upgrade_state`` to
    take apart."""
    d = dict(d)
    if d.get("schema", 1) == 1:
        # Whatever is not a field of the generic state was the variant's: it all goes to
        # the variant, which alone knows what its old names meant.
        legacy = {k: d.pop(k) for k in list(d) if k not in HandState.__slots__ and k != "seed"}
        legacy.setdefault("extra", {})
        legacy["extra"] = legacy["extra"] or {}
        legacy["kongs"] = [dict(k) for k in d["kongs"]]
        d["kongs"] = [
            {**{k: v for k, v in rec.items() if k not in ("income", "transferred")}, "chain": 1}
            for rec in d["kongs"]
        ]
        d["vs"] = {"legacy": legacy}
        dealer = d["dealer"]
        d["match"] = MatchState(dealer=dealer).dealt(dealer).to_json()
        d["dead"], d["indicator"] = [], None
        d["schema"] = 2
    if d["schema"] == 2:
        # The integer seed of the retired SplitMix generator: loadable, not re-dealable.
        d["seeds"] = DealSeeds.for_test(d.pop("seed")).to_json()
        d["schema"] = 3
    if d["schema"] != SCHEMA:
        raise ValueError(f"unknown hand schema {d['schema']!r} (this engine reads up to {SCHEMA})")
    return d
