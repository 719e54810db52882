// A set of 32-bit words at ~2.6-3.8 bytes a word, for SeenIds: the exact keys sharing their upper 32 bits
// (one prefix, one digit count: most of a file's ids) keep only their lower word here (issue 23).
// Exact by quotienting, not by fingerprints: a word is kept as its mix h = mixWord(word), a bijection on 32
// bits, cut into h's top 8 bits (which of 256 tables), its next 8 (which of the table's 256 buckets) and its
// low 16, the remainder, which alone is stored in a bucket's 16-bit slot. Table and bucket are where a
// remainder sits, so two words meet in one slot's value only when their h, hence the words, are equal.
// 0 marks an empty slot, so a remainder of 0 (one word in 65,536), and any word meeting a full bucket, goes
// to the table's spill: open addressing over h's low 24 bits whole (bucket and remainder, no loss either).
// A bucket is `width` slots of the table's one Uint16Array, filled from its start; a table widens its
// buckets (by a slot and an 8th) once its spill holds more than a 16th of its words: a copy of 1/256 of the
// set, never one big regrowth (steps of one slot widened so often they cost 1.3x the CPU per add at 5M ids).
// A table's first 48 words take no buckets at all: a new set holds 16 KiB of spills.
// `has` asks without adding, `mixes` gives every word's mix back in ascending order and `clear` empties the set
// keeping its slots, for SeenIds' spill to disk.
// Measured (bench/seen-ids.js: bytes of slots and spills, 5M ids at 2.6-2.8 bytes each): seen-ids.ts.

const tableBits = 8;
/** Buckets per table: 2^bucketBits; 16 bits left for the remainder, the most a Uint16Array slot holds. */
const bucketBits = 8;
const remainderBits = 32 - tableBits - bucketBits;
const remainderMask = (1 << remainderBits) - 1;
/** The words a table takes in its spill alone before it has buckets. */
const firstSpill = 48;
/** Widen once the spill holds more than this share of a table's words (a spilled word costs 4-8 bytes). */
const maxSpillShare = 1 / 16;
/** A widening adds a slot per bucket and a 2^widthStepShift th of the width: wide tables widen less often. */
const widthStepShift = 3;

export class WordSet {
  readonly #tables = Array.from({ length: 1 << tableBits }, () => new BucketTable());

  /** Adds the word (0 to 2^32 - 1); false when it was there. */
  add(word: number): boolean {
    const hash = mixWord(word);
    return this.#tables[hash >>> (32 - tableBits)]!.add(hash & 0xff_ffff);
  }

  /** Whether the word is there (nothing added). */
  has(word: number): boolean {
    const hash = mixWord(word);
    return this.#tables[hash >>> (32 - tableBits)]!.has(hash & 0xff_ffff);
  }

  /**
   * The mixes of the words held, ascending, one at a time (SeenIds' spill to disk): table by table, each table's
   * keys sorted in one scratch array the size of the largest table (~16 KiB at 1M words), so the spill never
   * holds a copy of the whole set (4 bytes a word: 4 MiB at its 2^20 words, Session 35).
   */
  mixes(): WordCursor {
    return new MixCursor(this.#tables);
  }

  /** Empties the set and keeps its tables' slots, for as many words again (SeenIds after a spill). */
  clear(): void {
    for (const table of this.#tables) table.clear();
  }

  get size(): number {
    let size = 0;
    for (const table of this.#tables) size += table.size;
    return size;
  }

  /** Bytes of slots and spills. */
  get bytes(): number {
    let bytes = 0;
    for (const table of this.#tables) bytes += table.bytes;
    return bytes;
  }
}

const noSlots = new Uint16Array(0);

/** One table: its buckets' remainders, and the spill for what does not fit them. */
class BucketTable {
  #slots = noSlots;
  /** Slots per bucket (0: no buckets yet, every word is spilled). */
  #width = 0;
  #size = 0;
  #spill = new Spill(12);

  get bytes(): number {
    return this.#slots.length * 2 + this.#spill.bytes;
  }

  get size(): number {
    return this.#size;
  }

  /** No key held; the buckets keep their width. */
  clear(): void {
    this.#slots.fill(0);
    this.#size = 0;
    this.#spill = new Spill(12);
  }

  /** Adds `key` (the mix's low 24 bits: bucket and remainder); false when it was there. */
  add(key: number): boolean {
    const remainder = key & remainderMask;
    const at = this.#find(key, remainder);
    if (at >= 0) {
      if (this.#slots[at] === remainder) return false;
      this.#slots[at] = remainder;
      this.#size++;
      return true;
    }
    // Only a remainder of 0 or a full bucket gets here, and a spilled key's bucket stays full.
    if (!this.#spill.add(key)) return false;
    this.#size++;
    if (this.#spill.size > Math.max(firstSpill, this.#size * maxSpillShare)) this.#widen();
    return true;
  }

  /** Whether `key` is there: in its bucket, or else in the spill (where add would have put it). */
  has(key: number): boolean {
    const remainder = key & remainderMask;
    const at = this.#find(key, remainder);
    return at >= 0 ? this.#slots[at] === remainder : this.#spill.has(key);
  }

  /** Puts the mix of every word held at `keys[at]` on (`top`: the table's bits); returns where it stopped. */
  copyKeys(keys: Uint32Array, at: number, top: number): number {
    const slots = this.#slots;
    const width = this.#width;
    for (let slot = 0; slot < slots.length; slot++) {
      const remainder = slots[slot]!;
      if (remainder !== 0) keys[at++] = (top | (Math.floor(slot / width) << remainderBits) | remainder) >>> 0;
    }
    for (const key of this.#spill.keys()) keys[at++] = (top | key) >>> 0;
    return at;
  }

  /**
   * The slot of the key's bucket holding `remainder`, or else its first empty slot (buckets fill from their
   * start, so the remainder is never past it); -1 when the bucket is full, the remainder 0 or no buckets yet.
   */
  #find(key: number, remainder: number): number {
    const width = this.#width;
    if (remainder === 0 || width === 0) return -1;
    const slots = this.#slots;
    const end = ((key >>> remainderBits) + 1) * width;
    for (let at = end - width; at < end; at++) {
      const held = slots[at]!;
      if (held === remainder || held === 0) return at;
    }
    return -1;
  }

  /** Buckets wide enough for the words held and some ahead; what still does not fit stays spilled. */
  #widen(): void {
    const old = this.#slots;
    const oldWidth = this.#width;
    const width = oldWidth + 1 + (oldWidth >>> widthStepShift);
    const slots = new Uint16Array(width << bucketBits);
    // Slot by slot: a subarray per bucket was 256 views a widening, 5 % of a push's allocation (Session 31).
    for (let bucket = 0, from = 0, to = 0; bucket < 1 << bucketBits; bucket++, to += width - oldWidth)
      for (const end = from + oldWidth; from < end; ) slots[to++] = old[from++]!;
    const spilled = this.#spill.keys();
    this.#slots = slots;
    this.#width = width;
    this.#spill = new Spill(spilled.length);
    for (const key of spilled) this.#place(key);
  }

  /** Puts a key known to be absent into its bucket, or the spill when it has no room there. */
  #place(key: number): void {
    const remainder = key & remainderMask;
    const at = this.#find(key, remainder);
    if (at >= 0) this.#slots[at] = remainder;
    else this.#spill.add(key);
  }
}

/** Ascending 32-bit words, one at a time: `word` is the current one until `done`. */
export interface WordCursor {
  done: boolean;
  word: number;
  next(): void;
}

/** WordSet.mixes: a table's keys all share their top 8 bits (the table's number), so table order is mix order. */
class MixCursor implements WordCursor {
  readonly #tables: readonly BucketTable[];
  readonly #keys: Uint32Array;
  #table = -1;
  #count = 0;
  #at = 0;
  done = false;
  word = 0;

  constructor(tables: readonly BucketTable[]) {
    this.#tables = tables;
    this.#keys = new Uint32Array(Math.max(0, ...tables.map((table) => table.size)));
    this.next();
  }

  next(): void {
    if (this.done) return;
    while (++this.#at >= this.#count) {
      if (++this.#table === this.#tables.length) {
        this.done = true;
        return;
      }
      this.#count = this.#tables[this.#table]!.copyKeys(this.#keys, 0, this.#table << 24);
      this.#keys.subarray(0, this.#count).sort();
      this.#at = -1;
    }
    this.word = this.#keys[this.#at]!;
  }
}

/** Open addressing over 24-bit keys, stored with bit 24 set (0 marks an empty slot); doubles at 3/4 full. */
class Spill {
  #slots: Uint32Array;
  #shift: number;
  size = 0;

  /** Room for `count` keys without doubling. */
  constructor(count: number) {
    let capacity = 16;
    while (capacity * 0.75 < count) capacity *= 2;
    this.#slots = new Uint32Array(capacity);
    this.#shift = 32 - Math.log2(capacity);
  }

  get bytes(): number {
    return this.#slots.length * 4;
  }

  add(key: number): boolean {
    const stored = key | 0x100_0000;
    const at = this.#probe(stored);
    if (this.#slots[at] === stored) return false;
    this.#slots[at] = stored;
    if (++this.size > this.#slots.length * 0.75) this.#double();
    return true;
  }

  has(key: number): boolean {
    const stored = key | 0x100_0000;
    return this.#slots[this.#probe(stored)] === stored;
  }

  keys(): number[] {
    const keys: number[] = [];
    for (const stored of this.#slots) if (stored !== 0) keys.push(stored & 0xff_ffff);
    return keys;
  }

  /** The slot holding `stored`, or the empty slot that ends its probe. */
  #probe(stored: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    // The key's low bits are the remainder, often 0 here: spread by a multiply, homed by its top bits.
    let i = Math.imul(stored & 0xff_ffff, 0x9e3779b1) >>> this.#shift;
    for (let held = slots[i]!; held !== 0 && held !== stored; held = slots[i]!) i = (i + 1) & mask;
    return i;
  }

  #double(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    this.#shift--;
    for (const stored of old) if (stored !== 0) this.#slots[this.#probe(stored)] = stored;
  }
}

/**
 * The word whose mix is `hash`: mixWord's steps undone in reverse (each is a bijection on 32 bits). The tests build
 * words that land in a chosen table, bucket and slot with it.
 */
export function unmixWord(hash: number): number {
  let h = hash >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7ed1b41d);
  h ^= (h >>> 13) ^ (h >>> 26);
  h = Math.imul(h, 0xa5cb9243);
  h ^= h >>> 16;
  return h >>> 0;
}

/** murmur3's 32-bit finaliser: a bijection, so distinct words have distinct mixes, spread over the tables. */
export function mixWord(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
