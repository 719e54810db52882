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
// Past `spillAfter` exact keys in memory (default 2^20: a 1M-row run never spills) they are merged with the
// keys spilled before into one sorted run in a temporary file (seen-run.ts: unlinked as soon as it is
// opened, closed by close()), and memory's exact-key tables are emptied (a large WordSet keeps its slots for
// the next 2^20), so memory no longer grows with the exact keys: at most 2^20 of them in the tables (~3.7-3.9
// MiB) and the run's index (8 bytes per 128 keys). A kept set whose upper word is not met again (a file sorted
// by prefix that turns to another one at a spill) holds its slots until the next spill drops it: the tables
// then hold up to twice that. The run is ordered by (upper word, mix of the lower word):
// a WordSet hands its words over a table at a time in that order, so a spill holds no copy of them (it held
// their lower words, 4 MiB at 2^20 keys, beside the tables: a 5M push's main heap rose 3-4 MiB at each spill).
// Measured at 5M ids (bench/seen-ids.js; the benchmark's ids / sequential ids / numbers): 0.71 / 0.57 /
// 0.65 bytes an id held at the end, 0.73 / 0.61 / 0.66 at most (2.77 / 2.58 / 2.73 all kept in memory). A key
// new to memory past a spill is looked up in the run: a binary search of the index, one pread of a 1 KiB
// block (none when the key is outside the run's range or in the block read last) and a search of the block,
// ~1.2 us of CPU, most of it the pread: an add costs 1.47 us at 5M of the benchmark's ids and 1.46 of the
// numbers (0.33 and 0.32 kept). A key above or below every key met so far is new without a look (the next of
// sequential ids): 0.25 us (0.32 kept). A spill holds 1 MiB of blocks and a table's keys (~16 KiB) while it
// merges, and rewrites the run whole (8 bytes a key on disk; at 5M ids four spills, ~0.5 s in all).
// Ids with no exact key (the arena's) stay in memory at the cost above. When the file cannot be made or
// written, the keys stay in memory from then on: exact still, unbounded as before.
import { tmpdir } from 'node:os';
import { detached } from '../detached.js';
import { grownCapacity, placedAgain } from './grown-slots.js';
import { IdsArena } from './ids-arena.js';
import { FreshKeys, KeyPairs, SpilledRun } from './seen-run.js';
import { mixWord, WordSet } from './word-set.js';

/** The id's table hash (32 bits); a parameter so tests can make every id collide. */
export type IdHash = (id: string) => number;

export interface SeenIdsOptions {
  hash?: IdHash;
  /** Exact keys held in memory before they are spilled to disk (default 2^20: a 1M-row run never spills). */
  spillAfter?: number;
  /** The folder of the spilled run's temporary file (default the OS's temporary folder). */
  spillDir?: string;
}

const shardBits = 8;
const maxLoad = 0.8;
const firstSlots = 16;
/** Prefixes the dictionary takes; ids with a prefix past them go to the arena. */
const maxPrefixes = 1023;
const maxPrefixLength = 32;
/** Upper words that get a WordSet of their own (16 KiB of spills when new); keys past them take 8-byte slots. */
const maxWordSets = 64;
/** Words in a WordSet at a spill for it to be emptied and kept: its slots then outweigh a new set's 16 KiB. */
const keptWordSet = 1 << 14;

export class SeenIds {
  #keys = keyTables();
  /** Slots of arena ids: the hash (0 taken as 1: 0 marks an empty slot) and the arena position + 1. */
  readonly #hashed = Array.from({ length: 1 << shardBits }, () => new SlotTable((hash) => hash));
  /** Lower words of the exact keys, by upper word (the first `maxWordSets` upper words met). */
  #words = new Map<number, WordSet>();
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
  /** Exact keys in #keys and #words; past #spillAfter they go to #run (Infinity once a spill failed). */
  #exactKeys = 0;
  /** The range of the exact keys met so far (upper word, lower word): none yet, most below least. */
  #mostHigh = 0;
  #mostLow = 0;
  #leastHigh = 2 ** 32;
  #leastLow = 0;
  #spillAfter: number;
  readonly #spillDir: string | undefined;
  /** The exact keys spilled so far, none of them also in memory. */
  #run: SpilledRun | undefined;

  constructor(options: SeenIdsOptions = {}) {
    this.#hash = options.hash ?? hashId;
    this.#spillAfter = options.spillAfter ?? 1 << 20;
    this.#spillDir = options.spillDir;
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

  /** Bytes held in memory (slots, arena, the spilled run's index), for the bound in tests and the benchmark. */
  get bytes(): number {
    let slots = 0;
    for (const table of this.#keys) slots += table.capacity;
    for (const table of this.#hashed) slots += table.capacity;
    let words = 0;
    for (const set of this.#words.values()) words += set.bytes;
    return slots * 8 + words + this.#arena.bytes + (this.#run?.bytes ?? 0);
  }

  /**
   * Closes the spilled run's file, once the run's last id is checked; again is a no-op. Keys added after it
   * stay in memory; an add that needs the closed run throws.
   */
  close(): void {
    this.#run?.close();
    this.#spillAfter = Number.POSITIVE_INFINITY;
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
    // Past a spill a key new in memory may still be on disk: it is then a repeat, and is not held again. One
    // past every key so far (the next of sequential ids) is neither: the run is ordered by mixes (seen-run.ts),
    // so its own range cannot tell.
    const beyond = this.#widens(high, low);
    if (this.#run !== undefined && !beyond && (this.#holds(high, low) || this.#run.has(high, mixWord(low))))
      return false;
    if (!this.#addExact(high, low)) return false;
    if (++this.#exactKeys >= this.#spillAfter) this.#spill();
    return true;
  }

  /** Whether (high, low) is above or below every exact key met so far; the range is widened to take it. */
  #widens(high: number, low: number): boolean {
    let beyond = false;
    if (high > this.#mostHigh || (high === this.#mostHigh && low > this.#mostLow)) {
      this.#mostHigh = high;
      this.#mostLow = low;
      beyond = true;
    }
    if (high < this.#leastHigh || (high === this.#leastHigh && low < this.#leastLow)) {
      this.#leastHigh = high;
      this.#leastLow = low;
      beyond = true;
    }
    return beyond;
  }

  /** Adds the exact key in memory; false when it was there. */
  #addExact(high: number, low: number): boolean {
    const words = this.#wordsOf(high);
    if (words !== undefined) return words.add(low);
    const hash = keyHash(high, low);
    return this.#keys[hash >>> (32 - shardBits)]!.insert(hash, high, low);
  }

  /** Whether memory holds the exact key. */
  #holds(high: number, low: number): boolean {
    const words = this.#wordsOf(high);
    if (words !== undefined) return words.has(low);
    const hash = keyHash(high, low);
    return this.#keys[hash >>> (32 - shardBits)]!.has(hash, high, low);
  }

  /**
   * The exact keys in memory merged with the run on disk into a new run, and memory's tables emptied (a large
   * WordSet kept, its slots reused); when the file cannot be made or written, the keys stay in memory, as they
   * all do from then on.
   */
  #spill(): void {
    let run: SpilledRun;
    try {
      run = SpilledRun.merged(this.#run, this.#heldKeys(), this.#spillDir ?? tmpdir());
    } catch {
      this.#spillAfter = Number.POSITIVE_INFINITY;
      return;
    }
    this.#run?.close();
    this.#run = run;
    this.#keys = keyTables();
    // A large set is emptied, not made anew: a new one grew beside the old one's slots (4 MiB at 2^20 words)
    // until a major collection freed them. A small one goes: its 16 KiB would be held for an upper word maybe
    // never met again.
    for (const [high, set] of this.#words) {
      if (set.size < keptWordSet) this.#words.delete(high);
      else set.clear();
    }
    this.#lastHigh = 0;
    this.#lastWords = undefined;
    this.#exactKeys = 0;
  }

  /**
   * The exact keys in memory as the run holds them, (upper word, mix of the lower word), in groups by upper word
   * (a WordSet's mixes, or the tables' keys).
   */
  #heldKeys(): FreshKeys {
    const keys = new FreshKeys();
    for (const [high, set] of this.#words) keys.addGroup(high, set.mixes(), set.size);
    const pairs = new KeyPairs(this.#exactKeys - keys.count);
    for (const table of this.#keys) table.pairsTo(pairs);
    keys.addPairs(pairs);
    return keys;
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

/** The exact keys' tables, empty. */
function keyTables(): SlotTable[] {
  return Array.from({ length: 1 << shardBits }, () => new SlotTable(keyHash));
}

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

  /** Whether a slot on the probe run from `hash` holds (first, second). */
  has(hash: number, first: number, second: number): boolean {
    const slots = this.#slots;
    const capacity = this.#capacity;
    let i = home(hash, capacity);
    for (let at = i * 2; slots[at] !== 0; at = i * 2) {
      if (slots[at] === first && slots[at + 1] === second) return true;
      if (++i === capacity) i = 0;
    }
    return false;
  }

  /** Pushes every slot's two words to `keys`, the first as the high one, the second as its mix (seen-run.ts). */
  pairsTo(keys: KeyPairs): void {
    const slots = this.#slots;
    for (let at = 0; at < slots.length; at += 2)
      if (slots[at] !== 0) keys.push(slots[at]!, mixWord(slots[at + 1]!));
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
