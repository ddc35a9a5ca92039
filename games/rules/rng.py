"""The provably fair deal stream: HMAC-SHA256 over the hand's seeds.

A hand is a pure function of ``(server seed, client seeds, hand number, rules,
actions)``.  The byte layout below is public (``README.md`` spells it out for
re-implementers, the browser's verify panel repeats it with Web Crypto) and must
never change: a recorded hand re-deals to the same wall, in any language, forever.

* ``server_seed``: 32 bytes, 64 lowercase hex; ``commitment`` = lowercase hex
  SHA-256 of those 32 bytes (not of the hex text).
* ``client_seeds``: four, seat order, 16 bytes (32 lowercase hex) each.
* block ``k`` = HMAC-SHA256(key = server-seed bytes,
  msg = cs0 ‖ cs1 ‖ cs2 ‖ cs3 ‖ u32be(hand_number) ‖ u32be(k)) — 72 bytes.
* the stream is block 0 ‖ block 1 ‖ …, read as unsigned 32-bit big-endian words.
* ``below(n)``: rejection sampling against ``2**32 - 2**32 % n``; ``shuffle``:
  Fisher–Yates from the back; ``dice``: two ``below(6) + 1``.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass
from functools import lru_cache

SERVER_SEED_BYTES = 32
CLIENT_SEED_BYTES = 16
_DEFAULT_CLIENT_SEED_TAG = b"mahjong-default-client-seed"
_TEST_SERVER_SEED_TAG = b"mahjong-test-server-seed"
_WORD = 1 << 32
_HEX = frozenset("0123456789abcdef")


def _hex_bytes(text, size: int, what: str) -> bytes:
    """``text`` as bytes when it is exactly ``size`` bytes of lowercase hex."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a string of {2 * size} lowercase hex digits")
    if len(text) != 2 * size or not set(text) <= _HEX:
        raise ValueError(f"{what} must be {2 * size} lowercase hex digits, got {text!r}")
    return bytes.fromhex(text)


@lru_cache(maxsize=4096)  # every view carries it: one hash a hand, not one a view
def commitment(server_seed_hex: str) -> str:
    """The public commitment to a server seed: SHA-256 of its 32 bytes, lowercase hex."""
    seed = _hex_bytes(server_seed_hex, SERVER_SEED_BYTES, "server_seed")
    return hashlib.sha256(seed).hexdigest()


def is_client_seed(text) -> bool:
    """Whether ``text`` is a client seed: 16 bytes as 32 lowercase hex digits."""
    try:
        _hex_bytes(text, CLIENT_SEED_BYTES, "client seed")
    except ValueError:
        return False
    return True


def default_client_seed(commitment_hex: str, seat: int) -> str:
    """The client seed of a seat whose player sent none (bots, old clients).

    Fixed by the commitment, so the server cannot grind it after seeing the players'
    seeds: the first 16 bytes of SHA-256("mahjong-default-client-seed" ‖ commitment
    bytes ‖ u8(seat))."""
    c = _hex_bytes(commitment_hex, 32, "commitment")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        raise ValueError("seat must be 0..3")
    digest = hashlib.sha256(_DEFAULT_CLIENT_SEED_TAG + c + bytes([seat])).digest()
    return digest[:CLIENT_SEED_BYTES].hex()


@dataclass(frozen=True, slots=True)
class DealSeeds:
    """Everything random about one deal.  Validated on construction."""

    server_seed: str
    client_seeds: tuple[str, str, str, str]
    hand_number: int

    def __post_init__(self):
        _hex_bytes(self.server_seed, SERVER_SEED_BYTES, "server_seed")
        seeds = self.client_seeds
        if not isinstance(seeds, (list, tuple)) or len(seeds) != 4:
            raise ValueError("client_seeds must be four hex strings, seat order 0..3")
        for seat, cs in enumerate(seeds):
            _hex_bytes(cs, CLIENT_SEED_BYTES, f"client seed of seat {seat}")
        object.__setattr__(self, "client_seeds", tuple(seeds))
        n = self.hand_number
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n < _WORD:
            raise ValueError("hand_number must be an integer from 1 to 2**32 - 1")

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def to_json(self) -> dict:
        return {
            "server_seed": self.server_seed,
            "client_seeds": list(self.client_seeds),
            "hand_number": self.hand_number,
        }

    @classmethod
    def from_json(cls, d) -> DealSeeds:
        if not isinstance(d, dict):
            raise ValueError("seeds must be an object with server_seed, client_seeds, hand_number")
        missing = {"server_seed", "client_seeds", "hand_number"} - set(d)
        if missing:
            raise ValueError(f"seeds lack {', '.join(sorted(missing))}")
        return cls(d["server_seed"], tuple(d["client_seeds"]), d["hand_number"])

    @classmethod
    def for_test(cls, n: int, hand_number: int = 1) -> DealSeeds:
        """Deterministic seeds derived from an integer: for simulations and tests only
        (anyone can compute the server seed, so nothing is committed to).  The client
        seeds are the defaults for its commitment, as bots' would be."""
        if not isinstance(n, int) or isinstance(n, bool):
            raise ValueError("n must be an integer")
        server = hashlib.sha256(_TEST_SERVER_SEED_TAG + str(n).encode()).hexdigest()
        c = commitment(server)
        return cls(server, tuple(default_client_seed(c, k) for k in range(4)), hand_number)


class SeedStream:
    """The deal's random numbers: the HMAC block stream read as 32-bit words."""

    __slots__ = ("_key", "_prefix", "_block", "_words", "_pos")

    def __init__(self, seeds: DealSeeds):
        self._key = bytes.fromhex(seeds.server_seed)
        self._prefix = b"".join(bytes.fromhex(cs) for cs in seeds.client_seeds) + struct.pack(
            ">I", seeds.hand_number
        )
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def next_word(self) -> int:
        """The next unsigned 32-bit big-endian word of the stream."""
        if self._pos == len(self._words):
            msg = self._prefix + struct.pack(">I", self._block)
            digest = hmac.new(self._key, msg, hashlib.sha256).digest()
            self._words = struct.unpack(">8I", digest)
            self._block += 1
            self._pos = 0
        x = self._words[self._pos]
        self._pos += 1
        return x

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if not isinstance(n, int) or not 0 < n <= _WORD:
            raise ValueError("n must be an integer from 1 to 2**32")
        limit = _WORD - (_WORD % n)
        while True:
            x = self.next_word()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place: for i from len−1 down to 1, swap i with below(i+1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def dice(self) -> tuple[int, int]:
        return self.below(6) + 1, self.below(6) + 1
