// The exact keys SeenIds spilled to disk (seen-ids.ts): one run of 64-bit keys (high word, then the mix of the
// low word: see below) sorted, in a temporary file opened and unlinked at once (nothing is left behind, even after
// a SIGKILL; the space is freed when the descriptor closes). Each spill merges the keys held in memory with the run
// on disk into one new run in a new file, reading the old run and writing the new one 512 KiB at a time, so there
// is never more than one run to look in; the old file is closed once the new one is whole.
// In memory: the first key of each 1 KiB block of the run (8 bytes per 128 keys: 312 KB at 5M keys), its
// last key and one block's buffer. A look-up is a binary search of those first keys, at most one pread of a
// block (none when the key is outside the run's range or in the block read last), a binary search of it.
// Keys are compared as (high, low) pairs of words: no hash, so no false duplicate and no missed one. SeenIds
// gives a key's low word as its mix (word-set.ts mixWord, a bijection: as exact), the order a WordSet hands its
// words back in without copying them all first.
// The keys gathered from memory come as groups of lower words under one upper word, each ascending: a
// WordSet's, read a table at a time (WordSet.mixes), and the few keys of the 8-byte tables (many upper words),
// sorted as a BigUint64Array view of native 64-bit words, the layout the run is written in too (it is this
// process's).
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { WordCursor } from './word-set.js';

/** Which 32-bit word of a native 64-bit key holds its low and its high word. */
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const lowAt = littleEndian ? 0 : 1;
const highAt = 1 - lowAt;
const keyBytes = 8;
/** Keys per block: a look-up reads one block (1 KiB: a pread of 4 KiB cost 1.6 us of CPU, of 1 KiB 1.15). */
const blockKeys = 128;
/** Keys per read of the old run and per write of the new one in a merge (512 KiB each). */
const chunkKeys = 1 << 16;

/**
 * The keys gathered from memory for a spill, in key order: groups of lower words, each under one upper word and
 * ascending; a cursor over them for the merge.
 */
export class FreshKeys {
  #highs: number[] = [];
  #groups: WordCursor[] = [];
  count = 0;
  /** The cursor: its group, and the key there (done: past the last). */
  #group = 0;
  high = 0;
  low = 0;
  done = true;

  /** Takes the `count` lower words of one upper word met nowhere else, ascending. */
  addGroup(high: number, lows: WordCursor, count: number): void {
    if (count === 0) return;
    this.#highs.push(high);
    this.#groups.push(lows);
    this.count += count;
  }

  /**
   * Takes keys under many upper words, none of them met elsewhere: one native sort of their 64-bit view (no
   * BigInt per key), then a group per upper word.
   */
  addPairs({ words: pairs, count }: KeyPairs): void {
    new BigUint64Array(pairs.buffer, 0, count).sort();
    const lows = new Uint32Array(count);
    let from = 0;
    for (let at = 0; at < count; at++) {
      lows[at] = pairs[at * 2 + lowAt]!;
      const high = pairs[at * 2 + highAt]!;
      if (at + 1 === count || pairs[at * 2 + 2 + highAt] !== high) {
        this.addGroup(high, new ArrayCursor(lows.subarray(from, at + 1)), at + 1 - from);
        from = at + 1;
      }
    }
  }

  /** Orders the groups by upper word and puts the cursor on the first key. */
  start(): void {
    const order = this.#highs.map((_, i) => i).sort((a, b) => this.#highs[a]! - this.#highs[b]!);
    this.#highs = order.map((i) => this.#highs[i]!);
    this.#groups = order.map((i) => this.#groups[i]!);
    this.#group = 0;
    this.done = false;
    this.#settle();
  }

  /** Whether the cursor's key comes before (high, low). */
  before(high: number, low: number): boolean {
    return !this.done && (this.high < high || (this.high === high && this.low < low));
  }

  next(): void {
    this.#groups[this.#group]!.next();
    this.#settle();
  }

  /** The key under the cursor: the current group's word, or the next group's first once it is done. */
  #settle(): void {
    while (this.#groups[this.#group]?.done) this.#group++;
    if (this.#group === this.#groups.length) {
      this.done = true;
      return;
    }
    this.high = this.#highs[this.#group]!;
    this.low = this.#groups[this.#group]!.word;
  }
}

/** The words of an ascending array, as a WordCursor. */
class ArrayCursor implements WordCursor {
  readonly #words: Uint32Array;
  #at = 0;
  done: boolean;
  word: number;

  constructor(words: Uint32Array) {
    this.#words = words;
    this.done = words.length === 0;
    this.word = words[0] ?? 0;
  }

  next(): void {
    if (++this.#at >= this.#words.length) this.done = true;
    else this.word = this.#words[this.#at]!;
  }
}

/** Keys as pairs of words laid out as native 64-bit keys (the high word above), for FreshKeys.addPairs. */
export class KeyPairs {
  readonly words: Uint32Array<ArrayBuffer>;
  count = 0;

  constructor(capacity: number) {
    this.words = new Uint32Array(capacity * 2);
  }

  push(high: number, low: number): void {
    this.words[this.count * 2 + highAt] = high;
    this.words[this.count * 2 + lowAt] = low;
    this.count++;
  }
}

export class SpilledRun {
  readonly #fd: number;
  readonly #count: number;
  /** The first key of each block, and the run's last key. */
  readonly #firsts: Uint32Array;
  readonly #last: Uint32Array;
  readonly #block = new Uint32Array(blockKeys * 2);
  readonly #blockBytes = new Uint8Array(this.#block.buffer);
  /** The block in #block (-1: none yet). */
  #blockRead = -1;
  #closed = false;

  private constructor(fd: number, count: number, writer: RunWriter) {
    this.#fd = fd;
    this.#count = count;
    this.#firsts = writer.firsts;
    this.#last = writer.last;
  }

  /**
   * `fresh`'s keys (none of them in `old`) and `old`'s as one new run, in a new temporary file in `dir`.
   * Throws when the file cannot be made or written; `old` stays as it was then (its caller closes it).
   */
  static merged(old: SpilledRun | undefined, fresh: FreshKeys, dir: string): SpilledRun {
    const fd = openUnlinked(dir);
    try {
      const writer = new RunWriter(fd, (old ? old.#count : 0) + fresh.count);
      fresh.start();
      if (old) old.#mergeInto(writer, fresh);
      for (; !fresh.done; fresh.next()) writer.put(fresh.high, fresh.low);
      return new SpilledRun(fd, writer.finish(), writer);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Bytes held in memory: the blocks' first keys and the block buffer. */
  get bytes(): number {
    return this.#firsts.byteLength + this.#last.byteLength + this.#block.byteLength;
  }

  /** Whether the key is in the run. */
  has(high: number, low: number): boolean {
    if (this.#closed) throw new Error('SeenIds: a duplicate check after close()');
    const block = this.#blockOf(high, low);
    if (block < 0) return false;
    const keys = this.#read(block);
    let from = 0;
    let to = keys - 1;
    while (from <= to) {
      const mid = (from + to) >>> 1;
      const order = compareAt(this.#block, mid, high, low);
      if (order === 0) return true;
      if (order < 0) from = mid + 1;
      else to = mid - 1;
    }
    return false;
  }

  /** Closes the file (its space is freed then); again is a no-op. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  /** The block the key would be in, or -1 when it is below the run's first key or above its last. */
  #blockOf(high: number, low: number): number {
    const firsts = this.#firsts;
    if (compareAt(firsts, 0, high, low) > 0 || compareAt(this.#last, 0, high, low) < 0) return -1;
    // The last block whose first key is not above the key.
    let from = 0;
    let to = firsts.length / 2 - 1;
    while (from < to) {
      const mid = (from + to + 1) >>> 1;
      if (compareAt(firsts, mid, high, low) <= 0) from = mid;
      else to = mid - 1;
    }
    return from;
  }

  /** Reads the block into #block (unless it is there); the number of keys it holds. */
  #read(block: number): number {
    const keys = Math.min(blockKeys, this.#count - block * blockKeys);
    if (block !== this.#blockRead) {
      this.#blockRead = -1;
      readFully(this.#fd, this.#blockBytes, keys * keyBytes, block * blockKeys * keyBytes);
      this.#blockRead = block;
    }
    return keys;
  }

  /** Writes this run's keys and `fresh`'s before each, reading the run a chunk at a time; the rest of `fresh` is left. */
  #mergeInto(writer: RunWriter, fresh: FreshKeys): void {
    const chunk = new Uint32Array(chunkKeys * 2);
    const chunkBytes = new Uint8Array(chunk.buffer);
    for (let start = 0; start < this.#count; start += chunkKeys) {
      const keys = Math.min(chunkKeys, this.#count - start);
      readFully(this.#fd, chunkBytes, keys * keyBytes, start * keyBytes);
      for (let at = 0; at < keys; at++) {
        const high = chunk[at * 2 + highAt]!;
        const low = chunk[at * 2 + lowAt]!;
        for (; fresh.before(high, low); fresh.next()) writer.put(fresh.high, fresh.low);
        writer.put(high, low);
      }
    }
  }
}

/** Writes a run's keys in order, a chunk at a time, noting the first key of each block. */
class RunWriter {
  readonly firsts: Uint32Array;
  /** The last key put. */
  readonly last = new Uint32Array(2);
  readonly #fd: number;
  readonly #chunk = new Uint32Array(chunkKeys * 2);
  readonly #chunkBytes = new Uint8Array(this.#chunk.buffer);
  /** Keys in #chunk, and keys written before it. */
  #held = 0;
  #written = 0;

  constructor(fd: number, count: number) {
    this.#fd = fd;
    this.firsts = new Uint32Array(Math.ceil(count / blockKeys) * 2);
  }

  put(high: number, low: number): void {
    const at = this.#held;
    this.#chunk[at * 2 + highAt] = high;
    this.#chunk[at * 2 + lowAt] = low;
    this.last[highAt] = high;
    this.last[lowAt] = low;
    const key = this.#written + at;
    if (key % blockKeys === 0) {
      this.firsts[(key / blockKeys) * 2 + highAt] = high;
      this.firsts[(key / blockKeys) * 2 + lowAt] = low;
    }
    if (++this.#held === chunkKeys) this.#flush();
  }

  /** Writes what is held; the number of keys written in all. */
  finish(): number {
    this.#flush();
    return this.#written;
  }

  #flush(): void {
    let done = 0;
    const bytes = this.#held * keyBytes;
    while (done < bytes) done += writeSync(this.#fd, this.#chunkBytes, done, bytes - done);
    this.#written += this.#held;
    this.#held = 0;
  }
}

/** The order of `words`' key `at` against (high, low): negative below, 0 equal, positive above. */
function compareAt(words: Uint32Array, at: number, high: number, low: number): number {
  const held = words[at * 2 + highAt]!;
  if (held !== high) return held < high ? -1 : 1;
  const heldLow = words[at * 2 + lowAt]!;
  return heldLow === low ? 0 : heldLow < low ? -1 : 1;
}

/** A new file in `dir` for this process alone, opened for reading and writing and unlinked at once. */
function openUnlinked(dir: string): number {
  const path = join(dir, `revimport-seen-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(path, 'wx+', 0o600);
  try {
    unlinkSync(path);
  } catch (error) {
    // Where an open file cannot be unlinked (Windows), it is removed once closed: none is left behind.
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  return fd;
}

/** Reads `length` bytes at `position` into `bytes`; a short read (the file cut under us) throws. */
function readFully(fd: number, bytes: Uint8Array, length: number, position: number): void {
  let done = 0;
  while (done < length) {
    const read = readSync(fd, bytes, done, length - done, position + done);
    if (read === 0) throw new Error('SeenIds: the spilled run ended early');
    done += read;
  }
}
