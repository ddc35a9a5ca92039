// The provably fair deal, re-implemented in the browser with Web Crypto.
//
// Small pure functions, no DOM: the hand page's verify panel and a Node test (against
// Python's deal for every variant) both import this module. It follows the byte layout
// of games/rules/rng.py and the deal of games/rules/engine.py (deal_wall, new_hand); the
// variant's own steps come from the server as data (below), documented in games/rules/README.md:
//
//   commitment = hex(SHA-256(the 32 bytes of the server seed))
//   block k    = HMAC-SHA256(key = server seed bytes,
//                            msg = cs0 ‖ cs1 ‖ cs2 ‖ cs3 ‖ u32be(hand number) ‖ u32be(k))
//   stream     = block 0 ‖ block 1 ‖ …, read as unsigned 32-bit big-endian words
//   below(n)   = the first word x < 2^32 − 2^32 mod n, then x mod n (no modulo bias)
//   shuffle    = Fisher–Yates from the back: for i = len−1 … 1 swap i with below(i + 1)
//   dice       = two below(6) + 1
//
// The deal draws, in order: the dealer's dice (only when the match names no dealer:
// dealer = (d1 + d2 − 1) mod 4), the shuffle of the variant's tile set, the variant's
// break of the wall; the hands are then dealt from the front of the wall (seat 0 first,
// 14 tiles to the dealer, 13 to the others).

const SUITS = ["m", "p", "s", "z", "f"];
const SUIT_BASE = { m: 0, p: 9, s: 18, z: 27, f: 34 };
const SUIT_SIZE = { m: 9, p: 9, s: 9, z: 7, f: 8 };
export const NUM_KINDS = 34; // suited tiles and honours; 34..41 are the eight flowers
const WORD = 2 ** 32;
const HEX = /^[0-9a-f]*$/;

/** Tile index (0..41) → code ("1m" … "8f"), as games/rules/tiles.py. */
export function tileCode(t) {
  for (let i = SUITS.length - 1; i >= 0; i--) {
    const s = SUITS[i];
    if (t >= SUIT_BASE[s]) return `${t - SUIT_BASE[s] + 1}${s}`;
  }
  throw new Error(`not a tile: ${t}`);
}

/** Code → tile index. */
export function tileIndex(code) {
  const n = Number(code[0]);
  const s = code[1];
  if (!(s in SUIT_BASE) || !(n >= 1 && n <= SUIT_SIZE[s])) throw new Error(`not a tile: ${code}`);
  return SUIT_BASE[s] + n - 1;
}

/** Tile indices in the canonical notation ("123m55z"), sorted like Python's T.fmt. */
export function fmt(tiles) {
  const sorted = [...tiles].sort((a, b) => a - b);
  let out = "";
  let suit = null;
  for (const t of sorted) {
    const code = tileCode(t);
    if (suit !== null && code[1] !== suit) out += suit;
    out += code[0];
    suit = code[1];
  }
  return suit === null ? "" : out + suit;
}

/** Lowercase hex of exactly `size` bytes → Uint8Array; throws with a reason otherwise. */
export function hexBytes(hex, size, what = "seed") {
  if (typeof hex !== "string" || hex.length !== 2 * size || !HEX.test(hex)) {
    throw new Error(`${what} must be ${2 * size} lowercase hex digits`);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) throw new Error("Web Crypto (crypto.subtle) is not available here");
  return c.subtle;
}

/** The public commitment to a server seed: SHA-256 of its 32 bytes, lowercase hex. */
export async function commitmentOf(serverSeed) {
  const bytes = hexBytes(serverSeed, 32, "server seed");
  return toHex(await subtle().digest("SHA-256", bytes));
}

/** The deal's random numbers: the HMAC block stream read as 32-bit big-endian words. */
export class SeedStream {
  constructor(serverSeed, clientSeeds, handNumber) {
    this.key = hexBytes(serverSeed, 32, "server seed");
    if (!Array.isArray(clientSeeds) || clientSeeds.length !== 4) {
      throw new Error("client seeds: four, in seat order");
    }
    if (!Number.isInteger(handNumber) || handNumber < 1 || handNumber >= WORD) {
      throw new Error("hand number must be 1 … 2^32 − 1");
    }
    // cs0 ‖ cs1 ‖ cs2 ‖ cs3 ‖ u32be(hand number) ‖ u32be(block): 72 bytes.
    this.msg = new Uint8Array(72);
    clientSeeds.forEach((cs, k) => this.msg.set(hexBytes(cs, 16, `client seed ${k}`), 16 * k));
    new DataView(this.msg.buffer).setUint32(64, handNumber);
    this.block = 0;
    this.words = [];
    this.pos = 0;
    this.hmacKey = null;
  }

  async nextWord() {
    if (this.pos === this.words.length) {
      if (!this.hmacKey) {
        this.hmacKey = await subtle().importKey(
          "raw", this.key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
        );
      }
      new DataView(this.msg.buffer).setUint32(68, this.block);
      const digest = new DataView(await subtle().sign("HMAC", this.hmacKey, this.msg));
      this.words = Array.from({ length: 8 }, (_, i) => digest.getUint32(4 * i));
      this.block += 1;
      this.pos = 0;
    }
    return this.words[this.pos++];
  }

  /** Uniform integer in [0, n): rejection sampling against 2^32 − 2^32 mod n. */
  async below(n) {
    const limit = WORD - (WORD % n);
    for (;;) {
      const x = await this.nextWord();
      if (x < limit) return x % n;
    }
  }

  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }

  async dice() {
    const d1 = (await this.below(6)) + 1;
    return [d1, (await this.below(6)) + 1];
  }
}

// ---- the variant's deal, as the server describes it (Variant.deal_procedure) ------------
//
// procedure = {tiles, break, after, bonus}: the unshuffled tile set (indices); the break of
// the shuffled wall (null, or {op: "dice_rotate", wall: n}: two dice, the sum counting from
// the dealer to the wall of n tiles the deal starts from, the larger die the stacks of two
// skipped there); the steps drawn after the deal ({op: "below", n}: a number drawn, no tile
// moves; {op: "indicator", at: "last" | "small_die"}: the indicator set aside from the end
// of the wall, or 2 × the smaller die from it); the bonus tiles laid out and replaced from
// the back (null, or {tiles, wild_sets}: a set holding the indicator is wild, not bonus).

const BREAKS = {
  async dice_rotate(wall, dealer, stream, step) {
    const [d1, d2] = await stream.dice();
    const startWall = (dealer + d1 + d2 - 1) % 4;
    const start = startWall * step.wall + 2 * Math.max(d1, d2);
    wall.splice(0, wall.length, ...wall.slice(start), ...wall.slice(0, start));
    return { dice: [d1, d2] };
  },
};

const AFTER = {
  async below(deal, stream, step) {
    await stream.below(step.n);
  },
  async indicator(deal, stream, step) {
    const at = step.at === "small_die" ? deal.wall.length - 2 * Math.min(...deal.dice)
      : deal.wall.length - 1;
    deal.indicator = deal.wall.splice(at, 1)[0];
  },
};

function isBonus(bonus, deal, t) {
  if (!bonus || !bonus.tiles.includes(t)) return false;
  const wildSet = (bonus.wild_sets || []).find((set) => set.includes(deal.indicator));
  return !(wildSet && wildSet.includes(t));
}

function checkProcedure(p) {
  const known = (step, ops) => step === null || step === undefined || step.op in ops;
  if (!p || !Array.isArray(p.tiles) || !known(p.break, BREAKS)
    || !(p.after || []).every((s) => known(s, AFTER))) {
    throw new Error("this rule set's deal cannot be checked in the browser");
  }
}

/**
 * The deal of a hand, from its seeds and its variant's procedure (the server's data).
 * `matchDealer`: the dealer the match names (null: the dice choose, as for a first hand).
 * Returns {dealer, dice, shuffled, wall (live, after the deal), hands, flowers, indicator}
 * with tiles as indices; hands sorted, flowers sorted.
 */
export async function deal(procedure, seeds, matchDealer = null) {
  checkProcedure(procedure);
  const stream = new SeedStream(seeds.server_seed, seeds.client_seeds, seeds.hand_number);
  let dealer = matchDealer;
  let dealerDice = null;
  if (dealer === null || dealer === undefined) {
    dealerDice = await stream.dice();
    dealer = (dealerDice[0] + dealerDice[1] - 1) % 4;
  }
  const wall = [...procedure.tiles];
  await stream.shuffle(wall);
  const shuffled = [...wall];
  const cut = procedure.break;
  const vs = cut ? await BREAKS[cut.op](wall, dealer, stream, cut) : {};
  const broken = [...wall];
  const hands = [];
  for (let k = 0; k < 4; k++) {
    const n = k === dealer ? 14 : 13;
    hands.push(wall.splice(0, n));
  }
  const out = {
    dealer, dealerDice, dice: vs.dice || null, shuffled, broken, wall, hands,
    flowers: [[], [], [], []], indicator: null,
  };
  for (const step of procedure.after || []) await AFTER[step.op](out, stream, step);
  if (procedure.bonus) {
    // 补花 after the deal: from the dealer on, each bonus tile is laid out and replaced
    // from the back of the wall, until no hand holds one.
    let changed = true;
    while (changed && out.wall.length) {
      changed = false;
      for (let k = 0; k < 4; k++) {
        const seat = (dealer + k) % 4;
        const hand = out.hands[seat];
        for (const t of hand.filter((x) => isBonus(procedure.bonus, out, x))) {
          if (!out.wall.length) break;
          hand.splice(hand.indexOf(t), 1);
          out.flowers[seat].push(t);
          hand.push(out.wall.pop());
          changed = true;
        }
      }
    }
  }
  out.hands.forEach((h) => h.sort((a, b) => a - b));
  out.flowers.forEach((f) => f.sort((a, b) => a - b));
  return out;
}

/** The deal in the notation the record uses: hands and flowers as "123m…", tiles as codes. */
export function dealNotation(d) {
  return {
    dealer: d.dealer,
    dice: d.dice,
    hands: d.hands.map(fmt),
    flowers: d.flowers.map(fmt),
    indicator: d.indicator === null ? null : tileCode(d.indicator),
    wall: d.broken.map(tileCode),
    live: d.wall.map(tileCode),
  };
}

/**
 * Every tile drawn during the hand, against the live wall after the deal (`live`, codes):
 * a draw takes the front, a replacement (kong, flower) the back; a flower met on a draw is
 * laid out (BonusLaidOut) and replaced from the back. `frames`: the replay's steps, whose
 * events show every tile (the hand is over). Flowers are unique, so a chain's first flower
 * is found at whichever end it was drawn from.
 * Returns {ok, draws, mismatch: {seq, expected, got} | null}.
 */
export function checkDraws(live, frames) {
  let front = 0;
  let back = live.length - 1;
  let draws = 0;
  for (const f of frames) {
    let chain = false; // inside a draw that met a flower: the rest come from the back
    for (const e of f.events || []) {
      if (e.type !== "BonusLaidOut" && e.type !== "TileDrawn") continue;
      let fromBack;
      if (e.type === "TileDrawn") fromBack = e.replacement || chain;
      else if (chain) fromBack = true;
      else fromBack = live[front] !== e.tile; // where this flower lies (each is unique)
      const at = fromBack ? back : front;
      const expected = front <= back ? live[at] : null;
      if (expected !== e.tile) {
        return { ok: false, draws, mismatch: { seq: f.seq, expected, got: e.tile ?? null } };
      }
      if (fromBack) back -= 1;
      else front += 1;
      draws += 1;
      chain = e.type === "BonusLaidOut";
    }
  }
  return { ok: true, draws, mismatch: null };
}

/**
 * Check a hand record against its seeds and its variant's deal `procedure` (the server's
 * data for the record's rules). `seeds` defaults to the record's own (a reader
 * may paste another server seed). `first`: the view of the replay's first frame (every
 * hand face up, as dealt); `frames`: all of them, to check every draw too. Returns
 * {commitment: {ok, expected, computed}, deal: {ok, checked: [...], mismatches: [...]},
 * draws: {ok, draws, mismatch} (with frames), notation} or throws on malformed seeds.
 */
export async function verify(record, procedure, first, seeds = {}, frames = null) {
  const serverSeed = seeds.server_seed ?? record.server_seed;
  const clientSeeds = seeds.client_seeds ?? record.client_seeds;
  const handNumber = seeds.hand_number ?? record.hand_number;
  const computed = await commitmentOf(serverSeed);
  const out = {
    commitment: { ok: computed === record.commitment, expected: record.commitment, computed },
  };
  // The deal's inputs: the match it was dealt under (its dealer null when the dice chose),
  // or, for a hand dealt outside a match, the record's dealer.
  const matchDealer = record.match ? (record.match.dealer ?? null) : record.dealer;
  const d = await deal(procedure, {
    server_seed: serverSeed, client_seeds: clientSeeds, hand_number: handNumber,
  }, matchDealer);
  const n = dealNotation(d);
  out.notation = n;
  const mismatches = [];
  const checked = [];
  const compare = (what, mine, played) => {
    checked.push(what);
    if (JSON.stringify(mine) !== JSON.stringify(played)) mismatches.push({ what, mine, played });
  };
  if (first) {
    compare("dealer", n.dealer, first.dealer);
    if (first.indicator !== undefined) compare("indicator", n.indicator, first.indicator);
    if (first.dice !== undefined && n.dice) compare("dice", n.dice, first.dice);
    first.players.forEach((p, k) => {
      compare(`hand ${k}`, n.hands[k], p.hand);
      compare(`flowers ${k}`, n.flowers[k], p.flowers || "");
    });
    if (typeof first.wall === "string") compare("wall", fmt(d.wall), first.wall);
  }
  out.deal = { ok: mismatches.length === 0 && checked.length > 0, checked, mismatches };
  if (frames) out.draws = checkDraws(n.live, frames);
  return out;
}
