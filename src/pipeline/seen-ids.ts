// The conversionIds seen on valid rows of this run, to flag later repeats as duplicates (issue 23: exact by
// design, a few bytes per distinct id, no doubling spike). A false "duplicate" is impossible, not improbable:
// - An id that is a prefix and a run of up to 15 digits ("ORD-0000012345", "1001", "#A-77") is kept as an
//   exact 64-bit key: the prefix's number in a dictionary of at most 1,023 (10 bits), the digit count (4
//   bits) and the digits' value (< 10^15 < 2^50). Distinct ids give distinct keys (prefix and digits are
//   split at the last non-digit, leading zeros live in the digit count), so keys are compared, not hashes.
// - Any other id is kept as its code units in an arena (ids-arena.ts: one byte each for Latin-1 ids); its
//   slot holds a 32-bit hash and the arena position, and a hash match is confirmed by comparing the units.
// Keys sharing their upper 32 bits (one prefix and digit count, as most files' ids do) keep only their lower
// word, in a WordSet of that upper word (word-set.ts; the first 64 upper words met): 16-bit slots holding
// what the word's place does not already say (its mix is a bijection: exact), 2.6-3.8 bytes per distinct id.
// Measured (bench/seen-ids.js, bytes of slots and spills per id at 1M / 5M ids; 4-byte slots held 5.2-6.0):
// the benchmark's ids (ORD- and 10 scrambled digits: three upper words) 3.75 / 2.77, sequential ids
// (ORD-0000000001...) 3.07 / 2.58, numbers of 6-9 scrambled digits 3.28 / 2.73. Other keys and the
// arena's ids take 8-byte slots (10-12.5 bytes an id; an arena id adds its length + 4: a UUID ~55 in all).
// Every table is one of 256 picked by hash and grows by a small step (a quarter; a WordSet's by a slot per
// bucket), so a regrowth copies a 256th of the whole (one table of 2^23 slots doubling at once peaked at
// 96 MiB for 5M ids before).
import { detached } from '../detached.js';
import { grownCapacity, placedAgain } from './grown-slots.js';
import { IdsArena } from './ids-arena.js';
import { mixWord, WordSet } from './word-set.js';

/** The id's table hash (32 bits); a parameter so tests can make every id collide. */
export type IdHash = (id: string) => number;

const shardBits = 8;
const maxLoad = 0.8;
const firstSlots = 16;
/** Prefixes the dictionary takes; ids with a prefix past them go to the arena. */
const maxPrefixes = 1023;
const maxPrefixLength = 32;
/** Upper words that get a WordSet of their own (16 KiB of spills when new); keys past them take 8-byte slots. */
const maxWordSets = 64;

export class SeenIds {
  readonly #keys = Array.from({ length: 1 << shardBits }, () => new SlotTable(keyHash));
  /** Slots of arena ids: the hash (0 taken as 1: 0 marks an empty slot) and the arena position + 1. */
  readonly #hashed = Array.from({ length: 1 << shardBits }, () => new SlotTable((hash) => hash));
  /** Lower words of the exact keys, by upper word (the first `maxWordSets` upper words met). */
  readonly #words = new Map<number, WordSet>();
  readonly #prefixes = new Map<string, number>();
  readonly #arena = new IdsArena();
  readonly #hash: IdHash;
  #size = 0;
  /** The upper word last met (0: none yet; no key's is 0) and its WordSet. */
  #lastHigh = 0;
  #lastWords: WordSet | undefined;
  /** The prefix last met and its number (0: none yet). */
  #lastPrefix = '';
  #lastNumber = 0;

  constructor(options: { hash?: IdHash } = {}) {
    this.#hash = options.hash ?? hashId;
  }

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    const added = this.#addKey(id) ?? this.#addHashed(id);
    if (added) this.#size++;
    return added;
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held (slots and arena), for the bound in tests and the benchmark. */
  get bytes(): number {
    let slots = 0;
    for (const table of this.#keys) slots += table.capacity;
    for (const table of this.#hashed) slots += table.capacity;
    let words = 0;
    for (const set of this.#words.values()) words += set.bytes;
    return slots * 8 + words + this.#arena.bytes;
  }

  /** As an exact key, or undefined when the id has no such key (the arena takes it then). */
  #addKey(id: string): boolean | undefined {
    let digits = 0;
    let value = 0;
    for (let at = id.length - 1; at >= 0 && digits <= 15; at--, digits++) {
      const digit = id.charCodeAt(at) - 48;
      if (digit < 0 || digit > 9) break;
      value += digit * powersOfTen[digits]!;
    }
    if (digits > 15) return undefined;
    const start = id.length - digits;
    const prefix = this.#prefix(id, start);
    if (prefix === undefined) return undefined;
    const low = value % 0x1_0000_0000;
    // prefix (1..1023) << 22 | digit count << 18 | the value's top 18 bits: never 0, the empty mark.
    const high = ((prefix << 22) | (digits << 18) | Math.floor(value / 0x1_0000_0000)) >>> 0;
    const words = this.#wordsOf(high);
    if (words !== undefined) return words.add(low);
    const hash = keyHash(high, low);
    return this.#keys[hash >>> (32 - shardBits)]!.insert(hash, high, low);
  }

  #addHashed(id: string): boolean {
    const hash = this.#hash(id) >>> 0 || 1;
    const arena = this.#arena;
    // The new id's bytes are only appended once no slot on its run holds the same bytes.
    return this.#hashed[hash >>> (32 - shardBits)]!.insert(
      hash,
      hash,
      (position) => arena.equals(position - 1, id),
      () => arena.append(id) + 1,
    );
  }

  /** The WordSet of an upper word, unless `maxWordSets` upper words have one already. */
  #wordsOf(high: number): WordSet | undefined {
    if (high === this.#lastHigh) return this.#lastWords;
    let words = this.#words.get(high);
    if (words === undefined && this.#words.size < maxWordSets) {
      words = new WordSet();
      this.#words.set(high, words);
    }
    this.#lastHigh = high;
    this.#lastWords = words;
    return words;
  }

  /** The number of `id`'s first `length` units as a prefix, or undefined past the dictionary's bounds. */
  #prefix(id: string, length: number): number | undefined {
    // Most files have one prefix: no slice, no map look-up for it.
    if (this.#lastNumber !== 0 && length === this.#lastPrefix.length && id.startsWith(this.#lastPrefix))
      return this.#lastNumber;
    if (length > maxPrefixLength) return undefined;
    const prefix = id.slice(0, length);
    let number = this.#prefixes.get(prefix);
    if (number === undefined) {
      if (this.#prefixes.size >= maxPrefixes) return undefined;
      number = this.#prefixes.size + 1;
      // A copy, not a slice of the row's text, which would keep its chunk alive.
      this.#prefixes.set(detached(prefix), number);
    }
    this.#lastPrefix = prefix;
    this.#lastNumber = number;
    return number;
  }
}

const powersOfTen = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Open addressing over pairs of 32-bit words; a first word of 0 marks an empty slot. */
class SlotTable {
  #slots = new Uint32Array(firstSlots * 2);
  #capacity = firstSlots;
  #size = 0;
  /** A slot's hash again from its two words, to place it when the table grows. */
  readonly #rehash: (first: number, second: number) => number;

  constructor(rehash: (first: number, second: number) => number) {
    this.#rehash = rehash;
  }

  get capacity(): number {
    return this.#capacity;
  }

  /**
   * Puts (first, second) on the probe run from `hash`, unless a slot there holds `first` and, for a number
   * `second`, that second word too, for a function, a second word it accepts; true when put. A function
   * `second` is called for the word to put only then.
   */
  insert(
    hash: number,
    first: number,
    second: number | ((held: number) => boolean),
    secondToPut?: () => number,
  ): boolean {
    const slots = this.#slots;
    const capacity = this.#capacity;
    let i = home(hash, capacity);
    for (let at = i * 2; slots[at] !== 0; at = i * 2) {
      if (
        slots[at] === first &&
        (typeof second === 'number' ? slots[at + 1] === second : second(slots[at + 1]!))
      )
        return false;
      if (++i === capacity) i = 0;
    }
    slots[i * 2] = first;
    slots[i * 2 + 1] = typeof second === 'number' ? second : secondToPut!();
    if (++this.#size > capacity * maxLoad) this.#grow();
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    const capacity = grownCapacity(this.#capacity);
    this.#slots = placedAgain(old, 2, 0, capacity, (at) =>
      home(this.#rehash(old[at]!, old[at + 1]!), capacity),
    );
    this.#capacity = capacity;
  }
}

/** An exact key's table hash. */
function keyHash(high: number, low: number): number {
  return mixWord(high ^ Math.imul(low, 0x9e3779b1));
}

/** The home slot of `hash` among `capacity` (its low bits: the top ones picked the table). */
function home(hash: number, capacity: number): number {
  return Math.floor((((hash << shardBits) >>> 0) * capacity) / 0x1_0000_0000);
}

/** FNV-1a over the UTF-16 units, finalised. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return mixWord(h ^ id.length);
}
