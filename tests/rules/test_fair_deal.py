"""The provably fair deal: the commitment, the HMAC stream, below()'s
rejection sampling, a known-answer vector re-derived with ``hmac`` alone, and the
``python -m games.rules wall`` CLI against the engine's own deal."""

from __future__ import annotations

import hashlib
import hmac
import json
import pathlib
import struct
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, SeedStream, available, commitment, get_variant, new_hand
from games.rules import tiles as T
from games.rules.engine import deal_wall

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The known-answer seeds: bytes 0..31, client seed k = bytes 16k..16k+15, hand 7.
KAT_SERVER = bytes(range(32)).hex()
KAT_CLIENTS = tuple(bytes(range(16 * k, 16 * k + 16)).hex() for k in range(4))
KAT_HAND = 7


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _wall_json(seeds: DealSeeds, variant: str, *extra: str) -> dict:
    out = _cli(
        "wall",
        "--variant",
        variant,
        "--server-seed",
        seeds.server_seed,
        "--client-seeds",
        ",".join(seeds.client_seeds),
        "--hand",
        str(seeds.hand_number),
        "--json",
        *extra,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --------------------------------------------------------------------------
# An independent re-implementation from the README's text (hmac + struct only)


def _block(server: str, clients, hand: int, k: int) -> bytes:
    msg = b"".join(bytes.fromhex(c) for c in clients) + struct.pack(">II", hand, k)
    return hmac.new(bytes.fromhex(server), msg, hashlib.sha256).digest()


def _words(server: str, clients, hand: int):
    k = 0
    while True:
        yield from struct.unpack(">8I", _block(server, clients, hand, k))
        k += 1


def _below(words, n: int) -> int:
    limit = 2**32 - 2**32 % n
    for x in words:
        if x < limit:
            return x % n
    raise AssertionError("the stream is endless")


def _reference_deal(server, clients, hand, tile_set, dealer=None):
    """Dice for the dealer (when not given), then Fisher–Yates from the back."""
    words = _words(server, clients, hand)
    if dealer is None:
        d1, d2 = _below(words, 6) + 1, _below(words, 6) + 1
        dealer = (d1 + d2 - 1) % 4
    wall = list(tile_set)
    for i in range(len(wall) - 1, 0, -1):
        j = _below(words, i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return dealer, wall


def test_known_answer_vector():
    # Block 0 and the first tiles, computed once with the reference above and pinned:
    # any change of the byte layout re-deals every stored hand, so it must fail here.
    assert _block(KAT_SERVER, KAT_CLIENTS, KAT_HAND, 0).hex() == (
        "0146baec0cf4e72cab15ff695db121d8123517cd0a06ac1e8ab035886518736e"
    )
    assert _block(KAT_SERVER, KAT_CLIENTS, KAT_HAND, 1).hex() == (
        "946bc5f31742bdb4e272510d8f6ece861f3fa250b9ecf75ddb546f80a4c331be"
    )
    seeds = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    assert seeds.commitment == ("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
    stream = SeedStream(seeds)
    got = [stream.next_word() for _ in range(10)]
    ref = _words(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    assert got == [next(ref) for _ in range(10)]
    assert got[:3] == [0x0146BAEC, 0x0CF4E72C, 0xAB15FF69]
    assert got[8] == 0x946BC5F3  # block 1 follows block 0

    d = deal_wall("sichuan", None, seeds)
    sichuan_set = [t for t in range(27) for _ in range(4)]
    dealer, wall = _reference_deal(KAT_SERVER, KAT_CLIENTS, KAT_HAND, sichuan_set)
    assert (d.dealer, d.wall) == (dealer, wall)
    assert d.dealer == 1
    assert " ".join(T.to_str(t) for t in d.wall[:16]) == (
        "1m 1m 8s 8m 8s 2s 2p 1p 6s 2s 2m 1s 4s 4s 4m 3m"
    )
    # 136 tiles, dealer named: no dice are rolled, the shuffle starts at word 0.
    d = deal_wall("guangzhou", None, seeds, dealer=3)
    full_set = [t for t in range(34) for _ in range(4)]
    assert (d.dealer, d.wall) == _reference_deal(KAT_SERVER, KAT_CLIENTS, KAT_HAND, full_set, 3)


@settings(max_examples=25, deadline=None)
@given(
    server=st.binary(min_size=32, max_size=32),
    clients=st.lists(st.binary(min_size=16, max_size=16), min_size=4, max_size=4),
    hand=st.integers(1, 2**32 - 1),
)
def test_every_variant_deals_as_the_reference_shuffles(server, clients, hand):
    seeds = DealSeeds(server.hex(), tuple(c.hex() for c in clients), hand)
    assert seeds.commitment == hashlib.sha256(server).hexdigest()
    for v in available():
        d = deal_wall(v.key, None, seeds)
        dealer, shuffled = _reference_deal(
            seeds.server_seed, seeds.client_seeds, hand, v.wall_tiles(d.opts)
        )
        assert d.dealer == dealer
        assert list(d.shuffled) == shuffled
        # The break only rotates the shuffled wall (Ningbo's dice; none elsewhere).
        k = d.break_start
        assert d.wall == shuffled[k:] + shuffled[:k]


def _reference_hand(variant, rules, seeds: DealSeeds):
    """The whole deal as README.md describes it, steps 1 to 7, from ``hmac`` alone
    (the variant is asked only for its tile set and, for 补花, which flowers are wild)."""
    v = get_variant(variant)
    opts = v.resolve_options(rules)
    words = _words(seeds.server_seed, seeds.client_seeds, seeds.hand_number)
    d1, d2 = _below(words, 6) + 1, _below(words, 6) + 1  # 1. no dealer named
    dealer = (d1 + d2 - 1) % 4
    wall = list(v.wall_tiles(opts))  # 2. the tile set in index order
    for i in range(len(wall) - 1, 0, -1):  # 3. Fisher–Yates from the back
        j = _below(words, i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    extra = {}
    if variant == "ningbo":  # 4. the break
        w1, w2 = _below(words, 6) + 1, _below(words, 6) + 1
        start = 36 * ((dealer + w1 + w2 - 1) % 4) + 2 * max(w1, w2)
        wall = wall[start:] + wall[:start]
        extra["dice"] = [w1, w2]
    hands = []
    for k in range(4):  # 5. the deal, seat 0 first
        n = 14 if k == dealer else 13
        hands.append(sorted(wall[:n]))
        del wall[:n]
    indicator = None  # 6. after the deal
    if variant == "hangzhou":
        indicator = wall.pop()
    elif variant == "ningbo":
        indicator = wall.pop(len(wall) - 2 * min(extra["dice"]))
    elif variant == "sichuan" and opts.huan_san_zhang:
        extra["exchange_dir"] = 1 + _below(words, 3)
    flowers = [[] for _ in range(4)]
    wild = v.wild_kinds_for(indicator, opts) if indicator is not None else frozenset()
    changed = True
    while changed and variant == "ningbo":  # 7. 补花 from the dealer, from the back
        changed = False
        for k in range(4):
            seat = (dealer + k) % 4
            for t in [t for t in hands[seat] if t >= T.FLOWER and t not in wild]:
                hands[seat].remove(t)
                flowers[seat].append(t)
                hands[seat] = sorted([*hands[seat], wall.pop()])
                changed = True
    return dealer, hands, wall, indicator, [sorted(f) for f in flowers], extra


@settings(max_examples=25, deadline=None)
@given(
    server=st.binary(min_size=32, max_size=32),
    clients=st.lists(st.binary(min_size=16, max_size=16), min_size=4, max_size=4),
    hand=st.integers(1, 2**32 - 1),
    exchange=st.booleans(),
)
def test_every_variant_deals_as_the_readme_says(server, clients, hand, exchange):
    seeds = DealSeeds(server.hex(), tuple(c.hex() for c in clients), hand)
    for v in available():
        rules = {"huan_san_zhang": exchange} if v.key == "sichuan" else None
        dealer, hands, wall, indicator, flowers, extra = _reference_hand(v.key, rules, seeds)
        state = new_hand(v.key, rules, seeds)
        assert (state.dealer, state.hands, state.wall) == (dealer, hands, wall), v.key
        assert (state.indicator, state.flowers) == (indicator, flowers), v.key
        for key, value in extra.items():
            assert state.vs[key] == value, (v.key, key)


# --------------------------------------------------------------------------
# The commitment and the seeds


@given(server=st.binary(min_size=32, max_size=32))
def test_commitment_is_sha256_of_the_seed_bytes(server):
    assert commitment(server.hex()) == hashlib.sha256(server).hexdigest()
    # Not of the hex text.
    assert commitment(server.hex()) != hashlib.sha256(server.hex().encode()).hexdigest()


@pytest.mark.parametrize(
    "bad", ["", "00" * 31, "00" * 33, "AB" * 32, "zz" * 32, None, 12, b"\x00" * 32]
)
def test_malformed_server_seeds_are_refused(bad):
    with pytest.raises(ValueError):
        commitment(bad)
    with pytest.raises(ValueError):
        DealSeeds(bad, KAT_CLIENTS, 1)


def test_changing_one_client_seed_changes_the_wall():
    seeds = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    for v in available():
        base = deal_wall(v.key, None, seeds, dealer=0).wall
        for seat in range(4):
            clients = list(KAT_CLIENTS)
            flipped = bytearray.fromhex(clients[seat])
            flipped[-1] ^= 1  # one bit
            clients[seat] = flipped.hex()
            other = DealSeeds(KAT_SERVER, tuple(clients), KAT_HAND)
            assert deal_wall(v.key, None, other, dealer=0).wall != base, (v.key, seat)
        # So does the hand number, and the server seed.
        again = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND + 1)
        assert deal_wall(v.key, None, again, dealer=0).wall != base


# --------------------------------------------------------------------------
# below(): rejection sampling at its edges


class _Forced(SeedStream):
    """The real below()/dice() over a word sequence chosen by the test."""

    def __init__(self, words):
        self._given = list(words)
        self.used = 0

    def next_word(self) -> int:
        self.used += 1
        return self._given.pop(0)


def test_below_accepts_every_word_when_n_divides_two_to_the_32():
    top = 2**32 - 1
    s = _Forced([top, 0, 12345])
    assert s.below(2**32) == top  # n = 2**32: the word itself, nothing rejected
    assert s.below(1) == 0 and s.below(1) == 0  # n = 1: always 0, one word each
    assert s.used == 3
    s = _Forced([top])
    assert s.below(2**16) == 2**16 - 1 and s.used == 1


def test_below_rejects_the_words_at_and_above_the_limit():
    # 2**32 % 3 == 1: the limit is 2**32 - 1, so only the top word is rejected.
    top = 2**32 - 1
    s = _Forced([top, top, top - 1])
    assert s.below(3) == (top - 1) % 3 == 2
    assert s.used == 3
    s = _Forced([top - 1])
    assert s.below(3) == 2 and s.used == 1
    # 2**32 % 6 == 4: the four top words are rejected for a die.
    limit = 2**32 - 4
    s = _Forced([limit, limit + 1, limit + 3, limit - 1])
    assert s.below(6) == (limit - 1) % 6 and s.used == 4
    # The dice are two below(6) + 1 in order.
    s = _Forced([limit + 2, 6 * 1000 + 5, 2])
    assert s.dice() == (6, 3) and s.used == 3


@given(n=st.integers(1, 2**32))
def test_the_accepted_range_is_a_whole_number_of_cycles(n):
    limit = 2**32 - 2**32 % n
    assert limit % n == 0 and 2**32 - limit < n  # every residue equally often; few rejects
    s = _Forced([limit - 1, 0])
    assert s.below(n) == (limit - 1) % n == n - 1 and s.used == 1
    if limit < 2**32:
        s = _Forced([limit, 2**32 - 1, 7])
        assert s.below(n) == 7 % n and s.used == 3


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1, 1.5, "3"])
def test_below_refuses_sizes_out_of_range(n):
    with pytest.raises(ValueError):
        _Forced([0]).below(n)


def test_dice_faces_are_even_over_many_rolls():
    counts: Counter = Counter()
    for hand in range(1, 401):
        s = SeedStream(DealSeeds(KAT_SERVER, KAT_CLIENTS, hand))
        for _ in range(30):
            counts[s.below(6)] += 1
    # 12,000 rolls, 2,000 expected per face: chi-squared (5 d.f.) far below 30.
    chi2 = sum((counts[f] - 2000) ** 2 / 2000 for f in range(6))
    assert set(counts) == set(range(6)) and chi2 < 30, counts


# --------------------------------------------------------------------------
# The CLI


def _check_cli_deal(seeds: DealSeeds, variant: str, out: dict, dealer=None, match=None):
    state = new_hand(variant, None, seeds, dealer, match)
    wall = [T.parse_one(t) for t in out["wall"]]
    assert out["commitment"] == seeds.commitment
    assert out["dealer"] == state.dealer
    assert Counter(wall) == Counter(get_variant(variant).wall_tiles(state.rules))
    # The dealt hands are the front of the printed wall, seat 0 first, 14 to the dealer.
    rest, dealt = list(wall), []
    for k in range(4):
        n = 14 if k == state.dealer else 13
        dealt.append(rest[:n])
        del rest[:n]
    assert [T.fmt(h) for h in dealt] == out["dealt"]
    flowers = sum(len(f) for f in state.flowers)
    if not flowers:
        assert [sorted(h) for h in dealt] == state.hands
    # 补花 replaces from the back: every seat holds its dealt tiles (or laid them out).
    for k in range(4):
        assert not Counter(dealt[k]) - Counter(state.hands[k] + state.flowers[k])
    # The live wall is what is left, less the indicator set aside and the replacements.
    if state.indicator is not None:
        assert out["indicator"] == T.to_str(state.indicator)
        spots = [
            i
            for i, t in enumerate(rest)
            if t == state.indicator and (rest[:i] + rest[i + 1 :])[: len(state.wall)] == state.wall
        ]
        assert spots
        rest.pop(spots[0])
    assert state.wall == rest[: len(rest) - flowers]
    assert out["live_wall"] == len(state.wall)
    held = [t for k in range(4) for t in state.hands[k] + state.flowers[k]]
    assert Counter(held) == Counter(wall[:53] + rest[len(rest) - flowers :])


@pytest.mark.parametrize("variant", sorted(v.key for v in available()))
def test_the_cli_wall_is_the_engines_deal(variant):
    for n, hand in ((3, 1), (11, 4)):
        seeds = DealSeeds.for_test(n, hand_number=hand)
        _check_cli_deal(seeds, variant, _wall_json(seeds, variant))
    seeds = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    out = _wall_json(seeds, variant, "--dealer", "2")
    assert out["dealer_dice"] is None
    _check_cli_deal(seeds, variant, out, dealer=2)
    match = {"dealer": 3, "streak": 2}
    out = _wall_json(seeds, variant, "--match", json.dumps(match))
    _check_cli_deal(seeds, variant, out, match=match)


def test_the_cli_text_prints_the_same_wall():
    seeds = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    args = ["--variant", "ningbo", "--server-seed", KAT_SERVER]
    args += ["--client-seeds", ",".join(KAT_CLIENTS), "--hand", str(KAT_HAND)]
    text = _cli("wall", *args)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("wall: 144 tiles"))
    assert lines[i + 1].split() == _wall_json(seeds, "ningbo")["wall"]
    assert f"commitment {seeds.commitment}" in lines[0]
    assert "dealer: seat 1 (dice " in text.stdout


def test_the_cli_wall_changes_with_one_client_seed():
    seeds = DealSeeds(KAT_SERVER, KAT_CLIENTS, KAT_HAND)
    clients = list(KAT_CLIENTS)
    clients[2] = "f" + clients[2][1:]
    other = DealSeeds(KAT_SERVER, tuple(clients), KAT_HAND)
    assert _wall_json(seeds, "hangzhou")["wall"] != _wall_json(other, "hangzhou")["wall"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--variant": "mahjong"}, "unknown or unavailable variant"),
        ({"--server-seed": "00" * 31}, "server_seed must be 64"),
        ({"--server-seed": "xy" * 32}, "server_seed must be 64"),
        ({"--client-seeds": "00" * 16}, "client_seeds must be four"),
        ({"--client-seeds": ",".join(["00" * 16] * 3 + ["0g" * 16])}, "client seed of seat 3"),
        ({"--hand": "0"}, "hand_number must be"),
        ({"--hand": "x"}, "invalid int value"),
        ({"--rules": "{nope"}, "--rules is not valid JSON"),
        ({"--rules": '{"nope": 1}'}, "unknown house rule"),
        ({"--match": "[1]"}, "--match must be a JSON object"),
        ({"--dealer": "7"}, "dealer must be a seat"),
    ],
)
def test_the_cli_refuses_bad_input_with_exit_2(change, message):
    args = {
        "--variant": "sichuan",
        "--server-seed": KAT_SERVER,
        "--client-seeds": ",".join(KAT_CLIENTS),
        "--hand": "1",
        **change,
    }
    out = _cli("wall", *[x for kv in args.items() for x in kv])
    assert out.returncode == 2
    assert message in out.stderr
    assert out.stdout == ""
