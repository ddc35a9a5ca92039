// The provably fair deal, re-implemented in the browser with Web Crypto.
//
// Small pure functions, no DOM: the hand page's verify panel and a Node test (against
// Python's deal for every variant) both import this module. It follows the byte layout
// of games/rules/rng.py and the deal of games/rules/engine.py (deal_wall, new_hand) and
// the variants' wall_tiles / break_wall / on_new_hand, documented in games/rules/README.md:
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

// ---- the variants' walls, as their wall_tiles / break_wall / on_new_hand say ----------

const range = (n) => Array.from({ length: n }, (_, i) => i);
const fourOf = (kinds) => range(kinds).flatMap((t) => [t, t, t, t]);
const SEASONS = [34, 35, 36, 37];
const PLANTS = [38, 39, 40, 41];
const TILES_PER_WALL = 36; // Ningbo: 18 stacks of two per seat

/** How each rule set builds and opens its wall. A rule set missing here is not checked. */
export const DEALS = {
  // 108 tiles: the three suits. After the deal, 换三张's direction is drawn (no tile moves).
  sichuan: {
    tiles: () => fourOf(27),
    after: async (deal, rules, stream) => {
      if (rules.huan_san_zhang) await stream.below(3);
    },
  },
  // 136 tiles; the 财神 indicator is the last tile of the wall after the deal.
  hangzhou: {
    tiles: () => fourOf(NUM_KINDS),
    after: async (deal) => {
      deal.indicator = deal.wall.pop();
    },
  },
  // 136 tiles; no break, no indicator.
  guangzhou: { tiles: () => fourOf(NUM_KINDS) },
  // 144 tiles: the 136 and one of each flower. Two dice break the wall: seat k's wall is
  // tiles 36k … 36k+35; the sum counts from the dealer to the wall the deal starts from,
  // the larger die is the stacks skipped there. The smaller die counts stacks from the end
  // for the indicator, wall[len − 2 × small]. Flowers are replaced from the back (补花),
  // except the wild ones (a flower indicator makes its set of four wild).
  ningbo: {
    tiles: () => [...fourOf(NUM_KINDS), ...range(8).map((i) => 34 + i)],
    break: async (wall, dealer, stream) => {
      const [d1, d2] = await stream.dice();
      const startWall = (dealer + d1 + d2 - 1) % 4;
      const start = startWall * TILES_PER_WALL + 2 * Math.max(d1, d2);
      wall.splice(0, wall.length, ...wall.slice(start), ...wall.slice(0, start));
      return { dice: [d1, d2] };
    },
    after: async (deal) => {
      const small = Math.min(...deal.dice);
      deal.indicator = deal.wall.splice(deal.wall.length - 2 * small, 1)[0];
    },
    bonus: (deal, t) => {
      if (t < NUM_KINDS) return false;
      const wildSet = [SEASONS, PLANTS].find((set) => set.includes(deal.indicator));
      return !(wildSet && wildSet.includes(t));
    },
  },
};

/**
 * The deal of a hand, from its seeds: what every seat held before the first action.
 * `matchDealer`: the dealer the match names (null: the dice choose, as for a first hand).
 * Returns {dealer, dice, shuffled, wall (live, after the deal), hands, flowers, indicator}
 * with tiles as indices; hands sorted, flowers sorted.
 */
export async function deal(variant, rules, seeds, matchDealer = null) {
  const how = DEALS[variant];
  if (!how) throw new Error(`no in-browser check for the rule set ${variant}`);
  const stream = new SeedStream(seeds.server_seed, seeds.client_seeds, seeds.hand_number);
  let dealer = matchDealer;
  let dealerDice = null;
  if (dealer === null || dealer === undefined) {
    dealerDice = await stream.dice();
    dealer = (dealerDice[0] + dealerDice[1] - 1) % 4;
  }
  const wall = how.tiles(rules || {});
  await stream.shuffle(wall);
  const shuffled = [...wall];
  const vs = how.break ? await how.break(wall, dealer, stream) : {};
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
  if (how.after) await how.after(out, rules || {}, stream);
  if (how.bonus) {
    // 补花 after the deal: from the dealer on, each bonus tile is laid out and replaced
    // from the back of the wall, until no hand holds one.
    let changed = true;
    while (changed && out.wall.length) {
      changed = false;
      for (let k = 0; k < 4; k++) {
        const seat = (dealer + k) % 4;
        const hand = out.hands[seat];
        for (const t of hand.filter((x) => how.bonus(out, x))) {
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
 * Check a hand record against its seeds. `seeds` defaults to the record's own (a reader
 * may paste another server seed). `first`: the view of the replay's first frame (every
 * hand face up, as dealt); `frames`: all of them, to check every draw too. Returns
 * {commitment: {ok, expected, computed}, deal: {ok, checked: [...], mismatches: [...]},
 * draws: {ok, draws, mismatch} (with frames), notation} or throws on malformed seeds.
 */
export async function verify(record, first, seeds = {}, frames = null) {
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
  const d = await deal(record.variant, record.rules, {
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
